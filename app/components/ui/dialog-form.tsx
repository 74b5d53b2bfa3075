import { useFetcher } from '@remix-run/react'
import { useEffect, useRef, type ReactNode } from 'react'
import { CheckIcon } from '~/components/icons'
import { failureFor } from '~/lib/forms'
import { useCheckBeforeSending } from './use-check-before-sending'

/**
 * A form inside a modal that posts through a fetcher (the feedback panel, the report dialog): the
 * same schema checks it before it is sent (errors shown, the first one focused), the action's
 * FormFailure (app/lib/forms.ts) is shown in place — a message for the whole form only when no
 * field is to blame, `failedMessage` when the refusal has no words — and after a success the
 * dialog closes itself `closeAfterMs` later (`onDone`).
 */
export function useDialogForm<Data extends { ok: boolean }, Values extends object>({
  onDone,
  closeAfterMs,
  failedMessage,
  order,
}: {
  onDone: () => void
  closeAfterMs: number
  failedMessage: string
  /** The fields in the form's order: the first with an error gets the focus. */
  order: readonly string[]
}) {
  const fetcher = useFetcher<Data>()
  const { clientErrors, checkBeforeSending } = useCheckBeforeSending({ order, now: true })
  const result = fetcher.state === 'idle' ? fetcher.data : undefined
  const succeeded = result?.ok === true
  const done = useRef(onDone)
  done.current = onDone

  useEffect(() => {
    if (!succeeded) return
    const timer = setTimeout(() => done.current(), closeAfterMs)
    return () => clearTimeout(timer)
  }, [succeeded, closeAfterMs])

  const failure = failureFor<Values>(result)
  const failed = result?.ok === false
  return {
    fetcher,
    result,
    succeeded,
    submitting: fetcher.state !== 'idle',
    formError: failed && Object.keys(failure.fieldErrors).length === 0 ? (failure.formError ?? failedMessage) : null,
    fieldErrors: clientErrors ?? failure.fieldErrors,
    values: failure.values ?? undefined,
    /** onSubmit: stops a submission the schema refuses and shows why. */
    checkBeforeSending,
  }
}

/** What a dialog form shows once it succeeded, until it closes. */
export function DialogThanks({ children }: { children: ReactNode }) {
  return (
    <div role="status" className="flex flex-col items-center gap-3 py-8 text-center">
      <span className="inline-flex h-12 w-12 items-center justify-center rounded-full bg-emerald-100 text-emerald-700">
        <CheckIcon className="h-6 w-6" />
      </span>
      <p className="text-heading max-w-xs">{children}</p>
    </div>
  )
}
