import { apiLogin } from '~/server/api/auth.server'
import { apiRoute, readBody } from '~/server/api/route.server'
import { LoginBody } from '~/server/api/schemas.server'

/** POST /api/auth/login — `{ token, refreshToken, expiresAt, user }`; refusals in `error` (docs/product.md, The JSON API; Rules and messages). */
const api = apiRoute({
  POST: async ({ request, clientIp }) => apiLogin(await readBody(request, LoginBody.partial().passthrough()), clientIp),
})
export const loader = api.loader
export const action = api.action
