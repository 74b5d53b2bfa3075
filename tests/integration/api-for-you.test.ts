import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_MESSAGES } from '../../app/lib/schemas/api'
import { listSparkFeed } from '../../app/server/for-you.server'
import { call, tokenFor } from './support/api-client'
import { openVideoFixture, type Person, type VideoFixture } from './support/video-fixture'

/**
 * The ranked sparks feeds through /api (ADR 0045): GET /api/videos/shorts?feed= gives the
 * viewer's own order with a `reason` per clip and pages by X-Next-Cursor; POST
 * /api/videos/{id}/not-interested moves a clip down. Every JSON answer is checked
 * against the OpenAPI document by `call`.
 */
const MISSING = '00000000-0000-4000-8000-000000000000'

let fixture: VideoFixture
let maya: Person
let noah: Person
let learner: Person
let token: string
const sparks: string[] = []

beforeAll(async () => {
  fixture = await openVideoFixture('postgres')
  ;[maya, noah, learner] = await Promise.all([fixture.makeUser('creator'), fixture.makeUser('creator'), fixture.makeUser('user')])
  for (let i = 0; i < 6; i++) sparks.push(await fixture.makeVideo(i % 2 ? maya : noah))
  await fixture.running.database.pool.query(
    `update public.videos set type = 'spark', created_at = now() - make_interval(days => 5) where id = any($1)`,
    [sparks],
  )
  await fixture.running.database.pool.query('insert into public.follows (follower_id, creator_id) values ($1, $2)', [
    learner.id,
    maya.id,
  ])
  token = await tokenFor(fixture, learner)
}, 120_000)

afterAll(async () => {
  await fixture?.close()
})

describe('GET /api/videos/shorts?feed=', () => {
  it('refuses an unknown feed with 400 and a field error', async () => {
    const answer = await call('GET', '/videos/shorts?feed=trending', { token })
    expect(answer.status).toBe(400)
    expect(answer.json).toEqual({ error: API_MESSAGES.unknownFeed, fieldErrors: { feed: API_MESSAGES.unknownFeed } })
  })

  it('gives For You in the viewer’s order, with a reason per clip, page after page', async () => {
    const ids: string[] = []
    const reasons: string[] = []
    let cursor: string | null = null
    for (let guard = 0; guard < 10; guard++) {
      const answer = await call('GET', `/videos/shorts?feed=for-you&limit=2${cursor ? `&cursor=${cursor}` : ''}`, { token })
      expect(answer.status).toBe(200)
      const list = answer.body as { _id: string; reason: { kind: string; text: string } }[]
      ids.push(...list.map((video) => video._id))
      reasons.push(...list.map((video) => video.reason.text))
      cursor = answer.headers.get('X-Next-Cursor')
      if (!cursor) break
    }
    expect([...ids].sort()).toEqual([...sparks].sort())
    const viewer = await listSparkFeed(learner.claims, { feed: 'for-you', limit: 50 })
    expect(ids).toEqual(viewer.items.map((item) => item.id))
    expect(reasons.slice(0, 2)).toEqual(Array(2).fill(`Because you follow ${viewer.items[0]!.creator.username}`))
  })

  it('gives Following (only the followed creator’s clips), and visitors an empty Following', async () => {
    const answer = await call('GET', '/videos/shorts?feed=following&limit=50', { token })
    const list = answer.body as { creator: { _id: string } }[]
    expect(list).toHaveLength(3)
    expect(list.every((video) => video.creator._id === maya.id)).toBe(true)
    expect((await call('GET', '/videos/shorts?feed=following')).body).toEqual([])
    expect(((await call('GET', '/videos/shorts?feed=for-you&limit=50')).body as unknown[]).length).toBe(6)
  })
})

describe('POST /api/videos/{id}/not-interested', () => {
  it('401 without a token, 404 for a clip that is not there, 400 for a bad body', async () => {
    expect((await call('POST', `/videos/${sparks[0]}/not-interested`, { json: {} })).status).toBe(401)
    expect((await call('POST', `/videos/${MISSING}/not-interested`, { token, json: {} })).status).toBe(404)
    const bad = await call('POST', `/videos/${sparks[0]}/not-interested`, { token, json: { creator: 'yes' } })
    expect(bad.status).toBe(400)
    expect(bad.json).toMatchObject({ fieldErrors: { creator: 'creator must be true or false' } })
  })

  it('moves the clip and, when asked, its creator’s clips down', async () => {
    const before = (await listSparkFeed(learner.claims, { feed: 'for-you', limit: 50 })).items.map((item) => item.id)
    const top = before[0]!
    const answer = await call('POST', `/videos/${top}/not-interested`, { token, json: { creator: true } })
    expect(answer.status).toBe(200)
    expect(answer.json).toEqual({ videoId: top, creatorId: maya.id })
    const after = (await listSparkFeed(learner.claims, { feed: 'for-you', limit: 50 })).items
    expect(after.at(-1)!.id).toBe(top)
    expect(after[0]!.creator.id).toBe(noah.id)
  })
})
