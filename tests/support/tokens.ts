import { randomUUID } from 'node:crypto'
import type { SupabaseClient } from '@supabase/supabase-js'
import { decodeJwt, SignJWT } from 'jose'
import { clientFor, type ContractTarget } from './target'

/**
 * Test users with real sessions, made the way the app's fixtures make
 * them: created through the auth admin API (service role), then signed in
 * with their password on a fresh anon client — so they work against the
 * stand-in and a real Supabase alike. Plus, for the stand-in only, access
 * tokens re-signed with its JWT secret (an expired one, say).
 */
export interface TestUser {
  id: string
  email: string
  client: SupabaseClient
  accessToken: string
}

export async function createSignedInUser(target: ContractTarget, label: string): Promise<TestUser> {
  const suffix = randomUUID().slice(0, 8)
  const email = `${label}-${suffix}@lumen.test`
  const password = `pw-${randomUUID()}`
  const admin = clientFor(target, 'service')
  const created = await admin.auth.admin.createUser({
    email,
    password,
    email_confirm: true,
    user_metadata: { username: `${label}_${suffix}` },
  })
  if (created.error) throw created.error
  const client = clientFor(target)
  const signedIn = await client.auth.signInWithPassword({ email, password })
  if (signedIn.error || !signedIn.data.session) throw signedIn.error ?? new Error('sign-in returned no session')
  return { id: created.data.user.id, email, client, accessToken: signedIn.data.session.access_token }
}

/** The same claims as `accessToken`, re-signed with `jwtSecret` so that they expired `secondsAgo` ago. */
export async function expiredCopyOf(accessToken: string, jwtSecret: string, secondsAgo = 120): Promise<string> {
  const claims = decodeJwt(accessToken)
  const now = Math.floor(Date.now() / 1000)
  return new SignJWT({ ...claims, iat: now - 3600, exp: now - secondsAgo })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(jwtSecret))
}
