import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { momentPastEndMessage, SPARK_LESSON_MESSAGES } from '../../app/lib/schemas/spark-lesson'
import { action as editAction } from '../../app/routes/_studio+/video.$id_.edit'
import { editVideo, getVideoEditor } from '../../app/server/chapters.server'
import { DomainError } from '../../app/server/errors.server'
import { lessonLinkOf, lessonLinksOf, listLessonSparks, videoLessonPanel } from '../../app/server/spark-lessons.server'
import { call, tokenFor } from './support/api-client'
import { openVideoFixture, sessionCookieHeader, type Person, type VideoFixture } from './support/video-fixture'

/**
 * Sparks lead to lessons (ADR 0050) against PostgreSQL: the domain (editVideo's lesson
 * fields, moments typed three ways, the lesson's owner and length), who sees a link (a
 * private lesson hides it), the edit page's form, and the API (PUT/GET /videos/{id},
 * GET /videos/{id}/sparks).
 */
describe('spark lessons', () => {
  let fixture: VideoFixture
  let creator: Person
  let otherCreator: Person
  let learner: Person
  let admin: Person

  beforeAll(async () => {
    fixture = await openVideoFixture('postgres')
    ;[creator, otherCreator, learner, admin] = await Promise.all([
      fixture.makeUser('creator'),
      fixture.makeUser('creator'),
      fixture.makeUser('user'),
      fixture.makeUser('admin'),
    ])
  })

  afterAll(async () => {
    await fixture?.close()
  })

  const pool = () => fixture.running.database.pool
  const lesson = async (owner: Person = creator, options: { isPublic?: boolean; seconds?: number | null } = {}) => {
    const id = await fixture.makeVideo(owner, { isPublic: options.isPublic })
    await pool().query('update public.videos set duration_seconds = $2 where id = $1', [id, options.seconds ?? 600])
    return id
  }
  const spark = async (owner: Person = creator, isPublic = true) => {
    const id = await fixture.makeVideo(owner, { isPublic })
    await pool().query(`update public.videos set type = 'spark', duration_seconds = 30 where id = $1`, [id])
    return id
  }
  const stored = async (id: string) =>
    (
      await pool().query<{ lesson_id: string | null; lesson_at_seconds: number | null }>(
        'select lesson_id, lesson_at_seconds from public.videos where id = $1',
        [id],
      )
    ).rows[0]
  const edit = (who: Person, id: string, lessonId: unknown, lessonAt: unknown) =>
    editVideo(who.claims, id, { title: 'A spark', description: 'Short.', category: 'other', lesson: { lessonId, lessonAt } })
  const refusalOf = async (promise: Promise<unknown>) => {
    try {
      await promise
    } catch (error) {
      if (error instanceof DomainError) return { status: error.status, fieldErrors: error.fieldErrors }
      throw error
    }
    throw new Error('expected a refusal')
  }

  describe('the domain', () => {
    it.each([
      ['3:12', 192],
      ['1:02:03', 3723],
      ['192', 192],
      [192, 192],
      ['', null],
    ])('the creator links a spark at %j (%j s) and everyone who sees the lesson sees it', async (typed, seconds) => {
      const [lessonId, sparkId] = [await lesson(creator, { seconds: 4000 }), await spark()]
      await edit(creator, sparkId, lessonId, typed)
      expect(await stored(sparkId)).toEqual({ lesson_id: lessonId, lesson_at_seconds: seconds })
      const link = await lessonLinkOf(learner.claims, sparkId)
      expect(link).toMatchObject({ id: lessonId, at: seconds, href: `/video/${lessonId}${seconds ? `?t=${seconds}` : ''}` })
      expect(await lessonLinkOf(null, sparkId)).toEqual(link)
    })

    it('refuses a bad moment, a moment past the end, another creator’s video, a spark as lesson, a link from a video', async () => {
      const [lessonId, sparkId, otherSpark, othersLesson] = [
        await lesson(creator, { seconds: 300 }),
        await spark(),
        await spark(),
        await lesson(otherCreator),
      ]
      expect(await refusalOf(edit(creator, sparkId, lessonId, '3:75'))).toEqual({
        status: 400,
        fieldErrors: { lessonAt: SPARK_LESSON_MESSAGES.badMoment },
      })
      expect(await refusalOf(edit(creator, sparkId, lessonId, '5:00'))).toEqual({
        status: 400,
        fieldErrors: { lessonAt: momentPastEndMessage(300) },
      })
      expect(await refusalOf(edit(creator, sparkId, othersLesson, ''))).toEqual({
        status: 400,
        fieldErrors: { lessonId: SPARK_LESSON_MESSAGES.badLesson },
      })
      expect(await refusalOf(edit(creator, sparkId, otherSpark, ''))).toEqual({
        status: 400,
        fieldErrors: { lessonId: SPARK_LESSON_MESSAGES.badLesson },
      })
      expect(await refusalOf(edit(creator, sparkId, randomUUID(), ''))).toEqual({
        status: 400,
        fieldErrors: { lessonId: SPARK_LESSON_MESSAGES.badLesson },
      })
      expect(await refusalOf(edit(creator, await lesson(), lessonId, ''))).toEqual({
        status: 400,
        fieldErrors: { lessonId: SPARK_LESSON_MESSAGES.onlySparks },
      })
      expect(await refusalOf(edit(creator, sparkId, '', '1:00'))).toEqual({
        status: 400,
        fieldErrors: { lessonAt: SPARK_LESSON_MESSAGES.momentWithoutLesson },
      })
      // Nothing was written by any refusal — not the title either.
      expect(await stored(sparkId)).toEqual({ lesson_id: null, lesson_at_seconds: null })
      expect(
        (await pool().query<{ title: string }>('select title from public.videos where id = $1', [sparkId])).rows[0]!.title,
      ).not.toBe('A spark')
      await edit(creator, sparkId, lessonId, '4:59')
      expect(await stored(sparkId)).toEqual({ lesson_id: lessonId, lesson_at_seconds: 299 })
    })

    it('only its creator and admins change the link; another creator cannot; a blank lesson removes it', async () => {
      const [lessonId, sparkId] = [await lesson(), await spark()]
      expect((await refusalOf(edit(learner, sparkId, lessonId, '1:00'))).status).toBe(403)
      expect((await refusalOf(edit(otherCreator, sparkId, lessonId, '1:00'))).status).toBe(403)
      expect(await stored(sparkId)).toEqual({ lesson_id: null, lesson_at_seconds: null })
      await edit(admin, sparkId, lessonId, '1:00')
      expect(await stored(sparkId)).toEqual({ lesson_id: lessonId, lesson_at_seconds: 60 })
      await edit(creator, sparkId, '', '')
      expect(await stored(sparkId)).toEqual({ lesson_id: null, lesson_at_seconds: null })
    })

    it('a private lesson: the link and its title are for its creator and admins only', async () => {
      const [lessonId, sparkId] = [await lesson(creator, { isPublic: false }), await spark()]
      await edit(creator, sparkId, lessonId, '0:30')
      expect(await lessonLinkOf(creator.claims, sparkId)).toMatchObject({ id: lessonId, at: 30 })
      expect(await lessonLinkOf(admin.claims, sparkId)).toMatchObject({ id: lessonId })
      expect(await lessonLinkOf(learner.claims, sparkId)).toBeNull()
      expect(await lessonLinkOf(null, sparkId)).toBeNull()
      expect((await lessonLinksOf(learner.claims, [sparkId])).size).toBe(0)
      expect(await videoLessonPanel(learner.claims, sparkId)).toEqual({ lesson: null, sparks: [] })
    })

    it('the lesson lists its public ready sparks in the lesson’s order, each opening the reel at that clip', async () => {
      const lessonId = await lesson()
      const [late, early, start, hidden] = [await spark(), await spark(), await spark(), await spark(creator, false)]
      await edit(creator, late, lessonId, '5:00')
      await edit(creator, early, lessonId, '0:45')
      await edit(creator, start, lessonId, '')
      await edit(creator, hidden, lessonId, '1:00')
      const sparks = await listLessonSparks(learner.claims, lessonId)
      expect(sparks.map((one) => [one.id, one.at])).toEqual([
        [start, null],
        [early, 45],
        [late, 300],
      ])
      expect(sparks[1]!.href).toBe(`/sparks-reels?start=${early}#reel-${early}`)
      expect((await videoLessonPanel(learner.claims, lessonId)).sparks).toHaveLength(3)
      expect((await videoLessonPanel(learner.claims, early)).lesson).toMatchObject({ id: lessonId, at: 45 })
    })

    it('the edit page offers a spark the creator’s own long-form videos', async () => {
      const [mine, theirs, sparkId] = [await lesson(), await lesson(otherCreator), await spark()]
      const editor = await getVideoEditor(creator.claims, sparkId)
      expect(editor.lessonChoices.map((choice) => choice.value)).toContain(mine)
      expect(editor.lessonChoices.map((choice) => choice.value)).not.toContain(theirs)
      expect(editor.lessonChoices.map((choice) => choice.value)).not.toContain(sparkId)
      expect((await getVideoEditor(admin.claims, sparkId)).lessonChoices.map((choice) => choice.value)).toContain(mine)
      expect((await getVideoEditor(creator.claims, mine)).lessonChoices).toEqual([])
    })

    it('deleting the lesson unlinks its sparks', async () => {
      const [lessonId, sparkId] = [await lesson(), await spark()]
      await edit(creator, sparkId, lessonId, '2:00')
      await pool().query('delete from public.videos where id = $1', [lessonId])
      expect(await stored(sparkId)).toEqual({ lesson_id: null, lesson_at_seconds: null })
    })
  })

  describe('the edit page', () => {
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
    const base: [string, string][] = [
      ['title', 'A spark'],
      ['description', 'Short.'],
      ['category', 'other'],
    ]

    it('saves the lesson and moment, and shows a refusal with what was typed', async () => {
      const [lessonId, sparkId] = [await lesson(creator, { seconds: 300 }), await spark()]
      const saved = await post(sparkId, creator, [...base, ['lessonId', lessonId], ['lessonAt', '3:12']])
      expect((saved as Response).status).toBe(302)
      expect(await stored(sparkId)).toEqual({ lesson_id: lessonId, lesson_at_seconds: 192 })
      const refused = (await post(sparkId, creator, [...base, ['lessonId', lessonId], ['lessonAt', '9:99']])) as {
        data: { fieldErrors: Record<string, string>; values: { lessonAt: string } }
        init: { status?: number }
      }
      expect(refused.init.status).toBe(400)
      expect(refused.data.fieldErrors).toEqual({ lessonAt: SPARK_LESSON_MESSAGES.badMoment })
      expect(refused.data.values.lessonAt).toBe('9:99')
      expect(await stored(sparkId)).toEqual({ lesson_id: lessonId, lesson_at_seconds: 192 })
      // A form without the lesson fields leaves the link as it is.
      expect(((await post(sparkId, creator, base)) as Response).status).toBe(302)
      expect(await stored(sparkId)).toEqual({ lesson_id: lessonId, lesson_at_seconds: 192 })
    })
  })

  describe('the API', () => {
    it('PUT /videos/{id} sets the link, GET shows it to those who see the lesson, GET /videos/{id}/sparks lists them', async () => {
      const [lessonId, sparkId] = [await lesson(creator, { seconds: 300 }), await spark()]
      const token = await tokenFor(fixture, creator)
      const learnerToken = await tokenFor(fixture, learner)
      const body = { title: 'API spark', description: 'Short.' }
      const bad = await call('PUT', `/videos/${sparkId}`, { token, json: { ...body, lessonId, lessonAt: 'soon' } })
      expect(bad.status).toBe(400)
      expect(bad.json).toMatchObject({ fieldErrors: { lessonAt: SPARK_LESSON_MESSAGES.badMoment } })
      const past = await call('PUT', `/videos/${sparkId}`, { token, json: { ...body, lessonId, lessonAt: 300 } })
      expect(past.json).toMatchObject({ fieldErrors: { lessonAt: momentPastEndMessage(300) } })
      const others = await call('PUT', `/videos/${sparkId}`, {
        token,
        json: { ...body, lessonId: await lesson(otherCreator), lessonAt: null },
      })
      expect(others.json).toMatchObject({ fieldErrors: { lessonId: SPARK_LESSON_MESSAGES.badLesson } })
      expect((await call('PUT', `/videos/${sparkId}`, { token: learnerToken, json: { ...body, lessonId } })).status).toBe(403)

      const saved = await call('PUT', `/videos/${sparkId}`, { token, json: { ...body, lessonId, lessonAt: '3:12' } })
      expect(saved.status).toBe(200)
      expect(saved.json).toMatchObject({ lesson: { _id: lessonId, at: 192, url: `/video/${lessonId}?t=192` } })
      expect((await call('GET', `/videos/${sparkId}`)).json).toMatchObject({ lesson: { _id: lessonId, at: 192 } })
      const list = await call('GET', `/videos/${lessonId}/sparks`)
      expect(list.status).toBe(200)
      expect(list.json).toMatchObject({
        sparks: [{ _id: sparkId, at: 192, url: `/sparks-reels?start=${sparkId}#reel-${sparkId}` }],
      })
      expect((await call('GET', `/videos/${randomUUID()}/sparks`)).status).toBe(404)

      // The lesson goes private: the link and the list are hidden from everyone but its creator and admins.
      await pool().query('update public.videos set is_public = false where id = $1', [lessonId])
      expect((await call('GET', `/videos/${sparkId}`, { token: learnerToken })).json).toMatchObject({ lesson: null })
      expect(JSON.stringify((await call('GET', `/videos/${sparkId}`)).json)).not.toContain(lessonId)
      expect((await call('GET', `/videos/${lessonId}/sparks`)).status).toBe(404)
      expect((await call('GET', `/videos/${sparkId}`, { token })).json).toMatchObject({ lesson: { _id: lessonId } })

      const removed = await call('PUT', `/videos/${sparkId}`, { token, json: { ...body, lessonId: null } })
      expect(removed.json).toMatchObject({ lesson: null })
      expect(await stored(sparkId)).toEqual({ lesson_id: null, lesson_at_seconds: null })
    })
  })
})
