import { apiCheckEmail } from '~/server/api/auth.server'
import { apiRoute, readBody } from '~/server/api/route.server'
import { z } from 'zod'

/** POST /api/auth/check-email?email= — `{ exists }`, throttled per address (docs/product.md, The JSON API). */
const api = apiRoute({
  POST: async ({ request, url, clientIp }) => {
    const body = (await readBody(request, z.record(z.unknown()).catch({}))) as Record<string, unknown>
    return apiCheckEmail(url.searchParams.get('email') ?? body.email, clientIp)
  },
})
export const loader = api.loader
export const action = api.action
