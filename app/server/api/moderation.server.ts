import { z } from 'zod'
import { REPORT_REASONS } from '~/lib/catalog'
import { API_APPROVED_MESSAGE, API_MESSAGES, API_REPORT_STATUS_MESSAGE } from '~/lib/schemas/api'
import { ADMIN_MESSAGES, addUserSchema, REPORT_DECISIONS } from '~/lib/schemas/admin'
import { FEEDBACK_MESSAGES, feedbackSchema } from '~/lib/schemas/feedback'
import { REPORT_MESSAGES, reportSchema } from '~/lib/schemas/report'
import { DomainError } from '../errors.server'
import { isAdmin } from '../permissions.server'
import { createReport } from '../reports.server'
import type { ApiCaller } from './caller.server'
import { parseWith } from './route.server'

/**
 * Reports, feedback and the admin calls: the bodies of docs/product.md (The JSON API) read into the
 * domain's inputs, checked by the domain's own schemas (the same messages
 * as the pages), and the admin guard in check-params order — 401, then 403,
 * then 400, then 404.
 */

/** 403 unless Postgres takes the caller for an admin. */
export async function requireAdmin(caller: ApiCaller): Promise<void> {
  if (!(await isAdmin(caller.claims))) throw new DomainError('forbidden', ADMIN_MESSAGES.forbidden)
}

const REASON_IDS = new Set<string>(REPORT_REASONS.map((reason) => reason.id))

/**
 * `reason` is one of the listed reasons, or free text (the spark menu sends
 * 'inappropriate content'): a text that starts with a listed reason counts
 * as that reason with the text kept as details; any other text is 'other'.
 */
function reasonOf(value: unknown): { reason?: string; details?: string } {
  if (typeof value !== 'string' || !value.trim()) return {}
  const text = value.trim()
  if (REASON_IDS.has(text.toLowerCase())) return { reason: text.toLowerCase() }
  const first = text.split(/\s+/, 1)[0]!.toLowerCase()
  return { reason: REASON_IDS.has(first) ? first : 'other', details: text }
}

const reportBody = z.object({ contentId: z.unknown(), contentType: z.unknown(), reason: z.unknown(), details: z.unknown() })

/** POST /reports and /reports/create: stored (or already pending from the caller), or 404 for unseen content. */
export async function apiReport(caller: ApiCaller, body: unknown): Promise<{ message: string }> {
  const raw = parseWith(reportBody, body)
  const reason = reasonOf(raw.reason)
  if (!reason.reason) throw new DomainError('invalid', REPORT_MESSAGES.reason, { reason: REPORT_MESSAGES.reason })
  const input = parseWith(reportSchema, {
    contentType: raw.contentType,
    contentId: raw.contentId,
    reason: reason.reason,
    details: typeof raw.details === 'string' && raw.details.trim() ? raw.details : (reason.details ?? ''),
  })
  const outcome = await createReport(caller.claims, input)
  if (outcome.status === 'not-found') throw new DomainError('not_found', REPORT_MESSAGES.content)
  if (outcome.status === 'own') throw new DomainError('forbidden', REPORT_MESSAGES.own)
  return { message: API_MESSAGES.reportSent }
}

export const reportStatusBody = z.object({
  status: z.enum(REPORT_DECISIONS, { errorMap: () => ({ message: API_REPORT_STATUS_MESSAGE }) }),
})

/** POST /feedback: `liked` as 'yes' / 'no' (or true / false), usage and recommendations all required. */
export function feedbackInput(body: unknown) {
  const raw = parseWith(z.record(z.unknown()).catch({}), body) as Record<string, unknown>
  const liked = raw.liked === true ? 'yes' : raw.liked === false ? 'no' : raw.liked
  if (liked === undefined || liked === '')
    throw new DomainError('invalid', FEEDBACK_MESSAGES.liked, { liked: FEEDBACK_MESSAGES.liked })
  return parseWith(feedbackSchema, { liked, usage: raw.usage, recommendations: raw.recommendations })
}

const approved = z.union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')], {
  errorMap: () => ({ message: API_APPROVED_MESSAGE }),
})
export const reviewBody = z.object({
  approved,
  reviewNotes: z
    .string()
    .trim()
    .max(2000, ADMIN_MESSAGES.notesTooLong)
    .refine((value) => !value.includes('\u0000'), ADMIN_MESSAGES.notesTooLong)
    .optional()
    .transform((value) => value || null),
})

/** POST /admin/users: username, email, password and role all required ('Please fill in all required fields'). */
export function addUserInput(body: unknown) {
  const raw = parseWith(z.record(z.unknown()).catch({}), body) as Record<string, unknown>
  const missing = ['username', 'email', 'password', 'role'].filter(
    (name) => typeof raw[name] !== 'string' || !(raw[name] as string).trim(),
  )
  if (missing.length) {
    throw new DomainError(
      'invalid',
      ADMIN_MESSAGES.fillRequired,
      Object.fromEntries(missing.map((name) => [name, ADMIN_MESSAGES.fillRequired])),
    )
  }
  return parseWith(addUserSchema, raw)
}
