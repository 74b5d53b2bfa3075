import { randomUUID } from 'node:crypto'
import { openAsBlob } from 'node:fs'
import { open, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { action, loader } from '../../app/routes/_studio+/upload'
import { CAPTION_FORM_MESSAGES } from '../../app/lib/schemas/captions'
import { UPLOAD_MESSAGES } from '../../app/lib/schemas/upload'
import { readFlash } from '../../app/server/http/flash.server'
import { nodeRealtimeOptions } from '../../db/supabase-node'
import { ffmpeg, makeClip, scratchDir } from './media/clips'
import { openVideoFixture, sessionCookieHeader, type Person, type VideoFixture } from './support/video-fixture'

/**
 * The upload page's loader and action (app/routes/_studio+/upload.tsx) against the
 * Storage stand-in, the way a browser reaches them: with and without
 * JavaScript. Guards first (anonymous, learner, unverified creator), then
 * every refusal of the spec — each answered with its message and leaving no
 * row, no object and no job — then the two ways to succeed.
 */

const MB = 1024 * 1024

interface Account extends Person {
  cookie: string
  /** supabase-js signed in as this person: what the browser's tus upload does, in one call. */
  client: SupabaseClient
}

type ActionAnswer = { status: number; data?: Record<string, unknown>; location?: string; setCookie: string[] }

let fixture: VideoFixture
let scratch: Awaited<ReturnType<typeof scratchDir>>
let creator: Account
let otherCreator: Account
let learner: Account
let unverified: Account
let pendingOnly: Account
let admin: Account
const files = {} as Record<'clip' | 'longClip' | 'text' | 'png' | 'thumbnail' | 'bigThumbnail' | 'svg' | 'oversized', string>

beforeAll(async () => {
  fixture = await openVideoFixture('pglite')
  scratch = await scratchDir('upload-it')
  const pool = fixture.running.database.pool
  const account = async (
    role: 'user' | 'creator' | 'admin',
    setup: { verified?: boolean; categories?: string[]; approve?: boolean } = {},
  ): Promise<Account> => {
    const email = `${role}-${randomUUID().slice(0, 8)}@example.test`
    const password = `Pw-${randomUUID()}`
    const { data, error } = await fixture.service.auth.admin.createUser({
      email,
      password,
      email_confirm: true,
      user_metadata: {
        username: `${role}_${randomUUID().slice(0, 8)}`,
        role: role === 'admin' ? 'user' : role,
        ...(setup.categories ? { creator_categories: setup.categories } : {}),
      },
    })
    if (error || !data.user) throw error ?? new Error('no user')
    const id = data.user.id
    if (role === 'admin') await pool.query(`update public.profiles set role = 'admin' where id = $1`, [id])
    if (setup.verified) await pool.query('update public.profiles set is_verified = true where id = $1', [id])
    if (setup.approve) {
      await pool.query(`update public.creator_categories set status = 'approved' where creator_id = $1`, [id])
    }
    const person: Person = { id, email, password, claims: { sub: id, role: 'authenticated', aud: 'authenticated', email } }
    const client = createClient(fixture.running.url, fixture.running.anonKey, {
      ...nodeRealtimeOptions,
      auth: { persistSession: false, autoRefreshToken: false },
    })
    const signedIn = await client.auth.signInWithPassword({ email, password })
    if (signedIn.error) throw signedIn.error
    return { ...person, cookie: await sessionCookieHeader(fixture, person), client }
  }
  ;[creator, otherCreator, learner, unverified, pendingOnly, admin] = await Promise.all([
    account('creator', { verified: true, categories: ['natural-sciences-physics', 'technology-innovation'], approve: true }),
    account('creator', { verified: true, categories: ['media'], approve: true }),
    account('user'),
    account('creator', { categories: ['natural-sciences-chemistry'] }),
    account('creator', { verified: true, categories: ['arts-creativity'] }),
    account('admin'),
  ])
  // The creator also asked for a category an admin turned down.
  await pool.query(
    `insert into public.creator_categories (creator_id, category_id, status) values ($1, 'business-finance', 'rejected')`,
    [creator.id],
  )

  const at = (name: string) => path.join(scratch.dir, name)
  files.clip = await makeClip(at('lesson.mp4'), { width: 320, height: 180, seconds: 2 })
  files.longClip = await makeClip(at('long.mp4'), { width: 160, height: 90, seconds: 70, rate: 5, audio: false })
  files.text = at('notes.mp4')
  await writeFile(files.text, 'These are my lecture notes, not a video.\n'.repeat(100))
  files.png = at('picture.mp4')
  await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=320x180', '-frames:v', '1', '-f', 'image2', '-c:v', 'png', files.png])
  files.thumbnail = at('thumbnail.png')
  await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=640x360', '-frames:v', '1', files.thumbnail])
  files.bigThumbnail = await sparseFile(at('huge.jpg'), 5 * MB + 1, Buffer.from([0xff, 0xd8, 0xff, 0xe0]))
  files.svg = at('thumbnail.svg')
  await writeFile(files.svg, '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="9"><script>alert(1)</script></svg>')
  // 100 MB + 1 byte, made in an instant (a sparse file), read through the form as a browser would send it.
  files.oversized = await sparseFile(at('oversized.mp4'), 100 * MB + 1, await readFile(files.clip))
}, 180_000)

afterAll(async () => {
  await scratch?.remove()
  await fixture?.close()
})

async function sparseFile(file: string, size: number, head: Buffer): Promise<string> {
  const handle = await open(file, 'w')
  try {
    await handle.write(head, 0, head.length, 0)
    await handle.truncate(size)
  } finally {
    await handle.close()
  }
  return file
}

async function fileBlob(file: string, type: string): Promise<Blob> {
  return openAsBlob(file, { type })
}

interface FormInput {
  title?: string
  description?: string
  type?: 'video' | 'spark'
  category?: string
  visibility?: 'public' | 'private'
  thoughts?: string
  /** The video itself (the form without JavaScript). */
  video?: string
  /** The object the browser already uploaded (the form with JavaScript). */
  sourcePath?: string
  thumbnail?: string | null
  thumbnailType?: string
}

async function uploadForm(input: FormInput): Promise<FormData> {
  const form = new FormData()
  form.set('title', input.title ?? 'How lenses bend light')
  form.set('description', input.description ?? 'Refraction, focal points and why your glasses work.')
  form.set('type', input.type ?? 'video')
  form.set('category', input.category ?? 'natural-sciences-physics')
  form.set('visibility', input.visibility ?? 'public')
  form.set('thoughts', input.thoughts ?? '')
  if (input.video) form.set('video', await fileBlob(input.video, 'video/mp4'), path.basename(input.video))
  if (input.sourcePath) form.set('sourcePath', input.sourcePath)
  const thumbnail = input.thumbnail === undefined ? files.thumbnail : input.thumbnail
  if (thumbnail) form.set('thumbnail', await fileBlob(thumbnail, input.thumbnailType ?? 'image/png'), path.basename(thumbnail))
  return form
}

async function settle(run: () => Promise<unknown>): Promise<ActionAnswer> {
  let result: unknown
  try {
    result = await run()
  } catch (thrown) {
    result = thrown
  }
  if (result instanceof Response) {
    return {
      status: result.status,
      location: result.headers.get('Location') ?? undefined,
      setCookie: result.headers.getSetCookie(),
    }
  }
  const wrapped = result as { data: Record<string, unknown>; init?: { status?: number; headers?: HeadersInit } }
  return {
    status: wrapped.init?.status ?? 200,
    data: wrapped.data,
    setCookie: new Headers(wrapped.init?.headers).getSetCookie(),
  }
}

function post(form: FormData, who?: Account): Promise<ActionAnswer> {
  const request = new Request('http://lumen.test/upload', {
    method: 'POST',
    body: form,
    headers: who ? { Cookie: who.cookie } : {},
  })
  return settle(() => action({ request, params: {}, context: { clientIp: '127.0.0.1' } }))
}

function get(url: string, who?: Account): Promise<ActionAnswer> {
  const request = new Request(`http://lumen.test${url}`, { headers: who ? { Cookie: who.cookie } : {} })
  return settle(() => loader({ request, params: {}, context: { clientIp: '127.0.0.1' } }))
}

async function flashOf(answer: ActionAnswer): Promise<string | undefined> {
  const cookie = answer.setCookie.map((line) => line.split(';')[0]).join('; ')
  const { flash } = await readFlash(new Request('http://lumen.test/', { headers: { Cookie: cookie } }))
  return flash?.message
}

/** What the browser's tus upload leaves in Storage: the file under a generated name in the caller's folder. */
async function putUpload(who: Account, file: string): Promise<string> {
  const name = `${who.id}/videos/${randomUUID()}.mp4`
  const { error } = await who.client.storage.from('uploads').upload(name, await fileBlob(file, 'video/mp4'), {
    contentType: 'video/mp4',
  })
  if (error) throw error
  return name
}

/** Everything an upload by `who` could have left behind, listed with the service role. */
async function leftovers(who: Account) {
  const pool = fixture.running.database.pool
  const list = async (bucket: string, prefix: string) => {
    const { data, error } = await fixture.service.storage.from(bucket).list(prefix, { limit: 100 })
    if (error) throw error
    return data.filter((entry) => entry.id !== null).map((entry) => `${prefix}/${entry.name}`)
  }
  const videos = await pool.query<{ id: string }>('select id from public.videos where creator_id = $1', [who.id])
  const jobs = await pool.query(
    'select j.id from public.media_jobs j join public.videos v on v.id = j.video_id where v.creator_id = $1',
    [who.id],
  )
  return {
    rows: videos.rows.length,
    jobs: jobs.rows.length,
    uploads: await list('uploads', `${who.id}/videos`),
    thumbnails: await list('thumbnails', who.id),
  }
}

const NOTHING = { rows: 0, jobs: 0, uploads: [], thumbnails: [] }

async function clearUploadsOf(who: Account) {
  const pool = fixture.running.database.pool
  await pool.query('delete from public.videos where creator_id = $1', [who.id])
  const { uploads, thumbnails } = await leftovers(who)
  if (uploads.length) await fixture.service.storage.from('uploads').remove(uploads)
  if (thumbnails.length) await fixture.service.storage.from('thumbnails').remove(thumbnails)
}

describe('who may upload (loader and action)', () => {
  it('sends a signed-out visitor to sign in, and back to /upload afterwards', async () => {
    for (const answer of [await get('/upload'), await post(await uploadForm({ video: files.clip }))]) {
      expect(answer.status).toBe(302)
      expect(answer.location).toBe('/login?redirectTo=%2Fupload')
    }
  })

  it('sends a learner to the feed, told that only verified creators upload and that they can quote', async () => {
    for (const answer of [await get('/upload', learner), await post(await uploadForm({ video: files.clip }), learner)]) {
      expect(answer.status).toBe(302)
      expect(answer.location).toBe('/feed')
      expect(await flashOf(answer)).toBe(UPLOAD_MESSAGES.notCreator)
    }
    expect(await leftovers(learner)).toEqual(NOTHING)
  })

  it('sends an unverified creator to their profile, where the verification panel waits', async () => {
    for (const answer of [
      await get('/upload', unverified),
      await post(await uploadForm({ video: files.clip, category: 'natural-sciences-chemistry' }), unverified),
    ]) {
      expect(answer.status).toBe(302)
      expect(answer.location).toBe('/profile?verification=required')
      // No toast: the panel there is the one message (docs/product.md, Rules and messages).
      expect(await flashOf(answer)).toBeUndefined()
    }
    expect(await leftovers(unverified)).toEqual(NOTHING)
  })

  it('offers a verified creator their approved categories and Other; never a rejected one', async () => {
    const answer = await get('/upload', creator)
    expect(answer.status).toBe(200)
    const form = answer.data!.form as { categories: { value: string }[]; userId: string; supabase: { url: string } }
    expect(form.categories.map((option) => option.value)).toEqual(['natural-sciences-physics', 'technology-innovation', 'other'])
    expect(form.userId).toBe(creator.id)
    expect(form.supabase.url).toBe(fixture.running.url)
  })

  it('offers a creator with no approved category the ones they asked for, and an admin every category', async () => {
    const pending = (await get('/upload', pendingOnly)).data!.form as { categories: { value: string }[] }
    expect(pending.categories.map((option) => option.value)).toEqual(['arts-creativity', 'other'])
    const all = (await get('/upload', admin)).data!.form as { categories: { value: string }[] }
    expect(all.categories).toHaveLength(18)
  })
})

describe('refusals: the spec’s message, and nothing left behind', () => {
  const refusals: Array<{
    name: string
    who?: () => Account
    form: () => Promise<FormData>
    status?: number
    field: string
    message: string | RegExp
  }> = [
    {
      name: 'a text file named .mp4 (uploaded with JavaScript)',
      form: async () => uploadForm({ sourcePath: await putUpload(creator, files.text) }),
      field: 'video',
      message: /^Please select a valid video file\. This file is not a video\./,
    },
    {
      name: 'a PNG renamed .mp4 (posted without JavaScript)',
      form: () => uploadForm({ video: files.png }),
      field: 'video',
      message: /^Please select a valid video file\. This file is a PNG image, not a video\./,
    },
    {
      name: 'a 70 s spark',
      form: async () => uploadForm({ type: 'spark', sourcePath: await putUpload(creator, files.longClip) }),
      field: 'video',
      message: 'Sparks must be under 60 seconds. This video is 70 seconds long.',
    },
    {
      name: 'a video of 100 MB + 1 byte',
      form: () => uploadForm({ video: files.oversized }),
      status: 413,
      field: 'video',
      message: UPLOAD_MESSAGES.videoTooLarge,
    },
    {
      name: 'a thumbnail of 5 MB + 1 byte',
      form: async () =>
        uploadForm({
          sourcePath: await putUpload(creator, files.clip),
          thumbnail: files.bigThumbnail,
          thumbnailType: 'image/jpeg',
        }),
      status: 413,
      field: 'thumbnail',
      message: UPLOAD_MESSAGES.thumbnailTooLarge,
    },
    {
      name: 'an SVG thumbnail (it can carry script)',
      form: () => uploadForm({ video: files.clip, thumbnail: files.svg, thumbnailType: 'image/svg+xml' }),
      field: 'thumbnail',
      message: 'Please select a valid image file (JPEG, PNG, WebP or GIF). SVG images are not accepted.',
    },
    {
      name: 'no thumbnail',
      form: async () => uploadForm({ sourcePath: await putUpload(creator, files.clip), thumbnail: null }),
      field: 'thumbnail',
      message: UPLOAD_MESSAGES.thumbnailRequired,
    },
    {
      name: 'a title of spaces',
      form: async () => uploadForm({ title: '   ', sourcePath: await putUpload(creator, files.clip) }),
      field: 'title',
      message: UPLOAD_MESSAGES.titleRequired,
    },
    {
      name: 'no video at all',
      form: () => uploadForm({}),
      field: 'video',
      message: UPLOAD_MESSAGES.noVideoProvided,
    },
    {
      name: 'a category the creator was never approved for',
      form: async () => uploadForm({ category: 'media', sourcePath: await putUpload(creator, files.clip) }),
      field: 'category',
      message: UPLOAD_MESSAGES.categoryNotAllowed,
    },
    {
      name: 'a category an admin rejected',
      form: () => uploadForm({ category: 'business-finance', video: files.clip }),
      field: 'category',
      message: UPLOAD_MESSAGES.categoryNotAllowed,
    },
    {
      name: 'an object name the page could not have made',
      form: () => uploadForm({ sourcePath: `${creator.id}/videos/../../${otherCreator.id}/videos/x.mp4` }),
      field: 'video',
      message: UPLOAD_MESSAGES.sourceMissing,
    },
  ]

  for (const refusal of refusals) {
    it(`refuses ${refusal.name}`, async () => {
      const who = refusal.who?.() ?? creator
      const answer = await post(await refusal.form(), who)
      expect(answer.status).toBe(refusal.status ?? 400)
      const errors = (answer.data as { ok: boolean; fieldErrors: Record<string, string> }).fieldErrors
      expect(answer.data!.ok).toBe(false)
      if (typeof refusal.message === 'string') expect(errors[refusal.field]).toBe(refusal.message)
      else expect(errors[refusal.field]).toMatch(refusal.message)
      expect(await leftovers(who)).toEqual(NOTHING)
    })
  }

  it('refuses an object in someone else’s folder, and leaves that object alone', async () => {
    const theirs = await putUpload(otherCreator, files.clip)
    const answer = await post(await uploadForm({ sourcePath: theirs }), creator)
    expect(answer.status).toBe(400)
    expect((answer.data as { fieldErrors: Record<string, string> }).fieldErrors.video).toBe(UPLOAD_MESSAGES.sourceMissing)
    expect(await leftovers(creator)).toEqual(NOTHING)
    expect((await leftovers(otherCreator)).uploads).toEqual([theirs])
    await clearUploadsOf(otherCreator)
  })

  it('keeps the typed fields for the form to show again, and asks for the files again', async () => {
    const answer = await post(await uploadForm({ title: '', description: 'Kept as typed', video: files.clip }), creator)
    expect(answer.data).toMatchObject({
      ok: false,
      values: { title: '', description: 'Kept as typed', type: 'video' },
      hadFile: true,
    })
  })
})

describe('a successful upload', () => {
  it('with JavaScript: one row, one source object, one thumbnail, one queued job — and the thoughts as a quote', async () => {
    const source = await putUpload(creator, files.clip)
    const answer = await post(
      await uploadForm({
        sourcePath: source,
        type: 'spark',
        category: 'technology-innovation',
        visibility: 'private',
        thoughts: 'Watch the focal point!',
      }),
      creator,
    )
    expect(answer.status).toBe(200)
    expect(answer.data).toMatchObject({ ok: true })
    const videoId = answer.data!.videoId as string

    const pool = fixture.running.database.pool
    const { rows } = await pool.query('select * from public.videos where creator_id = $1', [creator.id])
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({
      id: videoId,
      title: 'How lenses bend light',
      type: 'spark',
      category_id: 'technology-innovation',
      is_public: false,
      status: 'processing',
      source_path: source,
      thumbnail_path: `${creator.id}/${videoId}.jpg`,
    })
    expect(await leftovers(creator)).toEqual({
      rows: 1,
      jobs: 1,
      uploads: [source],
      thumbnails: [`${creator.id}/${videoId}.jpg`],
    })
    const job = await pool.query('select status from public.media_jobs where video_id = $1', [videoId])
    expect(job.rows).toEqual([{ status: 'queued' }])
    const quotes = await pool.query('select user_id, type, body from public.quotes where video_id = $1', [videoId])
    expect(quotes.rows).toEqual([{ user_id: creator.id, type: 'text', body: 'Watch the focal point!' }])

    // The thumbnail is our own JPEG re-encode, not the PNG that was sent.
    const { data: thumbnail } = await fixture.service.storage.from('thumbnails').download(`${creator.id}/${videoId}.jpg`)
    const bytes = Buffer.from(await thumbnail!.arrayBuffer())
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff])

    // The same object cannot make a second video (nor be removed by a refusal).
    const again = await post(await uploadForm({ sourcePath: source }), creator)
    expect(again.status).toBe(400)
    expect(await leftovers(creator)).toMatchObject({ rows: 1, uploads: [source] })
    await clearUploadsOf(creator)
  })

  it('without JavaScript: the file is streamed to Storage under a generated name, then the success page', async () => {
    const answer = await post(await uploadForm({ video: files.clip }), creator)
    expect(answer.status).toBe(302)
    const [, videoId] = /^\/upload\?uploaded=([0-9a-f-]{36})$/.exec(answer.location ?? '') ?? []
    expect(videoId).toBeTruthy()

    const left = await leftovers(creator)
    expect(left).toMatchObject({ rows: 1, jobs: 1, thumbnails: [`${creator.id}/${videoId}.jpg`] })
    expect(left.uploads).toHaveLength(1)
    expect(left.uploads[0]).toMatch(new RegExp(`^${creator.id}/videos/[0-9a-f-]{36}\\.mp4$`))
    expect(left.uploads[0]).not.toContain('lesson')
    const { data: stored } = await fixture.service.storage.from('uploads').download(left.uploads[0]!)
    expect(Buffer.from(await stored!.arrayBuffer()).equals(await readFile(files.clip))).toBe(true)

    const page = await get(`/upload?uploaded=${videoId}`, creator)
    expect(page.data).toMatchObject({ uploaded: { id: videoId, title: 'How lenses bend light' }, form: null })
    // Someone else's id shows the form, not their video.
    const other = await get(`/upload?uploaded=${videoId}`, admin)
    expect(other.data).toMatchObject({ uploaded: null })
    await clearUploadsOf(creator)
  })

  it('takes a caption file with the upload, checked by its content: a bad one refuses it all, leaving nothing', async () => {
    const withCaptions = async (text: string, name: string, language = 'fr') => {
      const form = await uploadForm({ video: files.clip })
      form.set('captions', new Blob([text], { type: 'text/plain' }), name)
      form.set('captionsLanguage', language)
      return post(form, creator)
    }
    const refused = await withCaptions('<html>not captions</html>', 'captions.vtt')
    expect(refused.status).toBe(400)
    expect((refused.data as { fieldErrors: Record<string, string> }).fieldErrors.captions).toMatch(/caption file/i)
    expect(await leftovers(creator)).toMatchObject({ rows: 0, uploads: [], thumbnails: [] })
    const badTiming = await withCaptions('1\n00:00:01,000 --> soon\nHello\n', 'captions.srt')
    expect(badTiming.status).toBe(400)
    expect(await leftovers(creator)).toMatchObject({ rows: 0, uploads: [] })
    const badLanguage = await withCaptions('1\n00:00:01,000 --> 00:00:02,000\nHello\n', 'captions.srt', 'french please')
    expect((badLanguage.data as { fieldErrors: Record<string, string> }).fieldErrors.captions).toBe(CAPTION_FORM_MESSAGES.languageInvalid)

    const answer = await withCaptions('1\n00:00:01,000 --> 00:00:03,000\nLa lumière se courbe.\n', 'lecon.srt')
    expect(answer.status).toBe(302)
    const [, videoId] = /^\/upload\?uploaded=([0-9a-f-]{36})$/.exec(answer.location ?? '') ?? []
    const { rows } = await fixture.running.database.pool.query(
      'select t.language, t.label, t.source, t.cue_count, c.body from public.caption_tracks t join public.caption_cues c on c.track_id = t.id where t.video_id = $1',
      [videoId],
    )
    expect(rows).toEqual([{ language: 'fr', label: 'French', source: 'upload', cue_count: 1, body: 'La lumière se courbe.' }])
    await clearUploadsOf(creator)
  })

  it('takes "0:00 Intro" lines of the description as chapters when they keep the rules, else none (ADR 0042)', async () => {
    const description = 'Three parts.\n0:00 Intro\n0:20 The idea\n0:50 Practice\nThanks!'
    const chaptersOf = async (location: string | null | undefined) => {
      const [, videoId] = /^\/upload\?uploaded=([0-9a-f-]{36})$/.exec(location ?? '') ?? []
      const { rows } = await fixture.running.database.pool.query('select chapters from public.videos where id = $1', [videoId])
      return rows[0]?.chapters as unknown
    }
    const long = await post(await uploadForm({ video: files.longClip, description }), creator)
    expect(long.status).toBe(302)
    expect(await chaptersOf(long.location)).toEqual([
      { start: 0, title: 'Intro' },
      { start: 20, title: 'The idea' },
      { start: 50, title: 'Practice' },
    ])
    await clearUploadsOf(creator)
    // The same lines on a 2 s clip break the length rule: the upload goes through, without chapters.
    const short = await post(await uploadForm({ video: files.clip, description }), creator)
    expect(short.status).toBe(302)
    expect(await chaptersOf(short.location)).toEqual([])
    await clearUploadsOf(creator)
  })

  it('lets an admin upload in any category', async () => {
    const answer = await post(await uploadForm({ video: files.clip, category: 'media' }), admin)
    expect(answer.status).toBe(302)
    expect(await leftovers(admin)).toMatchObject({ rows: 1, jobs: 1 })
    await clearUploadsOf(admin)
  })
})
