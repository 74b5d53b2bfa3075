import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { reviewApplication, reviewCategoryRequest } from '../../app/server/applications.server'
import { addComment, deleteComment } from '../../app/server/comments.server'
import { addCheckpoint, answerCheckpoint } from '../../app/server/checkpoints.server'
import { asCaller } from '../../app/server/db.server'
import { setFollow } from '../../app/server/follows.server'
import { likeVideo } from '../../app/server/likes.server'
import { listNotifications, markNotificationsRead, unreadCount } from '../../app/server/notifications.server'
import { addTextQuote } from '../../app/server/quotes.server'
import { createReport, decideReport } from '../../app/server/reports.server'
import { call, tokenFor } from './support/api-client'
import { openVideoFixture, sessionCookieHeader, type Person, type VideoFixture } from './support/video-fixture'
import { loader as rootLoader } from '../../app/root'
import { action as pageAction, loader as pageLoader } from '../../app/routes/_me+/notifications'

/**
 * Every kind of notification, caused through the app's own domain functions
 * (and the worker's status changes), fires exactly once, for the right person,
 * never for the one acting, and renders under the recipient's RLS: nothing of
 * what they cannot see, gone when its object is.
 */
describe('notifications', () => {
  let fixture: VideoFixture
  let creator: Person
  let learner: Person
  let otherLearner: Person
  let admin: Person

  beforeAll(async () => {
    fixture = await openVideoFixture('postgres')
    ;[creator, learner, otherLearner, admin] = await Promise.all([
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

  async function rowsOf(person: Person, type?: string) {
    const { rows } = await pool().query<{ type: string; actor_id: string | null; video_id: string | null }>(
      `select type, actor_id, video_id from public.notifications where recipient_id = $1 ${type ? 'and type = $2' : ''} order by created_at`,
      type ? [person.id, type] : [person.id],
    )
    return rows
  }

  /** A processing upload of the creator's that the worker then finishes (or fails). */
  async function upload(status: 'ready' | 'failed', options: { isPublic?: boolean } = {}) {
    const id = await fixture.makeVideo(creator, { status: 'processing', isPublic: options.isPublic ?? true })
    await pool().query(
      status === 'ready'
        ? `update public.videos set status = 'ready', hls_path = 'videos/' || id || '/hls/master.m3u8' where id = $1`
        : `update public.videos set status = 'failed', status_message = 'Please select a valid video file' where id = $1`,
      [id],
    )
    return id
  }

  it('a followed creator’s upload: each follower once, when it is ready (not at upload); the creator that it is processed', async () => {
    await setFollow(learner.claims, creator.id, true)
    expect(await rowsOf(creator, 'followed')).toEqual([{ type: 'followed', actor_id: learner.id, video_id: null }])

    const id = await fixture.makeVideo(creator, { status: 'processing' })
    expect(await rowsOf(learner, 'video_published')).toEqual([])
    await pool().query(`update public.videos set status = 'ready' where id = $1`, [id])
    // Phase 2 of the renditions, a retried job: nothing more.
    await pool().query(`update public.videos set more_qualities_pending = false where id = $1`, [id])
    expect(await rowsOf(learner, 'video_published')).toEqual([{ type: 'video_published', actor_id: creator.id, video_id: id }])
    expect(await rowsOf(creator, 'video_processed')).toEqual([{ type: 'video_processed', actor_id: null, video_id: id }])
    expect(await rowsOf(otherLearner)).toEqual([])

    const page = await listNotifications(learner.claims)
    expect(page.unread).toBe(1)
    expect(page.items[0]).toMatchObject({ href: `/video/${id}`, readAt: null })
    expect(page.items[0]!.message).toContain('published a new video')

    // Following again later tells the creator nothing new.
    await setFollow(learner.claims, creator.id, false)
    await setFollow(learner.claims, creator.id, true)
    expect(await rowsOf(creator, 'followed')).toHaveLength(1)
  })

  it('a private upload tells no follower; a failed one tells its creator why', async () => {
    const before = (await rowsOf(learner, 'video_published')).length
    const hidden = await upload('ready', { isPublic: false })
    expect(await rowsOf(learner, 'video_published')).toHaveLength(before)
    expect((await rowsOf(creator, 'video_processed')).some((row) => row.video_id === hidden)).toBe(true)

    const broken = await upload('failed')
    expect((await rowsOf(creator, 'video_failed')).filter((row) => row.video_id === broken)).toHaveLength(1)
    const failed = (await listNotifications(creator.claims)).items.find((item) => item.type === 'video_failed')
    expect(failed).toMatchObject({ detail: 'Please select a valid video file', href: `/video/${broken}` })
  })

  it('comments: once per comment, the text read at read time, gone with the comment', async () => {
    const video = await fixture.makeVideo(creator)
    const comment = await addComment(learner.claims, video, 'Great explanation of refraction')
    await addComment(creator.claims, video, 'Thanks!')
    const rows = (await rowsOf(creator, 'video_commented')).filter((row) => row.video_id === video)
    expect(rows).toEqual([{ type: 'video_commented', actor_id: learner.id, video_id: video }])
    const item = (await listNotifications(creator.claims)).items.find((entry) => entry.type === 'video_commented')
    expect(item?.detail).toBe('Great explanation of refraction')

    await deleteComment(learner.claims, comment.id)
    expect((await rowsOf(creator, 'video_commented')).filter((row) => row.video_id === video)).toEqual([])
  })

  it('likes: one notification per video and hour, counting the people', async () => {
    const video = await fixture.makeVideo(creator)
    await likeVideo(learner.claims, video, true)
    await likeVideo(otherLearner.claims, video, true)
    await likeVideo(creator.claims, video, true)
    expect((await rowsOf(creator, 'video_liked')).filter((row) => row.video_id === video)).toHaveLength(1)
    const item = (await listNotifications(creator.claims)).items.find((entry) => entry.type === 'video_liked')
    expect(item?.message).toMatch(/^2 people liked your video “Optics/)
  })

  it('checkpoint answers: the creator once per video and UTC day, counting learners at read time, linking to the insights', async () => {
    const video = await fixture.makeVideo(creator)
    const first = await addCheckpoint(creator.claims, video, {
      at: 0.5,
      question: 'Why blue?',
      options: ['Rayleigh', 'Paint'],
      correct: [0],
    })
    const second = await addCheckpoint(creator.claims, video, {
      at: 1.5,
      question: 'Sunsets?',
      options: ['Red', 'Green'],
      correct: [0],
    })
    const answersOf = async () => (await rowsOf(creator, 'checkpoint_answers')).filter((row) => row.video_id === video)
    const itemOf = async () =>
      (await listNotifications(creator.claims)).items.find(
        (entry) => entry.type === 'checkpoint_answers' && entry.href?.endsWith(video),
      )

    await answerCheckpoint(creator.claims, first.id, [1])
    expect(await answersOf()).toEqual([])

    await answerCheckpoint(learner.claims, first.id, [1])
    await answerCheckpoint(learner.claims, first.id, [0])
    expect(await answersOf()).toEqual([{ type: 'checkpoint_answers', actor_id: null, video_id: video }])
    expect(await itemOf()).toMatchObject({
      message: `1 learner answered the checkpoints in “Optics ${video.slice(0, 6)}”`,
      href: `/dashboard/videos/${video}`,
      actor: null,
      detail: null,
    })

    const late = await fixture.makeUser('user')
    await answerCheckpoint(otherLearner.claims, second.id, [0])
    await answerCheckpoint(late.claims, second.id, [1])
    expect(await answersOf()).toHaveLength(1)
    expect((await itemOf())?.message).toBe(`3 learners answered the checkpoints in “Optics ${video.slice(0, 6)}”`)

    // Counted when read: a deleted learner no longer counts.
    await pool().query('delete from public.profiles where id = $1', [late.id])
    expect((await itemOf())?.message).toBe(`2 learners answered the checkpoints in “Optics ${video.slice(0, 6)}”`)

    // Nobody else reads it.
    for (const person of [learner, otherLearner, admin]) {
      expect((await listNotifications(person.claims)).items.some((entry) => entry.type === 'checkpoint_answers')).toBe(false)
    }

    // The API twin lists it with its type.
    const token = await tokenFor(fixture, creator)
    const listed = await call('GET', '/notifications?limit=50', { token })
    expect(listed.status).toBe(200)
    const items = (listed.json as { notifications: { type: string; link: string | null }[] }).notifications
    expect(items).toContainEqual(expect.objectContaining({ type: 'checkpoint_answers', link: `/dashboard/videos/${video}` }))
  })

  it('quotes: the quoted video’s creator once, linking to the quote', async () => {
    const video = await fixture.makeVideo(creator)
    await asCaller(learner.claims, (tx) => addTextQuote(tx, video, 'Snell’s law, finally clear'))
    expect((await rowsOf(creator, 'video_quoted')).filter((row) => row.video_id === video)).toEqual([
      { type: 'video_quoted', actor_id: learner.id, video_id: video },
    ])
    const item = (await listNotifications(creator.claims)).items.find((entry) => entry.type === 'video_quoted')
    expect(item?.href).toMatch(/^\/quote\//)
    expect(item?.detail).toBe('Snell’s law, finally clear')
  })

  it('a creator application reviewed: the creator once, with the admin’s note; the admin nothing', async () => {
    const applicant = await fixture.makeUser('creator')
    const { rows } = await pool().query<{ id: string }>(
      `select id from public.creator_applications where creator_id = $1 and status = 'pending'`,
      [applicant.id],
    )
    await reviewApplication(
      { claims: admin.claims },
      { applicationId: rows[0]!.id, approved: true, reviewNotes: 'Welcome aboard' },
    )
    expect(await rowsOf(applicant, 'application_reviewed')).toHaveLength(1)
    expect(await rowsOf(admin)).toEqual([])
    const item = (await listNotifications(applicant.claims)).items[0]
    expect(item).toMatchObject({ type: 'application_reviewed', actor: null, detail: 'Welcome aboard', href: '/upload' })
  })

  it('a category request reviewed: the creator once', async () => {
    await asCaller(creator.claims, (tx) =>
      tx.insertInto('creator_categories').values({ creator_id: creator.id, category_id: 'natural-sciences-biology' }).execute(),
    )
    await reviewCategoryRequest(admin.claims, { creatorId: creator.id, categoryId: 'natural-sciences-biology', approved: false })
    expect(await rowsOf(creator, 'category_reviewed')).toHaveLength(1)
    const item = (await listNotifications(creator.claims)).items.find((entry) => entry.type === 'category_reviewed')
    expect(item?.message).toMatch(/was not approved/)
  })

  it('a report handled: each reporter once, with the outcome', async () => {
    const video = await fixture.makeVideo(creator)
    await createReport(learner.claims, { contentType: 'video', contentId: video, reason: 'spam', details: '' })
    await createReport(otherLearner.claims, { contentType: 'video', contentId: video, reason: 'spam', details: '' })
    const { rows } = await pool().query<{ id: string }>(
      `select id from public.reports where content_id = $1 and reporter_id = $2`,
      [video, learner.id],
    )
    await decideReport(admin.claims, rows[0]!.id, 'dismissed')
    expect(await rowsOf(learner, 'report_handled')).toHaveLength(1)
    expect(await rowsOf(otherLearner, 'report_handled')).toHaveLength(1)
    const item = (await listNotifications(otherLearner.claims)).items.find((entry) => entry.type === 'report_handled')
    expect(item).toMatchObject({ href: '/profile?tab=reports' })
    expect(item?.message).toMatch(/content stays up/)
  })

  it('marks one, then all, read; only the caller’s', async () => {
    const before = await unreadCount(creator.claims)
    expect(before).toBeGreaterThan(1)
    const [first] = (await listNotifications(creator.claims)).items
    expect(await markNotificationsRead(otherLearner.claims, { ids: [first!.id] })).toBe(0)
    expect(await markNotificationsRead(creator.claims, { ids: [first!.id] })).toBe(1)
    expect(await unreadCount(creator.claims)).toBe(before - 1)
    await markNotificationsRead(creator.claims, { all: true })
    expect(await unreadCount(creator.claims)).toBe(0)
    expect(await unreadCount(null)).toBe(0)
  })

  it('pages newest first by cursor', async () => {
    const first = await listNotifications(creator.claims, { limit: 2 })
    expect(first.items).toHaveLength(2)
    expect(first.nextCursor).not.toBeNull()
    const second = await listNotifications(creator.claims, { limit: 2, cursor: first.nextCursor })
    expect(second.items.map((item) => item.id)).not.toContain(first.items[0]!.id)
    expect(second.items[0]!.createdAt <= first.items[1]!.createdAt).toBe(true)
  })

  it('a video made private, a deleted actor: their notifications disappear', async () => {
    const video = await upload('ready')
    expect((await rowsOf(learner, 'video_published')).some((row) => row.video_id === video)).toBe(true)
    await pool().query('update public.videos set is_public = false where id = $1', [video])
    expect((await rowsOf(learner, 'video_published')).some((row) => row.video_id === video)).toBe(false)

    const fan = await fixture.makeUser('user')
    await setFollow(fan.claims, creator.id, true)
    expect((await rowsOf(creator, 'followed')).some((row) => row.actor_id === fan.id)).toBe(true)
    await pool().query('delete from public.profiles where id = $1', [fan.id])
    expect((await rowsOf(creator, 'followed')).some((row) => row.actor_id === fan.id)).toBe(false)
  })

  it('the API twin: GET /api/notifications pages them, POST /api/notifications/read marks them', async () => {
    const token = await tokenFor(fixture, learner)
    expect((await call('GET', '/notifications')).status).toBe(401)
    const listed = await call('GET', '/notifications?limit=1', { token })
    expect(listed.status).toBe(200)
    const body = listed.json as { notifications: { _id: string; read: boolean; link: string | null }[]; unread: number }
    expect(body.notifications).toHaveLength(1)
    expect(body.unread).toBeGreaterThan(0)

    expect((await call('POST', '/notifications/read', { token, json: { ids: ['not-an-id'] } })).status).toBe(400)
    expect((await call('POST', '/notifications/read', { token, json: {} })).status).toBe(400)
    const one = await call('POST', '/notifications/read', { token, json: { ids: [body.notifications[0]!._id] } })
    expect(one.json).toMatchObject({ marked: 1 })
    const all = await call('POST', '/notifications/read', { token, json: { all: true } })
    expect(all.json).toMatchObject({ unread: 0 })
  })

  it('the shell: the root loader carries the count; the page’s plain “Mark all as read” form clears it', async () => {
    const fan = await fixture.makeUser('user')
    await setFollow(fan.claims, creator.id, true)
    await upload('ready')
    const cookie = await sessionCookieHeader(fixture, fan)
    const context = { clientIp: '127.0.0.1' }
    const get = (path: string) => new Request(`http://lumen.test${path}`, { headers: { Cookie: cookie } })
    type Data<T> = { data: T }
    const shell = (await rootLoader({ request: get('/'), params: {}, context })) as unknown as Data<{ unread: number }>
    expect(shell.data.unread).toBe(1)
    const page = (await pageLoader({ request: get('/notifications'), params: {}, context })) as unknown as Data<{
      page: { items: { message: string }[] }
    }>
    expect(page.data.page.items[0]!.message).toContain('published a new video')

    const post = new Request('http://lumen.test/notifications', {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ intent: 'read-all' }),
    })
    const answer = (await pageAction({ request: post, params: {}, context })) as Response
    expect(answer.status).toBe(302)
    expect(answer.headers.get('Location')).toBe('/notifications')
    const after = (await rootLoader({ request: get('/'), params: {}, context })) as unknown as Data<{ unread: number }>
    expect(after.data.unread).toBe(0)
  })
})
