import { optionalCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { publicUserShape } from '~/server/api/shapes.server'
import { pagedJson, pageQuery } from '~/server/api/users.server'
import { listCreators } from '~/server/creators.server'

/** GET /api/users/creators — Discover Creators (`search`, `cursor`, `limit`; X-Total-Count, X-Next-Cursor). */
const api = apiRoute({
  GET: async ({ request, url, clientIp }) => {
    const caller = await optionalCaller(request, clientIp)
    const page = await listCreators(caller?.claims ?? null, { ...pageQuery(url), search: url.searchParams.get('search') })
    return pagedJson(page.items.map(publicUserShape), page.nextCursor, page.total)
  },
})
export const loader = api.loader
export const action = api.action
