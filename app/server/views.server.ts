import { sql } from 'kysely'
import { isUuid } from '~/lib/ids'
import { DASHBOARD_MESSAGES, watchReportSchema } from '~/lib/schemas/dashboard'
import { asCaller, asServiceRole, type JwtClaims } from './db.server'
import { DomainError, isPermissionError } from './errors.server'

/**
 * Views (ADR 0015). Counted by the database,
 * once per viewer, video and hour:
 * - with JavaScript, from the player's progress reports (`reportWatch`): a view
 *   counts once Postgres has credited 10 s of watching (half of a clip shorter
 *   than 20 s), never more in total than the wall-clock time since playback began;
 *   a signed-in viewer's report also saves where playback is (`position`, ADR 0034);
 * - without JavaScript, a page view counts (`recordPageView`).
 */

/** Who is watching: a signed-in user, or a visitor known by a per-browser key the server set. */
export type Viewer = { claims: JwtClaims } | { browserKey: string }

/**
 * Counts a page view (the no-JavaScript path) for a signed-in caller: at most
 * one per viewer, video and hour. True when this call counted.
 */
export async function recordPageView(claims: JwtClaims | null, id: string): Promise<boolean> {
  if (!claims || !isUuid(id)) return false
  const result = await asCaller(claims, (tx) =>
    sql<{ counted: boolean }>`select public.record_view(${id}::uuid) as counted`.execute(tx),
  )
  return Boolean(result.rows[0]?.counted)
}

/**
 * One progress report from the player. Throws invalid for an unreadable
 * report and not_found when the caller cannot see the video (or the session
 * is someone else's). Returns whether this report counted the view.
 */
export async function reportWatch(viewer: Viewer, input: unknown): Promise<{ counted: boolean }> {
  const parsed = watchReportSchema.safeParse(input)
  if (!parsed.success) throw new DomainError('invalid', DASHBOARD_MESSAGES.badReport)
  const { session, video, played, tenths, position, duration } = parsed.data
  try {
    const run =
      'claims' in viewer
        ? asCaller(viewer.claims, (tx) =>
            // The learner's position rides on the same report, in the same statement (resume, ADR 0034; ADR 0054),
            // saved before the view is counted: counting locks the creator's busy roll-up rows until the commit,
            // and the save need not run while other learners' reports wait for them (ADR 0056).
            sql<{
              counted: boolean
            }>`select ${
              position === undefined
                ? sql``
                : sql`(public.save_watch_position(${video}::uuid, ${position}, ${duration ?? null})).finished as finished, `
            }public.report_watch(${session}::uuid, ${video}::uuid, ${played}, ${tenths}) as counted`.execute(tx),
          )
        : asServiceRole('a visitor has no database role that may count: the server reports under the key it set', (tx) =>
            sql<{
              counted: boolean
            }>`select public.report_watch(${session}::uuid, ${video}::uuid, ${played}, ${tenths}, ${viewer.browserKey}) as counted`.execute(
              tx,
            ),
          )
    const result = await run
    return { counted: Boolean(result.rows[0]?.counted) }
  } catch (error) {
    if (isPermissionError(error)) throw new DomainError('not_found', DASHBOARD_MESSAGES.videoNotFound)
    throw error
  }
}
