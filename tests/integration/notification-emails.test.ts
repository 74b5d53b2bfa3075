import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { reviewApplication, reviewCategoryRequest } from '../../app/server/applications.server'
import { addComment } from '../../app/server/comments.server'
import { addCheckpoint, answerCheckpoint } from '../../app/server/checkpoints.server'
import { asCaller } from '../../app/server/db.server'
import { getEnv } from '../../app/server/env.server'
import { setFollow } from '../../app/server/follows.server'
import { likeVideo } from '../../app/server/likes.server'
import { getNotificationPreferences, saveNotificationPreferences } from '../../app/server/notification-preferences.server'
import { addTextQuote } from '../../app/server/quotes.server'
import { createReport, decideReport } from '../../app/server/reports.server'
import { action as unsubscribeAction, loader as unsubscribeLoader } from '../../app/routes/_auth+/unsubscribe'
import { action as preferencesFormAction } from '../../app/routes/_me+/notifications_.preferences'
import { signUnsubscribeToken, unsubscribeSecret } from '../../mail/unsubscribe-token'
import type { MailTransport, OutgoingMail } from '../../stack/mail'
import { Mailbox } from '../../stack/mailbox'
import { EmailOutbox } from '../../worker/email-outbox'
import { emailJob, type EmailJob } from '../../worker/jobs/email'
import { call, tokenFor } from './support/api-client'
import { openVideoFixture, sessionCookieHeader, type Person, type VideoFixture } from './support/video-fixture'

/**
 * Notification emails (docs/decisions/0046-notification-emails.md): each event
 * type queues exactly one email when its recipient chose email, none when they
 * chose the app only, a digest item when they chose the digest; the worker's
 * email job sends each once through the mailbox — also when a worker dies
 * between taking the email and sending it — retries failures, and sends the
 * digest once a day; the unsubscribe link stops a type without signing in.
 */
describe('notification emails', () => {
  let fixture: VideoFixture
  let creator: Person
  let learner: Person
  let otherLearner: Person
  let admin: Person
  let mailDir: string
  let mailbox: Mailbox
  let secret: string
  const SITE = 'http://lumen.test'

  beforeAll(async () => {
    fixture = await openVideoFixture('postgres')
    ;[creator, learner, otherLearner, admin] = await Promise.all([
      fixture.makeUser('creator'),
      fixture.makeUser('user'),
      fixture.makeUser('user'),
      fixture.makeUser('admin'),
    ])
    mailDir = await mkdtemp(path.join(tmpdir(), 'lumen-mail-'))
    mailbox = new Mailbox(mailDir)
    secret = unsubscribeSecret({ jwtSecret: getEnv().SUPABASE_JWT_SECRET })!
  })

  afterAll(async () => {
    await fixture?.close()
    if (mailDir) await rm(mailDir, { recursive: true, force: true })
  })

  const pool = () => fixture.running.database.pool

  /** The worker's email job over this database, as worker `id`, sending through `transport`. */
  function job(transport: MailTransport = mailbox, id = 'worker-a', leaseMs = 60_000): EmailJob {
    return emailJob({
      outbox: new EmailOutbox(pool(), { baseMs: 60_000 }),
      transport,
      siteUrl: SITE,
      secret,
      workerId: id,
      leaseMs,
      log: () => {},
    })
  }

  /** Sends every due email; answers how many it took. */
  async function drain(worker: EmailJob = job()): Promise<number> {
    let taken = 0
    while (await worker.sendOne()) taken++
    return taken
  }

  async function outboxOf(person: Person) {
    const { rows } = await pool().query<{ id: string; type: string; status: string; attempts: number }>(
      `select o.id, n.type, o.status, o.attempts from public.email_outbox o
         join public.notifications n on n.id = o.notification_id
        where o.recipient_id = $1 order by o.id`,
      [person.id],
    )
    return rows
  }

  async function digestItemsOf(person: Person) {
    const { rows } = await pool().query<{ type: string; email_id: string | null }>(
      `select n.type, i.email_id from public.notification_digest_items i join public.notifications n on n.id = i.notification_id
        where i.recipient_id = $1 order by n.created_at`,
      [person.id],
    )
    return rows
  }

  const everything = (channel: 'email' | 'in_app' | 'digest') =>
    Object.fromEntries(
      [
        'video_published',
        'video_commented',
        'video_liked',
        'video_quoted',
        'followed',
        'application_reviewed',
        'category_reviewed',
        'report_handled',
        'video_processed',
        'video_failed',
        'checkpoint_answers',
      ].map((type) => [type, channel]),
    )

  beforeEach(async () => {
    // Each test starts with an empty outbox and the default preferences, and sends only what it caused.
    await pool().query('delete from public.email_outbox')
    await pool().query('delete from public.notification_digest_items')
    await pool().query('delete from public.notification_preferences')
  })

  /** Causes one event of every type, through the app's domain functions and the worker's status changes. */
  async function causeEveryEvent(): Promise<void> {
    await setFollow(learner.claims, creator.id, false)
    await pool().query(`delete from public.notifications where recipient_id = $1 and type = 'followed'`, [creator.id])
    await setFollow(learner.claims, creator.id, true) // followed
    const video = await fixture.makeVideo(creator, { status: 'processing' })
    await pool().query(`update public.videos set status = 'ready' where id = $1`, [video]) // video_published, video_processed
    const broken = await fixture.makeVideo(creator, { status: 'processing' })
    await pool().query(`update public.videos set status = 'failed', status_message = 'Not a video' where id = $1`, [broken]) // video_failed
    await addComment(learner.claims, video, 'Lovely') // video_commented
    await likeVideo(learner.claims, video, true) // video_liked
    const checkpoint = await addCheckpoint(creator.claims, video, { at: 1, question: 'Why?', options: ['a', 'b'], correct: [0] })
    await answerCheckpoint(learner.claims, checkpoint.id, [1]) // checkpoint_answers
    await asCaller(learner.claims, (tx) => addTextQuote(tx, video, 'Worth quoting')) // video_quoted
    await createReport(learner.claims, { contentType: 'video', contentId: video, reason: 'spam', details: '' })
    const report = await pool().query<{ id: string }>(`select id from public.reports where content_id = $1`, [video])
    await decideReport(admin.claims, report.rows[0]!.id, 'dismissed') // report_handled
    await pool().query(
      `delete from public.creator_categories where creator_id = $1 and category_id = 'natural-sciences-biology'`,
      [creator.id],
    )
    await asCaller(creator.claims, (tx) =>
      tx.insertInto('creator_categories').values({ creator_id: creator.id, category_id: 'natural-sciences-biology' }).execute(),
    )
    await reviewCategoryRequest(admin.claims, { creatorId: creator.id, categoryId: 'natural-sciences-biology', approved: true }) // category_reviewed
  }

  it('defaults: a reviewed application and a failed upload by email, the rest in the app only', async () => {
    const preferences = await getNotificationPreferences(otherLearner.claims)
    expect(preferences).toHaveLength(11)
    const byEmail = preferences.filter((entry) => entry.channel === 'email').map((entry) => entry.type)
    expect(byEmail.sort()).toEqual(['application_reviewed', 'video_failed'])
    expect(preferences.every((entry) => entry.channel === entry.defaultChannel)).toBe(true)
  })

  it('email on: every event type queues exactly one email; in the app only: none', async () => {
    await saveNotificationPreferences(creator.claims, everything('email'))
    await saveNotificationPreferences(learner.claims, everything('email'))
    await causeEveryEvent()
    const creatorTypes = (await outboxOf(creator)).map((row) => row.type).sort()
    expect(creatorTypes).toEqual([
      'category_reviewed',
      'checkpoint_answers',
      'followed',
      'video_commented',
      'video_failed',
      'video_liked',
      'video_processed',
      'video_quoted',
    ])
    expect((await outboxOf(learner)).map((row) => row.type).sort()).toEqual(['report_handled', 'video_published'])
    // The admin and the other learner were told nothing, so nothing is emailed to them.
    expect(await outboxOf(admin)).toEqual([])

    await pool().query('delete from public.email_outbox')
    await saveNotificationPreferences(creator.claims, everything('in_app'))
    await saveNotificationPreferences(learner.claims, everything('in_app'))
    await causeEveryEvent()
    expect(await outboxOf(creator)).toEqual([])
    expect(await outboxOf(learner)).toEqual([])
  })

  it('the worker sends each queued email once through the mailbox, with its unsubscribe link and headers', async () => {
    await saveNotificationPreferences(learner.claims, { video_published: 'email' })
    const video = await fixture.makeVideo(creator, { status: 'processing' })
    await pool().query(`update public.videos set status = 'ready' where id = $1`, [video])
    expect(await outboxOf(learner)).toHaveLength(1)

    expect(await drain()).toBe(1)
    expect(await drain()).toBe(0)
    const mails = await mailbox.list(learner.email)
    expect(mails).toHaveLength(1)
    expect(mails[0]!.subject).toMatch(/published a new video: “Optics/)
    expect(mails[0]!.text).toContain(`${SITE}/video/${video}`)
    const token = signUnsubscribeToken(secret, { userId: learner.id, type: 'video_published' })
    expect(mails[0]!.text).toContain(`${SITE}/unsubscribe?token=${encodeURIComponent(token)}`)
    expect(mails[0]!.headers).toMatchObject({ 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' })
    expect((await outboxOf(learner))[0]).toMatchObject({ status: 'sent', attempts: 1 })
  })

  it('checkpoint answers by email: the day’s learners counted when it is sent, linking to the insights page', async () => {
    const video = await fixture.makeVideo(creator)
    const checkpoint = await addCheckpoint(creator.claims, video, { at: 1, question: 'Why?', options: ['a', 'b'], correct: [0] })
    await answerCheckpoint(learner.claims, checkpoint.id, [0])
    // The default is the app only: nothing queued.
    expect((await outboxOf(creator)).filter((row) => row.type === 'checkpoint_answers')).toEqual([])

    await saveNotificationPreferences(creator.claims, { checkpoint_answers: 'email' })
    const other = await fixture.makeVideo(creator)
    const otherCheckpoint = await addCheckpoint(creator.claims, other, {
      at: 1,
      question: 'Why?',
      options: ['a', 'b'],
      correct: [0],
    })
    await answerCheckpoint(creator.claims, otherCheckpoint.id, [0]) // their own: nothing
    expect(await outboxOf(creator)).toEqual([])
    await answerCheckpoint(learner.claims, otherCheckpoint.id, [0])
    await answerCheckpoint(otherLearner.claims, otherCheckpoint.id, [1]) // the same day: the same notification
    expect((await outboxOf(creator)).map((row) => row.type)).toEqual(['checkpoint_answers'])

    expect(await drain()).toBe(1)
    const mails = (await mailbox.list(creator.email)).filter((mail) => mail.subject.includes('checkpoints'))
    expect(mails).toHaveLength(1)
    expect(mails[0]!.subject).toBe(`2 learners answered the checkpoints in “Optics ${other.slice(0, 6)}”`)
    expect(mails[0]!.text).toContain(`Open: ${SITE}/dashboard/videos/${other}`)
    expect(mails[0]!.text).toContain('emails are on for “Answers to your checkpoints”')
  })

  it('a worker killed after taking an email: another sends it once after the lease, never again after success', async () => {
    await saveNotificationPreferences(creator.claims, { followed: 'email' })
    const fan = await fixture.makeUser('user')
    await setFollow(fan.claims, creator.id, true)
    const before = (await mailbox.list(creator.email)).length

    // Worker A takes it and dies before sending (its lease is left to run out).
    const outbox = new EmailOutbox(pool())
    const taken = await outbox.claim('worker-a', 60_000)
    expect(taken).not.toBeNull()
    // While the lease holds, nobody else takes it.
    expect(await drain(job(mailbox, 'worker-b'))).toBe(0)
    // The lease passes.
    await pool().query(`update public.email_outbox set locked_until = now() - interval '1 second' where id = $1`, [taken!.id])
    expect(await drain(job(mailbox, 'worker-b'))).toBe(1)
    expect(await mailbox.list(creator.email)).toHaveLength(before + 1)
    expect((await outboxOf(creator))[0]).toMatchObject({ status: 'sent', attempts: 2 })
    // Worker A coming back cannot mark it, nor send it again.
    expect(await outbox.finish(taken!, 'sent')).toBe(false)
    expect(await drain(job(mailbox, 'worker-a'))).toBe(0)
    expect(await mailbox.list(creator.email)).toHaveLength(before + 1)
  })

  it('a failed send is retried after its backoff, and given up after max_attempts', async () => {
    await saveNotificationPreferences(creator.claims, { video_commented: 'email' })
    const video = await fixture.makeVideo(creator)
    await addComment(learner.claims, video, 'First')
    let failures = 1
    const sent: OutgoingMail[] = []
    const flaky: MailTransport = {
      kind: 'smtp',
      async send(message) {
        if (failures-- > 0) throw new Error('connection refused')
        sent.push(message)
        return { id: 'ok' }
      },
    }
    expect(await drain(job(flaky))).toBe(1)
    expect((await outboxOf(creator))[0]).toMatchObject({ status: 'queued', attempts: 1 })
    // Not before its backoff has passed.
    expect(await drain(job(flaky))).toBe(0)
    await pool().query(`update public.email_outbox set run_after = now() where recipient_id = $1`, [creator.id])
    expect(await drain(job(flaky))).toBe(1)
    expect(sent).toHaveLength(1)
    expect((await outboxOf(creator))[0]).toMatchObject({ status: 'sent', attempts: 2 })

    await addComment(learner.claims, video, 'Second')
    const down: MailTransport = {
      kind: 'smtp',
      send: () => Promise.reject(new Error('down')),
    }
    for (let attempt = 0; attempt < 5; attempt++) {
      await pool().query(`update public.email_outbox set run_after = now() where status = 'queued'`)
      expect(await drain(job(down))).toBe(1)
    }
    await pool().query(`update public.email_outbox set run_after = now() where status = 'queued'`)
    expect(await drain(job(down))).toBe(0)
    expect((await outboxOf(creator)).at(-1)).toMatchObject({ status: 'failed', attempts: 5 })
  })

  it('an email whose notification is gone goes with it; a banned recipient’s is dropped', async () => {
    await saveNotificationPreferences(creator.claims, { video_commented: 'email' })
    const video = await fixture.makeVideo(creator)
    await addComment(learner.claims, video, 'Soon deleted')
    expect(await outboxOf(creator)).toHaveLength(1)
    await pool().query('delete from public.comments where video_id = $1', [video])
    expect(await outboxOf(creator)).toEqual([])

    const banned = await fixture.makeUser('creator')
    await saveNotificationPreferences(banned.claims, { video_commented: 'email' })
    const theirs = await fixture.makeVideo(banned)
    await addComment(learner.claims, theirs, 'Hello')
    await pool().query(`update auth.users set banned_until = now() + interval '1 day' where id = $1`, [banned.id])
    expect(await drain()).toBe(1)
    expect(await mailbox.list(banned.email)).toEqual([])
    expect((await outboxOf(banned))[0]).toMatchObject({ status: 'dropped' })
  })

  it('the daily digest: items wait a day, then one email tells of them all, once', async () => {
    await saveNotificationPreferences(creator.claims, { video_commented: 'digest', video_liked: 'digest' })
    const video = await fixture.makeVideo(creator)
    await addComment(learner.claims, video, 'Digest me')
    await likeVideo(otherLearner.claims, video, true)
    expect((await digestItemsOf(creator)).map((row) => row.type)).toEqual(['video_commented', 'video_liked'])
    expect(await outboxOf(creator)).toEqual([])

    const worker = job()
    expect(await worker.queueDigests()).toBe(0)
    await pool().query(
      `update public.notification_digest_items set created_at = now() - interval '25 hours' where recipient_id = $1`,
      [creator.id],
    )
    expect(await worker.queueDigests()).toBe(1)
    expect(await worker.queueDigests()).toBe(0)
    const before = (await mailbox.list(creator.email)).length
    expect(await drain(worker)).toBe(1)
    const mails = await mailbox.list(creator.email)
    expect(mails).toHaveLength(before + 1)
    expect(mails[0]!.subject).toBe('Your Lumen digest: 2 notifications')
    expect(mails[0]!.text).toContain('commented on “Optics')
    expect(mails[0]!.text).toContain('Digest me')
    expect(mails[0]!.text).toContain('liked your video')
    expect(mails[0]!.text).toContain(
      encodeURIComponent(signUnsubscribeToken(secret, { userId: creator.id, type: 'video_liked' })),
    )

    // A new item after the digest waits for the next day: one digest a day at most.
    await addComment(otherLearner.claims, video, 'Later')
    await pool().query(
      `update public.notification_digest_items set created_at = now() - interval '25 hours' where recipient_id = $1 and email_id is null`,
      [creator.id],
    )
    expect(await worker.queueDigests()).toBe(0)
    expect(await drain(worker)).toBe(0)
  })

  it('the unsubscribe link: a valid token stops that type without signing in; invalid and tampered ones change nothing', async () => {
    await saveNotificationPreferences(otherLearner.claims, { video_published: 'email', report_handled: 'email' })
    const token = signUnsubscribeToken(secret, { userId: otherLearner.id, type: 'video_published' })
    const get = (value: string) => new Request(`${SITE}/unsubscribe?token=${encodeURIComponent(value)}`)
    const post = (value: string) =>
      new Request(`${SITE}/unsubscribe`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: value }),
      })
    type Data<T> = { data: T; init: { status?: number } | null }

    const shown = (await unsubscribeLoader({
      request: get(token),
      params: {},
      context: { clientIp: '127.0.0.1' },
    })) as unknown as Data<{
      target: { label: string; channel: string } | null
    }>
    expect(shown.data.target).toEqual({ label: 'New videos from creators you follow', channel: 'email' })
    // Opening the page changed nothing.
    expect(
      (await getNotificationPreferences(otherLearner.claims)).find((entry) => entry.type === 'video_published')?.channel,
    ).toBe('email')

    const tampered = token.replace('video_published', 'report_handled')
    const forged = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`
    for (const bad of [
      '',
      'nonsense',
      tampered,
      forged,
      signUnsubscribeToken('another secret', { userId: otherLearner.id, type: 'video_published' }),
    ]) {
      const page = (await unsubscribeLoader({
        request: get(bad),
        params: {},
        context: { clientIp: '127.0.0.1' },
      })) as unknown as Data<{
        target: unknown
      }>
      expect(page.data.target).toBeNull()
      expect(page.init?.status).toBe(400)
      const refused = (await unsubscribeAction({
        request: post(bad),
        params: {},
        context: { clientIp: '127.0.0.1' },
      })) as unknown as Data<{
        done: boolean
      }>
      expect(refused.data.done).toBe(false)
      expect(refused.init?.status).toBe(400)
    }
    const channels = await getNotificationPreferences(otherLearner.claims)
    expect(
      channels
        .filter((entry) => entry.channel === 'email')
        .map((entry) => entry.type)
        .sort(),
    ).toEqual(['application_reviewed', 'report_handled', 'video_failed', 'video_published'])

    const done = (await unsubscribeAction({
      request: post(token),
      params: {},
      context: { clientIp: '127.0.0.1' },
    })) as unknown as Data<{
      done: boolean
    }>
    expect(done.data.done).toBe(true)
    const after = await getNotificationPreferences(otherLearner.claims)
    expect(after.find((entry) => entry.type === 'video_published')?.channel).toBe('in_app')
    expect(after.find((entry) => entry.type === 'report_handled')?.channel).toBe('email')

    // A mail client's one-click unsubscribe: POST List-Unsubscribe=One-Click to the link itself.
    const other = signUnsubscribeToken(secret, { userId: otherLearner.id, type: 'report_handled' })
    const oneClick = new Request(`${SITE}/unsubscribe?token=${encodeURIComponent(other)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    })
    expect(
      (
        (await unsubscribeAction({ request: oneClick, params: {}, context: { clientIp: '127.0.0.1' } })) as unknown as Data<{
          done: boolean
        }>
      ).data.done,
    ).toBe(true)
    expect(
      (await getNotificationPreferences(otherLearner.claims)).find((entry) => entry.type === 'report_handled')?.channel,
    ).toBe('in_app')
  })

  it('done when: an approved creator gets the notification and one email, whose link stops those emails without signing in', async () => {
    const applicant = await fixture.makeUser('creator')
    const application = await pool().query<{ id: string }>(
      `select id from public.creator_applications where creator_id = $1 and status = 'pending'`,
      [applicant.id],
    )
    await reviewApplication(
      { claims: admin.claims },
      { applicationId: application.rows[0]!.id, approved: true, reviewNotes: 'Welcome' },
    )
    const inApp = await pool().query(
      `select 1 from public.notifications where recipient_id = $1 and type = 'application_reviewed'`,
      [applicant.id],
    )
    expect(inApp.rowCount).toBe(1)
    expect(await drain()).toBe(1)
    const mails = await mailbox.list(applicant.email)
    expect(mails).toHaveLength(1)
    expect(mails[0]!.subject).toBe('Your creator application was approved. You can upload videos now.')
    expect(mails[0]!.text).toContain('Welcome')

    const link = /(http:\/\/lumen\.test\/unsubscribe\?token=\S+)/.exec(mails[0]!.text)?.[1]
    expect(link).toBeDefined()
    const answer = (await unsubscribeAction({
      request: new Request(link!, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: '' }),
      params: {},
      context: { clientIp: '127.0.0.1' },
    })) as unknown as { data: { done: boolean } }
    expect(answer.data.done).toBe(true)
    expect(
      (await getNotificationPreferences(applicant.claims)).find((entry) => entry.type === 'application_reviewed')?.channel,
    ).toBe('in_app')
  })

  it('preferences: the edit-profile form (no JavaScript) and the API twin GET/PUT /api/notifications/preferences', async () => {
    const cookie = await sessionCookieHeader(fixture, learner)
    const form = new Request(`${SITE}/notifications/preferences`, {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ video_published: 'digest', report_handled: 'email' }),
    })
    const saved = (await preferencesFormAction({ request: form, params: {}, context: { clientIp: '127.0.0.1' } })) as Response
    expect(saved.status).toBe(302)
    expect(saved.headers.get('Location')).toBe('/profile/edit#notification-preferences')
    const bad = new Request(`${SITE}/notifications/preferences`, {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ video_published: 'carrier-pigeon' }),
    })
    expect(
      ((await preferencesFormAction({ request: bad, params: {}, context: { clientIp: '127.0.0.1' } })) as Response).status,
    ).toBe(302)

    const token = await tokenFor(fixture, learner)
    expect((await call('GET', '/notifications/preferences')).status).toBe(401)
    const listed = await call('GET', '/notifications/preferences', { token })
    expect(listed.status).toBe(200)
    const body = listed.json as { preferences: { type: string; channel: string; default: string }[] }
    expect(body.preferences).toHaveLength(11)
    expect(body.preferences.find((entry) => entry.type === 'video_published')).toMatchObject({
      channel: 'digest',
      default: 'in_app',
    })
    expect(body.preferences.find((entry) => entry.type === 'report_handled')).toMatchObject({ channel: 'email' })

    const put = await call('PUT', '/notifications/preferences', { token, json: { preferences: { video_published: 'in_app' } } })
    expect(put.status).toBe(200)
    expect((put.json as typeof body).preferences.find((entry) => entry.type === 'video_published')?.channel).toBe('in_app')
    expect(
      (await call('PUT', '/notifications/preferences', { token, json: { preferences: { video_published: 'fax' } } })).status,
    ).toBe(400)
    expect(
      (await call('PUT', '/notifications/preferences', { token, json: { preferences: { not_a_type: 'email' } } })).status,
    ).toBe(400)
    expect((await call('PUT', '/notifications/preferences', { token, json: { preferences: {} } })).status).toBe(400)
    expect(
      (await call('PUT', '/notifications/preferences', { json: { preferences: { video_published: 'email' } } })).status,
    ).toBe(401)
    // A refused change wrote nothing.
    expect((await getNotificationPreferences(learner.claims)).find((entry) => entry.type === 'video_published')?.channel).toBe(
      'in_app',
    )
  })
})
