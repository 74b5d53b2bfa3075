import { apiForgotPassword } from '~/server/api/auth.server'
import { apiRoute, readBody } from '~/server/api/route.server'
import { z } from 'zod'

/** POST /api/auth/forgot-password — `{ message }`; a refusal carries its text in `message` too (docs/product.md, The JSON API). */
const api = apiRoute(
  { POST: async ({ request, clientIp }) => apiForgotPassword(await readBody(request, z.unknown()), clientIp) },
  { messageField: true },
)
export const loader = api.loader
export const action = api.action
