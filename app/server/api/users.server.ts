import { z } from 'zod'
import { API_MESSAGES } from '~/lib/schemas/api'
import { CREATOR_MESSAGES } from '~/lib/schemas/creators'
import { readDashboardQuery, type DashboardRange } from '~/lib/schemas/dashboard'
import { getAccount } from '../accounts.server'
import { dashboardStats, recentUploads } from '../dashboard.server'
import { DomainError } from '../errors.server'
import { receiveProfileForm } from '../http/forms.server'
import { getOwnProfile, profileExists, updateProfile } from '../profiles.server'
import type { ApiCaller } from './caller.server'
import { parseWith, withFieldNames } from './route.server'
import { preferencesShape } from './preferences.server'
import { accountShape, dashboardShape } from './shapes.server'
import { categoryId } from './videos.server'

/**
 * The users calls' API-only steps (docs/product.md, The JSON API: Users): whose lists one may read,
 * the dashboard's role check (the page's own), and PUT /users/profile's
 * multipart spellings. The work is the pages' (profiles, follows,
 * creators, dashboard services).
 */

/**
 * Liked videos and Following are one's own lists (the profile's tabs): 404
 * for a malformed or unknown user, 403 for someone else's.
 */
export async function requireSelf(caller: ApiCaller, userId: string, message: string): Promise<void> {
  if (userId === caller.user.id) return
  if (!(await profileExists(caller.claims, userId))) throw new DomainError('not_found', API_MESSAGES.userNotFound)
  throw new DomainError('forbidden', message)
}

/** `?limit=` for the person lists (1–50, default 20) and `?cursor=`. */
export function pageQuery(url: URL): { cursor: string | null; limit: number } {
  const limit = Number.parseInt(url.searchParams.get('limit') ?? '', 10)
  return { cursor: url.searchParams.get('cursor'), limit: Number.isFinite(limit) && limit > 0 ? Math.min(limit, 50) : 20 }
}

/** A JSON array with the next page's cursor (and a total) in headers, as GET /admin/users does. */
export function pagedJson(items: unknown[], next: string | null, total?: number): Response {
  const headers: Record<string, string> = { 'Cache-Control': 'no-store' }
  if (next) headers['X-Next-Cursor'] = next
  if (total !== undefined) headers['X-Total-Count'] = String(total)
  return Response.json(items, { headers })
}

/**
 * GET /users/:id/dashboard-stats (and the fallback, always 7 days): the
 * creator dashboard's figures for oneself, or for anyone to an admin. A
 * learner has no dashboard (403), as the page shows them a getting-started
 * page instead.
 */
export async function dashboardThroughApi(caller: ApiCaller, userId: string, url: URL, days?: DashboardRange) {
  if (caller.user.role === 'user') throw new DomainError('forbidden', API_MESSAGES.dashboardRole)
  const range = days ?? readDashboardQuery(url.searchParams).days
  const stats = await dashboardStats(caller.claims, userId, { days: range })
  return dashboardShape(stats, await recentUploads(caller.claims, userId))
}

const categoriesField = z
  .string()
  .transform((text, context) => {
    try {
      const list = JSON.parse(text) as unknown
      if (Array.isArray(list)) return list
    } catch {
      // reported below
    }
    context.addIssue({ code: 'custom', message: API_MESSAGES.badCategories })
    return z.NEVER
  })
  .pipe(
    z.array(z.union([z.string(), z.object({ name: z.string() }).transform((category) => category.name)]), {
      errorMap: () => ({ message: API_MESSAGES.badCategories }),
    }),
  )

/** `captionsOn` in PUT /users/profile: 'true' or 'false'. */
const captionsOnField = z.object({
  captionsOn: z
    .enum(['true', 'false'], { errorMap: () => ({ message: "Please send captionsOn as 'true' or 'false'" }) })
    .transform((value) => value === 'true'),
})

const FILE_FIELDS: Record<string, string> = { picture: 'profilePicture', portfolio: 'portfolioFile' }

/**
 * PUT /users/profile: the edit-profile form's save (updateProfile: the same
 * checks, files checked by content, nothing half-saved) with the API's
 * field names — username, bio, categories (a JSON list of names or ids),
 * profilePicture, portfolioFile (and portfolioType, else read from the
 * file's content). A field left out keeps its current value.
 */
export async function updateProfileThroughApi(caller: ApiCaller, request: Request) {
  const received = await receiveProfileForm(request, { picture: 'profilePicture', portfolio: 'portfolioFile' })
  try {
    const { form } = received
    const current = await getOwnProfile(caller.claims)
    const text = (name: string) => {
      const value = form.get(name)
      return typeof value === 'string' ? value : null
    }
    const categoriesText = text('categories')
    const categories =
      categoriesText === null
        ? current.categories.map((category) => category.id)
        : parseWith(z.object({ categories: categoriesField }), { categories: categoriesText }).categories.map(
            (name) => categoryId(name) ?? name,
          )
    const portfolio = received.portfolio
    await withFieldNames(FILE_FIELDS, () =>
      updateProfile(
        caller,
        {
          username: text('username') ?? current.username,
          bio: text('bio') ?? current.bio,
          categories,
          // The player preferences (ADR 0043): left out, unchanged.
          ...(text('playbackRate') !== null ? { playbackRate: text('playbackRate') } : {}),
          ...(text('captionsOn') !== null ? { captionsOn: parseWith(captionsOnField, { captionsOn: text('captionsOn') }).captionsOn } : {}),
        },
        {
          picture: received.picture,
          portfolio: portfolio ? { ...portfolio, type: text('portfolioType') || kindOf(portfolio.info.type) } : null,
        },
      ),
    )
    const account = await getAccount(caller.claims)
    if (!account) throw new DomainError('unauthenticated', API_MESSAGES.badToken)
    const saved = await getOwnProfile(caller.claims)
    return { message: CREATOR_MESSAGES.profileUpdated, user: accountShape(account), preferences: preferencesShape(saved) }
  } finally {
    await received.dispose()
  }
}

/** A portfolio's kind from its content's type, when the caller did not name one. */
function kindOf(mime: string): 'video' | 'image' | 'document' {
  if (mime.startsWith('video/')) return 'video'
  if (mime.startsWith('image/')) return 'image'
  return 'document'
}
