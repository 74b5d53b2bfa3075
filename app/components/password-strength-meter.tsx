import { useId, useState, type InputHTMLAttributes } from 'react'
import { FieldError, useLiveError } from '~/components/ui/field'
import { passwordStrength, type PasswordStrength } from '~/lib/password-strength'

const tones: Record<PasswordStrength['score'], { bar: string; text: string }> = {
  0: { bar: 'bg-red-500', text: 'text-red-700' },
  1: { bar: 'bg-red-500', text: 'text-red-700' },
  2: { bar: 'bg-orange-500', text: 'text-orange-700' },
  3: { bar: 'bg-spark-500', text: 'text-amber-800' },
  4: { bar: 'bg-emerald-500', text: 'text-emerald-700' },
  5: { bar: 'bg-emerald-600', text: 'text-emerald-800' },
}

const ADVICE = 'Use 8 or more characters with upper and lower case letters, a number and a symbol.'

/**
 * The spec's advisory password score (0–5) as five bars and its message.
 * It never blocks: it only says how strong the password is.
 */
export function PasswordStrengthMeter({ strength, id }: { strength: PasswordStrength | null; id?: string }) {
  const score = strength?.score ?? 0
  const tone = tones[score]
  const label = strength?.label ?? ''
  return (
    <div id={id} className="flex flex-col gap-1.5" data-testid="password-strength" data-score={score}>
      <div className="grid grid-cols-5 gap-1" aria-hidden="true">
        {[1, 2, 3, 4, 5].map((step) => (
          <span
            key={step}
            className={`h-1.5 rounded-full transition-colors ${label && step <= score ? tone.bar : 'bg-ink-200'}`}
          />
        ))}
      </div>
      {/* Announced as it changes, politely, so typing is not interrupted. */}
      <p aria-live="polite" className={`text-sm ${label ? `font-medium ${tone.text}` : 'text-ink-500'}`}>
        {label || ADVICE}
      </p>
    </div>
  )
}

type NewPasswordFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'defaultValue' | 'value'> & {
  label: string
  error?: string | null
  /** The strength of the last submitted password, computed by the server (never the password itself). */
  submittedStrength?: PasswordStrength | null
}

/**
 * A new-password input with the live strength meter under it. Without
 * JavaScript the meter shows what the server measured on the last attempt.
 */
export function NewPasswordField({ label, error: sentError, submittedStrength = null, onChange, ...input }: NewPasswordFieldProps) {
  const { error, ref, markStale } = useLiveError(sentError)
  const id = useId()
  const meterId = `${id}-strength`
  const errorId = error ? `${id}-error` : undefined
  const [typed, setTyped] = useState<PasswordStrength | null>(null)
  return (
    <div ref={ref} className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-ink-800">
        {label}
      </label>
      <input
        id={id}
        type="password"
        autoComplete="new-password"
        aria-describedby={[meterId, errorId].filter(Boolean).join(' ')}
        aria-invalid={error ? true : undefined}
        className="block w-full rounded-xl border-0 bg-white px-3.5 py-2.5 text-base text-ink-900 shadow-sm ring-1 ring-inset ring-ink-300 placeholder:text-ink-400 focus:ring-2 focus:ring-inset focus:ring-brand-600 aria-[invalid=true]:ring-red-500"
        onChange={(event) => {
          setTyped(passwordStrength(event.currentTarget.value))
          markStale(event)
          onChange?.(event)
        }}
        {...input}
      />
      <PasswordStrengthMeter id={meterId} strength={typed ?? submittedStrength} />
      {error ? <FieldError id={errorId}>{error}</FieldError> : null}
    </div>
  )
}
