import { requireCaller } from '~/server/api/caller.server'
import { apiRoute } from '~/server/api/route.server'
import { siteUrlFor } from '~/server/env.server'
import { exportNotes, markdownDownloadHeaders } from '~/server/notes.server'

/** GET /api/notes/export?videoId= — the caller's notes (all, or one video's) as a Markdown attachment. */
const api = apiRoute({
  GET: async ({ request, url, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    const file = await exportNotes(caller.claims, { videoId: url.searchParams.get('videoId'), siteUrl: siteUrlFor(request.url) })
    return new Response(file.markdown, { headers: markdownDownloadHeaders(file.fileName) })
  },
})
export const loader = api.loader
export const action = api.action
