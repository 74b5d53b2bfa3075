import type { Session } from '@supabase/supabase-js'
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { action as feedbackAction } from '../../app/routes/_me+/feedback'
import { action as loginAction } from '../../app/routes/_auth+/login'
import { action as reportAction } from '../../app/routes/_me+/report'
import { action as resetPasswordAction } from '../../app/routes/_auth+/reset-password'
import { action as signupAction } from '../../app/routes/_auth+/signup'
import { action as uploadAction } from '../../app/routes/_studio+/upload'
import { asServiceRole } from '../../app/server/db.server'
import { context, startShellHarness, type ShellHarness } from './shell-harness'

/**
 * Every page form's refusal has the one shape (app/lib/forms.ts, ADR 0055): `ok: false` and only the
 * FormFailure keys — plus a form's own documented extra (the password meter's `strength`) — never the
 * old `errors`, `hadFiles` or an `errors.form`. One refusal per migrated route, called as Remix calls it.
 */
const FAILURE_KEYS = ['ok', 'formError', 'fieldErrors', 'values', 'intent', 'targetId', 'hadFile']
type DataResult = { data: Record<string, unknown>; init: ResponseInit | null }
const args = (request: Request) => ({ request, context, params: {} })

function expectFormFailure(result: unknown, { status, extra = [] }: { status: number; extra?: string[] }) {
  const { data, init } = result as DataResult
  expect(init?.status).toBe(status)
  expect(data.ok).toBe(false)
  for (const key of Object.keys(data)) expect([...FAILURE_KEYS, ...extra], `unexpected key ${key}`).toContain(key)
  expect(data.formError ?? data.fieldErrors, 'says what is wrong').toBeTruthy()
  if (data.fieldErrors !== undefined) {
    expect(Object.values(data.fieldErrors as object).every((message) => typeof message === 'string')).toBe(true)
  }
  if (data.formError !== undefined) expect(typeof data.formError).toBe('string')
  return data
}

describe('one form failure shape', () => {
  let h: ShellHarness
  let learnerSession: Session
  let adminSession: Session

  beforeAll(async () => {
    h = await startShellHarness()
    learnerSession = await h.signIn(await h.createAccount())
    const admin = await h.createAccount()
    await asServiceRole('test: make an admin', (tx) =>
      tx.updateTable('profiles').set({ role: 'admin' }).where('id', '=', admin.id).execute(),
    )
    adminSession = await h.signIn(admin)
  })
  afterAll(async () => {
    await h?.close()
  })

  function multipart(path: string, fields: Record<string, string>, session?: Session) {
    const body = new FormData()
    for (const [name, value] of Object.entries(fields)) body.set(name, value)
    const headers = new Headers()
    if (session) headers.set('Cookie', h.cookieHeader(session))
    return new Request(new URL(path, h.stack.url), { method: 'POST', headers, body })
  }

  it('sign-up: fieldErrors, values, hadFile and its strength', async () => {
    const data = expectFormFailure(
      await signupAction(args(multipart('/signup?creator=no', { role: 'user', username: '', email: 'x', password: 'short' }))),
      { status: 400, extra: ['strength'] },
    )
    expect(data.fieldErrors).toHaveProperty('username')
    expect(data).toMatchObject({ hadFile: false, values: { username: '', email: 'x' } })
    expect(JSON.stringify(data.values)).not.toContain('short')
  })

  it('sign-in, Check if account exists and the reset link: each says which form (intent), never the password', async () => {
    for (const intent of ['signin', 'check', 'reset']) {
      const data = expectFormFailure(
        await loginAction(args(h.request('/login', { form: { intent, email: 'not-an-email', password: 'secret-pw' } }))),
        { status: 400 },
      )
      expect(data).toMatchObject({ intent, values: { email: 'not-an-email' } })
      expect(data.fieldErrors).toHaveProperty('email')
      expect(JSON.stringify(data)).not.toContain('secret-pw')
    }
  })

  it('the new password: fieldErrors and its strength', async () => {
    const data = expectFormFailure(
      await resetPasswordAction(
        args(h.request('/reset-password', { session: learnerSession, form: { password: 'a', confirmPassword: 'b' } })),
      ),
      { status: 400, extra: ['strength'] },
    )
    expect(data.fieldErrors).toHaveProperty('password')
  })

  it('feedback: fieldErrors and values', async () => {
    const data = expectFormFailure(
      await feedbackAction(args(h.request('/feedback', { session: learnerSession, form: { surface: 'panel', usage: 'kept' } }))),
      { status: 400 },
    )
    expect(data).toMatchObject({ values: { usage: 'kept' } })
    expect(data.fieldErrors).toHaveProperty('liked')
  })

  it('report: fieldErrors and values, or formError for content that is not there', async () => {
    const fields = { surface: 'dialog', contentType: 'video', contentId: randomUUID() }
    const missingReason = expectFormFailure(
      await reportAction(args(h.request('/report', { session: learnerSession, form: { ...fields, reason: '' } }))),
      { status: 400 },
    )
    expect(missingReason.fieldErrors).toHaveProperty('reason')
    const notThere = expectFormFailure(
      await reportAction(args(h.request('/report', { session: learnerSession, form: { ...fields, reason: 'spam' } }))),
      { status: 404 },
    )
    expect(notThere.formError).toBeTruthy()
  })

  it('upload: fieldErrors, values and hadFile (no errors.form, no hadFiles)', async () => {
    const data = expectFormFailure(
      await uploadAction(args(multipart('/upload', { title: '', description: 'Kept', type: 'video' }, adminSession))),
      { status: 400 },
    )
    expect(data).toMatchObject({ values: { description: 'Kept' }, hadFile: true })
    expect(data.fieldErrors).toBeTruthy()
    expect(data.fieldErrors).not.toHaveProperty('form')
  })
})
