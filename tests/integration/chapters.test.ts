import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHAPTER_MESSAGES } from '../../app/lib/schemas/chapters'
import { UPLOAD_MESSAGES } from '../../app/lib/schemas/upload'
import { action as editAction, loader as editLoader } from '../../app/routes/_studio+/video.$id_.edit'
import { editVideo, getChapters, getVideoEditor, saveChapters } from '../../app/server/chapters.server'
import { DomainError } from '../../app/server/errors.server'
import { getLearnerVideoPage } from '../../app/server/video-page.server'
import { call, tokenFor } from './support/api-client'
import { refusal } from './support/refusal'
import { openVideoFixture, sessionCookieHeader, type Person, type VideoFixture } from './support/video-fixture'

/**
 * Chapters (ADR 0042) against PostgreSQL: the domain functions (read as the caller, replaced
 * by the creator or an admin, every rule a field error), Postgres refusing a bad list even when
 * asked directly, the edit page's form (rows, no-JS), the video page's data and the API twin.
 */
describe('chapters', () => {
  let fixture: VideoFixture
  let creator: Person
  let learner: Person
  let otherCreator: Person
  let admin: Person

  beforeAll(async () => {
    fixture = await openVideoFixture('postgres')
    ;[creator, learner, otherCreator, admin] = await Promise.all([
      fixture.makeUser('creator'),
      fixture.makeUser('user'),
      fixture.makeUser('creator'),
      fixture.makeUser('admin'),
    ])
  })

  afterAll(async () => {
    await fixture?.close()
  })

  const pool = () => fixture.running.database.pool
  const lesson = async (seconds: number | null = 300, options: { isPublic?: boolean } = {}) => {
    const id = await fixture.makeVideo(creator, options)
    await pool().query('update public.videos set duration_seconds = $2 where id = $1', [id, seconds])
    return id
  }
  const stored = async (id: string) =>
    (await pool().query<{ chapters: unknown }>('select chapters from public.videos where id = $1', [id])).rows[0]!.chapters
  const three = [
    { start: 0, title: 'Intro' },
    { start: 60, title: 'The idea' },
    { start: 200, title: 'Practice' },
  ]
  const fieldErrors = async (promise: Promise<unknown>) => {
    try {
      await promise
    } catch (error) {
      if (error instanceof DomainError) return error.fieldErrors
      throw error
    }
    throw new Error('expected a refusal')
  }

  describe('the domain', () => {
    it('the creator saves chapters; a visitor and a learner read them; an empty list removes them', async () => {
      const id = await lesson()
      expect(await saveChapters(creator.claims, id, [{ start: 0, title: '  Intro ' }, ...three.slice(1)])).toEqual(three)
      expect(await stored(id)).toEqual(three)
      expect((await getChapters(null, id)).chapters).toEqual(three)
      expect(await getChapters(learner.claims, id)).toEqual({ chapters: three, durationSeconds: 300 })
      expect(await saveChapters(creator.claims, id, [])).toEqual([])
      expect(await stored(id)).toEqual([])
    })

    it('an admin may replace them; a learner and another creator may not, and nothing changes', async () => {
      const id = await lesson()
      await saveChapters(creator.claims, id, three)
      expect(await refusal(saveChapters(learner.claims, id, []))).toEqual({ status: 403, message: CHAPTER_MESSAGES.notYourVideo })
      expect((await refusal(saveChapters(otherCreator.claims, id, []))).status).toBe(403)
      expect((await refusal(saveChapters(null, id, []))).status).toBe(401)
      expect(await stored(id)).toEqual(three)
      expect(await saveChapters(admin.claims, id, [])).toEqual([])
    })

    it('a private video: 404 for others, its chapters unreadable', async () => {
      const id = await lesson(300, { isPublic: false })
      await saveChapters(creator.claims, id, three)
      expect((await refusal(getChapters(learner.claims, id))).status).toBe(404)
      expect((await refusal(getChapters(null, id))).status).toBe(404)
      expect((await refusal(saveChapters(learner.claims, id, []))).status).toBe(404)
      expect((await refusal(getChapters(null, 'nope'))).status).toBe(404)
    })

    it('every rule is a field error, and nothing is written', async () => {
      const id = await lesson(100)
      await saveChapters(creator.claims, id, [
        { start: 0, title: 'A' },
        { start: 10, title: 'B' },
        { start: 20, title: 'C' },
      ])
      const before = await stored(id)
      expect(await fieldErrors(saveChapters(creator.claims, id, three.slice(0, 2)))).toEqual({
        chapters: CHAPTER_MESSAGES.tooFew,
      })
      expect(
        await fieldErrors(
          saveChapters(creator.claims, id, [
            { start: 3, title: 'A' },
            { start: 15, title: 'B' },
            { start: 30, title: 'C' },
          ]),
        ),
      ).toEqual({ 'chapters.0.start': CHAPTER_MESSAGES.firstAtZero })
      expect(
        await fieldErrors(
          saveChapters(creator.claims, id, [
            { start: 0, title: 'A' },
            { start: 5, title: '' },
            { start: 30, title: 'C' },
          ]),
        ),
      ).toEqual({ 'chapters.1.start': CHAPTER_MESSAGES.tooShort, 'chapters.1.title': CHAPTER_MESSAGES.titleRequired })
      // The last chapter lasts 10 s of this 100 s video too.
      expect(
        await fieldErrors(
          saveChapters(creator.claims, id, [
            { start: 0, title: 'A' },
            { start: 10, title: 'B' },
            { start: 95, title: 'C' },
          ]),
        ),
      ).toEqual({ 'chapters.2.start': CHAPTER_MESSAGES.pastEnd })
      expect(await fieldErrors(saveChapters(creator.claims, id, 'three'))).toEqual({ chapters: CHAPTER_MESSAGES.tooFew })
      expect(await stored(id)).toEqual(before)
    })

    it('Postgres refuses a bad list written directly, whatever the app checks', async () => {
      const id = await lesson()
      await expect(
        pool().query(
          `update public.videos set chapters = '[{"start":0,"title":"A"},{"start":5,"title":"B"},{"start":20,"title":"C"}]' where id = $1`,
          [id],
        ),
      ).rejects.toMatchObject({ code: '23514', constraint: 'videos_chapters_valid' })
      await expect(
        pool().query(`update public.videos set chapters = '[{"start":0,"title":"A"},{"start":10,"title":"B"}]' where id = $1`, [
          id,
        ]),
      ).rejects.toMatchObject({ code: '23514' })
    })

    it('the edit saves title, description, category and chapters together, or nothing', async () => {
      const id = await lesson()
      await editVideo(creator.claims, id, {
        title: ' Light, again ',
        description: 'More light.',
        category: 'other',
        chapters: three,
      })
      const editor = await getVideoEditor(creator.claims, id)
      expect(editor).toMatchObject({ title: 'Light, again', description: 'More light.', categoryId: 'other', chapters: three })
      expect(editor.categories.map((option) => option.value)).toContain('other')

      expect(
        await fieldErrors(
          editVideo(creator.claims, id, { title: '', description: 'Changed', category: 'other', chapters: three.slice(1) }),
        ),
      ).toEqual({
        title: UPLOAD_MESSAGES.titleRequired,
        chapters: CHAPTER_MESSAGES.tooFew,
        'chapters.0.start': CHAPTER_MESSAGES.firstAtZero,
      })
      // A category this creator was never given.
      expect(
        await fieldErrors(editVideo(creator.claims, id, { title: 'T', description: 'D', category: 'natural-sciences-biology' })),
      ).toEqual({ category: UPLOAD_MESSAGES.categoryNotAllowed })
      expect(await getVideoEditor(creator.claims, id)).toMatchObject({
        title: 'Light, again',
        description: 'More light.',
        chapters: three,
      })

      // Without chapters in the edit, they stay as they are.
      await editVideo(admin.claims, id, { title: 'By an admin', description: 'More light.', category: 'other' })
      expect(await getVideoEditor(creator.claims, id)).toMatchObject({ title: 'By an admin', chapters: three })
      expect((await refusal(getVideoEditor(learner.claims, id))).status).toBe(403)
      expect((await refusal(editVideo(learner.claims, id, { title: 'x', description: 'y', category: 'other' }))).status).toBe(403)
    })

    it('the video page carries the chapters and the length', async () => {
      const id = await lesson()
      await saveChapters(creator.claims, id, three)
      const page = await getLearnerVideoPage(learner.claims, id, { siteUrl: 'http://lumen.test' })
      expect(page.chapters).toEqual(three)
      expect(page.video.durationSeconds).toBe(300)
    })
  })

  describe('the edit page (/video/:id/edit)', () => {
    const post = async (id: string, person: Person, fields: [string, string][]) =>
      editAction({
        request: new Request(`http://lumen.test/video/${id}/edit`, {
          method: 'POST',
          body: new URLSearchParams(fields),
          headers: { Cookie: await sessionCookieHeader(fixture, person), 'Content-Type': 'application/x-www-form-urlencoded' },
        }),
        params: { id },
        context: { clientIp: '127.0.0.1' },
      } as never) as Promise<Response | { data: unknown; init: { status?: number } | null }>

    const statusOf = (answer: unknown) =>
      answer instanceof Response ? answer.status : ((answer as { init: { status?: number } | null }).init?.status ?? 200)

    it('saves typed rows ("1:00"), skipping empty ones, and goes back to the video', async () => {
      const id = await lesson()
      const answer = await post(id, creator, [
        ['title', 'Chaptered'],
        ['description', 'About light.'],
        ['category', 'other'],
        ['chapterStart', '0:00'],
        ['chapterTitle', 'Intro'],
        ['chapterStart', '1:00'],
        ['chapterTitle', 'The idea'],
        ['chapterStart', ''],
        ['chapterTitle', ''],
        ['chapterStart', '3:20'],
        ['chapterTitle', 'Practice'],
      ])
      expect(statusOf(answer)).toBe(302)
      expect((answer as Response).headers.get('Location')).toBe(`/video/${id}`)
      expect(await stored(id)).toEqual(three)
    })

    it('a broken rule comes back on its row with what was typed; nothing changes', async () => {
      const id = await lesson()
      await saveChapters(creator.claims, id, three)
      const answer = (await post(id, creator, [
        ['title', 'Changed'],
        ['description', 'About light.'],
        ['category', 'other'],
        ['chapterStart', '0:00'],
        ['chapterTitle', 'Intro'],
        ['chapterStart', 'soon'],
        ['chapterTitle', 'Later'],
        ['chapterStart', '2:00'],
        ['chapterTitle', 'End'],
      ])) as { data: { fieldErrors: Record<string, string>; values: { rows: unknown[] } } }
      expect(statusOf(answer)).toBe(400)
      expect(answer.data.fieldErrors).toEqual({ 'chapters.1.start': CHAPTER_MESSAGES.badTime })
      expect(answer.data.values.rows).toEqual([
        { start: '0:00', title: 'Intro' },
        { start: 'soon', title: 'Later' },
        { start: '2:00', title: 'End' },
      ])
      expect(await stored(id)).toEqual(three)
    })

    it('is for the creator and admins only', async () => {
      const id = await lesson()
      const load = async (person: Person) => {
        try {
          const answer = (await editLoader({
            request: new Request(`http://lumen.test/video/${id}/edit`, {
              headers: { Cookie: await sessionCookieHeader(fixture, person) },
            }),
            params: { id },
            context: { clientIp: '127.0.0.1' },
          } as never)) as unknown
          return statusOf(answer)
        } catch (thrown) {
          return (thrown as { init?: { status?: number } }).init?.status ?? (thrown as Response).status
        }
      }
      expect(await load(creator)).toBe(200)
      expect(await load(admin)).toBe(200)
      expect(await load(learner)).toBe(403)
      const answer = await post(id, learner, [
        ['title', 'Mine now'],
        ['description', 'x'],
        ['category', 'other'],
      ])
      expect(statusOf(answer)).toBe(403)
    })
  })

  describe('the API twin', () => {
    it('GET and PUT /videos/{id}/chapters, and PUT /videos/{id}', async () => {
      const id = await lesson()
      const token = await tokenFor(fixture, creator)
      const learnerToken = await tokenFor(fixture, learner)
      expect((await call('GET', `/videos/${id}/chapters`)).json).toEqual({ chapters: [] })
      expect((await call('PUT', `/videos/${id}/chapters`, { json: { chapters: three } })).status).toBe(401)
      expect((await call('PUT', `/videos/${id}/chapters`, { token: learnerToken, json: { chapters: three } })).status).toBe(403)
      const bad = await call('PUT', `/videos/${id}/chapters`, { token, json: { chapters: three.slice(0, 2) } })
      expect(bad.status).toBe(400)
      expect(bad.json).toMatchObject({ error: CHAPTER_MESSAGES.tooFew, fieldErrors: { chapters: CHAPTER_MESSAGES.tooFew } })
      expect((await call('PUT', `/videos/${id}/chapters`, { token, json: {} })).status).toBe(400)
      const saved = await call('PUT', `/videos/${id}/chapters`, { token, json: { chapters: three } })
      expect(saved.status).toBe(200)
      expect(saved.json).toEqual({ chapters: three })
      expect((await call('GET', `/videos/${id}/chapters`, { token: learnerToken })).json).toEqual({ chapters: three })
      expect((await call('GET', `/videos/${randomUUID()}/chapters`)).status).toBe(404)

      const edited = await call('PUT', `/videos/${id}`, {
        token,
        json: { title: 'Edited through the API', description: 'New words.', category: 'Other', chapters: [] },
      })
      expect(edited.status).toBe(200)
      expect(edited.json).toMatchObject({ title: 'Edited through the API', description: 'New words.' })
      expect(await stored(id)).toEqual([])
      const refused = await call('PUT', `/videos/${id}`, { token, json: { title: '', description: 'x' } })
      expect(refused.status).toBe(400)
      expect(refused.json).toMatchObject({ fieldErrors: { title: UPLOAD_MESSAGES.titleRequired } })
      expect((await call('PUT', `/videos/${id}`, { token: learnerToken, json: { title: 'x', description: 'y' } })).status).toBe(
        403,
      )
    })
  })
})
