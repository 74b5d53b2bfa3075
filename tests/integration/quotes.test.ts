import { randomUUID } from 'node:crypto'
import { readFile, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { QUOTE_MESSAGES, type QuoteValues } from '../../app/lib/schemas/quote'
import { VIDEO_MESSAGES } from '../../app/lib/schemas/video'
import { likeQuote } from '../../app/server/likes.server'
import {
  createQuote,
  deleteQuote,
  getQuote,
  listMyQuotes,
  listQuotes,
  listUserQuotes,
  originalVideo,
  type QuoteAuthor,
} from '../../app/server/quotes.server'
import { nodeRealtimeOptions } from '../../db/supabase-node'
import { makeClip, scratchDir } from './media/clips'
import { refusal } from './support/refusal'
import { openVideoFixture, type Person, type VideoFixture } from './support/video-fixture'

/**
 * The quote service (ADR 0014) against a migrated PostgreSQL and the Storage
 * stand-in: text quotes and video responses as any signed-in user, checked by
 * content whichever way the file came (posted, or uploaded first with tus);
 * the spec's messages for each refusal, with no row and no object left
 * behind; a response hidden from others until it is ready; My Quotes; and
 * deleting (author or admin) taking the row, its likes and its files.
 */

interface Account extends Person {
  author: QuoteAuthor
  client: SupabaseClient
}

let fixture: VideoFixture
let scratch: Awaited<ReturnType<typeof scratchDir>>
let creator: Person
let learner: Account
let other: Account
let admin: Account
let publicVideo: string
let privateVideo: string
const files = {} as Record<'clip' | 'text', string>

const text = (videoId: string, body: string, moment = ''): QuoteValues => ({ videoId, type: 'text', text: body, moment })
const video = (videoId: string, body = ''): QuoteValues => ({ videoId, type: 'video', text: body, moment: '' })
const posted = async (file: string) => ({ path: file, size: (await stat(file)).size, tooLarge: false })

beforeAll(async () => {
  fixture = await openVideoFixture('postgres')
  scratch = await scratchDir('quotes-it')
  const account = async (role: 'user' | 'admin'): Promise<Account> => {
    const person = await fixture.makeUser(role)
    const client = createClient(fixture.running.url, fixture.running.anonKey, {
      ...nodeRealtimeOptions,
      auth: { persistSession: false, autoRefreshToken: false },
    })
    const { error } = await client.auth.signInWithPassword({ email: person.email, password: person.password })
    if (error) throw error
    return { ...person, client, author: { claims: person.claims, supabase: client as QuoteAuthor['supabase'] } }
  }
  creator = await fixture.makeUser('creator')
  ;[learner, other, admin] = await Promise.all([account('user'), account('user'), account('admin')])
  publicVideo = await fixture.makeVideo(creator)
  privateVideo = await fixture.makeVideo(creator, { isPublic: false })
  files.clip = await makeClip(path.join(scratch.dir, 'answer.mp4'), { width: 320, height: 180, seconds: 2 })
  files.text = path.join(scratch.dir, 'notes.mp4')
  await writeFile(files.text, 'These are my lecture notes, not a video.\n'.repeat(100))
}, 120_000)

afterAll(async () => {
  await scratch?.remove()
  await fixture?.close()
})

async function quoteRows(userId: string): Promise<number> {
  const { rows } = await fixture.running.database.pool.query<{ n: number }>(
    'select count(*)::int as n from public.quotes where user_id = $1',
    [userId],
  )
  return rows[0]!.n
}

describe('createQuote', () => {
  it('refuses with the spec messages before anything is stored', async () => {
    expect(await refusal(createQuote(learner.author, { values: text('', 'Hi'), sourcePath: null, video: null }))).toEqual({
      status: 400,
      message: QUOTE_MESSAGES.videoIdRequired,
    })
    expect(
      await refusal(createQuote(learner.author, { values: text(publicVideo, '   '), sourcePath: null, video: null })),
    ).toEqual({
      status: 400,
      message: QUOTE_MESSAGES.textRequired,
    })
    expect(await refusal(createQuote(learner.author, { values: video(publicVideo), sourcePath: null, video: null }))).toEqual({
      status: 400,
      message: QUOTE_MESSAGES.videoRequired,
    })
    const tooLarge = { path: null, size: 104_857_601, tooLarge: true }
    expect(await refusal(createQuote(learner.author, { values: video(publicVideo), sourcePath: null, video: tooLarge }))).toEqual(
      {
        status: 413,
        message: QUOTE_MESSAGES.videoTooLarge,
      },
    )
    expect(await quoteRows(learner.id)).toBe(0)
  })

  it('answers 404 for a video the caller cannot see (the insert policy agrees)', async () => {
    expect(
      await refusal(createQuote(learner.author, { values: text(privateVideo, 'Sneaky'), sourcePath: null, video: null })),
    ).toEqual({
      status: 404,
      message: VIDEO_MESSAGES.notFound,
    })
    expect(await originalVideo(learner.claims, privateVideo)).toBeNull()
    expect(await originalVideo(learner.claims, publicVideo)).toMatchObject({ id: publicVideo, playable: true })
  })

  it('refuses a file that is not a video by its content, leaving no row and no object', async () => {
    const failure = await refusal(
      createQuote(learner.author, { values: video(publicVideo), sourcePath: null, video: await posted(files.text) }),
    )
    expect(failure).toEqual({ status: 400, message: expect.stringMatching(/^Please select a valid video file/) })
    // The same file uploaded first (as the browser's tus upload would) is removed again.
    const name = `${learner.id}/quotes/${randomUUID()}.mp4`
    const { error } = await learner.client.storage
      .from('uploads')
      .upload(name, await readFile(files.text), { contentType: 'video/mp4' })
    expect(error).toBeNull()
    expect(await refusal(createQuote(learner.author, { values: video(publicVideo), sourcePath: name, video: null }))).toEqual({
      status: 400,
      message: expect.stringMatching(/^Please select a valid video file/),
    })
    expect(await fixture.objectNames('uploads', `${learner.id}/`)).toEqual([])
    expect(await quoteRows(learner.id)).toBe(0)
  })

  it('refuses another user’s object named as the response', async () => {
    const name = `${other.id}/quotes/${randomUUID()}.mp4`
    await other.client.storage.from('uploads').upload(name, await readFile(files.clip), { contentType: 'video/mp4' })
    expect(await refusal(createQuote(learner.author, { values: video(publicVideo), sourcePath: name, video: null }))).toEqual({
      status: 400,
      message: QUOTE_MESSAGES.sourceMissing,
    })
    expect(await fixture.objectNames('uploads', `${other.id}/`)).toEqual([name])
  })

  it('creates a text quote with a moment, and refuses a moment past the end', async () => {
    expect(
      await refusal(createQuote(learner.author, { values: text(publicVideo, 'Too far', '30'), sourcePath: null, video: null })),
    ).toEqual({ status: 400, message: QUOTE_MESSAGES.badMoment })
    const { quoteId, videoId } = await createQuote(learner.author, {
      values: text(publicVideo, 'The bit at one second is key', '1.5'),
      sourcePath: null,
      video: null,
    })
    expect(videoId).toBe(publicVideo)
    const [first] = await listQuotes(other.claims, publicVideo)
    expect(first).toMatchObject({ id: quoteId, type: 'text', moment: 1.5, canDelete: false, response: null })
  })

  it('creates a video response from a posted file: processing for its author, hidden from others until ready', async () => {
    const { quoteId } = await createQuote(learner.author, {
      values: video(publicVideo, 'My answer'),
      sourcePath: null,
      video: await posted(files.clip),
    })
    const stored = await fixture.objectNames('uploads', `${learner.id}/quotes/`)
    expect(stored).toHaveLength(1)
    const { rows: jobs } = await fixture.running.database.pool.query('select kind from public.media_jobs where quote_id = $1', [
      quoteId,
    ])
    expect(jobs).toEqual([{ kind: 'transcode_quote' }])

    expect((await listQuotes(learner.claims, publicVideo)).find((quote) => quote.id === quoteId)?.response?.status).toBe(
      'processing',
    )
    expect((await listQuotes(admin.claims, publicVideo)).some((quote) => quote.id === quoteId)).toBe(true)
    expect((await listQuotes(other.claims, publicVideo)).some((quote) => quote.id === quoteId)).toBe(false)
    expect((await listQuotes(null, publicVideo)).some((quote) => quote.id === quoteId)).toBe(false)
    expect(await refusal(getQuote(other.claims, quoteId))).toEqual({ status: 404, message: VIDEO_MESSAGES.quoteNotFound })

    // The worker's verdict, as it writes it.
    await fixture.running.database.pool.query(
      `update public.quotes set response_status = 'ready', response_hls_path = $2, response_mp4_path = $3, response_poster_path = $4 where id = $1`,
      [quoteId, `quotes/${quoteId}/hls/master.m3u8`, `quotes/${quoteId}/video.mp4`, `quotes/${quoteId}/poster.jpg`],
    )
    const seen = (await listQuotes(other.claims, publicVideo)).find((quote) => quote.id === quoteId)
    expect(seen?.response).toMatchObject({ status: 'ready', hlsPath: `quotes/${quoteId}/hls/master.m3u8` })
    const single = await getQuote(other.claims, quoteId)
    expect(single.response).toMatchObject({
      hlsUrl: `/media/quotes/${quoteId}/hls/master.m3u8`,
      posterUrl: `/media/quotes/${quoteId}/poster.jpg`,
    })
    expect(single.originalVideo).toMatchObject({ id: publicVideo, hlsUrl: `/media/videos/${publicVideo}/hls/master.m3u8` })
  })

  it('creates a video response from the browser’s tus upload (named by sourcePath)', async () => {
    const name = `${other.id}/quotes/${randomUUID()}.mp4`
    const { error } = await other.client.storage
      .from('uploads')
      .upload(name, await readFile(files.clip), { contentType: 'video/mp4' })
    expect(error).toBeNull()
    const { quoteId } = await createQuote(other.author, { values: video(publicVideo), sourcePath: name, video: null })
    const { rows } = await fixture.running.database.pool.query('select response_source_path from public.quotes where id = $1', [
      quoteId,
    ])
    expect(rows[0].response_source_path).toBe(name)
    // The same object cannot become a second quote.
    expect(await refusal(createQuote(other.author, { values: video(publicVideo), sourcePath: name, video: null }))).toEqual({
      status: 400,
      message: QUOTE_MESSAGES.sourceMissing,
    })
  })
})

describe('My Quotes, likes and delete', () => {
  it('lists a user’s quotes with their original, newest first', async () => {
    const mine = await listMyQuotes(learner.claims)
    expect(mine.map((quote) => quote.type)).toEqual(['video', 'text'])
    expect(mine[0]).toMatchObject({ canDelete: true, originalVideo: { id: publicVideo, creator: { id: creator.id } } })
    expect(await listUserQuotes(other.claims, 'nope')).toEqual([])
  })

  it('likes a quote, then the author deletes it with its likes and files; others get 403/404/401', async () => {
    const [quote] = await listMyQuotes(learner.claims)
    expect(await likeQuote(other.claims, quote!.id, true)).toEqual({ likes: 1, hasLiked: true })
    expect((await listMyQuotes(learner.claims))[0]!.likes).toBe(1)

    expect(await refusal(deleteQuote(null, quote!.id))).toEqual({ status: 401, message: VIDEO_MESSAGES.loginToDeleteQuote })
    expect(await refusal(deleteQuote(other.claims, quote!.id))).toEqual({ status: 403, message: VIDEO_MESSAGES.notYourQuote })
    expect(await refusal(deleteQuote(other.claims, randomUUID()))).toEqual({ status: 404, message: VIDEO_MESSAGES.quoteNotFound })

    expect(await deleteQuote(learner.claims, quote!.id)).toBe(VIDEO_MESSAGES.quoteDeleted)
    const pool = fixture.running.database.pool
    expect((await pool.query('select 1 from public.quote_likes where quote_id = $1', [quote!.id])).rowCount).toBe(0)
    expect(await fixture.objectNames('uploads', `${learner.id}/quotes/`)).toEqual([])
  })

  it('lets an admin delete anyone’s quote', async () => {
    const [quote] = await listUserQuotes(admin.claims, other.id)
    expect(quote!.canDelete).toBe(true)
    expect(await deleteQuote(admin.claims, quote!.id)).toBe(VIDEO_MESSAGES.quoteDeleted)
    expect(await fixture.objectNames('uploads', `${other.id}/quotes/`)).toHaveLength(1)
  })
})
