import { Link, useFetcher, useLocation, useRouteLoaderData } from '@remix-run/react'
import { useRef, useState, type FormEvent, type ReactNode } from 'react'
import { FlagIcon } from '~/components/icons'
import { REPORT_REASONS } from '~/lib/catalog'
import type { FormFailure } from '~/lib/forms'
import {
  parseReport,
  reportSchema,
  reportValues,
  REPORT_DETAILS_MAX,
  SPARK_MENU_REPORT,
  type ReportContentType,
  type ReportErrors,
  type ReportValues,
} from '~/lib/schemas/report'
import { Alert } from './ui/alert'
import { DialogThanks, useDialogForm } from './ui/dialog-form'
import { checkWithSchema, FieldChecks, SelectField, TextAreaField } from './ui/field'
import { Sheet } from './ui/sheet'
import { Spinner } from './ui/spinner'
import { useHydrated } from './use-hydrated'

/**
 * Reporting a video, quote or comment (docs/product.md: Video card; States,
 * "Report modal"; Rules and messages, "Report").
 *
 * - `<ReportControl contentType="video" contentId={id} contentLabel={title} />`
 *   is the report control of cards and the video page. With JavaScript it is
 *   a button opening a modal `<dialog>` (reason select with the six reasons,
 *   details, Cancel, Submit Report; states closed → open → submitting →
 *   success, which closes itself after 3 s; failures say 'Failed to submit
 *   report. Please try again.'). Without JavaScript, and for signed-out
 *   visitors, it is a link to the /report page, whose plain form redirects
 *   back to `returnTo` with the flash 'Content reported successfully.'
 *   (signed-out visitors are sent to /login by that page first).
 * - `<QuickReportButton contentType="video" contentId={id} />` is the spark
 *   menu's one-tap report: it sends the fixed reason 'inappropriate content'
 *   (reason `inappropriate`, details 'inappropriate content') as a plain form
 *   post, upgraded to a fetcher that answers in place.
 *
 * Both post to `REPORT_ACTION` (app/routes/_me+/report.tsx).
 */
export const REPORT_ACTION = '/report'
export const REPORT_THANKS = 'Thank you for your report. Our team will review this content shortly.'
export const REPORT_FAILED = 'Failed to submit report. Please try again.'
export const REPORT_FLASH_SUCCESS = 'Content reported successfully.'
export const REPORT_FLASH_FAILED = 'Failed to report content.'
export const REPORT_DUPLICATE = 'You have already reported this content. Our team will review it shortly.'
/** The modal closes this long after a successful report (docs/product.md, Limits and timers). */
export const REPORT_CLOSE_AFTER_MS = 3000

/** How a report was sent: the modal and the quick button get data back; the page's plain form a redirect. */
export type ReportSurface = 'dialog' | 'quick' | 'page'

/** What the report action answers a fetcher (a plain form post is redirected instead): thanks, or the one form failure (app/lib/forms.ts). */
export type ReportActionData = { ok: true; outcome: 'created' | 'duplicate'; message: string } | FormFailure<ReportValues>

export interface ReportTargetProps {
  contentType: ReportContentType
  contentId: string
  /** Where the no-JS report page sends the visitor back; default: the current page. */
  returnTo?: string
  /** Who made the content: their own content offers them no report control (Postgres refuses it anyway). */
  authorId?: string | null
}

const NOUNS: Record<ReportContentType, string> = { video: 'video', quote: 'quote', comment: 'comment' }

export function reportPageHref({ contentType, contentId, returnTo }: Required<Omit<ReportTargetProps, 'authorId'>>): string {
  const params = new URLSearchParams({ contentType, contentId, returnTo })
  return `${REPORT_ACTION}?${params}`
}

function useReturnTo(returnTo: string | undefined): string {
  const location = useLocation()
  return returnTo ?? `${location.pathname}${location.search}`
}

function useSignedIn(): boolean {
  const root = useRouteLoaderData<{ user: unknown }>('root')
  return Boolean(root?.user)
}

/** True when the signed-in viewer made this content. */
function useOwnContent(authorId: string | null | undefined): boolean {
  const root = useRouteLoaderData<{ user: { id: string } | null }>('root')
  return Boolean(authorId && root?.user?.id === authorId)
}

const looks = {
  /** A round flag button: on cards and over light surfaces. */
  icon: 'inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-full text-ink-500 transition-colors hover:bg-ink-100 hover:text-red-700',
  /** A round flag button over video (the reel viewer). */
  overlay:
    'inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-black/40 text-white backdrop-blur transition-colors hover:bg-black/60',
  /** Flag and the word: the video page's action row. */
  button: 'btn-secondary',
} as const

export function ReportControl({
  contentType,
  contentId,
  contentLabel,
  returnTo,
  authorId,
  variant = 'icon',
  className = '',
}: ReportTargetProps & {
  /** The title or an excerpt of the content, shown in the dialog and read to screen readers. */
  contentLabel?: string
  variant?: keyof typeof looks
  className?: string
}) {
  const hydrated = useHydrated()
  const signedIn = useSignedIn()
  const back = useReturnTo(returnTo)
  const [open, setOpen] = useState(false)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const noun = NOUNS[contentType]
  const accessibleName = contentLabel ? `Report ${noun}: ${contentLabel}` : `Report ${noun}`
  const face = (
    <>
      <FlagIcon />
      {variant === 'button' ? <span>Report</span> : <span className="sr-only">{accessibleName}</span>}
    </>
  )
  const classes = `${looks[variant]} ${className}`
  const own = useOwnContent(authorId)

  // Reporting needs an account: visitors (on /explore, creator pages) see no control that would only lead to sign-in.
  if (own || !signedIn) return null
  if (!hydrated) {
    return (
      <Link
        to={reportPageHref({ contentType, contentId, returnTo: back })}
        className={classes}
        title={variant === 'button' ? undefined : `Report this ${noun}`}
        aria-label={variant === 'button' ? accessibleName : undefined}
        data-report-control={contentId}
      >
        {face}
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
        aria-label={variant === 'button' ? accessibleName : undefined}
        title={variant === 'button' ? undefined : `Report this ${noun}`}
        onClick={() => setOpen(true)}
        className={classes}
        data-report-control={contentId}
      >
        {face}
      </button>
      <ReportDialog
        open={open}
        contentType={contentType}
        contentId={contentId}
        contentLabel={contentLabel}
        returnTo={back}
        onClose={() => {
          setOpen(false)
          buttonRef.current?.focus()
        }}
      />
    </>
  )
}

/**
 * The modal itself, for callers that open it from their own control.
 * A native modal `<dialog>`: showModal() makes the rest of the page inert (focus
 * stays inside), Escape and a click on the backdrop close it.
 */
export function ReportDialog({
  open,
  onClose,
  contentType,
  contentId,
  contentLabel,
  returnTo,
}: {
  open: boolean
  onClose: () => void
  contentType: ReportContentType
  contentId: string
  contentLabel?: string
  returnTo?: string
}) {
  const back = useReturnTo(returnTo)
  return (
    <Sheet
      open={open}
      onClose={onClose}
      title={<>Report {NOUNS[contentType]}</>}
      subtitle={contentLabel ? `“${contentLabel}”` : undefined}
      initialFocus='[name="reason"]'
    >
      <DialogForm contentType={contentType} contentId={contentId} returnTo={back} onDone={onClose} />
    </Sheet>
  )
}

function DialogForm({
  contentType,
  contentId,
  returnTo,
  onDone,
}: Required<Omit<ReportTargetProps, 'authorId'>> & { onDone: () => void }) {
  const form = useDialogForm<ReportActionData, ReportValues>({
    onDone,
    closeAfterMs: REPORT_CLOSE_AFTER_MS,
    failedMessage: REPORT_FAILED,
    order: REPORT_ORDER,
  })
  const { fetcher, result } = form
  if (result?.ok) return <DialogThanks>{result.message}</DialogThanks>

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (form.submitting) {
      event.preventDefault()
      return
    }
    form.checkBeforeSending(event, parseReport(new FormData(event.currentTarget)))
  }

  return (
    <fetcher.Form
      method="post"
      action={reportPageHref({ contentType, contentId, returnTo })}
      noValidate
      onSubmit={onSubmit}
      className="flex flex-col gap-5"
    >
      <input type="hidden" name="surface" value="dialog" />
      <input type="hidden" name="contentType" value={contentType} />
      <input type="hidden" name="contentId" value={contentId} />
      {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
      <ReportFields errors={form.fieldErrors} values={form.values} />
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <button type="button" className="btn-secondary" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="btn-primary" aria-disabled={form.submitting || undefined}>
          {form.submitting ? <Spinner label="Submitting report" className="h-4 w-4" /> : null}
          Submit Report
        </button>
      </div>
    </fetcher.Form>
  )
}

const REPORT_ORDER = ['reason', 'details'] as const

/** The reason select and details text area, shared by the modal and the /report page. */
export function ReportFields({ errors, values }: { errors: ReportErrors; values?: ReportValues }) {
  return (
    <FieldChecks check={checkReportField}>
      <SelectField
        label="Reason"
        name="reason"
        required
        placeholder="Select a reason"
        defaultValue={values?.reason ?? ''}
        options={REPORT_REASONS.map((reason) => ({ value: reason.id, label: reason.label }))}
        error={errors.reason}
      />
      <TextAreaField
        label="Details"
        name="details"
        hint="Optional: anything that helps our team review it."
        maxLength={REPORT_DETAILS_MAX}
        defaultValue={values?.details ?? ''}
        error={errors.details}
        rows={4}
      />
    </FieldChecks>
  )
}

/** The reason and details are checked again with the shared schema as they change. */
const checkReportField = checkWithSchema(reportSchema, reportValues)

/**
 * The spark menu's one-tap report (docs/product.md, Sparks: the fixed reason text
 * 'inappropriate content'). A plain form post without JavaScript (redirected
 * back with a flash); with it, a fetcher that answers in place.
 */
export function QuickReportButton({
  contentType,
  contentId,
  returnTo,
  authorId,
  className = '',
  children = 'Report inappropriate content',
}: ReportTargetProps & { className?: string; children?: ReactNode }) {
  const fetcher = useFetcher<ReportActionData>()
  const back = useReturnTo(returnTo)
  const signedIn = useSignedIn()
  const hydrated = useHydrated()
  const own = useOwnContent(authorId)
  const result = fetcher.state === 'idle' ? fetcher.data : undefined
  if (own) return null
  if (!signedIn) {
    return (
      <Link to={`/login?redirectTo=${encodeURIComponent(back)}`} className={className}>
        {children}
      </Link>
    )
  }
  if (result) {
    return (
      <p
        role={result.ok ? 'status' : 'alert'}
        className={`flex min-h-11 items-center gap-2 rounded-lg px-3 py-2 text-sm font-medium ${
          result.ok ? 'bg-emerald-50 text-emerald-800' : 'bg-red-50 text-red-800'
        }`}
      >
        {result.ok ? (result.outcome === 'duplicate' ? REPORT_DUPLICATE : REPORT_FLASH_SUCCESS) : REPORT_FLASH_FAILED}
      </p>
    )
  }
  return (
    // The target is in the URL too, so that the page can be shown if the post needs it (no JS, an error).
    <fetcher.Form method="post" action={reportPageHref({ contentType, contentId, returnTo: back })}>
      {/* A plain post (before hydration) is answered with a redirect and a flash, a fetcher's with data. */}
      <input type="hidden" name="surface" value={hydrated ? 'quick' : 'page'} />
      <input type="hidden" name="contentType" value={contentType} />
      <input type="hidden" name="contentId" value={contentId} />
      <input type="hidden" name="reason" value={SPARK_MENU_REPORT.reason} />
      <input type="hidden" name="details" value={SPARK_MENU_REPORT.details} />
      <input type="hidden" name="returnTo" value={back} />
      <button type="submit" className={className} aria-disabled={fetcher.state !== 'idle' || undefined}>
        {fetcher.state !== 'idle' ? <Spinner label="Reporting" className="h-4 w-4" /> : <FlagIcon />}
        {children}
      </button>
    </fetcher.Form>
  )
}
