import { VIDEO_MESSAGES } from '~/lib/schemas/video'
import { requireCaller } from '~/server/api/caller.server'
import { apiRoute, json, readBody } from '~/server/api/route.server'
import { CommentBody } from '~/server/api/schemas.server'
import { commentShape } from '~/server/api/shapes.server'
import { addComment } from '~/server/comments.server'

/** POST /api/videos/:id/comment `{ text }` — the new comment (docs/product.md, Rules and messages: 'Please enter a comment'). */
const api = apiRoute({
  POST: async ({ request, params, clientIp }) => {
    const caller = await requireCaller(request, clientIp, VIDEO_MESSAGES.loginToComment)
    const body = await readBody(request, CommentBody.partial().passthrough())
    return json(commentShape(await addComment(caller.claims, params.id ?? '', body.text ?? '')), 201)
  },
})
export const loader = api.loader
export const action = api.action
