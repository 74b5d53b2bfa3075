import {
  useEffect,
  useId,
  useRef,
  useState,
  type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react'
import { FieldErrorIcon } from '~/components/icons'

/**
 * Form fields of the one visual system. Every control has a visible label,
 * its hint and error tied to it with aria-describedby, and aria-invalid when
 * the server (or the browser) found a problem.
 */
interface FieldFrameProps {
  label: ReactNode
  hint?: ReactNode
  error?: string | null
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode
  className?: string
}

/**
 * A server (or browser) error is about the value that was sent: once the field
 * changes it is stale, so it is hidden until the form is submitted again (a
 * new answer, or the same error again, shows). Put `ref` on an element around
 * the control and `markStale` on its input and change events.
 */
export function useLiveError(error: string | null | undefined) {
  const [stale, setStale] = useState(false)
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => setStale(false), [error])
  useEffect(() => {
    const form = ref.current?.closest('form')
    if (!form) return
    const fresh = () => setStale(false)
    form.addEventListener('submit', fresh)
    return () => form.removeEventListener('submit', fresh)
  }, [])
  return { error: stale ? null : (error ?? null), ref, markStale: () => setStale(true) }
}

export function FieldFrame({ label, hint, error: sentError, children, className = '' }: FieldFrameProps) {
  const { error, ref, markStale } = useLiveError(sentError)
  const id = useId()
  const hintId = hint ? `${id}-hint` : undefined
  const errorId = error ? `${id}-error` : undefined
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined
  return (
    <div ref={ref} onInput={markStale} onChange={markStale} className={`flex flex-col gap-1.5 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium text-ink-800">
        {label}
      </label>
      {children({ id, describedBy, invalid: Boolean(error) })}
      {hint ? (
        <p id={hintId} className="text-caption">
          {hint}
        </p>
      ) : null}
      {error ? <FieldError id={errorId}>{error}</FieldError> : null}
    </div>
  )
}

export function FieldError({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <p id={id} className="flex items-start gap-1.5 text-sm font-medium text-red-700" role="alert">
      <FieldErrorIcon />
      <span>{children}</span>
    </p>
  )
}

const controlClass =
  'block w-full rounded-xl border-0 bg-white px-3.5 py-2.5 text-base text-ink-900 shadow-sm ring-1 ring-inset ring-ink-300 placeholder:text-ink-400 focus:ring-2 focus:ring-inset focus:ring-brand-600 aria-[invalid=true]:ring-red-500 disabled:bg-ink-100 disabled:text-ink-500'

/** A native file input in the visual system (the upload, sign-up and captions forms). */
export const fileInputClass =
  'block w-full cursor-pointer rounded-xl bg-white text-sm text-ink-700 ring-1 ring-inset ring-ink-300 file:mr-3 file:min-h-11 file:cursor-pointer file:border-0 file:bg-brand-50 file:px-4 file:font-semibold file:text-brand-700 hover:file:bg-brand-100 disabled:cursor-not-allowed disabled:opacity-60 aria-[invalid=true]:ring-red-500'

type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & { label: ReactNode; hint?: ReactNode; error?: string | null }

export function TextField({ label, hint, error, className, ...input }: TextFieldProps) {
  return (
    <FieldFrame label={label} hint={hint} error={error} className={className}>
      {({ id, describedBy, invalid }) => (
        <input id={id} aria-describedby={describedBy} aria-invalid={invalid || undefined} className={controlClass} {...input} />
      )}
    </FieldFrame>
  )
}

type TextAreaFieldProps = TextareaHTMLAttributes<HTMLTextAreaElement> & {
  label: ReactNode
  hint?: ReactNode
  error?: string | null
}

export function TextAreaField({ label, hint, error, className, ...textarea }: TextAreaFieldProps) {
  return (
    <FieldFrame label={label} hint={hint} error={error} className={className}>
      {({ id, describedBy, invalid }) => (
        <textarea
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          className={`${controlClass} min-h-24`}
          {...textarea}
        />
      )}
    </FieldFrame>
  )
}

type SelectFieldProps = SelectHTMLAttributes<HTMLSelectElement> & {
  label: ReactNode
  hint?: ReactNode
  error?: string | null
  options: readonly { value: string; label: string }[]
  placeholder?: string
}

export function SelectField({ label, hint, error, options, placeholder, className, ...select }: SelectFieldProps) {
  return (
    <FieldFrame label={label} hint={hint} error={error} className={className}>
      {({ id, describedBy, invalid }) => (
        <select id={id} aria-describedby={describedBy} aria-invalid={invalid || undefined} className={`${controlClass} pr-10`} {...select}>
          {placeholder ? <option value="">{placeholder}</option> : null}
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  )
}

type CheckboxProps = InputHTMLAttributes<HTMLInputElement> & { label: ReactNode }

export function Checkbox({ label, className = '', ...input }: CheckboxProps) {
  return (
    <label className={`flex min-h-11 cursor-pointer items-center gap-3 rounded-xl px-3 py-2 ring-1 ring-inset ring-ink-200 has-[:checked]:bg-brand-50 has-[:checked]:ring-brand-300 ${className}`}>
      <input type="checkbox" className="h-4 w-4 rounded border-ink-300 text-brand-600 focus:ring-brand-600" {...input} />
      <span className="text-sm text-ink-800">{label}</span>
    </label>
  )
}
