import { useNavigation } from '@remix-run/react'
import type { ButtonHTMLAttributes, ReactNode } from 'react'
import { Spinner } from './spinner'

/**
 * The primary submit button of a form: with JavaScript it shows progress
 * while its own form is being submitted; without it, it is a plain button.
 */
export function SubmitButton({
  children,
  pendingLabel,
  variant = 'primary',
  className = '',
  ...button
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  children: ReactNode
  pendingLabel?: string
  variant?: 'primary' | 'secondary'
}) {
  const navigation = useNavigation()
  const pending =
    navigation.state === 'submitting' &&
    (button.name === undefined || navigation.formData?.get(button.name) === button.value)
  return (
    <button
      type="submit"
      className={`${variant === 'primary' ? 'btn-primary' : 'btn-secondary'} ${className}`}
      aria-disabled={pending || undefined}
      {...button}
    >
      {pending ? <Spinner label={pendingLabel ?? 'Working'} className="h-4 w-4" /> : null}
      {pending && pendingLabel ? pendingLabel : children}
    </button>
  )
}
