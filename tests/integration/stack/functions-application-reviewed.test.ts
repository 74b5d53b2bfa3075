import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import type { SupabaseClient } from '@supabase/supabase-js'
import { FunctionsHttpError } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withRole } from '../../../db/as-role'
import { announceSkippedRealSupabase, clientFor, openTarget, targetNames, type ContractTarget } from '../../support/target'

/**
 * supabase/functions/application-reviewed through supabase-js
 * `functions.invoke`, end to end: the admin's token in, the creator's email
 * out (in the stand-in's mailbox), and every refusal on the way — the
 * gateway's 401s, the function's own 401/403/400/404/409. The refusals run
 * against a real Supabase too when one is configured; what needs the mailbox
 * runs on the stand-in only.
 */
announceSkippedRealSupabase()

const PASSWORD = 'correct-horse-battery'

interface Account {
  id: string
  email: string
  username: string
  client: SupabaseClient
}

describe.each(targetNames)('application-reviewed on %s', (name) => {
  let target: ContractTarget
  let admin: Account
  let learner: Account

  /** A confirmed user made with the admin API, signed in on a client of their own. */
  async function account(label: string, metadata: Record<string, unknown> = {}): Promise<Account> {
    const email = `${label}-${randomUUID().slice(0, 8)}@lumen.test`
    const username = `${label}_${randomUUID().slice(0, 8)}`
    const { data, error } = await clientFor(target, 'service').auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
      user_metadata: { username, ...metadata },
    })
    if (error || !data.user) throw error ?? new Error('no user')
    const client = clientFor(target)
    const signedIn = await client.auth.signInWithPassword({ email, password: PASSWORD })
    if (signedIn.error) throw signedIn.error
    return { id: data.user.id, email, username, client }
  }

  /** Promotes a user the way only a trusted context can: the database owner, or the service role. */
  async function makeAdmin(user: Account) {
    if (target.running) {
      await target.running.database.pool.query(`update public.profiles set role = 'admin' where id = $1`, [user.id])
    } else {
      const { error } = await clientFor(target, 'service').from('profiles').update({ role: 'admin' }).eq('id', user.id)
      if (error) throw error
    }
  }

  /** The creator's pending application, made by the sign-up trigger. */
  async function applicationOf(creator: Account): Promise<string> {
    if (target.running) {
      const { rows } = await target.running.database.pool.query<{ id: string }>(
        `select id from public.creator_applications where creator_id = $1 and status = 'pending'`,
        [creator.id],
      )
      return rows[0]!.id
    }
    const { data, error } = await clientFor(target, 'service')
      .from('creator_applications')
      .select('id')
      .eq('creator_id', creator.id)
      .eq('status', 'pending')
      .single()
    if (error) throw error
    return data.id as string
  }

  /** The admin's review, as the app does it: the database function, as the admin. */
  async function review(applicationId: string, approved: boolean, notes: string) {
    if (target.running) {
      await withRole(target.running.database.pool, 'authenticated', { sub: admin.id, role: 'authenticated' }, (client) =>
        client.query('select public.review_creator_application($1, $2, $3)', [applicationId, approved, notes]),
      )
    } else {
      const { error } = await admin.client.rpc('review_creator_application', {
        application_id: applicationId,
        approved,
        review_notes: notes,
      })
      if (error) throw error
    }
  }

  /** Invokes the function; a refusal comes back as FunctionsHttpError with the response. */
  async function invoke(client: SupabaseClient, body: unknown) {
    const { data, error } = await client.functions.invoke('application-reviewed', { body: body as Record<string, unknown> })
    if (!error) return { status: 200, body: data as unknown }
    if (!(error instanceof FunctionsHttpError)) throw error
    const response = error.context as Response
    return { status: response.status, body: (await response.json()) as unknown }
  }

  const inbox = async (email: string) => (target.running ? target.running.stack.context.mailbox.list(email) : [])

  beforeAll(async () => {
    target = await openTarget(name)
    admin = await account('admin')
    await makeAdmin(admin)
    learner = await account('learner')
  })
  afterAll(async () => {
    await target?.close()
  })

  it.runIf(name === 'stand-in')(
    'an admin notifies an approved creator: 200, and one email to the creator with the notes and a link to their profile',
    async () => {
      const creator = await account('creator', { role: 'creator' })
      const applicationId = await applicationOf(creator)
      await review(applicationId, true, 'Lovely portfolio — welcome aboard!')

      const result = await invoke(admin.client, { applicationId })

      expect(result).toEqual({ status: 200, body: { sent: true, messageId: expect.any(String) } })
      const messages = await inbox(creator.email)
      expect(messages).toHaveLength(1)
      const [message] = messages
      expect(message!.subject).toBe('Your Lumen creator application was approved')
      expect(message!.text).toContain(`Hi ${creator.username},`)
      expect(message!.text).toContain('Lovely portfolio — welcome aboard!')
      const siteUrl = target.running!.stack.context.config.auth.site_url
      expect(message!.text).toContain(`${siteUrl}/profile`)
      expect(message!.html).toContain(`href="${siteUrl}/profile"`)
      expect(await inbox(admin.email)).toEqual([])
    },
  )

  it.runIf(name === 'stand-in')(
    'a rejection says "not approved" and the notes are escaped in the HTML body',
    async () => {
      const creator = await account('rejected', { role: 'creator' })
      const applicationId = await applicationOf(creator)
      await review(applicationId, false, 'Portfolio link broken <script>alert(1)</script>')

      expect((await invoke(admin.client, { applicationId })).status).toBe(200)

      const [message] = await inbox(creator.email)
      expect(message!.subject).toBe('Your Lumen creator application was not approved')
      expect(message!.text).toContain('Portfolio link broken <script>alert(1)</script>')
      expect(message!.html).toContain('Portfolio link broken &lt;script&gt;alert(1)&lt;/script&gt;')
      expect(message!.html).not.toContain('<script>')
    },
  )

  it('refuses a learner with 403, and sends nothing', async () => {
    const creator = await account('creator', { role: 'creator' })
    const applicationId = await applicationOf(creator)
    await review(applicationId, true, 'ok')

    const result = await invoke(learner.client, { applicationId })

    expect(result).toEqual({ status: 403, body: { error: 'Only admins notify creators about their applications' } })
    expect(await inbox(creator.email)).toEqual([])
  })

  it('refuses a creator notifying about their own application with 403', async () => {
    const creator = await account('self', { role: 'creator' })
    const applicationId = await applicationOf(creator)
    expect((await invoke(creator.client, { applicationId })).status).toBe(403)
  })

  it('answers 401 when signed out: the anon key passes the gateway, but is nobody', async () => {
    const result = await invoke(clientFor(target), { applicationId: randomUUID() })
    expect(result).toEqual({ status: 401, body: { error: 'Sign in as an admin to notify creators' } })
  })

  it('answers 401 at the gateway without an Authorization header', async () => {
    const response = await fetch(`${target.url}/functions/v1/application-reviewed`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ applicationId: randomUUID() }),
    })
    expect(response.status).toBe(401)
    if (name === 'stand-in') expect(await response.json()).toEqual({ msg: 'Error: Missing authorization header' })
  })

  it('answers 401 "Invalid JWT" at the gateway for a token not signed with the secret', async () => {
    const part = (json: object) => Buffer.from(JSON.stringify(json)).toString('base64url')
    const forged = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ role: 'service_role' })}.${part({ not: 'a signature' })}`
    const response = await fetch(`${target.url}/functions/v1/application-reviewed`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${forged}`, 'Content-Type': 'application/json' },
      body: '{}',
    })
    expect(response.status).toBe(401)
    if (name === 'stand-in') expect(await response.json()).toEqual({ msg: 'Invalid JWT' })
  })

  it('answers 400 to an admin for a body without a valid applicationId', async () => {
    for (const body of [{}, { applicationId: 'not-a-uuid' }, { applicationId: 42 }, 'not json', [1, 2]]) {
      const result = await invoke(admin.client, body)
      expect(result, JSON.stringify(body)).toEqual({
        status: 400,
        body: { error: 'The body must be JSON: { "applicationId": "<uuid>" }' },
      })
    }
  })

  it('answers 404 for an application that does not exist', async () => {
    expect(await invoke(admin.client, { applicationId: randomUUID() })).toEqual({
      status: 404,
      body: { error: 'Application not found' },
    })
  })

  it('answers 409 for an application not reviewed yet, and sends nothing', async () => {
    const creator = await account('pending', { role: 'creator' })
    const applicationId = await applicationOf(creator)
    expect(await invoke(admin.client, { applicationId })).toEqual({
      status: 409,
      body: { error: 'The application has not been reviewed yet' },
    })
    expect(await inbox(creator.email)).toEqual([])
  })

  it.runIf(name === 'stand-in')('closing the stack leaves no Deno process alive', async () => {
    const denoChildren = () =>
      execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)], { encoding: 'utf8' })
        .split('\n')
        .filter((line) => line.trim().endsWith('deno'))
    expect(denoChildren()).not.toEqual([])

    await target.close()
    target = undefined as unknown as ContractTarget

    expect(denoChildren()).toEqual([])
  })
})
