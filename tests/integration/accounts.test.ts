import { existsSync } from 'node:fs'
import { randomUUID } from 'node:crypto'
import { deflateSync } from 'node:zlib'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signupFormValues, signupSchema, type SignupInput } from '../../app/lib/schemas/auth'
import {
  isEmailRegistered,
  requestPasswordReset,
  signIn,
  signUp,
  updatePassword,
  verifyEmailLink,
} from '../../app/server/accounts.server'
import { WindowLimiter } from '../../app/server/rate-limits.server'
import { DomainError } from '../../app/server/errors.server'
import { receiveSignupForm, type ReceivedSignupForm } from '../../app/server/http/forms.server'
import { asServiceRole, connect, disconnect } from '../../app/server/db.server'
import { pointAppEnvAt } from './support/app-env'
import { createSupabaseServerClient } from '../../app/server/supabase.server'
import { seedDemoData } from '../../db/seed'
import { startStack, type RunningStack } from '../support/stack'

/**
 * The accounts service against a running stand-in (real Auth and Storage
 * contracts on a migrated database): what sign-up leaves in the database
 * and in storage, the refusals it makes before asking Auth, the email check,
 * and a password reset through the mailbox.
 */
let stack: RunningStack
let restoreEnv = () => {}

beforeAll(async () => {
  stack = await startStack()
  await seedDemoData(stack.database.pool)
  await disconnect()
  await connect(stack.database)
  restoreEnv = pointAppEnvAt({
    SUPABASE_URL: stack.url,
    PUBLIC_URL: stack.url,
    SUPABASE_ANON_KEY: stack.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: stack.serviceRoleKey,
    SUPABASE_JWT_SECRET: stack.jwtSecret,
    SESSION_SECRET: 's'.repeat(32),
  })
})

afterAll(async () => {
  await disconnect()
  await stack?.close()
  restoreEnv()
})

/** A request's Supabase client, as a route's loader or action makes it. */
function client(cookies = '') {
  const request = new Request(`${stack.url}/signup`, { headers: cookies ? { Cookie: cookies } : {} })
  return createSupabaseServerClient(request, { clientIp: '127.0.0.1' })
}

/** The session cookies a response would carry, as the next request's Cookie header. */
function cookieHeader(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0]!)
    .join('; ')
}

/** A PNG as far as its content type goes (file-type reads the signature). */
function png(): Uint8Array<ArrayBuffer> {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    return Buffer.concat([length, Buffer.from(type), data, Buffer.alloc(4)])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(2, 0)
  header.writeUInt32BE(2, 4)
  header.set([8, 2, 0, 0, 0], 8)
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(Buffer.alloc(14))),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  )
}

function signupRequest(fields: Record<string, string | string[]>, file?: { name: string; bytes: Uint8Array<ArrayBuffer>; type?: string }) {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) form.append(name, item)
  }
  if (file) form.append('portfolio', new Blob([file.bytes], { type: file.type ?? 'application/octet-stream' }), file.name)
  return new Request(`${stack.url}/signup?creator=yes`, { method: 'POST', body: form })
}

function account(label: string) {
  const id = randomUUID().slice(0, 8)
  return { username: `${label}_${id}`, email: `${label}-${id}@lumen.test`, password: 'Sunny-Lesson-42' }
}

async function creatorForm(label: string, file: { name: string; bytes: Uint8Array<ArrayBuffer>; type?: string }) {
  const who = account(label)
  const received = await receiveSignupForm(
    signupRequest(
      {
        role: 'creator',
        ...who,
        confirmPassword: who.password,
        concentration: 'Data Science',
        bio: 'Statistics, with cats.',
        categories: ['natural-sciences-physics', 'media'],
        portfolioType: 'image',
      },
      file,
    ),
  )
  return { who, received }
}

describe('receiveSignupForm', () => {
  it('streams the portfolio to a temporary file and reads its type from its content, not its name', async () => {
    const { received } = await creatorForm('stream', { name: 'holiday.pdf', bytes: png(), type: 'application/pdf' })
    try {
      expect(received.form.get('username')).toMatch(/^stream_/)
      expect(received.form.getAll('categories')).toEqual(['natural-sciences-physics', 'media'])
      expect(received.form.get('portfolio')).toBeNull()
      expect(received.portfolio).toMatchObject({ name: 'holiday.pdf', size: png().length, info: { type: 'image/png' } })
      expect(existsSync(received.portfolio!.path!)).toBe(true)
    } finally {
      await received.dispose()
    }
    expect(existsSync(received.portfolio!.path!)).toBe(false)
  })

  it('counts a file beyond the largest portfolio without keeping it, so the schema can say it is too large', async () => {
    const big = new Uint8Array(50 * 1024 * 1024 + 1)
    big.set(png())
    const { received } = await creatorForm('toobig', { name: 'big.png', bytes: big, type: 'image/png' })
    try {
      expect(received.portfolio).toMatchObject({ path: null, size: big.length })
      const parsed = signupSchema.safeParse(signupFormValues(received.form, received.portfolio!.info))
      expect(parsed.success).toBe(false)
    } finally {
      await received.dispose()
    }
  })

  it('refuses a body that is not multipart with 415', async () => {
    const request = new Request(`${stack.url}/signup`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'username=x',
    })
    await expect(receiveSignupForm(request)).rejects.toMatchObject({ status: 415 })
    await expect(receiveSignupForm(request.clone())).rejects.toBeInstanceOf(DomainError)
  })
})

describe('signUp', () => {
  let received: ReceivedSignupForm | undefined

  afterAll(async () => {
    await received?.dispose()
  })

  it('makes a creator: profile, pending categories and application, and the portfolio stored as the new user', async () => {
    const form = await creatorForm('maker', { name: 'work.png', bytes: png(), type: 'image/png' })
    received = form.received
    const input = signupSchema.parse(signupFormValues(received.form, received.portfolio!.info))
    const { supabase, headers } = client()

    const result = await signUp(supabase, input, received.portfolio)
    expect(result).toMatchObject({ ok: true, username: form.who.username, signedIn: true, portfolioStored: true })
    if (!result.ok) return
    expect(cookieHeader(headers)).toMatch(/sb-127-auth-token/)

    const state = await asServiceRole('test: read what sign-up made', async (tx) => ({
      profile: await tx
        .selectFrom('profiles')
        .select(['role', 'is_verified', 'bio', 'concentration', 'portfolio_path', 'portfolio_type'])
        .where('id', '=', result.userId)
        .executeTakeFirstOrThrow(),
      categories: await tx.selectFrom('creator_categories').select(['category_id', 'status']).where('creator_id', '=', result.userId).orderBy('category_id').execute(),
      applications: await tx.selectFrom('creator_applications').select(['status', 'portfolio_path', 'portfolio_type']).where('creator_id', '=', result.userId).execute(),
      objects: (
        await sql<{ name: string; owner_id: string; mimetype: string }>`
          select name, owner_id::text, metadata ->> 'mimetype' as mimetype from storage.objects where bucket_id = 'portfolios'
            and name like ${`${result.userId}/%`}`.execute(tx)
      ).rows,
    }))
    expect(state.profile).toMatchObject({ role: 'creator', is_verified: false, bio: 'Statistics, with cats.', concentration: 'Data Science', portfolio_type: 'image' })
    expect(state.profile.portfolio_path).toMatch(new RegExp(`^${result.userId}/portfolio-\\d+\\.png$`))
    expect(state.categories).toEqual([
      { category_id: 'media', status: 'pending' },
      { category_id: 'natural-sciences-physics', status: 'pending' },
    ])
    expect(state.applications).toEqual([{ status: 'pending', portfolio_path: state.profile.portfolio_path, portfolio_type: 'image' }])
    expect(state.objects).toEqual([{ name: state.profile.portfolio_path, owner_id: result.userId, mimetype: 'image/png' }])
  })

  it('refuses a taken username, in any case, before asking Auth', async () => {
    const who = account('dupe')
    const input: SignupInput = signupSchema.parse({ role: 'user', ...who, username: 'LEO.LEARNS', confirmPassword: who.password })
    const count = async () => (await stack.database.pool.query<{ n: number }>('select count(*)::int as n from auth.users')).rows[0]!.n
    const before = await count()
    expect(await signUp(client().supabase, input, null)).toEqual({
      ok: false,
      fieldErrors: { username: 'That username is taken. Please choose another one.' },
    })
    expect(await count()).toBe(before)
  })

  it('says an email already has an account', async () => {
    const who = account('again')
    const input = signupSchema.parse({ role: 'user', ...who, email: 'learner@lumen.test', confirmPassword: who.password })
    expect(await signUp(client().supabase, input, null)).toEqual({
      ok: false,
      fieldErrors: { email: 'An account with this email already exists. Sign in instead?' },
    })
  })
})

describe('signIn', () => {
  it('signs in with the right password and gives the spec’s message otherwise', async () => {
    const { supabase, headers } = client()
    expect(await signIn(supabase, { email: 'LEARNER@lumen.test', password: 'Lumen-demo-2026' })).toEqual({ ok: true })
    expect(cookieHeader(headers)).toMatch(/sb-127-auth-token/)
    expect(await signIn(client().supabase, { email: 'learner@lumen.test', password: 'nope-nope' })).toEqual({
      ok: false,
      message: 'Failed to login. Please check your credentials.',
    })
  })
})

describe('isEmailRegistered', () => {
  it('answers yes for a registered email in any case and no for an unknown one', async () => {
    const limiter = new WindowLimiter(10, 60_000, `email-check-test-${randomUUID()}`)
    expect(await isEmailRegistered('Creator@Lumen.test', '10.0.0.1', limiter)).toEqual({ ok: true, exists: true })
    expect(await isEmailRegistered('nobody@lumen.test', '10.0.0.1', limiter)).toEqual({ ok: true, exists: false })
  })

  it('stops one address asking too often, without stopping others', async () => {
    const limiter = new WindowLimiter(2, 60_000, `email-check-test-${randomUUID()}`)
    await isEmailRegistered('a@lumen.test', '10.0.0.2', limiter)
    await isEmailRegistered('b@lumen.test', '10.0.0.2', limiter)
    expect(await isEmailRegistered('c@lumen.test', '10.0.0.2', limiter)).toMatchObject({ ok: false, message: expect.stringMatching(/Too many checks/) })
    expect(await isEmailRegistered('c@lumen.test', '10.0.0.3', limiter)).toMatchObject({ ok: true })
  })
})

describe('password reset', () => {
  it('mails an /auth/confirm link that signs the user in, and the new password replaces the old one', async () => {
    const who = account('forgot')
    const made = await signUp(client().supabase, signupSchema.parse({ role: 'user', ...who, confirmPassword: who.password }), null)
    expect(made.ok).toBe(true)

    expect(await requestPasswordReset(client().supabase, who.email.toUpperCase())).toEqual({ ok: true })
    const [message] = await stack.stack.context.mailbox.list(who.email)
    const link = new URL(message!.text.match(/https?:\/\/\S+\/auth\/confirm\?\S+/)![0])
    expect(link.origin).toBe(stack.url)
    expect(link.searchParams.get('type')).toBe('recovery')
    expect(link.searchParams.get('next')).toBe('/reset-password')

    const confirm = client()
    expect(await verifyEmailLink(confirm.supabase, link.searchParams.get('token_hash')!, 'recovery')).toBe(true)
    // Once spent, the link is worthless.
    expect(await verifyEmailLink(client().supabase, link.searchParams.get('token_hash')!, 'recovery')).toBe(false)

    const recovered = client(cookieHeader(confirm.headers))
    expect(await updatePassword(recovered.supabase, who.password)).toMatchObject({ ok: false, fieldErrors: { password: expect.any(String) } })
    expect(await updatePassword(recovered.supabase, 'Brand-New-Secret-7')).toEqual({ ok: true })
    expect(await signIn(client().supabase, { email: who.email, password: who.password })).toMatchObject({ ok: false })
    expect(await signIn(client().supabase, { email: who.email, password: 'Brand-New-Secret-7' })).toEqual({ ok: true })
  })

  it('answers an unknown email the same way, so it tells nobody who has an account', async () => {
    expect(await requestPasswordReset(client().supabase, `nobody-${randomUUID()}@lumen.test`)).toEqual({ ok: true })
  })
})
