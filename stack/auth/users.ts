import { createHash, randomUUID } from 'node:crypto'
import type { Db } from './db'
import { one } from './db'
import { validationFailed } from './errors'
import type { AccessTokenSubject } from './tokens'

/**
 * Users in `auth.users` with their `auth.identities`, and the User JSON
 * GoTrue answers with (models/user.go: `phone` and `email` are "" when
 * unset, optional timestamps are left out, `new_email` is the pending
 * address). Every insert carries the final metadata, so the migrations'
 * AFTER INSERT trigger (profile creation) sees the sign-up data.
 */
export interface UserRow {
  id: string
  aud: string | null
  role: string | null
  email: string | null
  encrypted_password: string | null
  email_confirmed_at: string | null
  invited_at: string | null
  confirmation_token: string | null
  confirmation_sent_at: string | null
  recovery_token: string | null
  recovery_sent_at: string | null
  email_change: string | null
  email_change_sent_at: string | null
  last_sign_in_at: string | null
  raw_app_meta_data: Record<string, unknown> | null
  raw_user_meta_data: Record<string, unknown> | null
  created_at: string
  updated_at: string
  phone: string | null
  phone_confirmed_at: string | null
  phone_change: string | null
  phone_change_sent_at: string | null
  confirmed_at: string | null
  reauthentication_sent_at: string | null
  banned_until: string | null
  deleted_at: string | null
  is_anonymous: boolean
  /** Computed: banned_until lies in the future. */
  is_banned: boolean
}

interface IdentityRow {
  id: string
  provider_id: string
  user_id: string
  identity_data: Record<string, unknown>
  provider: string
  last_sign_in_at: string | null
  created_at: string
  updated_at: string
  email: string | null
}

export const NIL_INSTANCE = '00000000-0000-0000-0000-000000000000'
const SELECT_USER = `select u.*, (u.banned_until is not null and u.banned_until > now()) as is_banned from auth.users u`

export function findUserById(db: Db, id: string, options: { forUpdate?: boolean } = {}): Promise<UserRow | undefined> {
  return one<UserRow>(db, `${SELECT_USER} where u.id = $1${options.forUpdate ? ' for update' : ''}`, [id])
}

/**
 * GoTrue's `FindUserByEmailAndAudience`: case-insensitive, in the nil
 * instance (which also lets Postgres use users_instance_id_email_idx), never
 * an SSO user; deleted users are gone.
 */
export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return one<UserRow>(
    db,
    `${SELECT_USER} where u.instance_id = $2 and lower(u.email) = lower($1) and not u.is_sso_user and u.deleted_at is null
     order by u.created_at limit 1`,
    [email, NIL_INSTANCE],
  )
}

/** The address GoTrue's checkmail accepts, lowercased; GoTrue's messages otherwise. */
export function validateEmail(email: string | undefined): string {
  if (!email) throw validationFailed('An email address is required')
  if (email.length > 255) throw validationFailed('An email address is too long')
  const valid =
    /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/
  if (!valid.test(email)) throw validationFailed('Unable to validate email address: invalid format')
  return email.toLowerCase()
}

export interface NewUser {
  id?: string
  email: string
  passwordHash: string | null
  role?: string
  confirmed: boolean
  userMetadata: Record<string, unknown>
  appMetadata: Record<string, unknown>
  identityData: Record<string, unknown>
  bannedUntilMs?: number
  confirmationToken?: string
}

/** Inserts the user and their email identity; returns the stored row. */
export async function createUser(db: Db, user: NewUser): Promise<UserRow> {
  const id = user.id ?? randomUUID()
  await db.query(
    `insert into auth.users (
       instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
       confirmation_token, confirmation_sent_at, recovery_token, email_change_token_new, email_change,
       raw_app_meta_data, raw_user_meta_data, banned_until, created_at, updated_at, is_anonymous)
     values ($1, $2, 'authenticated', $3, $4, $5, case when $6 then now() end,
       $7::text, case when $7::text <> '' then now() end, '', '', '',
       $8, $9, case when $10::float8 is not null then now() + make_interval(secs => $10::float8 / 1000) end,
       now(), now(), false)`,
    [
      NIL_INSTANCE,
      id,
      user.role ?? 'authenticated',
      user.email,
      user.passwordHash ?? '',
      user.confirmed,
      user.confirmationToken ?? '',
      JSON.stringify(user.appMetadata),
      JSON.stringify(user.userMetadata),
      user.bannedUntilMs ?? null,
    ],
  )
  await db.query(
    `insert into auth.identities (id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
     values (gen_random_uuid(), $1::text, $1::uuid, $2, 'email', now(), now(), now())`,
    [id, JSON.stringify({ ...user.identityData, sub: id })],
  )
  return (await findUserById(db, id))!
}

/** The identity data GoTrue gives an email identity (provider.Claims with sub and email). */
export function emailIdentityData(email: string): Record<string, unknown> {
  return { email, email_verified: false, phone_verified: false }
}

/**
 * GoTrue's `UpdateUserMetaData` / `UpdateAppMetaData`: keys with a value are
 * set, keys with null are removed, the rest stay.
 */
export async function mergeMetadata(
  db: Db,
  userId: string,
  column: 'raw_user_meta_data' | 'raw_app_meta_data',
  updates: Record<string, unknown>,
): Promise<void> {
  const entries = Object.entries(updates)
  const set = Object.fromEntries(entries.filter(([, value]) => value !== null))
  const removed = entries.filter(([, value]) => value === null).map(([key]) => key)
  await db.query(
    `update auth.users set ${column} = (coalesce(${column}, '{}'::jsonb) || $2::jsonb) - $3::text[], updated_at = now()
     where id = $1`,
    [userId, JSON.stringify(set), removed],
  )
}

/** Marks the email confirmed, as GoTrue's `User.Confirm`. */
export async function confirmEmail(db: Db, userId: string): Promise<void> {
  await db.query(
    `update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()), confirmation_token = '',
       raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || '{"email_verified": true}', updated_at = now()
     where id = $1`,
    [userId],
  )
  await db.query(`delete from auth.one_time_tokens where user_id = $1 and token_type = 'confirmation_token'`, [userId])
}

/** Stores a new password hash and clears pending email tokens, as GoTrue's `UpdatePassword`. */
export async function storePassword(db: Db, userId: string, passwordHash: string): Promise<void> {
  await db.query(
    `update auth.users set encrypted_password = $2, confirmation_token = '', recovery_token = '',
       email_change_token_current = '', email_change_token_new = '', updated_at = now()
     where id = $1`,
    [userId, passwordHash],
  )
  await db.query('delete from auth.one_time_tokens where user_id = $1', [userId])
}

/** GoTrue's soft delete: the row stays, its email and identities become unrecognisable hashes. */
export async function softDeleteUser(db: Db, user: UserRow): Promise<void> {
  const obfuscate = (value: string) =>
    createHash('sha256')
      .update(user.id + value)
      .digest('base64url')
  await db.query(
    `update auth.users set email = $2, phone = null, encrypted_password = '', confirmation_token = '',
       recovery_token = '', email_change_token_new = '', email_change = '', raw_app_meta_data = '{}',
       raw_user_meta_data = '{}', deleted_at = now(), updated_at = now()
     where id = $1`,
    [user.id, user.email ? obfuscate(user.email) : null],
  )
  const identities = await db.query<{ id: string; provider_id: string }>(
    'select id, provider_id from auth.identities where user_id = $1',
    [user.id],
  )
  for (const identity of identities.rows) {
    await db.query(`update auth.identities set provider_id = $2, identity_data = '{}', updated_at = now() where id = $1`, [
      identity.id,
      obfuscate(identity.provider_id),
    ])
  }
  await db.query('delete from auth.one_time_tokens where user_id = $1', [user.id])
  await db.query('delete from auth.sessions where user_id = $1', [user.id])
}

const iso = (value: string | Date | null | undefined) => (value ? new Date(value).toISOString() : undefined)

/** The claims an access token carries about its user. */
export function tokenSubject(user: UserRow): AccessTokenSubject {
  return {
    id: user.id,
    aud: user.aud ?? 'authenticated',
    role: user.role ?? 'authenticated',
    email: user.email ?? '',
    phone: user.phone ?? '',
    appMetadata: user.raw_app_meta_data ?? {},
    userMetadata: user.raw_user_meta_data ?? {},
    isAnonymous: user.is_anonymous,
  }
}

/** GoTrue's User JSON, identities included. */
export async function userJson(db: Db, user: UserRow): Promise<Record<string, unknown>> {
  const { rows } = await db.query<IdentityRow>('select * from auth.identities where user_id = $1 order by created_at, id', [
    user.id,
  ])
  const identities = rows.map((identity) =>
    dropUndefined({
      identity_id: identity.id,
      id: identity.provider_id,
      user_id: identity.user_id,
      identity_data: identity.identity_data,
      provider: identity.provider,
      last_sign_in_at: iso(identity.last_sign_in_at),
      created_at: iso(identity.created_at),
      updated_at: iso(identity.updated_at),
      email: identity.email ?? undefined,
    }),
  )
  return dropUndefined({
    id: user.id,
    aud: user.aud ?? 'authenticated',
    role: user.role ?? 'authenticated',
    email: user.email ?? '',
    email_confirmed_at: iso(user.email_confirmed_at),
    invited_at: iso(user.invited_at),
    phone: user.phone ?? '',
    phone_confirmed_at: iso(user.phone_confirmed_at),
    confirmation_sent_at: iso(user.confirmation_sent_at),
    confirmed_at: iso(user.confirmed_at),
    recovery_sent_at: iso(user.recovery_sent_at),
    new_email: user.email_change || undefined,
    email_change_sent_at: iso(user.email_change_sent_at),
    new_phone: user.phone_change || undefined,
    phone_change_sent_at: iso(user.phone_change_sent_at),
    reauthentication_sent_at: iso(user.reauthentication_sent_at),
    last_sign_in_at: iso(user.last_sign_in_at),
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    identities,
    created_at: iso(user.created_at),
    updated_at: iso(user.updated_at),
    banned_until: iso(user.banned_until),
    deleted_at: iso(user.deleted_at),
    is_anonymous: user.is_anonymous,
  })
}

function dropUndefined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined))
}
