import { sql } from 'kysely'
import type { Tx } from '../db.server'

/** Longest search text considered; the rest is ignored. */
export const SEARCH_MAX_CHARS = 200

/**
 * The user's search text made safe to hand to Postgres's parser: NUL and other
 * control characters removed, whitespace collapsed, cut to SEARCH_MAX_CHARS.
 * Null when nothing searchable (no letter or digit) is left: no filter then.
 * (Text with letters that Postgres's parser still drops entirely, such as only
 * markup, finds nothing rather than everything.)
 * The words themselves are split by Postgres (the same 'simple' parser that
 * built `videos.search`), and each becomes a quoted prefix term — so no text,
 * however hostile, can inject tsquery syntax (`&`, `|`, `!`, `:*`, quotes).
 */
export function cleanSearch(input: string | null | undefined): string | null {
  if (!input) return null
  const cleaned = input
    .normalize('NFKC')
    .replace(/[\p{Cc}\p{Cf}\p{Cs}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, SEARCH_MAX_CHARS)
  return /[\p{L}\p{N}]/u.test(cleaned) ? cleaned : null
}

/** `quick fox` → `'fox':* & 'quick':*`, built by Postgres from its own lexemes; null when none. */
export async function prefixQuery(tx: Tx, text: string): Promise<string | null> {
  const { rows } = await sql<{ query: string | null }>`
    select to_tsquery('simple', string_agg(
             '''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || ''':*', ' & '
           ))::text as query
      from unnest(tsvector_to_array(to_tsvector('simple', ${text}))) as lexeme
  `.execute(tx)
  const query = rows[0]?.query
  return query ? query : null
}

