import { openAsBlob } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { reencodeThumbnail, validateImageFile } from '../../media/validate-image'
import { categoryName } from '~/lib/catalog'
import type { CategoryStatus, OwnProfile, PersonRole } from '~/lib/creator-types'
import { isUuid } from '~/lib/ids'
import { avatarUrl } from '~/lib/media-urls'
import { PLAYBACK_RATE_MESSAGES, parsePlaybackRate } from '~/lib/playback-rate'
import { AUTH_MESSAGES, fileSuitsPortfolioType, portfolioType, type PortfolioType } from '~/lib/schemas/auth'
import { CREATOR_MESSAGES, editProfileSchema, PICTURE_MAX_BYTES } from '~/lib/schemas/creators'
import type { ReceivedPortfolio } from './accounts.server'
import { asCaller, type JwtClaims } from './db.server'
import { DomainError } from './errors.server'
import type { ReceivedFile } from './http/multipart.server'
import { browserSupabaseUrl, type Supabase } from './supabase.server'

/**
 * The caller's own profile (docs/product.md: Profile, Edit mode; GET /auth/me, PUT
 * /users/profile): read and written as the caller. The private fields come
 * from `public.profile_private()` (the caller's own row only); row-level
 * security lets a user update only their own profile, and a trigger keeps
 * role and verification out of their reach.
 */

interface PrivateRow {
  field_of_interest: string | null
  concentration: string | null
  portfolio_path: string | null
  portfolio_type: string | null
}

export async function getOwnProfile(claims: JwtClaims | null): Promise<OwnProfile> {
  if (!claims) throw new DomainError('unauthenticated', CREATOR_MESSAGES.signInToEdit)
  return asCaller(claims, async (tx) => {
    const row = await tx
      .selectFrom('profiles')
      .select(['id', 'username', 'role', 'is_verified', 'bio', 'avatar_path', 'created_at'])
      .where('id', '=', claims.sub)
      .executeTakeFirst()
    if (!row) throw new DomainError('not_found', CREATOR_MESSAGES.signInToEdit)
    const own = await sql<PrivateRow>`
      select field_of_interest, concentration, portfolio_path, portfolio_type
        from public.profile_private(array[${claims.sub}]::uuid[])`.execute(tx)
    const categories = await tx
      .selectFrom('creator_categories')
      .select(['category_id', 'status'])
      .where('creator_id', '=', claims.sub)
      .execute()
    const privateRow = own.rows[0]
    const captions = await sql<{ on: boolean }>`select public.profile_captions_on() as on`.execute(tx)
    const speed = await sql<{ rate: number }>`select public.profile_playback_rate() as rate`.execute(tx)
    return {
      id: row.id,
      email: claims.email ?? '',
      username: row.username,
      role: row.role as PersonRole,
      isVerified: row.is_verified,
      bio: row.bio,
      avatarUrl: avatarUrl(browserSupabaseUrl(), row.avatar_path),
      fieldOfInterest: privateRow?.field_of_interest ?? null,
      concentration: privateRow?.concentration ?? null,
      portfolio: privateRow?.portfolio_path ? { type: (privateRow.portfolio_type ?? 'document') as PortfolioType } : null,
      categories: categories
        .map((category) => ({
          id: category.category_id,
          name: categoryName(category.category_id),
          status: category.status as CategoryStatus,
        }))
        .sort((a, b) => a.name.localeCompare(b.name)),
      joinedAt: new Date(row.created_at).toISOString(),
      captionsOn: captions.rows[0]?.on === true,
      playbackRate: parsePlaybackRate(speed.rows[0]?.rate) ?? 1,
    }
  })
}

/** Whether a user with this id exists (their public card is readable by everyone, so this leaks nothing). */
export async function profileExists(claims: JwtClaims | null, userId: string): Promise<boolean> {
  if (!isUuid(userId)) return false
  const row = await asCaller(claims, (tx) => tx.selectFrom('profiles').select('id').where('id', '=', userId).executeTakeFirst())
  return Boolean(row)
}

export interface EditProfileFiles {
  picture?: ReceivedFile | null
  portfolio?: (ReceivedPortfolio & { type: string }) | null
}

/**
 * Saves the edit-profile form: username (unique whatever its case; the old
 * one is free at once), bio, a new picture (checked by content, re-encoded
 * as a metadata-free JPEG, at most 5 MB in), for creators their categories
 * (newly ticked ones go to admin review as pending; unticked ones are
 * dropped) and a new portfolio. Nothing is half-saved: the new files are
 * stored first, the rows change in one transaction, and on failure the new
 * files are removed; the old picture and portfolio are removed only once the
 * row points at the new ones.
 */
export async function updateProfile(
  caller: { claims: JwtClaims | null; supabase: Supabase },
  input: Record<string, unknown>,
  files: EditProfileFiles = {},
): Promise<void> {
  const { claims, supabase } = caller
  if (!claims) throw new DomainError('unauthenticated', CREATOR_MESSAGES.signInToEdit)
  const parsed = editProfileSchema.safeParse(input)
  if (!parsed.success) {
    const fieldErrors = Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message]))
    throw new DomainError('invalid', CREATOR_MESSAGES.profileFailed, fieldErrors)
  }
  const values = parsed.data
  // The playback speed (ADR 0043): only when the form or API call says, else unchanged.
  const playbackRate = input.playbackRate === undefined ? undefined : parsePlaybackRate(input.playbackRate)
  if (playbackRate === null) {
    throw new DomainError('invalid', CREATOR_MESSAGES.profileFailed, { playbackRate: PLAYBACK_RATE_MESSAGES.invalid })
  }
  const userId = claims.sub
  const current = await getOwnProfile(claims)
  const creator = current.role === 'creator'
  if (creator && values.categories.length === 0) {
    throw new DomainError('invalid', CREATOR_MESSAGES.profileFailed, { categories: AUTH_MESSAGES.categoryRequired })
  }

  const stored: { bucket: 'avatars' | 'portfolios'; name: string }[] = []
  const work = await mkdtemp(path.join(tmpdir(), 'lumen-profile-'))
  try {
    let avatarPath: string | null = null
    if (files.picture && (files.picture.size > 0 || files.picture.tooLarge)) {
      avatarPath = await storePicture(supabase, userId, files.picture, work)
      stored.push({ bucket: 'avatars', name: avatarPath })
    }
    let portfolio: { path: string; type: PortfolioType } | null = null
    if (creator && files.portfolio && files.portfolio.size > 0) {
      portfolio = await storeNewPortfolio(supabase, userId, files.portfolio)
      stored.push({ bucket: 'portfolios', name: portfolio.path })
    }

    const previous = await asCaller(claims, async (tx) => {
      const before = await sql<{ avatar_path: string | null; portfolio_path: string | null }>`
        select p.avatar_path, pp.portfolio_path
          from public.profiles p, public.profile_private(array[${userId}]::uuid[]) pp
         where p.id = ${userId}::uuid`.execute(tx)
      try {
        await tx
          .updateTable('profiles')
          .set({
            username: values.username,
            bio: values.bio,
            ...(avatarPath ? { avatar_path: avatarPath } : {}),
            // "Captions on by default" (ADR 0019): only when the form or API call says, else unchanged.
            ...(typeof input.captionsOn === 'boolean' ? { captions_on: input.captionsOn } : {}),
            ...(playbackRate !== undefined ? { playback_rate: playbackRate } : {}),
            ...(portfolio ? { portfolio_path: portfolio.path, portfolio_type: portfolio.type } : {}),
          })
          .where('id', '=', userId)
          .execute()
      } catch (error) {
        if ((error as { code?: string }).code === '23505') {
          throw new DomainError('conflict', CREATOR_MESSAGES.profileFailed, { username: AUTH_MESSAGES.usernameTaken })
        }
        throw error
      }
      if (creator) {
        const had = new Set(current.categories.map((category) => category.id))
        const wanted = new Set(values.categories)
        const dropped = [...had].filter((id) => !wanted.has(id))
        const added = [...wanted].filter((id) => !had.has(id))
        if (dropped.length) {
          await tx.deleteFrom('creator_categories').where('creator_id', '=', userId).where('category_id', 'in', dropped).execute()
        }
        if (added.length) {
          // Pending until an admin approves them (the insert policy allows nothing else).
          await tx
            .insertInto('creator_categories')
            .values(added.map((id) => ({ creator_id: userId, category_id: id, status: 'pending' })))
            .execute()
        }
      }
      return before.rows[0] ?? { avatar_path: null, portfolio_path: null }
    })
    stored.length = 0 // saved: the new files stay
    const old = [
      avatarPath && previous.avatar_path && previous.avatar_path !== avatarPath ? ['avatars', previous.avatar_path] : null,
      portfolio && previous.portfolio_path && previous.portfolio_path !== portfolio.path
        ? ['portfolios', previous.portfolio_path]
        : null,
    ].filter((entry): entry is [string, string] => entry !== null)
    for (const [bucket, name] of old) {
      const { error } = await supabase.storage.from(bucket).remove([name])
      if (error) console.warn(`[profile] could not remove the replaced ${bucket} file: ${error.message}`)
    }
  } finally {
    for (const file of stored) {
      const { error } = await supabase.storage.from(file.bucket).remove([file.name])
      if (error) console.warn(`[profile] could not remove an unsaved ${file.bucket} file: ${error.message}`)
    }
    await rm(work, { recursive: true, force: true })
  }
}

/** Checks the picture by content, re-encodes it (no metadata, at most 512 px) and stores it in the user's avatar folder. */
async function storePicture(supabase: Supabase, userId: string, picture: ReceivedFile, work: string): Promise<string> {
  if (picture.tooLarge || !picture.path || picture.size > PICTURE_MAX_BYTES) {
    throw new DomainError('too_large', CREATOR_MESSAGES.profileFailed, { picture: CREATOR_MESSAGES.pictureTooLarge })
  }
  const checked = await validateImageFile(picture.path, { maxBytes: PICTURE_MAX_BYTES })
  if (!checked.ok) throw new DomainError('invalid', CREATOR_MESSAGES.profileFailed, { picture: CREATOR_MESSAGES.pictureNotImage })
  const output = path.join(work, 'avatar.jpg')
  await reencodeThumbnail(picture.path, output, { maxSide: 512 })
  const name = `${userId}/avatar-${Date.now()}.jpg`
  const { error } = await supabase.storage
    .from('avatars')
    .upload(name, await openAsBlob(output, { type: 'image/jpeg' }), { contentType: 'image/jpeg', upsert: false })
  if (error) throw new Error(`avatar upload refused: ${error.message}`)
  return name
}

const PORTFOLIO_EXTENSIONS: Record<string, string> = {
  'application/pdf': 'pdf',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
}

/** A creator's new portfolio, checked by content against the chosen type, stored in their folder. */
async function storeNewPortfolio(
  supabase: Supabase,
  userId: string,
  file: ReceivedPortfolio & { type: string },
): Promise<{ path: string; type: PortfolioType }> {
  const rules = portfolioType(file.type)
  if (!rules) throw new DomainError('invalid', CREATOR_MESSAGES.profileFailed, { portfolioType: AUTH_MESSAGES.portfolioType })
  if (!file.path || file.size > rules.maxBytes) {
    throw new DomainError('too_large', CREATOR_MESSAGES.profileFailed, { portfolio: rules.tooLarge })
  }
  if (!fileSuitsPortfolioType(file.info, rules.value)) {
    throw new DomainError('invalid', CREATOR_MESSAGES.profileFailed, { portfolio: rules.wrongType })
  }
  const mime = file.info.type
  const extension =
    PORTFOLIO_EXTENSIONS[mime] ??
    mime
      .split('/')[1]
      ?.replace(/^x-/, '')
      .replace(/[^a-z0-9]/g, '') ??
    'bin'
  const name = `${userId}/portfolio-${Date.now()}.${extension}`
  const { error } = await supabase.storage
    .from('portfolios')
    .upload(name, await openAsBlob(file.path, { type: mime }), { contentType: mime, upsert: false })
  if (error) throw new Error(`portfolio upload refused: ${error.message}`)
  return { path: name, type: rules.value }
}
