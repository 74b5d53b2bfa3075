import { API_MESSAGES } from '~/lib/schemas/api'

/** Any other /api path: a JSON 404, never the pages' redirect to /login. */
const notFound = async () =>
  Response.json({ error: API_MESSAGES.notFound }, { status: 404, headers: { 'Cache-Control': 'no-store' } })
export const loader = notFound
export const action = notFound
