import {
  createContext,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
  type InputHTMLAttributes,
  type RefObject,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react'
import type { ZodTypeAny } from 'zod'
import { FieldErrorIcon } from '~/components/icons'
import { Alert } from '~/components/ui/alert'

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
 * Checks one field of a form again, by its `name`, with the form's shared
 * schema: its message while the value is still wrong, null once it is right,
 * undefined when there is no check for that name here (the error is then just
 * cleared on change). A form puts its check around its fields with
 * `<FieldChecks check={…}>`; `checkWithSchema` makes one from a zod schema.
 * A field's error only ever changes after it was shown: no message appears
 * while someone types into a field that had none.
 */
export type FieldCheck = (name: string, form: HTMLFormElement) => string | null | undefined

const FieldCheckContext = createContext<FieldCheck | null>(null)

export function FieldChecks({ check, children }: { check: FieldCheck; children: ReactNode }) {
  return <FieldCheckContext.Provider value={check}>{children}</FieldCheckContext.Provider>
}

/**
 * A `FieldCheck` from the form's own schema: the whole form is read again (so
 * rules across fields still hold) and the first issue about `name` is its message.
 * `extra` adds checks the schema cannot make (a chosen file's type and size).
 */
export function checkWithSchema(
  schema: ZodTypeAny,
  valuesOf: (form: FormData) => unknown = textValues,
  extra: Record<string, (form: FormData) => string | null | undefined> = {},
): FieldCheck {
  return (name, element) => {
    const form = new FormData(element)
    const more = extra[name]?.(form)
    if (more) return more
    const parsed = schema.safeParse(valuesOf(form))
    if (parsed.success) return null
    const issue = parsed.error.issues.find((one) => one.path[0] === name)
    return issue ? issue.message : null
  }
}

/** A form's text fields by name (the first value of each), for a schema of strings. */
function textValues(form: FormData) {
  const values: Record<string, string> = {}
  for (const [name, value] of form) if (typeof value === 'string' && !(name in values)) values[name] = value
  return values
}

/** The `name` of the control an input or change event came from. */
function nameOf(event?: { target: EventTarget | null }) {
  const target = event?.target as { name?: unknown } | null | undefined
  return typeof target?.name === 'string' ? target.name : ''
}

/** The submit listener that brings back the sent errors: the form around `element`. */
function useOnSubmit(ref: RefObject<HTMLElement | null>, fresh: () => void) {
  const freshRef = useRef(fresh)
  freshRef.current = fresh
  useEffect(() => {
    const form = ref.current?.closest('form')
    if (!form) return
    const listener = () => freshRef.current()
    form.addEventListener('submit', listener)
    return () => form.removeEventListener('submit', listener)
  }, [ref])
}

/**
 * A server (or browser) error is about the value that was sent: once the field
 * changes it is checked again (`FieldChecks` around the form) — a value still
 * wrong keeps (or updates) its message, a right one clears it; with no check
 * the error is hidden on change. A new answer, or the same error again after
 * the next submit, shows. Put `ref` on an element around the control and
 * `markStale` on its input and change events.
 */
export function useLiveError<Element extends HTMLElement = HTMLDivElement>(
  error: string | null | undefined,
  /** The check of a one-field form, in place of the `FieldChecks` around it. */
  ownCheck?: FieldCheck,
) {
  const shared = useContext(FieldCheckContext)
  const check = ownCheck ?? shared
  // undefined: the error that was sent; a string or null: what the last check found.
  const [live, setLive] = useState<string | null | undefined>(undefined)
  const ref = useRef<Element>(null)
  useEffect(() => setLive(undefined), [error])
  useOnSubmit(ref, () => setLive(undefined))
  const shown = live === undefined ? (error ?? null) : live
  const markStale = (event?: { target: EventTarget | null }) => {
    if (!error) return
    const name = nameOf(event)
    const form = ref.current?.closest('form')
    const found = check && name && form ? check(name, form) : undefined
    setLive(found ?? null)
  }
  return { error: shown, ref, markStale }
}

/**
 * A form-level message about some fields ("Please check the 2 highlighted
 * fields."): it goes once every field it names has been changed to a right
 * value (by the form's `FieldChecks`; without one, once each was changed), and
 * comes back with the next submit. Put `ref` on an element inside the form.
 */
export function useLiveSummary(message: string | null | undefined, names: readonly string[]) {
  const check = useContext(FieldCheckContext)
  const [fixed, setFixed] = useState<ReadonlySet<string>>(new Set())
  const ref = useRef<HTMLDivElement>(null)
  const key = names.join(' ')
  useEffect(() => setFixed(new Set()), [message, key])
  useOnSubmit(ref, () => setFixed(new Set()))
  const namesRef = useRef(names)
  namesRef.current = names
  const checkRef = useRef(check)
  checkRef.current = check
  useEffect(() => {
    const form = ref.current?.closest('form')
    if (!form || !message) return
    const changed = (event: Event) => {
      const name = nameOf(event)
      if (!namesRef.current.includes(name)) return
      const found = checkRef.current?.(name, form)
      setFixed((before) => {
        const after = new Set(before)
        if (found) after.delete(name)
        else after.add(name)
        return after
      })
    }
    form.addEventListener('input', changed)
    form.addEventListener('change', changed)
    return () => {
      form.removeEventListener('input', changed)
      form.removeEventListener('change', changed)
    }
  }, [message])
  const allFixed = names.length > 0 && names.every((name) => fixed.has(name))
  return { message: allFixed ? null : (message ?? null), ref }
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
        <select
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          className={`${controlClass} pr-10`}
          {...select}
        >
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
    <label
      className={`flex min-h-11 cursor-pointer items-center gap-3 rounded-xl px-3 py-2 ring-1 ring-inset ring-ink-200 has-[:checked]:bg-brand-50 has-[:checked]:ring-brand-300 ${className}`}
    >
      <input type="checkbox" className="h-4 w-4 rounded border-ink-300 text-brand-600 focus:ring-brand-600" {...input} />
      <span className="text-sm text-ink-800">{label}</span>
    </label>
  )
}

/**
 * The form's error summary about some fields (see `useLiveSummary`): it goes
 * once every field it names is right again. Render it inside the form.
 */
export function LiveSummary({ message: sent, names }: { message: string | null | undefined; names: readonly string[] }) {
  const { message, ref } = useLiveSummary(sent, names)
  return (
    <div ref={ref} className="contents">
      {message ? <Alert tone="error">{message}</Alert> : null}
    </div>
  )
}
