import { apiSignup } from '~/server/api/auth.server'
import { apiRoute, json, readBody } from '~/server/api/route.server'
import { z } from 'zod'

/** POST /api/auth/signup — a learner or a creator (never an admin); `{ token, refreshToken, expiresAt, user }`. */
const api = apiRoute({
  POST: async ({ request, clientIp }) => json(await apiSignup(await readBody(request, z.unknown()), clientIp), 201),
})
export const loader = api.loader
export const action = api.action
