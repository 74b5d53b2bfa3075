import { apiRoute } from '~/server/api/route.server'
import { openApiDocument } from '~/server/api/openapi.server'

/** GET /api/openapi.json — the OpenAPI 3.1 document, generated from the zod schemas the API answers with. */
const api = apiRoute({
  GET: async () => Response.json(openApiDocument(), { headers: { 'Cache-Control': 'public, max-age=300' } }),
})
export const loader = api.loader
export const action = api.action
