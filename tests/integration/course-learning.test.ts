import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LEARNING_MESSAGES } from '../../app/lib/course-learning'
import { answerCheckpoint } from '../../app/server/checkpoints.server'
import {
  enroll,
  getCourseFunnel,
  getCourseProgress,
  getLessonCourse,
  leave,
  listCourseFunnels,
  listMyLearning,
} from '../../app/server/course-progress.server'
import { saveWatchPosition } from '../../app/server/progress.server'
import { call, tokenFor } from './support/api-client'
import { refusal } from './support/refusal'
import { openVideoFixture, type Person, type VideoFixture } from './support/video-fixture'

/**
 * Learning a course (ADR 0048) against PostgreSQL: a lesson is not started, in progress
 * or finished (watched to the end once, kept when watched again, and its required
 * checkpoints answered right); "k of n" and Continue (the first unfinished lesson at its
 * saved moment); enrolling and leaving (idempotent, published courses only); My
 * learning (newest activity first, one's own only); the player's course line; the
 * creator's funnel (counts only, the creator or an admin); and the /api twins.
 */
describe('course learning', () => {
  let fixture: VideoFixture
  let creator: Person
  let otherCreator: Person
  let learner: Person
  let other: Person
  let admin: Person

  beforeAll(async () => {
    fixture = await openVideoFixture('postgres')
    ;[creator, otherCreator, learner, other, admin] = await Promise.all([
      fixture.makeUser('creator'),
      fixture.makeUser('creator'),
      fixture.makeUser('user'),
      fixture.makeUser('user'),
      fixture.makeUser('admin'),
    ])
  })

  afterAll(async () => {
    await fixture?.close()
  })

  const pool = () => fixture.running.database.pool
  const lesson = async (title: string) => {
    const id = await fixture.makeVideo(creator)
    await pool().query('update public.videos set duration_seconds = 100, title = $2 where id = $1', [id, title])
    return id
  }
  /** A course of `creator` with `videos` as its lessons in order (written as the trusted test runner). */
  const course = async (title: string, videos: string[], published = true) => {
    const { rows } = await pool().query<{ id: string }>(
      `insert into public.courses (creator_id, title, is_published) values ($1, $2, $3) returning id`,
      [creator.id, title, published],
    )
    const id = rows[0]!.id
    for (const [position, video] of videos.entries())
      await pool().query('insert into public.course_lessons (course_id, video_id, position) values ($1, $2, $3)', [
        id,
        video,
        position,
      ])
    return id
  }
  const requiredCheckpoint = async (video: string, required = true) => {
    const { rows } = await pool().query<{ id: string }>(
      `insert into public.checkpoints (video_id, at_seconds, question, options, required)
       values ($1, 10, 'Which?', array['a', 'b'], $2) returning id`,
      [video, required],
    )
    await pool().query(`insert into public.checkpoint_keys (checkpoint_id, correct) values ($1, array[1]::smallint[])`, [rows[0]!.id])
    return rows[0]!.id
  }

  describe('progress in a course', () => {
    let one: string
    let two: string
    let three: string
    let id: string

    beforeAll(async () => {
      ;[one, two, three] = [await lesson('Lesson one'), await lesson('Lesson two'), await lesson('Lesson three')]
      id = await course('Optics in three steps', [one, two, three])
    })

    it('starts with every lesson not started, 0 of 3, and Continue at lesson 1 from its start', async () => {
      const progress = (await getCourseProgress(learner.claims, id))!
      expect(progress.enrolled).toBe(false)
      expect(progress.lessons.map((item) => item.state)).toEqual(['not_started', 'not_started', 'not_started'])
      expect([progress.finished, progress.total]).toEqual([0, 3])
      expect(progress.next).toMatchObject({ videoId: one, number: 1, title: 'Lesson one', href: `/video/${one}` })
    })

    it('is nothing for a visitor, and 404 for an unknown, malformed or unpublished course', async () => {
      expect(await getCourseProgress(null, id)).toBeNull()
      expect(await refusal(getCourseProgress(learner.claims, randomUUID()))).toEqual({
        status: 404,
        message: LEARNING_MESSAGES.courseNotFound,
      })
      expect((await refusal(getCourseProgress(learner.claims, 'nope'))).status).toBe(404)
      const draft = await course('A draft', [one], false)
      expect((await refusal(getCourseProgress(learner.claims, draft))).status).toBe(404)
      expect(await refusal(enroll(creator.claims, draft))).toEqual({ status: 400, message: LEARNING_MESSAGES.notPublished })
      expect((await refusal(enroll(learner.claims, draft))).status).toBe(404)
    })

    it('enrolls and leaves idempotently', async () => {
      expect((await enroll(learner.claims, id)).enrolled).toBe(true)
      expect((await enroll(learner.claims, id)).enrolled).toBe(true)
      const { rows } = await pool().query('select * from public.course_enrollments where course_id = $1', [id])
      expect(rows).toHaveLength(1)
      expect(await leave(learner.claims, id)).toEqual({ courseId: id, enrolled: false })
      expect(await leave(learner.claims, id)).toEqual({ courseId: id, enrolled: false })
      expect((await getCourseProgress(learner.claims, id))!.enrolled).toBe(false)
      await enroll(learner.claims, id)
    })

    it('finishes lesson 1 past 95 %, leaves lesson 2 in progress, and continues at lesson 2 where it stopped', async () => {
      await saveWatchPosition(learner.claims, one, { position: 96 })
      await saveWatchPosition(learner.claims, two, { position: 42.7 })
      const progress = (await getCourseProgress(learner.claims, id))!
      expect(progress.lessons.map((item) => item.state)).toEqual(['finished', 'in_progress', 'not_started'])
      expect([progress.finished, progress.total]).toEqual([1, 3])
      expect(progress.next).toMatchObject({ videoId: two, number: 2, href: `/video/${two}?t=42` })
    })

    it('keeps a finished lesson finished when it is watched again from the start', async () => {
      await saveWatchPosition(learner.claims, one, { position: 3 })
      const progress = (await getCourseProgress(learner.claims, id))!
      expect(progress.lessons[0]!.state).toBe('finished')
      expect(progress.finished).toBe(1)
    })

    it('opens a lesson barely started from its start (under 5 s is not worth resuming)', async () => {
      await saveWatchPosition(other.claims, one, { position: 2 })
      const progress = (await getCourseProgress(other.claims, id))!
      expect(progress.lessons[0]!.state).toBe('in_progress')
      expect(progress.next!.href).toBe(`/video/${one}`)
    })

    it('counts a lesson with a required checkpoint as finished only once it is answered right', async () => {
      const checkpoint = await requiredCheckpoint(three)
      await requiredCheckpoint(two, false)
      await saveWatchPosition(learner.claims, two, { position: 100 })
      await saveWatchPosition(learner.claims, three, { position: 100 })
      let progress = (await getCourseProgress(learner.claims, id))!
      // Lesson 2's checkpoint is optional: watching to the end is enough.
      expect(progress.lessons.map((item) => [item.state, item.needsAnswers])).toEqual([
        ['finished', false],
        ['finished', false],
        ['in_progress', true],
      ])
      expect(progress.next).toMatchObject({ videoId: three, href: `/video/${three}#check-yourself` })
      await answerCheckpoint(learner.claims, checkpoint, [0])
      expect((await getCourseProgress(learner.claims, id))!.lessons[2]!.state).toBe('in_progress')
      await answerCheckpoint(learner.claims, checkpoint, [1])
      progress = (await getCourseProgress(learner.claims, id))!
      expect(progress.lessons[2]!.state).toBe('finished')
      expect([progress.finished, progress.total, progress.next]).toEqual([3, 3, null])
    })

    it('forgets a lesson removed from History', async () => {
      await pool().query('delete from public.watch_progress where user_id = $1 and video_id = $2', [other.id, one])
      expect((await getCourseProgress(other.claims, id))!.lessons[0]!.state).toBe('not_started')
    })
  })

  describe('My learning, the player and the funnel', () => {
    let a1: string
    let a2: string
    let b1: string
    let courseA: string
    let courseB: string

    beforeAll(async () => {
      ;[a1, a2, b1] = [await lesson('A one'), await lesson('A two'), await lesson('B one')]
      courseA = await course('Course A', [a1, a2])
      courseB = await course('Course B', [b1, a2])
    })

    it('lists one’s enrolled courses, newest activity first, with k of n and Continue', async () => {
      const me = await fixture.makeUser('user')
      expect(await listMyLearning(me.claims)).toEqual([])
      await enroll(me.claims, courseA)
      await enroll(me.claims, courseB)
      await saveWatchPosition(me.claims, a1, { position: 100 })
      let learning = await listMyLearning(me.claims)
      expect(learning.map((item) => [item.title, item.finished, item.total, item.next?.number])).toEqual([
        ['Course A', 1, 2, 2],
        ['Course B', 0, 2, 1],
      ])
      await saveWatchPosition(me.claims, b1, { position: 30 })
      learning = await listMyLearning(me.claims)
      expect(learning[0]).toMatchObject({ title: 'Course B', finished: 0, total: 2, next: { href: `/video/${b1}?t=30` } })
      expect(learning[0]!.creator).toBeTruthy()
      expect(await listMyLearning(other.claims)).toEqual([])
    })

    it('gives the player the enrolled course first, else the first published, with Lesson n of m and the next lesson', async () => {
      const me = await fixture.makeUser('user')
      // a2 is lesson 2 of A (older) and of B.
      expect(await getLessonCourse(me.claims, a2)).toMatchObject({ courseId: courseA, number: 2, total: 2, next: null, enrolled: false })
      await enroll(me.claims, courseB)
      expect(await getLessonCourse(me.claims, a2)).toMatchObject({ courseId: courseB, number: 2, total: 2, enrolled: true })
      expect(await getLessonCourse(me.claims, b1)).toMatchObject({
        courseId: courseB,
        number: 1,
        title: 'Course B',
        next: { videoId: a2, title: 'A two', href: `/video/${a2}` },
      })
      const loose = await lesson('In no course')
      expect(await getLessonCourse(me.claims, loose)).toBeNull()
      expect(await getLessonCourse(null, a2)).toBeNull()
    })

    it('counts the funnel: enrolled learners, and per lesson who reached and finished it — for the creator and admins only', async () => {
      const [x, y] = await Promise.all([fixture.makeUser('user'), fixture.makeUser('user')])
      const funnelCourse = await course('Funnel', [a1, b1])
      await enroll(x.claims, funnelCourse)
      await enroll(y.claims, funnelCourse)
      await enroll(creator.claims, funnelCourse)
      await saveWatchPosition(x.claims, a1, { position: 100 })
      await saveWatchPosition(x.claims, b1, { position: 10 })
      await saveWatchPosition(y.claims, a1, { position: 50 })
      await saveWatchPosition(creator.claims, b1, { position: 100 })
      // Watching a lesson without being enrolled is not counted.
      await saveWatchPosition(other.claims, a1, { position: 100 })

      const funnel = await getCourseFunnel(creator.claims, funnelCourse)
      expect(funnel.enrolled).toBe(2)
      expect(funnel.lessons.map((item) => [item.number, item.title, item.reached, item.finished])).toEqual([
        [1, 'A one', 2, 1],
        [2, 'B one', 1, 0],
      ])
      expect((await getCourseFunnel(admin.claims, funnelCourse)).lessons[0]!.reached).toBe(2)
      expect((await refusal(getCourseFunnel(otherCreator.claims, funnelCourse))).status).toBe(403)
      expect((await refusal(getCourseFunnel(x.claims, funnelCourse))).status).toBe(403)
      expect((await refusal(getCourseFunnel(x.claims, randomUUID()))).status).toBe(404)

      const mine = await listCourseFunnels(creator.claims)
      expect(mine.find((item) => item.courseId === funnelCourse)).toEqual(funnel)
      expect(mine.find((item) => item.title === 'Course A')?.lessons).toHaveLength(2)
      expect(await listCourseFunnels(otherCreator.claims)).toEqual([])
      expect(JSON.stringify(mine)).not.toContain(x.id)
    })
  })

  describe('the /api twins', () => {
    it('enrolls, reads, leaves and lists through /api, one’s own only', async () => {
      const video = await lesson('API lesson')
      const id = await course('API course', [video])
      const token = await tokenFor(fixture, learner)
      expect((await call('POST', `/courses/${id}/enrollment`)).status).toBe(401)
      expect((await call('POST', `/courses/${randomUUID()}/enrollment`, { token })).status).toBe(404)
      const enrolled = await call('POST', `/courses/${id}/enrollment`, { token })
      expect(enrolled.status).toBe(200)
      expect(enrolled.json.progress).toMatchObject({ enrolled: true, finished: 0, total: 1 })
      await call('PUT', `/videos/${video}/progress`, { token, json: { position: 100 } })
      expect((await call('GET', `/courses/${id}/enrollment`, { token })).json.progress).toMatchObject({ finished: 1, next: null })

      const mine = await call('GET', `/users/${learner.id}/learning`, { token })
      expect(mine.status).toBe(200)
      expect((mine.json as unknown as { title: string }[]).map((item) => item.title)).toContain('API course')
      const theirs = await call('GET', `/users/${other.id}/learning`, { token })
      expect(theirs.status).toBe(403)
      expect(theirs.json.error).toBe(LEARNING_MESSAGES.ownLearningOnly)

      expect((await call('DELETE', `/courses/${id}/enrollment`, { token })).json).toEqual({ courseId: id, enrolled: false })
      expect((await call('GET', `/courses/${id}/enrollment`, { token })).json.progress).toMatchObject({ enrolled: false })

      expect((await call('GET', `/courses/${id}/funnel`, { token })).status).toBe(403)
      const creatorToken = await tokenFor(fixture, creator)
      const funnel = await call('GET', `/courses/${id}/funnel`, { token: creatorToken })
      expect(funnel.status).toBe(200)
      expect(funnel.json.funnel).toMatchObject({ enrolled: 0, lessons: [{ reached: 0, finished: 0 }] })
    })
  })
})
