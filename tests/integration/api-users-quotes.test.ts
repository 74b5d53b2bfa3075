import { openAsBlob } from 'node:fs'
import { open, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { action as followPageAction } from '../../app/routes/_discover+/follow'
import { action as videoPageAction } from '../../app/routes/_watch+/video.$id'
import { API_MESSAGES } from '../../app/lib/schemas/api'
import { AUTH_MESSAGES } from '../../app/lib/schemas/auth'
import { CREATOR_MESSAGES } from '../../app/lib/schemas/creators'
import { DASHBOARD_MESSAGES } from '../../app/lib/schemas/dashboard'
import { QUOTE_MESSAGES } from '../../app/lib/schemas/quote'
import { VIDEO_MESSAGES } from '../../app/lib/schemas/video'
import { call, tokenFor } from './support/api-client'
import { ffmpeg, makeClip, scratchDir } from './media/clips'
import { openVideoFixture, sessionCookieHeader, type Person, type VideoFixture } from './support/video-fixture'

/**
 * The users, follows, dashboard and quotes calls of /api (docs/product.md, The JSON API) in
 * PeerTube's check-params manner: 401, 403, 400 and 404 before the success
 * case; every JSON answer is checked against the OpenAPI schema by `call`.
 */
const MISSING = '00000000-0000-4000-8000-000000000000'
const MB = 1024 * 1024

let fixture: VideoFixture
let scratch: Awaited<ReturnType<typeof scratchDir>>
let creator: Person
let learner: Person
let other: Person
let admin: Person
let tokens: { creator: string; learner: string; other: string; admin: string }
let publicVideo: string
let privateVideo: string
const files = {} as Record<'picture' | 'bigPicture' | 'text' | 'clip', string>

beforeAll(async () => {
  fixture = await openVideoFixture('postgres')
  scratch = await scratchDir('api-users')
  ;[creator, learner, other, admin] = await Promise.all([
    fixture.makeUser('creator'),
    fixture.makeUser('user'),
    fixture.makeUser('user'),
    fixture.makeUser('admin'),
  ])
  publicVideo = await fixture.makeVideo(creator)
  privateVideo = await fixture.makeVideo(creator, { isPublic: false })
  tokens = {
    creator: await tokenFor(fixture, creator),
    learner: await tokenFor(fixture, learner),
    other: await tokenFor(fixture, other),
    admin: await tokenFor(fixture, admin),
  }
  const at = (name: string) => path.join(scratch.dir, name)
  files.picture = at('me.png')
  await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=64x64', '-frames:v', '1', files.picture])
  files.bigPicture = at('huge.jpg')
  const handle = await open(files.bigPicture, 'w')
  await handle.write(Buffer.from([0xff, 0xd8, 0xff, 0xe0]), 0, 4, 0)
  await handle.truncate(5 * MB + 1)
  await handle.close()
  files.clip = await makeClip(at('answer.mp4'), { width: 160, height: 90, seconds: 2 })
  files.text = at('response.mp4')
  await writeFile(files.text, 'Not a video at all, just words.\n'.repeat(50))
}, 120_000)

afterAll(async () => {
  await scratch?.remove()
  await fixture?.close()
})

const multipart = async (fields: Record<string, string>, file?: { name: string; path: string; type: string }) => {
  const data = new FormData()
  for (const [name, value] of Object.entries(fields)) data.set(name, value)
  if (file) data.set(file.name, await openAsBlob(file.path, { type: file.type }), path.basename(file.path))
  return data
}

describe('GET /api/users/creators, /users/:id and /users/:id/stats', () => {
  it('401 for a bad token; 404 for a malformed, unknown or learner id (no public page; stats only for unknown ids)', async () => {
    expect((await call('GET', '/users/creators', { token: 'bad' })).status).toBe(401)
    expect((await call('GET', `/users/${creator.id}`, { token: 'bad' })).status).toBe(401)
    for (const id of ['nope', MISSING, learner.id]) {
      const answer = await call('GET', `/users/${id}`, { token: tokens.other })
      expect(answer.status, id).toBe(404)
      expect(answer.json.error).toBe(CREATOR_MESSAGES.notFound)
      if (id !== learner.id) expect((await call('GET', `/users/${id}/stats`)).status, id).toBe(404)
    }
  })

  it('answers anyone’s stats: a learner has followers, following and 0 videos', async () => {
    const stats = await call('GET', `/users/${learner.id}/stats`)
    expect(stats.status).toBe(200)
    expect(stats.json).toEqual({ followers: 0, following: expect.any(Number), videos: 0 })
  })

  it('lists creators (with a total) and answers a creator’s public page, never their email', async () => {
    const list = await call('GET', '/users/creators?limit=50')
    expect(list.status).toBe(200)
    expect(Number(list.headers.get('X-Total-Count'))).toBeGreaterThanOrEqual(1)
    const card = (list.body as { _id: string }[]).find((person) => person._id === creator.id)
    expect(card).toMatchObject({ role: 'creator', isFollowed: false })
    const page = await call('GET', `/users/${creator.id}`, { token: tokens.learner })
    expect(page.json).toMatchObject({ _id: creator.id, role: 'creator', videoCount: 1, isSelf: false })
    expect(JSON.stringify(page.json)).not.toContain(creator.email)
    expect(JSON.stringify(list.body)).not.toContain('@example.test')
  })

  it('lists a pending creator to admins only, first the creators with public videos; X-Total-Count agrees', async () => {
    const pending = await fixture.makeUser('creator')
    await fixture.running.database.pool.query('update public.profiles set is_verified = false where id = $1', [pending.id])
    const ids = (body: unknown) => (body as { _id: string }[]).map((person) => person._id)
    for (const token of [undefined, tokens.learner, tokens.creator]) {
      const list = await call('GET', '/users/creators?limit=50', { token })
      expect(ids(list.body)[0]).toBe(creator.id)
      expect(ids(list.body)).not.toContain(pending.id)
      expect(Number(list.headers.get('X-Total-Count'))).toBe(ids(list.body).length)
    }
    const forAdmin = await call('GET', '/users/creators?limit=50', { token: tokens.admin })
    expect(ids(forAdmin.body)[0]).toBe(creator.id)
    expect(ids(forAdmin.body)).toContain(pending.id)
    expect(Number(forAdmin.headers.get('X-Total-Count'))).toBe(ids(forAdmin.body).length)
  })

  it('answers one’s own user object (with email) to oneself, learners included', async () => {
    const me = await call('GET', `/users/${learner.id}`, { token: tokens.learner })
    expect(me.json).toMatchObject({ _id: learner.id, email: learner.email, role: 'user' })
  })
})

describe('follows: POST /api/users/follow/:id, GET /users/following/status/:id, /users/:id/following', () => {
  it('401 signed out; 400 for a bad body, oneself or a learner; 404 for an unknown creator', async () => {
    expect((await call('POST', `/users/follow/${creator.id}`)).json.error).toBe(CREATOR_MESSAGES.loginToFollow)
    expect((await call('GET', `/users/following/status/${creator.id}`)).status).toBe(401)
    const badBody = await call('POST', `/users/follow/${creator.id}`, { token: tokens.learner, json: { follow: 'yes' } })
    expect(badBody.status).toBe(400)
    expect(badBody.json.fieldErrors).toHaveProperty('follow')
    expect((await call('POST', `/users/follow/${creator.id}`, { token: tokens.creator })).json.error).toBe(
      CREATOR_MESSAGES.cannotFollowSelf,
    )
    expect((await call('POST', `/users/follow/${other.id}`, { token: tokens.learner })).json.error).toBe(
      CREATOR_MESSAGES.notFollowable,
    )
    expect((await call('POST', `/users/follow/${MISSING}`, { token: tokens.learner })).status).toBe(404)
    expect((await call('POST', '/users/follow/nope', { token: tokens.learner })).status).toBe(404)
    expect((await call('GET', `/users/following/status/${MISSING}`, { token: tokens.learner })).status).toBe(404)
  })

  it('toggles, and the status, the stats and the following list agree', async () => {
    expect((await call('GET', `/users/following/status/${creator.id}`, { token: tokens.learner })).json).toEqual({
      isFollowing: false,
    })
    const followed = await call('POST', `/users/follow/${creator.id}`, { token: tokens.learner })
    expect(followed.json).toEqual({ isFollowing: true, isFollowed: true, followers: 1 })
    expect((await call('GET', `/users/following/status/${creator.id}`, { token: tokens.learner })).json).toEqual({
      isFollowing: true,
    })
    expect((await call('GET', `/users/${creator.id}/stats`)).json).toEqual({ followers: 1, following: 0, videos: 1 })
    const list = await call('GET', `/users/${learner.id}/following`, { token: tokens.learner })
    expect((list.body as { _id: string }[]).map((person) => person._id)).toEqual([creator.id])
    expect((await call('POST', `/users/follow/${creator.id}`, { token: tokens.learner })).json).toMatchObject({
      isFollowing: false,
      followers: 0,
    })
  })

  it('GET /users/:id/following: 401, 403 for someone else’s list, 404 for an unknown user', async () => {
    expect((await call('GET', `/users/${learner.id}/following`)).status).toBe(401)
    const theirs = await call('GET', `/users/${learner.id}/following`, { token: tokens.other })
    expect(theirs.status).toBe(403)
    expect(theirs.json.error).toBe(API_MESSAGES.ownFollowingOnly)
    expect((await call('GET', `/users/${MISSING}/following`, { token: tokens.other })).json.error).toBe(API_MESSAGES.userNotFound)
  })

  it('gives the same result as the page’s follow action on the same data', async () => {
    const cookie = await sessionCookieHeader(fixture, other)
    const viaPage = (await (
      (await followPageAction({
        request: new Request('http://lumen.test/follow', {
          method: 'POST',
          body: new URLSearchParams({ creatorId: creator.id, follow: 'true', js: '1' }),
          headers: { Cookie: cookie },
        }),
        params: {},
        context: { clientIp: '127.0.0.1' },
      })) as unknown as { data: { isFollowing: boolean; followers: number } }
    ).data) as { isFollowing: boolean; followers: number }
    const viaApi = await call('POST', `/users/follow/${creator.id}`, { token: tokens.other, json: { follow: true } })
    expect(viaApi.json).toEqual({
      isFollowing: viaPage.isFollowing,
      isFollowed: viaPage.isFollowing,
      followers: viaPage.followers,
    })
    await call('POST', `/users/follow/${creator.id}`, { token: tokens.other, json: { follow: false } })
  })
})

describe('GET /api/users/:id/liked-videos', () => {
  it('401, 403 for someone else’s, 404 for an unknown user — then one’s own likes', async () => {
    expect((await call('GET', `/users/${learner.id}/liked-videos`)).json.error).toBe(API_MESSAGES.noToken)
    expect((await call('GET', `/users/${learner.id}/liked-videos`, { token: tokens.other })).json.error).toBe(
      API_MESSAGES.ownLikesOnly,
    )
    expect((await call('GET', '/users/nope/liked-videos', { token: tokens.other })).status).toBe(404)
    await call('POST', `/videos/${publicVideo}/like`, { token: tokens.learner, json: { like: true } })
    const mine = await call('GET', `/users/${learner.id}/liked-videos`, { token: tokens.learner })
    expect(mine.body).toEqual([expect.objectContaining({ _id: publicVideo, hasLiked: true, likes: 1 })])
    await call('POST', `/videos/${publicVideo}/unlike`, { token: tokens.learner })
  })
})

describe('GET /api/users/:id/dashboard-stats and /fallback-dashboard-stats', () => {
  it('401 signed out; 403 for a learner and for another creator’s; 404 for an unknown user (admin)', async () => {
    expect((await call('GET', `/users/${creator.id}/dashboard-stats`)).json.error).toBe(DASHBOARD_MESSAGES.noUser)
    expect((await call('GET', `/users/${learner.id}/dashboard-stats`, { token: tokens.learner })).json.error).toBe(
      API_MESSAGES.dashboardRole,
    )
    expect((await call('GET', `/users/${admin.id}/dashboard-stats`, { token: tokens.creator })).json.error).toBe(
      DASHBOARD_MESSAGES.notYours,
    )
    expect((await call('GET', `/users/${MISSING}/dashboard-stats`, { token: tokens.admin })).status).toBe(404)
    expect((await call('GET', '/users/nope/fallback-dashboard-stats', { token: tokens.creator })).status).toBe(404)
  })

  it('answers the dashboard figures with 7 daily points (28 on request), to the creator and to an admin', async () => {
    const own = await call('GET', `/users/${creator.id}/dashboard-stats`, { token: tokens.creator })
    expect(own.status).toBe(200)
    expect(own.json).toMatchObject({ totalVideos: 2, totalViews: 0, days: 7 })
    expect(own.json.viewsOverTime).toHaveLength(7)
    expect(own.json.likesOverTime).toHaveLength(7)
    expect((own.json.recentUploads as { _id: string }[]).map((video) => video._id).sort()).toEqual(
      [publicVideo, privateVideo].sort(),
    )
    const wide = await call('GET', `/users/${creator.id}/dashboard-stats?days=28`, { token: tokens.admin })
    expect(wide.json.viewsOverTime).toHaveLength(28)
    expect((wide.json.recentUploads as unknown[]).length).toBe(2)
    const fallback = await call('GET', `/users/${creator.id}/fallback-dashboard-stats?days=90`, { token: tokens.creator })
    expect(fallback.json.viewsOverTime).toHaveLength(7)
  })
})

describe('PUT /api/users/profile', () => {
  it('401 signed out, 415 for a body that is not multipart', async () => {
    expect((await call('PUT', '/users/profile', { form: await multipart({ bio: 'x' }) })).json.error).toBe(
      CREATOR_MESSAGES.signInToEdit,
    )
    expect((await call('PUT', '/users/profile', { token: tokens.learner, json: { bio: 'x' } })).status).toBe(415)
  })

  it('400 with field errors for a bad username or categories, 409 for a taken name, 413 for a big picture', async () => {
    const bad = await call('PUT', '/users/profile', { token: tokens.learner, form: await multipart({ username: '  ' }) })
    expect(bad.status).toBe(400)
    expect(bad.json).toMatchObject({
      error: CREATOR_MESSAGES.profileFailed,
      fieldErrors: { username: AUTH_MESSAGES.usernameRequired },
    })
    const categories = await call('PUT', '/users/profile', {
      token: tokens.creator,
      form: await multipart({ categories: 'Physics, please' }),
    })
    expect(categories.json.fieldErrors).toEqual({ categories: API_MESSAGES.badCategories })
    const none = await call('PUT', '/users/profile', { token: tokens.creator, form: await multipart({ categories: '[]' }) })
    expect(none.json.fieldErrors).toEqual({ categories: AUTH_MESSAGES.categoryRequired })
    const creatorName = (await call('GET', `/users/${creator.id}`)).json.username as string
    const taken = await call('PUT', '/users/profile', {
      token: tokens.learner,
      form: await multipart({ username: creatorName.toUpperCase() }),
    })
    expect(taken.status).toBe(409)
    expect(taken.json.fieldErrors).toEqual({ username: AUTH_MESSAGES.usernameTaken })
    const big = await call('PUT', '/users/profile', {
      token: tokens.learner,
      form: await multipart({}, { name: 'profilePicture', path: files.bigPicture, type: 'image/jpeg' }),
    })
    expect(big.status).toBe(413)
    expect(big.json.fieldErrors).toEqual({ profilePicture: CREATOR_MESSAGES.pictureTooLarge })
    expect(await fixture.objectNames('avatars', `${learner.id}/`)).toEqual([])
  })

  it('saves bio, picture and (for creators) categories by name; fields left out keep their value', async () => {
    const saved = await call('PUT', '/users/profile', {
      token: tokens.learner,
      form: await multipart({ bio: 'I learn optics.' }, { name: 'profilePicture', path: files.picture, type: 'image/png' }),
    })
    expect(saved.status).toBe(200)
    expect(saved.json.message).toBe(CREATOR_MESSAGES.profileUpdated)
    expect(saved.json.user).toMatchObject({ _id: learner.id, bio: 'I learn optics.', email: learner.email })
    expect((saved.json.user as { profilePicture: string | null }).profilePicture).toBeTruthy()
    expect(await fixture.objectNames('avatars', `${learner.id}/`)).toHaveLength(1)
    const before = (await call('GET', `/users/${creator.id}`, { token: tokens.creator })).json
    const creatorSaved = await call('PUT', '/users/profile', {
      token: tokens.creator,
      form: await multipart({ categories: JSON.stringify(['Media', { name: 'Natural Sciences - Physics' }]) }),
    })
    expect((creatorSaved.json.user as { creatorCategories: unknown[] }).creatorCategories).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: 'media', status: 'pending' }),
        expect.objectContaining({ id: 'natural-sciences-physics', status: 'pending' }),
      ]),
    )
    expect(creatorSaved.json.user).toMatchObject({ username: before.username, bio: before.bio })
  })
})

describe('quotes', () => {
  let quoteId: string

  it('POST /quotes/upload-cloudinary: 401, 400 with the spec’s messages, 404 for a hidden video', async () => {
    expect((await call('POST', '/quotes/upload-cloudinary', { form: await multipart({ text: 'hi' }) })).status).toBe(401)
    const noVideo = await call('POST', '/quotes/upload-cloudinary', {
      token: tokens.learner,
      form: await multipart({ text: 'hi' }),
    })
    expect(noVideo.status).toBe(400)
    expect(noVideo.json).toMatchObject({
      error: QUOTE_MESSAGES.videoIdRequired,
      fieldErrors: { originalVideoId: QUOTE_MESSAGES.videoIdRequired },
    })
    const noText = await call('POST', '/quotes/upload-cloudinary', {
      token: tokens.learner,
      form: await multipart({ originalVideoId: publicVideo, quoteType: 'text', text: '  ' }),
    })
    expect(noText.json.error).toBe(QUOTE_MESSAGES.textRequired)
    const noFile = await call('POST', '/quotes/upload-cloudinary', {
      token: tokens.learner,
      form: await multipart({ originalVideoId: publicVideo, quoteType: 'video' }),
    })
    expect(noFile.json.fieldErrors).toEqual({ videoFile: QUOTE_MESSAGES.videoRequired })
    const renamed = await call('POST', '/quotes/upload-cloudinary', {
      token: tokens.learner,
      form: await multipart(
        { originalVideoId: publicVideo, quoteType: 'video' },
        { name: 'videoFile', path: files.text, type: 'video/mp4' },
      ),
    })
    expect(renamed.status).toBe(400)
    expect(renamed.json.fieldErrors).toHaveProperty('videoFile')
    expect(await fixture.objectNames('uploads', `${learner.id}/quotes/`)).toEqual([])
    const hidden = await call('POST', '/quotes/upload-cloudinary', {
      token: tokens.learner,
      form: await multipart({ originalVideoId: privateVideo, text: 'Sneaky' }),
    })
    expect(hidden.status).toBe(404)
  })

  it('POST /quotes/upload-cloudinary: 201 with the quote in the API’s shape', async () => {
    const created = await call('POST', '/quotes/upload-cloudinary', {
      token: tokens.learner,
      form: await multipart({ originalVideoId: publicVideo, quoteType: 'text', text: 'Light bends!' }),
    })
    expect(created.status).toBe(201)
    expect(created.json).toMatchObject({
      text: 'Light bends!',
      type: 'text',
      originalVideo: { _id: publicVideo, creator: { _id: creator.id } },
      responseVideo: null,
      likes: 0,
      hasLiked: false,
      creator: { _id: learner.id },
    })
    quoteId = created.json._id as string
  })

  it('POST /quotes/upload-cloudinary: 201 for a video response from a real clip, queued for processing', async () => {
    const created = await call('POST', '/quotes/upload-cloudinary', {
      token: tokens.other,
      form: await multipart(
        { originalVideoId: publicVideo, quoteType: 'video', text: 'My take', moment: '1' },
        { name: 'videoFile', path: files.clip, type: 'video/mp4' },
      ),
    })
    expect(created.status).toBe(201)
    expect(created.json).toMatchObject({ type: 'video', moment: 1, responseVideo: { status: 'processing' } })
    const jobs = await fixture.running.database.pool.query('select id from public.media_jobs where quote_id = $1', [
      created.json._id,
    ])
    expect(jobs.rows).toHaveLength(1)
    // Others see a response only once it is ready; its author sees it processing.
    const seen = (await call('GET', `/quotes/video/${publicVideo}`, { token: tokens.learner })).body as { _id: string }[]
    expect(seen.map((quote) => quote._id)).not.toContain(created.json._id)
    expect((await call('DELETE', `/quotes/${created.json._id as string}`, { token: tokens.other })).status).toBe(200)
    expect(await fixture.objectNames('uploads', `${other.id}/quotes/`)).toEqual([])
  })

  it('GET /quotes/video/:id, /quotes/user/:id and /quotes/:id: 401 bad token, 404s, then the quote', async () => {
    expect((await call('GET', `/quotes/video/${publicVideo}`, { token: 'bad' })).status).toBe(401)
    expect((await call('GET', `/quotes/video/${privateVideo}`, { token: tokens.learner })).json.error).toBe(
      VIDEO_MESSAGES.notFound,
    )
    expect((await call('GET', `/quotes/user/${MISSING}`)).json.error).toBe(API_MESSAGES.userNotFound)
    expect((await call('GET', '/quotes/nope')).json.error).toBe(VIDEO_MESSAGES.quoteNotFound)
    const byVideo = (await call('GET', `/quotes/video/${publicVideo}`)).body as { _id: string }[]
    expect(byVideo.map((quote) => quote._id)).toEqual([quoteId])
    const mine = (await call('GET', `/quotes/user/${learner.id}`, { token: tokens.learner })).body as { canDelete: boolean }[]
    expect(mine).toEqual([expect.objectContaining({ _id: quoteId, canDelete: true })])
    expect((await call('GET', `/quotes/${quoteId}`, { token: tokens.other })).json).toMatchObject({
      _id: quoteId,
      canDelete: false,
    })
  })

  it('POST /quotes/:id/like: 401, 400, 404 — then toggles', async () => {
    expect((await call('POST', `/quotes/${quoteId}/like`)).json.error).toBe(VIDEO_MESSAGES.loginToLikeQuote)
    expect((await call('POST', `/quotes/${quoteId}/like`, { token: tokens.other, json: { like: 1 } })).status).toBe(400)
    expect((await call('POST', `/quotes/${MISSING}/like`, { token: tokens.other })).status).toBe(404)
    expect((await call('POST', `/quotes/${quoteId}/like`, { token: tokens.other })).json).toEqual({ likes: 1, hasLiked: true })
    expect((await call('GET', `/quotes/${quoteId}`, { token: tokens.other })).json).toMatchObject({ likes: 1, hasLiked: true })
    expect((await call('POST', `/quotes/${quoteId}/like`, { token: tokens.other })).json).toEqual({ likes: 0, hasLiked: false })
  })

  it('gives the same result as the video page’s quote-like action on the same data', async () => {
    const cookie = await sessionCookieHeader(fixture, other)
    const page = async (like: 'true' | 'false') =>
      (
        (await videoPageAction({
          request: new Request(`http://lumen.test/video/${publicVideo}`, {
            method: 'POST',
            body: new URLSearchParams({ intent: 'quote-like', targetId: quoteId, like, js: '1' }),
            headers: { Cookie: cookie },
          }),
          params: { id: publicVideo },
          context: { clientIp: '127.0.0.1' },
        })) as unknown as { data: { likes: number; hasLiked: boolean } }
      ).data
    const viaPage = await page('true')
    await page('false')
    const viaApi = await call('POST', `/quotes/${quoteId}/like`, { token: tokens.other, json: { like: true } })
    expect(viaApi.json).toEqual({ likes: viaPage.likes, hasLiked: viaPage.hasLiked })
    await call('POST', `/quotes/${quoteId}/like`, { token: tokens.other, json: { like: false } })
  })

  it('DELETE /quotes/:id: 401, 403 for someone else, 404 — then its author deletes it', async () => {
    expect((await call('DELETE', `/quotes/${quoteId}`)).json.error).toBe(VIDEO_MESSAGES.loginToDeleteQuote)
    const theirs = await call('DELETE', `/quotes/${quoteId}`, { token: tokens.creator })
    expect(theirs.status).toBe(403)
    expect(theirs.json.error).toBe(VIDEO_MESSAGES.notYourQuote)
    expect((await call('DELETE', '/quotes/nope', { token: tokens.learner })).status).toBe(404)
    expect((await call('DELETE', `/quotes/${quoteId}`, { token: tokens.learner })).json).toEqual({
      message: VIDEO_MESSAGES.quoteDeleted,
    })
    expect((await call('GET', `/quotes/${quoteId}`)).status).toBe(404)
  })
})

describe('bad input never answers 500', () => {
  it('odd ids, cursors, query values and bodies are 4xx or a plain answer', async () => {
    const odd = ["' or 1=1 --", 'x'.repeat(300), '%00', '..', MISSING.toUpperCase()]
    for (const id of odd) {
      const encoded = encodeURIComponent(id)
      for (const [method, path, json] of [
        ['GET', `/users/${encoded}`],
        ['GET', `/users/${encoded}/stats`],
        ['GET', `/users/${encoded}/liked-videos`],
        ['GET', `/users/${encoded}/following`],
        ['GET', `/users/${encoded}/dashboard-stats?days=abc`],
        ['GET', `/users/following/status/${encoded}`],
        ['POST', `/users/follow/${encoded}`, { follow: true }],
        ['GET', `/quotes/video/${encoded}`],
        ['GET', `/quotes/user/${encoded}`],
        ['GET', `/quotes/${encoded}`],
        ['POST', `/quotes/${encoded}/like`, { like: false }],
        ['DELETE', `/quotes/${encoded}`],
      ] as const) {
        const answer = await call(method, path, { token: tokens.admin, json, unchecked: true })
        expect(answer.status, `${method} ${path}`).toBeLessThan(500)
      }
    }
    for (const query of ['cursor=garbage&limit=-5', 'cursor=eyJhdCI6Im5vIn0&limit=9999']) {
      expect((await call('GET', `/users/${learner.id}/liked-videos?${query}`, { token: tokens.learner })).status).toBe(200)
      expect((await call('GET', `/users/${learner.id}/following?${query}`, { token: tokens.learner })).status).toBe(200)
      expect((await call('GET', `/users/creators?${query}&search=%25%27`)).status).toBe(200)
    }
    const notAnObject = await call('POST', `/users/follow/${creator.id}`, { token: tokens.learner, json: 'yes' })
    expect(notAnObject.status).toBe(400)
  })
})
