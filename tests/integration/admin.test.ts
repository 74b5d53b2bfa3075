import { randomUUID } from 'node:crypto'
import { createClient } from '@supabase/supabase-js'
import { nodeRealtimeOptions } from '../../db/supabase-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_MESSAGES } from '../../app/lib/schemas/admin'
import {
  fixPortfolios,
  listCategoryRequests,
  listPendingApplications,
  portfolioUrl,
  reviewApplication,
  reviewCategoryRequest,
} from '../../app/server/applications.server'
import { readFeedbackPage } from '../../app/server/feedback.server'
import { canUpload } from '../../app/server/permissions.server'
import { decideReports, listReportGroups } from '../../app/server/reports.server'
import { addUser, changeRole, deleteUser, listAudit, listUsers } from '../../app/server/users.server'
import { refusal } from './support/refusal'
import { openVideoFixture, type Person, type VideoFixture } from './support/video-fixture'

/**
 * The admin console's services against a migrated PostgreSQL and the Storage
 * and Auth stand-in: 401/403/400/404 before each success, and what each
 * success leaves behind (a verified creator, removed content with its files
 * gone, a deleted account, an audit row).
 */

describe('admin services', () => {
  let fixture: VideoFixture
  let admin: Person
  let learner: Person
  let creator: Person
  let applicant: Person

  const pendingApplicationOf = async (person: Person) => {
    const { rows } = await fixture.running.database.pool.query<{ id: string }>(
      `select id from public.creator_applications where creator_id = $1 and status = 'pending'`,
      [person.id],
    )
    return rows[0]!.id
  }

  beforeAll(async () => {
    fixture = await openVideoFixture('postgres')
    ;[admin, learner, creator, applicant] = await Promise.all([
      fixture.makeUser('admin'),
      fixture.makeUser('user'),
      fixture.makeUser('creator'),
      fixture.makeUser('creator'),
    ])
    // The applicant is a creator waiting for review, as after sign-up.
    await fixture.running.database.pool.query('update public.profiles set is_verified = false where id = $1', [applicant.id])
  })

  afterAll(async () => {
    await fixture?.close()
  })

  describe('creator applications', () => {
    it('refuses visitors (401) and non-admins (403), unverified creators included', async () => {
      expect(await refusal(listPendingApplications(null))).toMatchObject({ status: 401 })
      for (const person of [learner, creator, applicant]) {
        expect(await refusal(listPendingApplications(person.claims))).toEqual({ status: 403, message: ADMIN_MESSAGES.forbidden })
        const id = await pendingApplicationOf(applicant)
        expect(
          await refusal(reviewApplication({ claims: person.claims }, { applicationId: id, approved: true, reviewNotes: null })),
        ).toMatchObject({
          status: 403,
        })
      }
    })

    it('answers 404 for an unknown application', async () => {
      const outcome = await refusal(
        reviewApplication({ claims: admin.claims }, { applicationId: randomUUID(), approved: true, reviewNotes: null }),
      )
      expect(outcome).toEqual({ status: 404, message: ADMIN_MESSAGES.applicationNotFound })
    })

    it('lists the pending application with the profile, email and categories; approving lets the creator upload', async () => {
      const list = await listPendingApplications(admin.claims)
      const mine = list.find((application) => application.creatorId === applicant.id)
      expect(mine).toMatchObject({ email: applicant.email, hasPortfolio: false })
      expect(await canUpload(applicant.claims)).toBe(false)

      expect(
        await reviewApplication({ claims: admin.claims }, { applicationId: mine!.id, approved: true, reviewNotes: 'Welcome' }),
      ).toBe('approved')
      expect(await canUpload(applicant.claims)).toBe(true)
      expect((await listPendingApplications(admin.claims)).some((application) => application.id === mine!.id)).toBe(false)
      expect((await listAudit(admin.claims))[0]).toMatchObject({
        action: 'application.approved',
        targetLabel: expect.any(String),
      })
    })

    it('signs a portfolio URL for admins only, and says when there is none', async () => {
      expect(await refusal(portfolioUrl(learner.claims, applicant.id))).toMatchObject({ status: 403 })
      expect(await refusal(portfolioUrl(admin.claims, applicant.id))).toEqual({
        status: 404,
        message: ADMIN_MESSAGES.noPortfolio,
      })
      const name = `${applicant.id}/cv.pdf`
      await fixture.service.storage
        .from('portfolios')
        .upload(name, Buffer.from('%PDF-1.4\n%%EOF\n'), { contentType: 'application/pdf' })
      await fixture.running.database.pool.query(
        `update public.profiles set portfolio_path = $2, portfolio_type = 'document' where id = $1`,
        [applicant.id, name],
      )
      const url = await portfolioUrl(admin.claims, applicant.id)
      const response = await fetch(url)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('application/pdf')
    })

    it('fixes portfolios for admins only and answers fixedCount', async () => {
      expect(await refusal(fixPortfolios(creator.claims))).toMatchObject({ status: 403 })
      await fixture.running.database.pool.query(
        `update public.profiles set portfolio_path = $2, portfolio_type = 'image' where id = $1`,
        [creator.id, `${creator.id}/gone.png`],
      )
      expect(await fixPortfolios(admin.claims)).toBeGreaterThanOrEqual(1)
      const { rows } = await fixture.running.database.pool.query('select portfolio_path from public.profiles where id = $1', [
        creator.id,
      ])
      expect(rows[0].portfolio_path).toBeNull()
      expect(await fixPortfolios(admin.claims)).toBe(0)
    })
  })

  describe('category requests of verified creators', () => {
    const statusOf = async (person: Person, category: string) => {
      const { rows } = await fixture.running.database.pool.query<{ status: string }>(
        'select status from public.creator_categories where creator_id = $1 and category_id = $2',
        [person.id, category],
      )
      return rows[0]?.status
    }

    it('lists them per creator; only an admin approves or rejects each, and the trail records it', async () => {
      // As Edit Profile leaves them: pending rows of an already verified creator.
      await fixture.running.database.pool.query(
        `insert into public.creator_categories (creator_id, category_id) values ($1, 'media'), ($1, 'health-wellness')`,
        [creator.id],
      )
      expect(await refusal(listCategoryRequests(null))).toMatchObject({ status: 401 })
      for (const person of [learner, creator, applicant]) {
        expect(await refusal(listCategoryRequests(person.claims))).toMatchObject({ status: 403 })
        const input = { creatorId: creator.id, categoryId: 'media', approved: true }
        expect(await refusal(reviewCategoryRequest(person.claims, input))).toEqual({
          status: 403,
          message: ADMIN_MESSAGES.forbidden,
        })
      }
      expect(await statusOf(creator, 'media')).toBe('pending')

      const mine = (await listCategoryRequests(admin.claims)).find((request) => request.creatorId === creator.id)
      expect(mine).toMatchObject({ email: creator.email })
      expect(mine!.categories.map((category) => category.name).sort()).toEqual(['Health & Wellness', 'Media'])

      expect(await reviewCategoryRequest(admin.claims, { creatorId: creator.id, categoryId: 'media', approved: true })).toBe(
        'categoryApproved',
      )
      expect((await listAudit(admin.claims))[0]).toMatchObject({
        action: 'category.approved',
        targetLabel: expect.stringMatching(/: Media$/),
      })
      expect(
        await reviewCategoryRequest(admin.claims, { creatorId: creator.id, categoryId: 'health-wellness', approved: false }),
      ).toBe('categoryRejected')
      expect((await listAudit(admin.claims))[0]).toMatchObject({ action: 'category.rejected' })
      expect([await statusOf(creator, 'media'), await statusOf(creator, 'health-wellness')]).toEqual(['approved', 'rejected'])
      expect((await listCategoryRequests(admin.claims)).some((request) => request.creatorId === creator.id)).toBe(false)
      expect(
        await refusal(reviewCategoryRequest(admin.claims, { creatorId: creator.id, categoryId: 'media', approved: false })),
      ).toEqual({
        status: 404,
        message: ADMIN_MESSAGES.categoryNotFound,
      })
    })

    it('leaves an unverified creator’s categories to their application', async () => {
      await fixture.running.database.pool.query(
        `insert into public.creator_categories (creator_id, category_id) values ($1, 'media') on conflict do nothing`,
        [applicant.id],
      )
      await fixture.running.database.pool.query('update public.profiles set is_verified = false where id = $1', [applicant.id])
      expect((await listCategoryRequests(admin.claims)).some((request) => request.creatorId === applicant.id)).toBe(false)
    })
  })

  describe('reports', () => {
    it('refuses non-admins, answers 404 without an open report, and removes the content with its files', async () => {
      const videoId = await fixture.makeVideo(creator)
      const files = await fixture.putMedia(videoId, creator)
      await fixture.running.database.pool.query(
        `insert into public.reports (reporter_id, content_type, content_id, reason, details) values ($1, 'video', $3, 'spam', 'one'), ($2, 'video', $3, 'harmful', 'two')`,
        [learner.id, applicant.id, videoId],
      )
      const input = { contentType: 'video' as const, contentId: videoId, status: 'removed' as const }
      expect(await refusal(listReportGroups(null))).toMatchObject({ status: 401 })
      expect(await refusal(listReportGroups(learner.claims))).toMatchObject({ status: 403 })
      expect(await refusal(decideReports(creator.claims, input))).toMatchObject({ status: 403 })
      expect(await refusal(decideReports(admin.claims, { ...input, contentId: randomUUID() }))).toEqual({
        status: 404,
        message: ADMIN_MESSAGES.reportNotFound,
      })

      const group = (await listReportGroups(admin.claims, { status: 'pending' })).find((item) => item.contentId === videoId)
      expect(group).toMatchObject({ count: 2, pendingCount: 2, status: 'pending', content: { author: expect.any(String) } })
      expect(group!.reports.map((report) => report.reason).sort()).toEqual(['harmful', 'spam'])

      expect(await decideReports(admin.claims, input)).toBe(ADMIN_MESSAGES.removed)
      const { rows } = await fixture.running.database.pool.query('select status from public.reports where content_id = $1', [
        videoId,
      ])
      expect(rows.map((row) => row.status)).toEqual(['removed', 'removed'])
      expect((await fixture.running.database.pool.query('select 1 from public.videos where id = $1', [videoId])).rowCount).toBe(0)
      expect(await fixture.objectNames('media', `videos/${videoId}/`)).toEqual([])
      expect(await fixture.objectNames('uploads', files.uploads[0]!)).toEqual([])
      expect(await fixture.objectNames('thumbnails', files.thumbnails[0]!)).toEqual([])
      const removed = (await listReportGroups(admin.claims, { status: 'removed' })).find((item) => item.contentId === videoId)
      expect(removed).toMatchObject({ status: 'removed', content: { label: null } })
    })

    it('dismisses every open report of an item at once', async () => {
      const videoId = await fixture.makeVideo(creator)
      await fixture.running.database.pool.query(
        `insert into public.reports (reporter_id, content_type, content_id, reason) values ($1, 'video', $2, 'spam')`,
        [learner.id, videoId],
      )
      expect(await decideReports(admin.claims, { contentType: 'video', contentId: videoId, status: 'dismissed' })).toBe(
        ADMIN_MESSAGES.dismissed,
      )
      expect(
        await refusal(decideReports(admin.claims, { contentType: 'video', contentId: videoId, status: 'dismissed' })),
      ).toMatchObject({ status: 404 })
    })
  })

  describe('users', () => {
    it('lists users for admins only, searchable, marking the current user', async () => {
      expect(await refusal(listUsers(null))).toMatchObject({ status: 401 })
      expect(await refusal(listUsers(learner.claims))).toMatchObject({ status: 403 })
      const page = await listUsers(admin.claims, { search: admin.email })
      expect(page.users).toEqual([expect.objectContaining({ id: admin.id, isCurrentUser: true, role: 'admin' })])
    })

    it('adds a user through Auth who can sign in at once; duplicate emails are a 409', async () => {
      const input = {
        username: `added_${randomUUID().slice(0, 6)}`,
        email: `added-${randomUUID().slice(0, 6)}@example.test`,
        password: 'Added-2026',
        role: 'admin' as const,
      }
      expect(await refusal(addUser(learner.claims, input))).toMatchObject({ status: 403 })
      const id = await addUser(admin.claims, input)
      const visitor = createClient(fixture.running.url, fixture.running.anonKey, {
        ...nodeRealtimeOptions,
        auth: { persistSession: false, autoRefreshToken: false },
      })
      const signIn = await visitor.auth.signInWithPassword({ email: input.email, password: input.password })
      expect(signIn.error).toBeNull()
      const { rows } = await fixture.running.database.pool.query('select role from public.profiles where id = $1', [id])
      expect(rows[0].role).toBe('admin')
      expect(await refusal(addUser(admin.claims, { ...input, username: `${input.username}2` }))).toEqual({
        status: 409,
        message: ADMIN_MESSAGES.emailTaken,
      })
      expect(await refusal(addUser(admin.claims, { ...input, email: `x${input.email}` }))).toEqual({
        status: 409,
        message: ADMIN_MESSAGES.usernameTaken,
      })
    })

    it('changes a role (not one’s own), and refuses non-admins', async () => {
      expect(await refusal(changeRole(learner.claims, creator.id, 'admin'))).toMatchObject({ status: 403 })
      expect(await refusal(changeRole(admin.claims, admin.id, 'user'))).toEqual({
        status: 403,
        message: ADMIN_MESSAGES.cannotChangeOwnRole,
      })
      expect(await refusal(changeRole(admin.claims, randomUUID(), 'user'))).toMatchObject({ status: 404 })
      await changeRole(admin.claims, learner.id, 'creator')
      expect(await canUpload(learner.claims)).toBe(true)
      await changeRole(admin.claims, learner.id, 'user')
      expect(await canUpload(learner.claims)).toBe(false)
    })

    it('deletes another user with their content and files, never oneself', async () => {
      const doomed = await fixture.makeUser('creator')
      const videoId = await fixture.makeVideo(doomed)
      await fixture.putMedia(videoId, doomed)
      expect(await refusal(deleteUser(learner.claims, doomed.id))).toMatchObject({ status: 403 })
      expect(await refusal(deleteUser(admin.claims, 'not-a-uuid'))).toMatchObject({ status: 404 })
      expect(await refusal(deleteUser(admin.claims, admin.id))).toEqual({ status: 403, message: ADMIN_MESSAGES.cannotDeleteSelf })

      await deleteUser(admin.claims, doomed.id)
      const pool = fixture.running.database.pool
      expect((await pool.query('select 1 from auth.users where id = $1', [doomed.id])).rowCount).toBe(0)
      expect((await pool.query('select 1 from public.videos where id = $1', [videoId])).rowCount).toBe(0)
      expect(await fixture.objectNames('uploads', `${doomed.id}/`)).toEqual([])
      expect(await fixture.objectNames('media', `videos/${videoId}/`)).toEqual([])
      expect(await fixture.objectNames('thumbnails', `${doomed.id}/`)).toEqual([])
      expect((await listAudit(admin.claims)).map((entry) => entry.action)).toContain('user.deleted')
      expect(await refusal(listAudit(learner.claims))).toMatchObject({ status: 403 })
    })
  })

  describe('feedback', () => {
    it('pages through feedback, newest first, for admins only', async () => {
      const pool = fixture.running.database.pool
      for (let i = 0; i < 25; i += 1) {
        await pool.query(`insert into public.feedback (user_id, liked, usage, recommendations) values ($1, true, $2, 'More')`, [
          learner.id,
          `usage ${i}`,
        ])
      }
      expect(await refusal(readFeedbackPage(learner.claims))).toMatchObject({ status: 403 })
      const first = await readFeedbackPage(admin.claims)
      expect(first.entries).toHaveLength(20)
      expect(first.next).not.toBeNull()
      const second = await readFeedbackPage(admin.claims, { cursor: first.next })
      expect(second.entries.length).toBeGreaterThanOrEqual(5)
      const ids = new Set([...first.entries, ...second.entries].map((entry) => entry.id))
      expect(ids.size).toBe(first.entries.length + second.entries.length)
    })
  })
})
