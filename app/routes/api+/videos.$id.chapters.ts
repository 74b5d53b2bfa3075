import { z } from 'zod'
import { optionalCaller, requireCaller } from '~/server/api/caller.server'
import { chaptersOf } from '~/server/api/chapters.server'
import { apiRoute, readBody } from '~/server/api/route.server'
import { getChapters, saveChapters } from '~/server/chapters.server'

/**
 * GET /api/videos/:id/chapters — the chapters of a video the caller (or a visitor) can see;
 * PUT `{ chapters: [{ start, title }] }` — its creator or an admin replaces them (ADR 0042).
 */
const api = apiRoute({
  GET: async ({ request, params, clientIp }) => {
    const caller = await optionalCaller(request, clientIp)
    const { chapters } = await getChapters(caller?.claims ?? null, params.id ?? '')
    return { chapters }
  },
  PUT: async ({ request, params, clientIp }) => {
    const caller = await requireCaller(request, clientIp)
    const body = await readBody(request, z.unknown())
    return { chapters: await saveChapters(caller.claims, params.id ?? '', chaptersOf(body)) }
  },
})
export const loader = api.loader
export const action = api.action
