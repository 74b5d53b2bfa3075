/**
 * The filters and page a browse URL asks for (`?search=&category=&captions=1&cursor=&start=`),
 * as the feed, sparks and reels read them — and as their /api twins will.
 */
export function browseQuery(url: string | URL) {
  const params = new URL(url).searchParams
  return {
    filters: {
      search: params.get('search')?.slice(0, 200) ?? '',
      category: params.get('category') ?? '',
      /** "Has captions" (ADR 0019). */
      captions: params.get('captions') === '1',
    },
    cursor: params.get('cursor'),
    start: params.get('start'),
    shown: shownCount(params.get('shown')),
  }
}

/** The most cards a no-JS "Load more" shows on one page (`?shown=`); past it, the list pages by cursor. */
export const MAX_SHOWN = 50

/**
 * `?shown=N` (1…50): a no-JS "Load more" asks for the first N cards, so the
 * page shows everything up to the new page instead of only the new cards.
 */
function shownCount(value: string | null): number | null {
  if (!value || !/^\d{1,3}$/.test(value)) return null
  const count = Number(value)
  return count >= 1 && count <= MAX_SHOWN ? count : null
}

/** How many cards the first page loads: a page, or everything up to `shown` (never with a cursor). */
export function firstPageSize(pageSize: number, query: { cursor: string | null; shown: number | null }): number {
  return query.shown && !query.cursor ? Math.max(pageSize, query.shown) : pageSize
}
