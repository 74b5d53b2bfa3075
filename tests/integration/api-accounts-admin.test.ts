import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_MESSAGES } from '../../app/lib/schemas/admin'
import { API_APPROVED_MESSAGE, API_MESSAGES, API_REPORT_STATUS_MESSAGE, API_ROLE_MESSAGE } from '../../app/lib/schemas/api'
import { AUTH_MESSAGES } from '../../app/lib/schemas/auth'
import { FEEDBACK_MESSAGES } from '../../app/lib/schemas/feedback'
import { REPORT_MESSAGES } from '../../app/lib/schemas/report'
import { call, tokenFor } from './support/api-client'
import { openVideoFixture, type Person, type VideoFixture } from './support/video-fixture'

/**
 * The account, report, feedback and admin calls of /api in PeerTube's
 * check-params manner — 401, 403, 400, 404 before the success case — each
 * answer checked against the OpenAPI schema by `call`.
 */
const MISSING = '00000000-0000-4000-8000-000000000000'

let fixture: VideoFixture
let creator: Person
let learner: Person
let admin: Person
let tokens: { creator: string; learner: string; admin: string }
let video: string

beforeAll(async () => {
  fixture = await openVideoFixture('postgres')
  ;[creator, learner, admin] = await Promise.all([
    fixture.makeUser('creator'),
    fixture.makeUser('user'),
    fixture.makeUser('admin'),
  ])
  video = await fixture.makeVideo(creator)
  tokens = {
    creator: await tokenFor(fixture, creator),
    learner: await tokenFor(fixture, learner),
    admin: await tokenFor(fixture, admin),
  }
}, 120_000)

afterAll(async () => {
  await fixture?.close()
})

describe('auth', () => {
  it('GET /auth/me: 401 without or with a bad token, then one’s own user (with email, never a password)', async () => {
    expect((await call('GET', '/auth/me')).json.error).toBe(API_MESSAGES.noToken)
    expect((await call('GET', '/auth/me', { token: 'forged' })).status).toBe(401)
    const me = await call('GET', '/auth/me', { token: tokens.learner })
    expect(me.json).toMatchObject({ _id: learner.id, email: learner.email, role: 'user', creatorCategories: [] })
    expect(JSON.stringify(me.json)).not.toMatch(/password|hash/i)
  })

  it('POST /auth/login: 400 for a missing email, 401 for a wrong password, then { token, user }', async () => {
    expect((await call('POST', '/auth/login', { json: { password: 'x' } })).json.error).toBe(AUTH_MESSAGES.emailRequired)
    const wrong = await call('POST', '/auth/login', { json: { email: learner.email, password: 'wrong-password' } })
    expect(wrong.status).toBe(401)
    expect(wrong.json.error).toBe(AUTH_MESSAGES.loginFailed)
    const ok = await call('POST', '/auth/login', { json: { email: learner.email, password: learner.password } })
    expect(ok.json).toMatchObject({ user: { _id: learner.id } })
    expect((await call('GET', '/auth/me', { token: ok.json.token as string })).status).toBe(200)
  })

  it('POST /auth/signup: 400 for missing fields or an admin role, 409 for a taken email, then a pending creator', async () => {
    expect((await call('POST', '/auth/signup', { json: { email: 'a@example.test' } })).json.error).toBe(
      AUTH_MESSAGES.fillRequired,
    )
    const email = `new-${randomUUID().slice(0, 8)}@example.test`
    const base = { username: `new_${randomUUID().slice(0, 8)}`, email, password: 'Secret-pass-1' }
    expect((await call('POST', '/auth/signup', { json: { ...base, role: 'admin' } })).json.error).toBe(API_ROLE_MESSAGE)
    expect((await call('POST', '/auth/signup', { json: { ...base, email: learner.email } })).status).toBe(409)
    const created = await call('POST', '/auth/signup', {
      json: { ...base, role: 'creator', bio: 'I teach optics.', creatorCategories: [{ name: 'Media' }], isVerified: true },
    })
    expect(created.status).toBe(201)
    expect(created.json.user).toMatchObject({
      role: 'creator',
      isVerified: false,
      bio: 'I teach optics.',
      creatorCategories: [{ name: 'Media', status: 'pending' }],
    })
  })

  it('POST /auth/forgot-password: 400 with the message in `error` and `message`, then the spec’s message', async () => {
    const missing = await call('POST', '/auth/forgot-password', { json: {} })
    expect(missing.json).toMatchObject({ error: AUTH_MESSAGES.resetEmailRequired, message: AUTH_MESSAGES.resetEmailRequired })
    expect((await call('POST', '/auth/forgot-password', { json: { email: learner.email } })).json).toEqual({
      message: AUTH_MESSAGES.resetSent,
    })
  })

  it('POST /auth/check-email: 400 for a bad address, { exists }, then 429 with Retry-After', async () => {
    expect((await call('POST', '/auth/check-email?email=nope')).status).toBe(400)
    expect((await call('POST', `/auth/check-email?email=${encodeURIComponent(learner.email)}`)).json).toEqual({ exists: true })
    expect((await call('POST', '/auth/check-email', { json: { email: 'nobody@example.test' } })).json).toEqual({ exists: false })
    let answer = await call('POST', '/auth/check-email?email=nobody%40example.test')
    for (let tries = 0; answer.status === 200 && tries < 20; tries++)
      answer = await call('POST', '/auth/check-email?email=nobody%40example.test')
    expect(answer.status).toBe(429)
    expect(answer.json.error).toBe(AUTH_MESSAGES.tooManyChecks)
    expect(Number(answer.headers.get('Retry-After'))).toBeGreaterThan(0)
  })
})

describe('reports', () => {
  let reportId: string

  it('POST /reports: 401, 400 without a reason, 404 for unseen content, then stored (free-text reason)', async () => {
    const body = { contentId: video, contentType: 'video', reason: 'inappropriate content' }
    expect((await call('POST', '/reports', { json: body })).status).toBe(401)
    expect((await call('POST', '/reports', { token: tokens.learner, json: { ...body, reason: ' ' } })).json.error).toBe(
      REPORT_MESSAGES.reason,
    )
    expect((await call('POST', '/reports', { token: tokens.learner, json: { ...body, contentId: MISSING } })).status).toBe(404)
    const stored = await call('POST', '/reports', { token: tokens.learner, json: body })
    expect(stored.status).toBe(201)
    expect(stored.json).toEqual({ message: API_MESSAGES.reportSent })
    // The video is the creator's own: nobody reports their own content (ADR 0018).
    const own = await call('POST', '/reports/create', { token: tokens.creator, json: { ...body, reason: 'spam' } })
    expect(own.status).toBe(403)
    expect(own.json.error).toBe(REPORT_MESSAGES.own)
    expect((await call('POST', '/reports/create', { token: tokens.admin, json: { ...body, reason: 'spam' } })).status).toBe(201)
  })

  it('GET /reports: 401, one’s own for a learner, all for an admin', async () => {
    expect((await call('GET', '/reports')).status).toBe(401)
    const own = (await call('GET', '/reports', { token: tokens.learner })).body as {
      _id: string
      reason: string
      details: string
    }[]
    expect(own).toHaveLength(1)
    expect(own[0]).toMatchObject({ reason: 'inappropriate', details: 'inappropriate content' })
    reportId = own[0]!._id
    const all = (await call('GET', '/reports', { token: tokens.admin })).body as unknown[]
    expect(all.length).toBeGreaterThanOrEqual(2)
  })

  it('PUT /reports/:id: 401, 403, 400, 404, then decided', async () => {
    expect((await call('PUT', `/reports/${reportId}`, { json: { status: 'dismissed' } })).status).toBe(401)
    expect((await call('PUT', `/reports/${reportId}`, { token: tokens.learner, json: { status: 'dismissed' } })).status).toBe(403)
    expect((await call('PUT', `/reports/${reportId}`, { token: tokens.admin, json: { status: 'pending' } })).json.error).toBe(
      API_REPORT_STATUS_MESSAGE,
    )
    expect((await call('PUT', '/reports/nope', { token: tokens.admin, json: { status: 'dismissed' } })).status).toBe(404)
    expect((await call('PUT', `/reports/${reportId}`, { token: tokens.admin, json: { status: 'dismissed' } })).json).toEqual({
      message: ADMIN_MESSAGES.dismissed,
    })
  })
})

describe('feedback', () => {
  it('POST: 401, 400 for a missing field, then thanks; GET: 401, 403, then the list for admins', async () => {
    const body = { liked: 'yes', usage: 'Daily sparks', recommendations: 'More chemistry' }
    expect((await call('POST', '/feedback', { json: body })).status).toBe(401)
    expect((await call('POST', '/feedback', { token: tokens.learner, json: { ...body, recommendations: '' } })).json.error).toBe(
      FEEDBACK_MESSAGES.recommendations,
    )
    expect((await call('POST', '/feedback', { token: tokens.learner, json: body })).json).toEqual({
      message: API_MESSAGES.feedbackSent,
    })
    expect((await call('GET', '/feedback')).status).toBe(401)
    expect((await call('GET', '/feedback', { token: tokens.learner })).status).toBe(403)
    const list = (await call('GET', '/feedback', { token: tokens.admin })).body as { usage: string; user: { _id: string } }[]
    expect(list.find((entry) => entry.user._id === learner.id)).toMatchObject({ usage: 'Daily sparks', liked: 'yes' })
  })
})

describe('admin', () => {
  it('GET /admin/test: 401, 403, then ok', async () => {
    expect((await call('GET', '/admin/test')).status).toBe(401)
    expect((await call('GET', '/admin/test', { token: tokens.creator })).status).toBe(403)
    expect((await call('GET', '/admin/test', { token: tokens.admin })).json).toMatchObject({ message: API_MESSAGES.adminOk })
  })

  it('creator applications: list and review in check-params order', async () => {
    const { rows } = await fixture.running.database.pool.query<{ id: string }>(
      `select id from public.creator_applications where status = 'pending' limit 1`,
    )
    const applicationId = rows[0]?.id ?? MISSING
    expect((await call('GET', '/admin/creator-applications', { token: tokens.learner })).status).toBe(403)
    const list = (await call('GET', '/admin/creator-applications', { token: tokens.admin })).body as { _id: string }[]
    expect(list.map((application) => application._id)).toContain(applicationId)
    const path = `/admin/creator-applications/${applicationId}`
    expect((await call('PUT', path, { json: { approved: true } })).status).toBe(401)
    expect((await call('PUT', path, { token: tokens.learner, json: { approved: true } })).status).toBe(403)
    expect((await call('PUT', path, { token: tokens.admin, json: {} })).json.error).toBe(API_APPROVED_MESSAGE)
    expect(
      (await call('PUT', `/admin/creator-applications/${MISSING}`, { token: tokens.admin, json: { approved: true } })).status,
    ).toBe(404)
    expect(
      (await call('PUT', path, { token: tokens.admin, json: { approved: true, reviewNotes: 'Welcome' } })).json,
    ).toMatchObject({
      status: 'approved',
    })
  })

  it('users: list, add (all fields required), delete (never oneself), fix portfolios', async () => {
    expect((await call('GET', '/admin/users', { token: tokens.learner })).status).toBe(403)
    const users = (await call('GET', '/admin/users', { token: tokens.admin })).body as { _id: string; isCurrentUser: boolean }[]
    expect(users.find((user) => user._id === admin.id)?.isCurrentUser).toBe(true)
    const fields = {
      username: `added_${randomUUID().slice(0, 8)}`,
      email: `added-${randomUUID().slice(0, 8)}@example.test`,
      password: 'Secret-1',
      role: 'user',
    }
    expect((await call('POST', '/admin/users', { token: tokens.learner, json: fields })).status).toBe(403)
    expect((await call('POST', '/admin/users', { token: tokens.admin, json: { ...fields, role: '' } })).json.error).toBe(
      ADMIN_MESSAGES.fillRequired,
    )
    const added = await call('POST', '/admin/users', { token: tokens.admin, json: fields })
    expect(added.status).toBe(201)
    const addedId = (added.json.user as { _id: string })._id
    expect((await call('DELETE', `/admin/users/${addedId}`, { token: tokens.learner })).status).toBe(403)
    expect((await call('DELETE', '/admin/users/nope', { token: tokens.admin })).status).toBe(404)
    expect((await call('DELETE', `/admin/users/${admin.id}`, { token: tokens.admin })).json.error).toBe(
      ADMIN_MESSAGES.cannotDeleteSelf,
    )
    expect((await call('DELETE', `/admin/users/${addedId}`, { token: tokens.admin })).json).toEqual({
      message: API_MESSAGES.userDeleted,
    })
    expect((await call('POST', '/admin/fix-portfolios', { token: tokens.learner })).status).toBe(403)
    expect((await call('POST', '/admin/fix-portfolios', { token: tokens.admin })).json).toMatchObject({
      fixedCount: expect.any(Number),
    })
  })
})
