import { openAsBlob } from 'node:fs'
import { open, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { action as videoPageAction } from '../../app/routes/_watch+/video.$id'
import { API_MESSAGES, API_VIDEO_FILE_MISSING } from '../../app/lib/schemas/api'
import { UPLOAD_MESSAGES } from '../../app/lib/schemas/upload'
import { VIDEO_MESSAGES } from '../../app/lib/schemas/video'
import { sparkTooLongMessage } from '../../media/validate-upload'
import { call, tokenFor } from './support/api-client'
import { ffmpeg, makeClip, scratchDir } from './media/clips'
import { openVideoFixture, sessionCookieHeader, type Person, type VideoFixture } from './support/video-fixture'

/**
 * The video calls of /api in PeerTube's check-params manner: for each, the
 * 401, 403, 400 and 404 cases (where the call has them) before the success
 * case; every JSON answer is checked against the OpenAPI schema by `call`.
 */
const MISSING = '00000000-0000-4000-8000-000000000000'
const MB = 1024 * 1024

let fixture: VideoFixture
let scratch: Awaited<ReturnType<typeof scratchDir>>
let creator: Person
let learner: Person
let tokens: { creator: string; learner: string }
let publicVideo: string
let privateVideo: string
const files = {} as Record<'clip' | 'longClip' | 'text' | 'thumbnail' | 'bigThumbnail', string>

beforeAll(async () => {
  fixture = await openVideoFixture('postgres')
  scratch = await scratchDir('api-videos')
  ;[creator, learner] = await Promise.all([fixture.makeUser('creator'), fixture.makeUser('user')])
  await fixture.running.database.pool.query(
    `insert into public.creator_categories (creator_id, category_id, status) values ($1, 'natural-sciences-physics', 'approved') on conflict do nothing`,
    [creator.id],
  )
  publicVideo = await fixture.makeVideo(creator)
  privateVideo = await fixture.makeVideo(creator, { isPublic: false })
  await fixture.putMedia(publicVideo, creator)
  tokens = { creator: await tokenFor(fixture, creator), learner: await tokenFor(fixture, learner) }
  const at = (name: string) => path.join(scratch.dir, name)
  files.clip = await makeClip(at('lesson.mp4'), { width: 160, height: 90, seconds: 2 })
  files.longClip = await makeClip(at('seventy.mp4'), { width: 64, height: 36, seconds: 70, rate: 1, audio: false })
  files.text = at('notes.mp4')
  await writeFile(files.text, 'These are my lecture notes, not a video.\n'.repeat(100))
  files.thumbnail = at('thumbnail.png')
  await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=320x180', '-frames:v', '1', files.thumbnail])
  files.bigThumbnail = at('huge.jpg')
  const handle = await open(files.bigThumbnail, 'w')
  await handle.write(Buffer.from([0xff, 0xd8, 0xff, 0xe0]), 0, 4, 0)
  await handle.truncate(5 * MB + 1)
  await handle.close()
}, 120_000)

afterAll(async () => {
  await scratch?.remove()
  await fixture?.close()
})

describe('GET /api/videos and /api/videos/shorts', () => {
  it('401 for a bad token', async () => {
    expect((await call('GET', '/videos', { token: 'not-a-token' })).status).toBe(401)
  })
  it('lists ready public videos in the API’s shape, with the caller’s like', async () => {
    const answer = await call('GET', '/videos?type=feed&limit=50', { token: tokens.learner })
    expect(answer.status).toBe(200)
    const list = answer.body as { _id: string; isSpark: boolean; hasLiked: boolean; creator: { _id: string } }[]
    const item = list.find((video) => video._id === publicVideo)
    expect(item).toMatchObject({ isSpark: false, hasLiked: false, creator: { _id: creator.id } })
    expect(list.some((video) => video._id === privateVideo)).toBe(false)
  })
  it('filters by the category’s name or slug, and refuses an unknown one with 400 and a field error', async () => {
    // The fixture's videos are in the default category, 'other'.
    for (const category of ['Other', 'other']) {
      const answer = await call('GET', `/videos?type=feed&limit=50&category=${encodeURIComponent(category)}`)
      expect(answer.status, category).toBe(200)
      const list = answer.body as { _id: string; category: string; categoryId: string }[]
      expect(
        list.find((video) => video._id === publicVideo),
        category,
      ).toMatchObject({ category: 'Other', categoryId: 'other' })
    }
    const other = (await call('GET', `/videos?type=feed&category=${encodeURIComponent('Media')}`)).body as { _id: string }[]
    expect(other.some((video) => video._id === publicVideo)).toBe(false)
    for (const path of ['/videos?type=feed&category=Astrology', '/videos/shorts?category=Astrology']) {
      const unknown = await call('GET', path)
      expect(unknown.status, path).toBe(400)
      expect(unknown.json).toEqual({
        error: API_MESSAGES.unknownCategory,
        fieldErrors: { category: API_MESSAGES.unknownCategory },
      })
    }
  })
  it('lists sparks (none here) and pages past the end as an empty array', async () => {
    expect((await call('GET', '/videos/shorts')).body).toEqual([])
    expect((await call('GET', '/videos?page=99&limit=5')).body).toEqual([])
  })
})

describe('GET /api/videos/:id and /api/videos/creator/:id', () => {
  it('401 for a bad token; 404 for a malformed, unknown or hidden id', async () => {
    expect((await call('GET', `/videos/${publicVideo}`, { token: 'x.y.z' })).status).toBe(401)
    for (const id of ['not-a-uuid', MISSING, privateVideo]) {
      const answer = await call('GET', `/videos/${id}`, { token: tokens.learner })
      expect(answer.status, id).toBe(404)
      expect(answer.json.error).toBe(VIDEO_MESSAGES.notFound)
    }
    expect((await call('GET', `/videos/creator/${MISSING}`)).json).toEqual({ error: API_MESSAGES.creatorNotFound })
    expect((await call('GET', '/videos/creator/nope')).status).toBe(404)
  })
  it('answers the video, and the creator’s list (their private one only to them)', async () => {
    const answer = await call('GET', `/videos/${publicVideo}`, { token: tokens.learner })
    expect(answer.json).toMatchObject({
      _id: publicVideo,
      likes: 0,
      hasLiked: false,
      videoUrl: `/api/videos/${publicVideo}/stream`,
    })
    const theirs = (await call('GET', `/videos/creator/${creator.id}`, { token: tokens.learner })).body as { _id: string }[]
    expect(theirs.map((video) => video._id)).toEqual([publicVideo])
    const mine = (await call('GET', `/videos/creator/${creator.id}`, { token: tokens.creator })).body as { _id: string }[]
    expect(mine.map((video) => video._id).sort()).toEqual([publicVideo, privateVideo].sort())
  })
})

describe('POST /api/videos/:id/like and /unlike', () => {
  it('401 without a token, 400 for a bad body, 404 for a malformed or hidden id', async () => {
    expect((await call('POST', `/videos/${publicVideo}/like`)).json.error).toBe(VIDEO_MESSAGES.loginToLike)
    expect((await call('POST', `/videos/${publicVideo}/like`, { token: tokens.learner, json: { like: 'yes' } })).status).toBe(400)
    expect((await call('POST', '/videos/123/like', { token: tokens.learner })).status).toBe(404)
    expect((await call('POST', `/videos/${privateVideo}/unlike`, { token: tokens.learner })).status).toBe(404)
  })
  it('toggles, and /unlike removes', async () => {
    expect((await call('POST', `/videos/${publicVideo}/like`, { token: tokens.learner })).json).toEqual({
      likes: 1,
      hasLiked: true,
    })
    expect((await call('POST', `/videos/${publicVideo}/unlike`, { token: tokens.learner })).json).toEqual({
      likes: 0,
      hasLiked: false,
    })
  })
  it('gives the same result as the page’s like action on the same data', async () => {
    const cookie = await sessionCookieHeader(fixture, learner)
    const page = (like: 'true' | 'false') =>
      videoPageAction({
        request: new Request(`http://lumen.test/video/${publicVideo}`, {
          method: 'POST',
          body: new URLSearchParams({ intent: 'like', like, js: '1' }),
          headers: { Cookie: cookie },
        }),
        params: { id: publicVideo },
        context: { clientIp: '127.0.0.1' },
      }) as Promise<{ data: { likes: number; hasLiked: boolean } }>
    const viaPage = (await page('true')).data
    await page('false')
    const viaApi = (await call('POST', `/videos/${publicVideo}/like`, { token: tokens.learner, json: { like: true } })).json
    expect({ likes: viaPage.likes, hasLiked: viaPage.hasLiked }).toEqual(viaApi)
    await call('POST', `/videos/${publicVideo}/unlike`, { token: tokens.learner })
  })
})

describe('comments', () => {
  it('POST: 401, 400 (empty), 404 — then 201 with the comment', async () => {
    expect((await call('POST', `/videos/${publicVideo}/comment`, { json: { text: 'hi' } })).json.error).toBe(
      VIDEO_MESSAGES.loginToComment,
    )
    expect(
      (await call('POST', `/videos/${publicVideo}/comment`, { token: tokens.learner, json: { text: '   ' } })).json.error,
    ).toBe(VIDEO_MESSAGES.emptyComment)
    expect((await call('POST', `/videos/${privateVideo}/comment`, { token: tokens.learner, json: { text: 'hi' } })).status).toBe(
      404,
    )
    const added = await call('POST', `/videos/${publicVideo}/comment`, { token: tokens.learner, json: { text: 'Great lesson' } })
    expect(added.status).toBe(201)
    expect(added.json).toMatchObject({ text: 'Great lesson', user: { _id: learner.id } })
  })
  it('GET: 404 for a hidden video, the list otherwise', async () => {
    expect((await call('GET', `/videos/${privateVideo}/comments`, { token: tokens.learner })).status).toBe(404)
    const list = (await call('GET', `/videos/${publicVideo}/comments`, { token: tokens.learner })).body as { text: string }[]
    expect(list.map((comment) => comment.text)).toContain('Great lesson')
  })
})

describe('GET/HEAD /api/videos/:id/stream and /thumbnail', () => {
  it('401 without a token, 404 for a hidden video, then the bytes with Range', async () => {
    expect((await call('HEAD', `/videos/${publicVideo}/stream`)).status).toBe(401)
    expect((await call('GET', `/videos/${publicVideo}/stream`)).json.error).toBe(API_MESSAGES.loginToWatch)
    expect((await call('HEAD', `/videos/${privateVideo}/stream`, { token: tokens.learner })).status).toBe(404)
    expect((await call('GET', `/videos/${MISSING}/stream`, { token: tokens.learner })).json.error).toBe(API_VIDEO_FILE_MISSING)
    expect((await call('HEAD', `/videos/${publicVideo}/stream`, { token: tokens.learner })).status).toBe(200)
    const part = await call('GET', `/videos/${publicVideo}/stream`, { token: tokens.learner, headers: { Range: 'bytes=0-99' } })
    expect(part.status).toBe(206)
    expect(part.headers.get('Content-Type')).toBe('video/mp4')
    expect((part.body as ArrayBuffer).byteLength).toBe(100)
    expect(part.headers.get('Cache-Control')).toBe('private, max-age=31536000, immutable')
  })
  it('is revalidated while more qualities are coming: the same URL answers another MP4 after phase 2 (ADR 0025)', async () => {
    const pool = fixture.running.database.pool
    await pool.query('update public.videos set more_qualities_pending = true where id = $1', [publicVideo])
    try {
      const answer = await call('HEAD', `/videos/${publicVideo}/stream`, { token: tokens.learner })
      expect(answer.status).toBe(200)
      expect(answer.headers.get('Cache-Control')).toBe('private, no-cache')
    } finally {
      await pool.query('update public.videos set more_qualities_pending = false where id = $1', [publicVideo])
    }
  })
  it('serves the thumbnail of a visible video, 404 otherwise', async () => {
    expect((await call('GET', `/videos/${privateVideo}/thumbnail`, { token: tokens.learner })).status).toBe(404)
    const thumbnail = await call('GET', `/videos/${publicVideo}/thumbnail`, { token: tokens.learner })
    expect(thumbnail.status).toBe(200)
    expect(thumbnail.headers.get('Content-Type')).toBe('image/jpeg')
  })
})

describe('POST /api/videos/upload-cloudinary', () => {
  const form = async (video: string | null, thumbnail: string | null, fields: Record<string, string> = {}) => {
    const data = new FormData()
    data.set('description', 'Refraction, in two seconds.')
    data.set('category', 'Natural Sciences - Physics')
    for (const [name, value] of Object.entries(fields)) data.set(name, value)
    if (video) data.set('videoFile', await openAsBlob(video, { type: 'video/mp4' }), path.basename(video))
    if (thumbnail) data.set('thumbnailFile', await openAsBlob(thumbnail, { type: 'image/png' }), path.basename(thumbnail))
    return data
  }
  const rows = async () =>
    (await fixture.running.database.pool.query('select id from public.videos where creator_id = $1', [creator.id])).rows.length

  it('401 without a token, 403 for a learner', async () => {
    expect((await call('POST', '/videos/upload-cloudinary', { form: await form(files.clip, files.thumbnail) })).status).toBe(401)
    const learnerAnswer = await call('POST', '/videos/upload-cloudinary', {
      token: tokens.learner,
      form: await form(files.clip, files.thumbnail),
    })
    expect(learnerAnswer.status).toBe(403)
    expect(learnerAnswer.json.error).toBe(UPLOAD_MESSAGES.notCreator)
  })

  it('400 for a missing video and a renamed text file, 413 for an over-limit thumbnail — nothing left behind', async () => {
    const before = await rows()
    const none = await call('POST', '/videos/upload-cloudinary', {
      token: tokens.creator,
      form: await form(null, files.thumbnail),
    })
    expect(none.status).toBe(400)
    expect(none.json.error).toBe(UPLOAD_MESSAGES.noVideoProvided)
    const text = await call('POST', '/videos/upload-cloudinary', {
      token: tokens.creator,
      form: await form(files.text, files.thumbnail),
    })
    expect(text.status).toBe(400)
    expect(text.json.error).toContain(UPLOAD_MESSAGES.videoNotVideo)
    const big = await call('POST', '/videos/upload-cloudinary', {
      token: tokens.creator,
      form: await form(files.clip, files.bigThumbnail),
    })
    expect(big.status).toBe(413)
    expect(big.json.error).toBe(UPLOAD_MESSAGES.thumbnailTooLarge)
    expect(await rows()).toBe(before)
    expect(await fixture.objectNames('thumbnails', `${creator.id}/`)).toEqual([`${creator.id}/${publicVideo}-thumb.jpg`])
  })

  it('400 for an unknown category, with a field error — nothing stored', async () => {
    const before = await rows()
    const answer = await call('POST', '/videos/upload-cloudinary', {
      token: tokens.creator,
      form: await form(files.clip, files.thumbnail, { category: 'Astrology' }),
    })
    expect(answer.status).toBe(400)
    expect(answer.json.fieldErrors).toEqual({ category: API_MESSAGES.unknownCategory })
    expect(await rows()).toBe(before)
  })

  it('400 for a spark of 70 s, with the spec’s message — nothing stored', async () => {
    const before = await rows()
    const uploadsBefore = await fixture.objectNames('uploads', `${creator.id}/`)
    const thumbnailsBefore = await fixture.objectNames('thumbnails', `${creator.id}/`)
    const answer = await call('POST', '/videos/upload-cloudinary', {
      token: tokens.creator,
      form: await form(files.longClip, files.thumbnail, { isSpark: 'true', title: 'Too long for a spark' }),
    })
    expect(answer.status).toBe(400)
    expect(answer.json.error).toBe(sparkTooLongMessage(70))
    expect(answer.json.fieldErrors).toMatchObject({ videoFile: sparkTooLongMessage(70) })
    expect(await rows()).toBe(before)
    expect(await fixture.objectNames('uploads', `${creator.id}/`)).toEqual(uploadsBefore)
    expect(await fixture.objectNames('thumbnails', `${creator.id}/`)).toEqual(thumbnailsBefore)
  })

  it('201 with the new video (title defaults to Untitled), queued for processing', async () => {
    const answer = await call('POST', '/videos/upload-cloudinary', {
      token: tokens.creator,
      form: await form(files.clip, files.thumbnail, { isSpark: 'true', isPublic: 'false' }),
    })
    expect(answer.status).toBe(201)
    expect(answer.json).toMatchObject({
      title: 'Untitled',
      isSpark: true,
      isPublic: false,
      category: 'Natural Sciences - Physics',
      categoryId: 'natural-sciences-physics',
    })
    const jobs = await fixture.running.database.pool.query('select id from public.media_jobs where video_id = $1', [
      answer.json._id,
    ])
    expect(jobs.rows).toHaveLength(1)
  })
})

describe('DELETE /api/videos/:id', () => {
  it('401 without a token, 403 for someone else, 404 for a malformed or unknown id, then deletes', async () => {
    expect((await call('DELETE', `/videos/${publicVideo}`)).json.error).toBe(VIDEO_MESSAGES.noToken)
    expect((await call('DELETE', `/videos/${publicVideo}`, { token: tokens.learner })).json.error).toBe(
      VIDEO_MESSAGES.notYourVideo,
    )
    expect((await call('DELETE', '/videos/nope', { token: tokens.creator })).status).toBe(404)
    expect((await call('DELETE', `/videos/${MISSING}`, { token: tokens.creator })).status).toBe(404)
    const deleted = await call('DELETE', `/videos/${publicVideo}`, { token: tokens.creator })
    expect(deleted.json).toEqual({ message: VIDEO_MESSAGES.deleted })
    expect((await call('GET', `/videos/${publicVideo}`, { token: tokens.creator })).status).toBe(404)
  })
})
