import { Link, useLocation } from '@remix-run/react'
import { useId, useRef, useState } from 'react'
import { ChatIcon } from '~/components/icons'
import type { FormFailure } from '~/lib/forms'
import {
  FEEDBACK_TEXT_MAX,
  feedbackSchema,
  feedbackValues,
  parseFeedback,
  type FeedbackErrors,
  type FeedbackValues,
} from '~/lib/schemas/feedback'
import { Alert } from './ui/alert'
import { DialogThanks, useDialogForm } from './ui/dialog-form'
import { checkWithSchema, FieldChecks, FieldError, TextAreaField, useLiveError } from './ui/field'
import { Sheet } from './ui/sheet'
import { Spinner } from './ui/spinner'
import { useHydrated } from './use-hydrated'

/** Where the form posts (app/routes/_me+/feedback.tsx), and its texts (docs/product.md, Rules and messages). */
export const FEEDBACK_ACTION = '/feedback'
export const FEEDBACK_THANKS = 'Thank you for your feedback!'
export const FEEDBACK_FAILED = 'An error occurred'
/** The panel closes this long after a successful submission (docs/product.md, Limits and timers). */
const CLOSE_AFTER_MS = 3000

/** What the feedback action answers a panel submission (a no-JS one is redirected instead): the one form failure (app/lib/forms.ts). */
export type FeedbackActionData = { ok: true } | FormFailure<FeedbackValues>

export function feedbackPageHref(returnTo: string): string {
  return `${FEEDBACK_ACTION}?returnTo=${encodeURIComponent(returnTo)}`
}

/**
 * The floating Feedback button on every page. Without JavaScript (and for
 * visitors, who must sign in first) it is a link to the /feedback page; with
 * JavaScript it opens a modal panel that submits through a fetcher.
 */
export function FeedbackWidget({
  signedIn,
  aboveBottomBar,
  placement = 'floating',
}: {
  signedIn: boolean
  aboveBottomBar: boolean
  /**
   * floating: the button in the bottom-right corner, from `sm` up (the page
   * keeps room for it at its end); header: a compact button in the header, on
   * phones only, where a floating one would sit over the content.
   */
  placement?: 'floating' | 'header'
}) {
  const hydrated = useHydrated()
  const location = useLocation()
  const [open, setOpen] = useState(false)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const onFeedbackPage = location.pathname === FEEDBACK_ACTION
  // Clear of the bottom bar: above it on phones and tablets, beside it on wide screens.
  const floating = `fixed right-4 z-30 hidden sm:right-6 sm:inline-flex ${
    aboveBottomBar
      ? 'bottom-[calc(4.75rem+env(safe-area-inset-bottom))] sm:bottom-20 lg:bottom-6'
      : 'bottom-[calc(1rem+env(safe-area-inset-bottom))] sm:bottom-6'
  }`
  const look =
    placement === 'header'
      ? 'inline-flex h-11 w-11 items-center justify-center rounded-full text-ink-700 ring-1 ring-inset ring-ink-200 hover:bg-ink-100 sm:hidden'
      : `${floating} items-center gap-2 rounded-full bg-ink-900 px-4 min-h-11 text-sm font-semibold text-white shadow-lg shadow-ink-900/20 transition-colors hover:bg-ink-800`

  if (onFeedbackPage) return null
  const label =
    placement === 'header' ? (
      <>
        <ChatIcon />
        <span className="sr-only">Feedback</span>
      </>
    ) : (
      <>
        <ChatIcon />
        Feedback
      </>
    )

  if (!hydrated || !signedIn) {
    return (
      <Link to={feedbackPageHref(`${location.pathname}${location.search}`)} className={look}>
        {label}
      </Link>
    )
  }
  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
        className={look}
      >
        {label}
      </button>
      <FeedbackPanel
        open={open}
        onClose={() => {
          setOpen(false)
          buttonRef.current?.focus()
        }}
      />
    </>
  )
}

/**
 * A modal <dialog>: showModal() makes the rest of the page inert (focus stays
 * inside), Escape and a click on the backdrop close it, and focus returns to
 * the Feedback button.
 */
function FeedbackPanel({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Sheet
      open={open}
      onClose={onClose}
      title="Send feedback"
      subtitle="Tell us what works and what could be better."
      closeLabel="Close feedback"
      placement="corner"
    >
      <PanelForm onDone={onClose} />
    </Sheet>
  )
}

function PanelForm({ onDone }: { onDone: () => void }) {
  const form = useDialogForm<FeedbackActionData, FeedbackValues>({
    onDone,
    closeAfterMs: CLOSE_AFTER_MS,
    failedMessage: FEEDBACK_FAILED,
    order: FEEDBACK_ORDER,
  })
  const { fetcher } = form
  if (form.succeeded) return <DialogThanks>{FEEDBACK_THANKS}</DialogThanks>

  return (
    <fetcher.Form
      method="post"
      action={FEEDBACK_ACTION}
      noValidate
      onSubmit={(event) => form.checkBeforeSending(event, parseFeedback(new FormData(event.currentTarget)))}
      className="flex flex-col gap-5"
    >
      <input type="hidden" name="surface" value="panel" />
      {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
      <FeedbackFields errors={form.fieldErrors} values={form.values} />
      <button type="submit" className="btn-primary w-full" aria-disabled={form.submitting || undefined}>
        {form.submitting ? <Spinner label="Sending feedback" className="h-4 w-4" /> : null}
        Send Feedback
      </button>
    </fetcher.Form>
  )
}

const FEEDBACK_ORDER = ['liked', 'usage', 'recommendations'] as const

/**
 * The three questions, shared by the panel and the /feedback page. Radios and
 * text areas carry `required` for assistive technology; the forms use
 * noValidate so the messages are ours (the schema's), with JS and without.
 */
export function FeedbackFields({ errors, values }: { errors: FeedbackErrors; values?: FeedbackValues }) {
  const likedId = useId()
  const liked = useLiveError<HTMLFieldSetElement>(errors.liked)
  return (
    <FieldChecks check={checkFeedbackField}>
      <fieldset
        ref={liked.ref}
        onChange={liked.markStale}
        aria-describedby={liked.error ? `${likedId}-error` : undefined}
        aria-invalid={liked.error ? true : undefined}
      >
        <legend className="text-sm font-medium text-ink-800">Did you like Lumen?</legend>
        <div className="mt-2 grid grid-cols-2 gap-3">
          {(
            [
              ['yes', 'Yes'],
              ['no', 'No'],
            ] as const
          ).map(([value, text]) => (
            <label
              key={value}
              className="flex min-h-11 cursor-pointer items-center justify-center gap-2 rounded-xl px-3 text-sm font-semibold text-ink-800 ring-1 ring-inset ring-ink-300 transition-colors hover:bg-ink-50 has-[:checked]:bg-brand-50 has-[:checked]:text-brand-800 has-[:checked]:ring-2 has-[:checked]:ring-inset has-[:checked]:ring-brand-600 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-inset has-[:focus-visible]:ring-brand-500"
            >
              <input
                type="radio"
                name="liked"
                value={value}
                required
                defaultChecked={values?.liked === value}
                className="h-4 w-4 border-ink-300 text-brand-600 focus:ring-brand-600"
              />
              {text}
            </label>
          ))}
        </div>
        {liked.error ? (
          <div className="mt-1.5">
            <FieldError id={`${likedId}-error`}>{liked.error}</FieldError>
          </div>
        ) : null}
      </fieldset>
      <TextAreaField
        label="How do you use Lumen?"
        name="usage"
        required
        rows={3}
        maxLength={FEEDBACK_TEXT_MAX}
        placeholder="For example: sparks on my commute, lessons for exam prep…"
        defaultValue={values?.usage}
        error={errors.usage}
      />
      <TextAreaField
        label="What would you recommend we improve?"
        name="recommendations"
        required
        rows={3}
        maxLength={FEEDBACK_TEXT_MAX}
        placeholder="Features, subjects, anything that would make Lumen better"
        defaultValue={values?.recommendations}
        error={errors.recommendations}
      />
    </FieldChecks>
  )
}

/** Each answer is checked again with the shared schema as it changes. */
const checkFeedbackField = checkWithSchema(feedbackSchema, feedbackValues)
