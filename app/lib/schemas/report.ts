import { z } from 'zod'
import { REPORT_REASONS } from '~/lib/catalog'

/**
 * The report form (docs/product.md, Rules and messages; Limits and timers), shared by the modal, the no-JS
 * /report page and the server, which validates again before storing. Limits
 * follow `public.reports`'s checks.
 */
export const REPORT_DETAILS_MAX = 2000

export const REPORT_CONTENT_TYPES = ['video', 'quote', 'comment'] as const
export type ReportContentType = (typeof REPORT_CONTENT_TYPES)[number]

export type ReportReason = (typeof REPORT_REASONS)[number]['id']
const REASON_IDS = REPORT_REASONS.map((reason) => reason.id) as [ReportReason, ...ReportReason[]]

export const REPORT_MESSAGES = {
  reason: 'Please provide a reason for reporting this content',
  content: 'This content could not be found',
  own: 'You cannot report your own content.',
  tooLong: `Please keep the details under ${REPORT_DETAILS_MAX.toLocaleString('en-US')} characters`,
  unsupported: 'Please remove unsupported characters',
} as const

/** The spark menu's one-tap report (docs/product.md, Sparks: it sends the fixed reason text 'inappropriate content'). */
export const SPARK_MENU_REPORT = { reason: 'inappropriate', details: 'inappropriate content' } as const satisfies {
  reason: ReportReason
  details: string
}

export const reportSchema = z.object({
  contentType: z.enum(REPORT_CONTENT_TYPES, { errorMap: () => ({ message: REPORT_MESSAGES.content }) }),
  contentId: z.string({ required_error: REPORT_MESSAGES.content }).uuid(REPORT_MESSAGES.content),
  reason: z.enum(REASON_IDS, { errorMap: () => ({ message: REPORT_MESSAGES.reason }) }),
  details: z
    .string()
    .trim()
    .max(REPORT_DETAILS_MAX, REPORT_MESSAGES.tooLong)
    // Postgres text cannot hold a NUL byte: a clear message instead of a 500.
    .refine((value) => !value.includes('\u0000'), REPORT_MESSAGES.unsupported)
    .default(''),
})

export type ReportInput = z.output<typeof reportSchema>
export type ReportField = keyof z.input<typeof reportSchema>
export type ReportErrors = Partial<Record<ReportField, string>>

/** What the form sent, as text, so a failed submission can be shown again as typed. */
export interface ReportValues {
  reason: string
  details: string
}

function text(form: FormData | URLSearchParams, name: string): string | undefined {
  const value = form.get(name)
  return typeof value === 'string' ? value : undefined
}

export function reportValues(form: FormData): ReportValues {
  return { reason: text(form, 'reason') ?? '', details: text(form, 'details') ?? '' }
}

/** Validates a submitted form: the report to store, or one message per field that failed. */
export function parseReport(
  form: FormData | URLSearchParams,
): { success: true; data: ReportInput } | { success: false; errors: ReportErrors } {
  const raw: Record<string, unknown> = {}
  // Only the first value of each field counts; a repeated field cannot smuggle an array in.
  for (const name of ['contentType', 'contentId', 'reason', 'details'] as const) {
    const value = text(form, name)
    if (value !== undefined && !(name === 'reason' && value === '')) raw[name] = value
  }
  const result = reportSchema.safeParse(raw)
  if (result.success) return { success: true, data: result.data }
  const errors: ReportErrors = {}
  for (const issue of result.error.issues) {
    const field = issue.path[0] as ReportField | undefined
    if (field && !errors[field]) errors[field] = issue.message
  }
  return { success: false, errors }
}

/** Which content a report page or link is about (from its query string), or null when it names none. */
export function parseReportTarget(params: URLSearchParams): { contentType: ReportContentType; contentId: string } | null {
  const result = reportSchema.pick({ contentType: true, contentId: true }).safeParse({
    contentType: params.get('contentType') ?? undefined,
    contentId: params.get('contentId') ?? undefined,
  })
  return result.success ? result.data : null
}
