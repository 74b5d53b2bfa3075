import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COURSE_MESSAGES } from '../../app/lib/schemas/courses'
import {
  addLesson,
  createCourse,
  deleteCourse,
  getCourse,
  getCourseEditor,
  listCourses,
  listCreatorCourses,
  moveLesson,
  removeLesson,
  reorderLessons,
  searchCourses,
  setCoursePublished,
  setLessons,
  setSectionTitle,
  updateCourse,
} from '../../app/server/courses.server'
import { DomainError } from '../../app/server/errors.server'
import { createSupabaseTokenClient, type Supabase } from '../../app/server/supabase.server'
import { call, tokenFor } from './support/api-client'
import { refusal } from './support/refusal'
import { openVideoFixture, type Person, type VideoFixture } from './support/video-fixture'

/**
 * Courses (ADR 0048) against PostgreSQL: the domain functions as each role (create, fields
 * and cover checked, lessons kept at positions 0..n-1 through add, remove, move and reorder,
 * also when two editors change the list at once; publish, an admin's unpublish only; reads,
 * paging and search), and the /api twins' statuses and field errors.
 */
describe('courses', () => {
  let fixture: VideoFixture
  let creator: Person
  let otherCreator: Person
  let unverified: Person
  let learner: Person
  let admin: Person
  const clients = new Map<string, Supabase>()
  let work: string

  beforeAll(async () => {
    fixture = await openVideoFixture('postgres')
    ;[creator, otherCreator, unverified, learner, admin] = await Promise.all([
      fixture.makeUser('creator'),
      fixture.makeUser('creator'),
      fixture.makeUser('creator'),
      fixture.makeUser('user'),
      fixture.makeUser('admin'),
    ])
    await pool().query('update public.profiles set is_verified = false where id = $1', [unverified.id])
    work = mkdtempSync(path.join(tmpdir(), 'lumen-courses-test-'))
  })

  afterAll(async () => {
    if (work) rmSync(work, { recursive: true, force: true })
    await fixture?.close()
  })

  const pool = () => fixture.running.database.pool
  const author = async (person: Person) => {
    if (!clients.has(person.id)) {
      clients.set(person.id, createSupabaseTokenClient({ accessToken: await tokenFor(fixture, person) }))
    }
    return { claims: person.claims, supabase: clients.get(person.id)! }
  }
  const video = async (owner: Person = creator, options: { isPublic?: boolean; seconds?: number } = {}) => {
    const id = await fixture.makeVideo(owner, { isPublic: options.isPublic })
    await pool().query('update public.videos set duration_seconds = $2 where id = $1', [id, options.seconds ?? 60])
    return id
  }
  const positions = async (courseId: string) =>
    (
      await pool().query<{ video_id: string; position: number }>(
        'select video_id, position from public.course_lessons where course_id = $1 order by position',
        [courseId],
      )
    ).rows
  const order = async (courseId: string) => (await positions(courseId)).map((row) => row.video_id)
  const contiguous = async (courseId: string) => {
    const rows = await positions(courseId)
    expect(rows.map((row) => row.position)).toEqual(rows.map((_, index) => index))
  }
  const newCourse = async (title = 'Light and colour', owner: Person = creator) =>
    createCourse(await author(owner), { title, description: 'Why the sky is blue, in order.', category: 'other' })
  const fieldErrors = async (promise: Promise<unknown>) => {
    try {
      await promise
    } catch (error) {
      if (error instanceof DomainError) return { status: error.status, fieldErrors: error.fieldErrors }
      throw error
    }
    throw new Error('expected a refusal')
  }

  describe('creating and editing', () => {
    it('a verified creator creates a course; learners, unverified creators, admins and visitors may not', async () => {
      const id = await newCourse()
      const course = await getCourse(creator.claims, id)
      expect(course).toMatchObject({ title: 'Light and colour', isPublished: false, isOwner: true, lessons: [], totalSeconds: 0 })
      expect(await refusal(createCourse(await author(learner), { title: 'Mine' }))).toEqual({
        status: 403,
        message: COURSE_MESSAGES.notCreator,
      })
      expect((await refusal(createCourse(await author(unverified), { title: 'Mine' }))).status).toBe(403)
      expect((await refusal(createCourse(await author(admin), { title: 'Mine' }))).status).toBe(403)
      expect((await refusal(createCourse({ claims: null, supabase: (await author(learner)).supabase }, { title: 'x' }))).status).toBe(401)
    })

    it('checks the fields with the shared schema and the category the creator may use, keeping nothing', async () => {
      const before = Number((await pool().query('select count(*) from public.courses where creator_id = $1', [creator.id])).rows[0].count)
      expect(await fieldErrors(createCourse(await author(creator), { title: '  ', description: 'x'.repeat(5001) }))).toEqual({
        status: 400,
        fieldErrors: { title: COURSE_MESSAGES.titleRequired, description: COURSE_MESSAGES.descriptionTooLong },
      })
      expect(await fieldErrors(createCourse(await author(creator), { title: 'x'.repeat(201), category: 'astrology' }))).toEqual({
        status: 400,
        fieldErrors: { title: COURSE_MESSAGES.titleTooLong, category: COURSE_MESSAGES.categoryRequired },
      })
      // A category the creator was never approved for.
      expect(
        await fieldErrors(createCourse(await author(creator), { title: 'Cells', category: 'natural-sciences-biology' })),
      ).toEqual({ status: 400, fieldErrors: { category: COURSE_MESSAGES.categoryNotAllowed } })
      const after = Number((await pool().query('select count(*) from public.courses where creator_id = $1', [creator.id])).rows[0].count)
      expect(after).toBe(before)
    })

    it('a cover is checked by its content, stored re-encoded in <creator>/courses/, replaced and removed with the course', async () => {
      const png = path.join(work, 'cover.png')
      execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'color=c=blue:s=64x48', '-frames:v', '1', png])
      const fake = path.join(work, 'fake.png')
      writeFileSync(fake, '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')
      const file = (name: string) => ({ path: name, size: statSync(name).size, tooLarge: false })

      const refused = await fieldErrors(createCourse(await author(creator), { title: 'Covered', cover: file(fake) }))
      expect(refused.status).toBe(400)
      expect(refused.fieldErrors?.cover).toMatch(/SVG images are not accepted/)
      expect(await fixture.objectNames('thumbnails', `${creator.id}/courses/`)).toEqual([])

      const id = await createCourse(await author(creator), { title: 'Covered', cover: file(png) })
      const first = (await getCourse(creator.claims, id)).coverPath!
      expect(first).toMatch(new RegExp(`^${creator.id}/courses/[0-9a-f-]{36}\\.jpg$`))
      expect(await fixture.objectNames('thumbnails', `${creator.id}/courses/`)).toEqual([first])
      const stored = await pool().query<{ mimetype: string }>(
        "select metadata->>'mimetype' as mimetype from storage.objects where bucket_id = 'thumbnails' and name = $1",
        [first],
      )
      expect(stored.rows[0]?.mimetype).toBe('image/jpeg')

      await updateCourse(await author(creator), id, { title: 'Covered', cover: file(png) })
      const second = (await getCourse(creator.claims, id)).coverPath!
      expect(second).not.toBe(first)
      expect(await fixture.objectNames('thumbnails', `${creator.id}/courses/`)).toEqual([second])

      await deleteCourse(creator.claims, id)
      expect(await fixture.objectNames('thumbnails', `${creator.id}/courses/`)).toEqual([])
    })

    it('only its creator edits a course; others get 403 (or 404 for a draft they cannot see), nothing changes', async () => {
      const id = await newCourse('Only mine')
      const edit = { title: 'Taken over', description: '', category: 'other' }
      expect((await refusal(updateCourse(await author(otherCreator), id, edit))).status).toBe(404)
      expect((await refusal(updateCourse(await author(admin), id, edit))).status).toBe(403)
      await setLessons(creator.claims, id, [{ videoId: await video() }])
      await setCoursePublished(creator.claims, id, true)
      expect((await refusal(updateCourse(await author(otherCreator), id, edit))).status).toBe(403)
      expect((await refusal(updateCourse(await author(learner), id, edit))).status).toBe(403)
      expect((await getCourse(null, id)).title).toBe('Only mine')
      await updateCourse(await author(creator), id, { title: ' Renamed ', description: 'New words', category: 'other' })
      expect(await getCourse(null, id)).toMatchObject({ title: 'Renamed', description: 'New words' })
      expect(await getCourseEditor(creator.claims, id)).toMatchObject({ course: { id } })
      expect((await refusal(getCourseEditor(admin.claims, id))).status).toBe(403)
    })
  })

  describe('lessons', () => {
    it('add, remove, move and reorder keep positions 0..n-1 and the order asked for', async () => {
      const id = await newCourse('Ordering')
      const [a, b, c, d] = [await video(), await video(), await video(), await video()]
      for (const lesson of [a, b, c, d]) await addLesson(creator.claims, id, lesson)
      expect(await order(id)).toEqual([a, b, c, d])
      await contiguous(id)

      await moveLesson(creator.claims, id, c, 'up')
      expect(await order(id)).toEqual([a, c, b, d])
      await moveLesson(creator.claims, id, a, 'up') // already first: nothing
      await moveLesson(creator.claims, id, d, 'down') // already last: nothing
      expect(await order(id)).toEqual([a, c, b, d])
      await moveLesson(creator.claims, id, a, 'down')
      expect(await order(id)).toEqual([c, a, b, d])
      await contiguous(id)

      await removeLesson(creator.claims, id, a)
      expect(await order(id)).toEqual([c, b, d])
      await contiguous(id)

      await reorderLessons(creator.claims, id, [d, c, b])
      expect(await order(id)).toEqual([d, c, b])
      await contiguous(id)
      expect((await refusal(reorderLessons(creator.claims, id, [d, c]))).status).toBe(409)
      expect((await refusal(reorderLessons(creator.claims, id, [d, c, a]))).status).toBe(409)
      expect((await refusal(reorderLessons(creator.claims, id, [d, d, c]))).status).toBe(400)

      await addLesson(creator.claims, id, a, 'Practice')
      expect(await order(id)).toEqual([d, c, b, a])
      await contiguous(id)
      expect(await fieldErrors(addLesson(creator.claims, id, a))).toEqual({
        status: 400,
        fieldErrors: { lessons: COURSE_MESSAGES.lessonTwice },
      })
      expect((await refusal(removeLesson(creator.claims, id, randomUUID()))).status).toBe(400)
    })

    it('sections group consecutive lessons; the total length adds up', async () => {
      const id = await newCourse('Sections')
      const [a, b, c] = [await video(creator, { seconds: 30 }), await video(creator, { seconds: 90 }), await video(creator, { seconds: 61 })]
      await setLessons(creator.claims, id, [{ videoId: a }, { videoId: b, sectionTitle: '  Going deeper ' }, { videoId: c }])
      let course = await getCourse(creator.claims, id)
      expect(course.totalSeconds).toBe(181)
      expect(course.sections.map((section) => [section.title, section.lessons.map((lesson) => lesson.videoId)])).toEqual([
        [null, [a]],
        ['Going deeper', [b, c]],
      ])
      await setSectionTitle(creator.claims, id, a, 'Basics')
      await setSectionTitle(creator.claims, id, b, '')
      course = await getCourse(creator.claims, id)
      expect(course.sections.map((section) => section.title)).toEqual(['Basics'])
      expect(await fieldErrors(setSectionTitle(creator.claims, id, a, 'x'.repeat(121)))).toEqual({
        status: 400,
        fieldErrors: { lessons: COURSE_MESSAGES.sectionTooLong },
      })
    })

    it('another creator’s video, a private video or an unknown one is refused, and the list stays as it was', async () => {
      const id = await newCourse('Own videos only')
      const mine = await video()
      await setLessons(creator.claims, id, [{ videoId: mine }])
      const theirs = await video(otherCreator)
      const hidden = await video(creator, { isPublic: false })
      for (const videoId of [theirs, hidden, randomUUID()]) {
        expect(await fieldErrors(addLesson(creator.claims, id, videoId))).toEqual({
          status: 400,
          fieldErrors: { lessons: COURSE_MESSAGES.lessonNotYours },
        })
        expect((await fieldErrors(setLessons(creator.claims, id, [{ videoId: mine }, { videoId }]))).status).toBe(400)
      }
      expect(await order(id)).toEqual([mine])
      // Another creator may not touch the list at all.
      expect((await refusal(addLesson(otherCreator.claims, id, theirs))).status).toBe(404)
      await setCoursePublished(creator.claims, id, true)
      expect((await refusal(addLesson(otherCreator.claims, id, theirs))).status).toBe(403)
      expect((await refusal(removeLesson(learner.claims, id, mine))).status).toBe(403)
      expect((await refusal(moveLesson(admin.claims, id, mine, 'down'))).status).toBe(403)
      expect(await order(id)).toEqual([mine])
    })

    it('two editors changing the list at once leave it whole: every position 0..n-1, each lesson once', async () => {
      const id = await newCourse('Concurrent')
      const lessons = await Promise.all(Array.from({ length: 6 }, () => video()))
      await setLessons(
        creator.claims,
        id,
        lessons.slice(0, 4).map((videoId) => ({ videoId })),
      )
      const results = await Promise.allSettled([
        moveLesson(creator.claims, id, lessons[0], 'down'),
        moveLesson(creator.claims, id, lessons[3], 'up'),
        addLesson(creator.claims, id, lessons[4]),
        addLesson(creator.claims, id, lessons[5]),
        removeLesson(creator.claims, id, lessons[1]),
        moveLesson(creator.claims, id, lessons[2], 'up'),
      ])
      expect(results.filter((result) => result.status === 'rejected')).toEqual([])
      const rows = await positions(id)
      expect(new Set(rows.map((row) => row.video_id))).toEqual(new Set([lessons[0], lessons[2], lessons[3], lessons[4], lessons[5]]))
      await contiguous(id)
    })

    it('the deferred unique position refuses two lessons at one position, even written directly', async () => {
      const id = await newCourse('Unique positions')
      const [a, b] = [await video(), await video()]
      await setLessons(creator.claims, id, [{ videoId: a }, { videoId: b }])
      await expect(
        pool().query('update public.course_lessons set position = 0 where course_id = $1 and video_id = $2', [id, b]),
      ).rejects.toMatchObject({ code: '23505' })
      await contiguous(id)
    })
  })

  describe('publishing and reading', () => {
    it('a draft is seen by its creator and admins only; publishing needs a lesson; admins may only unpublish', async () => {
      const id = await newCourse('Draft first')
      expect((await refusal(getCourse(null, id))).status).toBe(404)
      expect((await refusal(getCourse(learner.claims, id))).status).toBe(404)
      expect((await refusal(getCourse(otherCreator.claims, id))).status).toBe(404)
      expect((await getCourse(admin.claims, id)).isAdmin).toBe(true)

      expect(await refusal(setCoursePublished(creator.claims, id, true))).toEqual({ status: 400, message: COURSE_MESSAGES.noLessons })
      await addLesson(creator.claims, id, await video())
      expect(await refusal(setCoursePublished(admin.claims, id, true))).toEqual({
        status: 403,
        message: COURSE_MESSAGES.adminOnlyUnpublish,
      })
      expect((await refusal(setCoursePublished(learner.claims, id, true))).status).toBe(404)
      expect(await setCoursePublished(creator.claims, id, true)).toBe(COURSE_MESSAGES.published)
      expect((await getCourse(null, id)).lessons).toHaveLength(1)
      expect((await refusal(setCoursePublished(learner.claims, id, false))).status).toBe(403)
      expect(await setCoursePublished(admin.claims, id, false)).toBe(COURSE_MESSAGES.unpublished)
      expect((await refusal(getCourse(learner.claims, id))).status).toBe(404)
      // The admin may delete it, not edit it.
      expect((await refusal(updateCourse(await author(admin), id, { title: 'Edited by admin' }))).status).toBe(403)
      expect(await deleteCourse(admin.claims, id)).toBe(COURSE_MESSAGES.deleted)
      expect((await refusal(getCourse(creator.claims, id))).status).toBe(404)
    })

    it('lists published courses newest first by cursor, a creator’s own with drafts, and finds them by title or description', async () => {
      const tag = `q${randomUUID().slice(0, 6)}`
      const ids: string[] = []
      for (const n of [1, 2, 3]) {
        const id = await createCourse(await author(otherCreator), {
          title: `Enzymes ${tag} part ${n}`,
          description: n === 2 ? `Catalysis explained ${tag}desc` : '',
          lessons: [{ videoId: await video(otherCreator) }],
          published: true,
        })
        ids.push(id)
      }
      const draft = await newCourse(`Draft ${tag}`, otherCreator)
      const seen: string[] = []
      let cursor: string | null = null
      do {
        const page = await listCourses(null, { cursor, limit: 2 })
        seen.push(...page.items.map((item) => item.id))
        cursor = page.nextCursor
      } while (cursor)
      expect(new Set(seen).size).toBe(seen.length)
      expect(seen).not.toContain(draft)
      const mine = seen.filter((id) => ids.includes(id))
      expect(mine).toEqual([...ids].reverse())

      expect((await listCreatorCourses(null, otherCreator.id)).map((item) => item.id)).not.toContain(draft)
      const own = await listCreatorCourses(otherCreator.claims, otherCreator.id)
      expect(own.map((item) => item.id)).toContain(draft)
      expect(own.find((item) => item.id === ids[0])).toMatchObject({ lessonCount: 1, totalSeconds: 60, isPublished: true })

      expect((await searchCourses(learner.claims, `enzymes ${tag}`)).map((item) => item.id).sort()).toEqual([...ids].sort())
      expect((await searchCourses(null, `${tag}des`)).map((item) => item.id)).toEqual([ids[1]])
      expect(await searchCourses(null, `draft ${tag}`)).toEqual([])
      expect(await searchCourses(null, `' & ! :*`)).toEqual([])
    })
  })

  describe('/api', () => {
    it('creates, reads, changes and deletes with the API’s statuses and field errors', async () => {
      const token = await tokenFor(fixture, creator)
      const learnerToken = await tokenFor(fixture, learner)
      const adminToken = await tokenFor(fixture, admin)
      const [a, b] = [await video(), await video()]

      expect((await call('POST', '/courses', { json: { title: 'x' } })).status).toBe(401)
      expect((await call('POST', '/courses', { token: learnerToken, json: { title: 'x' } })).status).toBe(403)
      const bad = await call('POST', '/courses', { token, json: { title: '', lessons: [{ videoId: a }, { videoId: a }] } })
      expect(bad.status).toBe(400)
      expect(bad.json.fieldErrors).toEqual({ title: COURSE_MESSAGES.titleRequired, lessons: COURSE_MESSAGES.lessonTwice })
      const foreign = await call('POST', '/courses', { token, json: { title: 'Foreign', lessons: [{ videoId: await video(otherCreator) }] } })
      expect(foreign.status).toBe(400)
      expect(foreign.json.fieldErrors).toEqual({ lessons: COURSE_MESSAGES.lessonNotYours })

      const created = await call('POST', '/courses', {
        token,
        json: { title: 'Via the API', category: 'Other', lessons: [{ videoId: a, sectionTitle: 'Start' }, { videoId: b }] },
      })
      expect(created.status).toBe(201)
      const id = created.json._id as string
      expect(created.json).toMatchObject({ title: 'Via the API', isPublished: false, categoryId: 'other' })
      expect((created.json.lessons as { videoId: string }[]).map((lesson) => lesson.videoId)).toEqual([a, b])

      expect((await call('GET', `/courses/${id}`)).status).toBe(404)
      expect((await call('GET', '/courses/not-a-uuid')).status).toBe(404)
      const publishedEmpty = await call('PUT', `/courses/${id}`, { token, json: { lessons: [], published: true } })
      expect(publishedEmpty.status).toBe(400)
      expect(await order(id)).toEqual([a, b])

      const changed = await call('PUT', `/courses/${id}`, { token, json: { lessons: [{ videoId: b }, { videoId: a }], published: true } })
      expect(changed.status).toBe(200)
      expect(changed.json).toMatchObject({ title: 'Via the API', isPublished: true })
      expect((changed.json.lessons as { videoId: string; position: number }[]).map((l) => [l.videoId, l.position])).toEqual([
        [b, 0],
        [a, 1],
      ])
      const read = await call('GET', `/courses/${id}`)
      expect(read.status).toBe(200)
      expect(read.json.totalDurationSeconds).toBe(120)

      const list = await call('GET', '/courses?limit=1')
      expect(list.status).toBe(200)
      expect(list.json.courses).toHaveLength(1)
      expect(list.headers.get('X-Next-Cursor')).toBe(list.json.nextCursor)
      const byCreator = await call('GET', `/courses?creator=${creator.id}`)
      expect((byCreator.json.courses as { _id: string }[]).map((course) => course._id)).toContain(id)

      expect((await call('PUT', `/courses/${id}`, { token: learnerToken, json: { title: 'Mine' } })).status).toBe(403)
      expect((await call('PUT', `/courses/${id}`, { token: adminToken, json: { title: 'Admin edit' } })).status).toBe(403)
      expect((await call('PUT', `/courses/${id}`, { token: adminToken, json: { published: true } })).status).toBe(403)
      const unpublished = await call('PUT', `/courses/${id}`, { token: adminToken, json: { published: false } })
      expect(unpublished.status).toBe(200)
      expect(unpublished.json.isPublished).toBe(false)
      expect((await call('PUT', `/courses/${id}`, { token: adminToken, json: { published: true } })).status).toBe(403)
      expect((await call('PUT', `/courses/${id}`, { token, json: { published: 'yes' } })).status).toBe(400)

      expect((await call('DELETE', `/courses/${id}`, { token: learnerToken })).status).toBe(404)
      expect((await call('DELETE', `/courses/${id}`)).status).toBe(401)
      const deleted = await call('DELETE', `/courses/${id}`, { token })
      expect(deleted.json).toEqual({ message: COURSE_MESSAGES.deleted })
      expect((await call('DELETE', `/courses/${id}`, { token })).status).toBe(404)
    })
  })
})
