import { renderApiDocs } from '~/server/api/docs.server'
import { apiRoute } from '~/server/api/route.server'

/** GET /api/docs — the API reference, readable, made from the OpenAPI document. */
const api = apiRoute({
  GET: async () =>
    new Response(renderApiDocs(), {
      headers: {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy':
          "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        'Cache-Control': 'public, max-age=300',
      },
    }),
})
export const loader = api.loader
export const action = api.action
