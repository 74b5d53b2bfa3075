import { sql } from 'kysely'
import { isUuid } from '~/lib/ids'
import { asCaller, type JwtClaims } from './db.server'

/** Views (spec: Video views): counted by the database, once per viewer, video and hour. */

/**
 * Counts a view of the video for the signed-in caller: at most one per
 * viewer, video and hour (`public.record_view` keys signed-in viewers by
 * their id). True when this call counted. Visitors are not counted: the
 * video page requires a login (spec section 2).
 */
export async function recordView(claims: JwtClaims | null, id: string): Promise<boolean> {
  if (!claims || !isUuid(id)) return false
  const result = await asCaller(claims, (tx) =>
    sql<{ counted: boolean }>`select public.record_view(${id}::uuid) as counted`.execute(tx),
  )
  return Boolean(result.rows[0]?.counted)
}
