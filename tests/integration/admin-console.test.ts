import type { Session } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { action as layoutAction, loader as layoutLoader } from '../../app/routes/admin+/_layout'
import { action as creatorsAction, loader as creatorsLoader } from '../../app/routes/admin+/_index'
import { loader as feedbackLoader } from '../../app/routes/admin+/feedback'
import { action as reportsAction, loader as reportsLoader } from '../../app/routes/admin+/reports'
import { action as usersAction, loader as usersLoader } from '../../app/routes/admin+/users'
import { ADMIN_MESSAGES } from '../../app/lib/schemas/admin'
import { asServiceRole } from '../../app/server/db.server'
import { context, startShellHarness, thrown, type ShellHarness } from './shell-harness'

/**
 * The admin console as a route per tab (ADR 0061): each tab loads its own data and takes only its
 * own forms, old `?tab=` links land on the tab's address, and everyone but an admin gets 403 from
 * every tab and every form. Called as Remix calls them.
 */
type DataResult = { data: Record<string, unknown>; init: ResponseInit | null }
const args = (request: Request) => ({ request, context, params: {} })

describe('the admin console, a route per tab', () => {
  let h: ShellHarness
  let learner: Session
  let admin: Session

  beforeAll(async () => {
    h = await startShellHarness()
    learner = await h.signIn(await h.createAccount())
    const account = await h.createAccount()
    await asServiceRole('test: make an admin', (tx) =>
      tx.updateTable('profiles').set({ role: 'admin' }).where('id', '=', account.id).execute(),
    )
    admin = await h.signIn(account)
  })
  afterAll(async () => {
    await h?.close()
  })

  it('an old ?tab= link is sent to the tab’s own address, its other parameters kept', async () => {
    const response = await thrown(() =>
      creatorsLoader(args(h.request('/admin?tab=reports&status=dismissed', { session: admin }))),
    )
    expect(response.status).toBe(301)
    expect(response.headers.get('Location')).toBe('/admin/reports?status=dismissed')
    const creators = await thrown(() => creatorsLoader(args(h.request('/admin?tab=creators', { session: admin }))))
    expect(creators.headers.get('Location')).toBe('/admin')
  })

  it('each tab loads its own data', async () => {
    const creators = (await creatorsLoader(args(h.request('/admin', { session: admin })))) as unknown as DataResult
    expect(creators.data).toMatchObject({ loadError: null, applications: expect.any(Array), categoryRequests: expect.any(Array) })
    const reports = (await reportsLoader(
      args(h.request('/admin/reports?status=all', { session: admin })),
    )) as unknown as DataResult
    expect(reports.data).toMatchObject({ loadError: null, status: 'all', groups: expect.any(Array) })
    expect(reports.data).not.toHaveProperty('applications')
    const users = (await usersLoader(
      args(h.request('/admin/users?q=nobody-by-this-name', { session: admin })),
    )) as unknown as DataResult
    expect(users.data).toMatchObject({ loadError: null, search: 'nobody-by-this-name', audit: expect.any(Array) })
    const feedback = (await feedbackLoader(args(h.request('/admin/feedback', { session: admin })))) as unknown as DataResult
    expect(feedback.data).toMatchObject({ loadError: null, cursor: null })
  })

  it('a tab takes only its own forms: another tab’s intent is a 400', async () => {
    await expect(
      reportsAction(args(h.request('/admin/reports', { session: admin, form: { intent: 'add-user' } }))),
    ).rejects.toMatchObject({
      data: ADMIN_MESSAGES.unknownAction,
      init: { status: 400 },
    })
    await expect(layoutAction(args(h.request('/admin', { session: admin, form: { intent: 'review' } })))).rejects.toMatchObject({
      init: { status: 400 },
    })
  })

  it('Fix Portfolio Issues goes back to the tab it was pressed on', async () => {
    const response = (await layoutAction(
      args(h.request('/admin', { session: admin, form: { intent: 'fix-portfolios', tab: 'users' } })),
    )) as Response
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/admin/users')
  })

  it('a refused new user is shown in the form, with what was typed but never the password', async () => {
    const result = (await usersAction(
      args(
        h.request('/admin/users', {
          session: admin,
          form: { intent: 'add-user', username: 'x', email: 'not-an-email', password: 'secret-1234', role: 'user' },
        }),
      ),
    )) as unknown as DataResult
    expect(result.init?.status).toBe(400)
    expect(result.data).toMatchObject({
      ok: false,
      intent: 'add-user',
      values: { username: 'x', email: 'not-an-email', role: 'user' },
    })
    expect(JSON.stringify(result.data)).not.toContain('secret-1234')
    expect(result.data.formError ?? result.data.fieldErrors).toBeTruthy()
  })

  it('a learner gets 403 from every tab and every form', async () => {
    for (const [name, load] of Object.entries({ layoutLoader, creatorsLoader, reportsLoader, usersLoader, feedbackLoader })) {
      await expect(load(args(h.request('/admin', { session: learner }))), name).rejects.toMatchObject({ init: { status: 403 } })
    }
    const forms: [(input: ReturnType<typeof args>) => Promise<unknown>, Record<string, string>][] = [
      [layoutAction, { intent: 'fix-portfolios' }],
      [creatorsAction, { intent: 'review', applicationId: crypto.randomUUID(), approved: 'true' }],
      [reportsAction, { intent: 'decide-report', contentType: 'video', contentId: crypto.randomUUID(), status: 'removed' }],
      [usersAction, { intent: 'change-role', userId: crypto.randomUUID(), role: 'admin' }],
    ]
    for (const [act, form] of forms) {
      await expect(act(args(h.request('/admin', { session: learner, form }))), form.intent).rejects.toMatchObject({
        data: ADMIN_MESSAGES.forbidden,
        init: { status: 403 },
      })
    }
  })
})
