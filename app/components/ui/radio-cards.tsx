import type { ReactNode } from 'react'
import { FieldError, useLiveError } from './field'

export interface RadioCardOption<Value extends string> {
  value: Value
  label: string
  hint?: string
}

/**
 * A choice of one among a few, as cards in a grid (the upload's destination and visibility, the quote's
 * type): a fieldset of plain radio inputs, so it posts without JavaScript. Pass `checked` and `onChoose`
 * to follow the choice as it changes, or `defaultChecked` alone. Its error clears once the choice is
 * fixed (the form's `FieldChecks`); `children` come after the cards (notes about the choice).
 */
export function RadioCards<Value extends string>({
  legend,
  name,
  options,
  checked,
  defaultChecked,
  onChoose,
  error,
  errorId,
  disabled,
  children,
}: {
  legend: string
  name: string
  options: readonly RadioCardOption<Value>[]
  checked?: Value
  defaultChecked?: Value
  onChoose?(value: Value): void
  error?: string | null
  /** The error message's id (unique on the page). */
  errorId: string
  disabled?: boolean
  children?: ReactNode
}) {
  const live = useLiveError<HTMLFieldSetElement>(error)
  return (
    <fieldset
      ref={live.ref}
      onChange={live.markStale}
      className="flex flex-col gap-2"
      disabled={disabled}
      aria-describedby={live.error ? errorId : undefined}
    >
      <legend className="mb-1.5 text-sm font-medium text-ink-800">{legend}</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {options.map((option) => (
          <label
            key={option.value}
            className="flex min-h-11 cursor-pointer items-start gap-3 rounded-xl px-3.5 py-3 ring-1 ring-inset ring-ink-200 has-[:checked]:bg-brand-50 has-[:checked]:ring-2 has-[:checked]:ring-inset has-[:checked]:ring-brand-500"
          >
            <input
              type="radio"
              name={name}
              value={option.value}
              {...(checked === undefined
                ? { defaultChecked: defaultChecked === option.value }
                : { checked: checked === option.value, onChange: () => onChoose?.(option.value) })}
              className="mt-0.5 h-4 w-4 border-ink-300 text-brand-600 focus:ring-brand-600"
            />
            {option.hint ? (
              <span>
                <span className="block text-sm font-medium text-ink-900">{option.label}</span>
                <span className="block text-sm text-ink-600">{option.hint}</span>
              </span>
            ) : (
              <span className="text-sm font-medium text-ink-900">{option.label}</span>
            )}
          </label>
        ))}
      </div>
      {children}
      {live.error ? <FieldError id={errorId}>{live.error}</FieldError> : null}
    </fieldset>
  )
}
