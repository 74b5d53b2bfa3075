import { z } from 'zod'

/**
 * The feedback form (docs/product.md, Rules and messages: all fields required), shared by the
 * floating panel, the no-JS /feedback page and the server, which validates
 * again before storing. Limits follow `public.feedback`'s checks.
 */
export const FEEDBACK_TEXT_MAX = 2000

export const FEEDBACK_MESSAGES = {
  liked: 'Please tell us whether you like Lumen',
  usage: 'Please tell us how you use Lumen',
  recommendations: 'Please share your recommendations',
  tooLong: `Please keep this under ${FEEDBACK_TEXT_MAX.toLocaleString('en-US')} characters`,
  unsupported: 'Please remove unsupported characters',
} as const

const requiredText = (message: string) =>
  z
    .string({ required_error: message, invalid_type_error: message })
    .trim()
    .min(1, message)
    .max(FEEDBACK_TEXT_MAX, FEEDBACK_MESSAGES.tooLong)
    // Postgres text cannot hold a NUL byte: refuse it here with a clear message instead of a 500.
    .refine((value) => !value.includes('\u0000'), FEEDBACK_MESSAGES.unsupported)

export const feedbackSchema = z.object({
  liked: z
    .enum(['yes', 'no'], { errorMap: () => ({ message: FEEDBACK_MESSAGES.liked }) })
    .transform((answer) => answer === 'yes'),
  usage: requiredText(FEEDBACK_MESSAGES.usage),
  recommendations: requiredText(FEEDBACK_MESSAGES.recommendations),
})

export type FeedbackInput = z.output<typeof feedbackSchema>
export type FeedbackField = keyof z.input<typeof feedbackSchema>
export type FeedbackErrors = Partial<Record<FeedbackField, string>>

/** What the form sent, as text, so a failed submission can be shown again as typed. */
export interface FeedbackValues {
  liked: string
  usage: string
  recommendations: string
}

export function feedbackValues(form: FormData): FeedbackValues {
  const text = (name: string) => {
    const value = form.get(name)
    return typeof value === 'string' ? value : ''
  }
  return { liked: text('liked'), usage: text('usage'), recommendations: text('recommendations') }
}

/** Validates a submitted form: the input to store, or one message per field that failed. */
export function parseFeedback(
  form: FormData,
): { success: true; data: FeedbackInput } | { success: false; errors: FeedbackErrors } {
  const raw: Record<string, unknown> = {}
  // Only the first value of each field counts; a repeated field cannot smuggle an array in.
  for (const name of ['liked', 'usage', 'recommendations'] as const) {
    const value = form.get(name)
    if (value !== null) raw[name] = value
  }
  const result = feedbackSchema.safeParse(raw)
  if (result.success) return { success: true, data: result.data }
  const errors: FeedbackErrors = {}
  for (const issue of result.error.issues) {
    const field = issue.path[0] as FeedbackField | undefined
    if (field && !errors[field]) errors[field] = issue.message
  }
  return { success: false, errors }
}
