/**
 * The filters and page a browse URL asks for (`?search=&category=&cursor=&start=`),
 * as the feed, sparks and reels read them — and as their /api twins will.
 */
export function browseQuery(url: string | URL) {
  const params = new URL(url).searchParams
  return {
    filters: { search: params.get('search')?.slice(0, 200) ?? '', category: params.get('category') ?? '' },
    cursor: params.get('cursor'),
    start: params.get('start'),
  }
}
