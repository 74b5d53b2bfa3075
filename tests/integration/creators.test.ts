import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { randomUUID } from 'node:crypto'
import { createClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nodeRealtimeOptions } from '../../db/supabase-node'
import { AUTH_MESSAGES } from '../../app/lib/schemas/auth'
import { CREATOR_MESSAGES } from '../../app/lib/schemas/creators'
import { getCreator, listCreators, suggestCreators } from '../../app/server/creators.server'
import { encodeCreatorKey } from '../../app/server/cursor.server'
import { listCreatorVideos, listLikedVideos } from '../../app/server/feed/people.server'
import { listFollowing, setFollow } from '../../app/server/follows.server'
import { likeVideo } from '../../app/server/likes.server'
import { canUseCategory } from '../../app/server/permissions.server'
import { getOwnProfile, updateProfile } from '../../app/server/profiles.server'
import { createReport, listMyReports } from '../../app/server/reports.server'
import type { Supabase } from '../../app/server/supabase.server'
import { refusal } from './support/refusal'
import { openVideoFixture, type Person, type VideoFixture } from './support/video-fixture'

/**
 * Creators, follows and the own profile (ADR 0013) against a migrated
 * PostgreSQL and the Storage stand-in: refusals first (401/400/404/409),
 * then what each success leaves behind; the private profile fields stay
 * private through /rest/v1 too.
 */
describe('creators, follows and profiles', () => {
  let fixture: VideoFixture
  let learner: Person
  let other: Person
  let creator: Person
  let second: Person
  let admin: Person
  const uniqueWord = `zyx${randomUUID().slice(0, 6)}`

  const sql = (text: string, values: unknown[] = []) => fixture.running.database.pool.query(text, values)
  const clientFor = async (person: Person): Promise<Supabase> => {
    const client = createClient(fixture.running.url, fixture.running.anonKey, {
      ...nodeRealtimeOptions,
      auth: { persistSession: false, autoRefreshToken: false },
    })
    const { error } = await client.auth.signInWithPassword({ email: person.email, password: person.password })
    if (error) throw error
    return client as unknown as Supabase
  }

  beforeAll(async () => {
    fixture = await openVideoFixture('postgres')
    ;[learner, other, creator, second, admin] = await Promise.all([
      fixture.makeUser('user'),
      fixture.makeUser('user'),
      fixture.makeUser('creator'),
      fixture.makeUser('creator'),
      fixture.makeUser('admin'),
    ])
    await sql(
      `update public.profiles set bio = $2, field_of_interest = 'Physics', portfolio_path = id || '/cv.pdf', portfolio_type = 'document' where id = $1`,
      [creator.id, `I teach ${uniqueWord} optics`],
    )
    await sql(`update public.profiles set bio = $2 where id = $1`, [learner.id, `I also like ${uniqueWord}`])
  })

  afterAll(async () => {
    await fixture?.close()
  })

  describe('Discover Creators', () => {
    it('lists creators (never learners) with a total, and finds them by a word of their bio', async () => {
      const all = await listCreators(null, { limit: 50 })
      expect(all.items.map((card) => card.id)).toEqual(expect.arrayContaining([creator.id, second.id]))
      expect(all.items.some((card) => card.id === learner.id || card.id === admin.id)).toBe(false)
      expect(all.total).toBeGreaterThanOrEqual(2)

      const found = await listCreators(null, { search: uniqueWord.toUpperCase() })
      expect(found).toMatchObject({ total: 1, nextCursor: null })
      expect(found.items[0]).toMatchObject({
        id: creator.id,
        bio: `I teach ${uniqueWord} optics`,
        isFollowed: false,
        isSelf: false,
      })
      expect(found.items[0]).not.toHaveProperty('fieldOfInterest')
    })

    it('pages by cursor without overlap or gaps', async () => {
      const first = await listCreators(null, { limit: 1 })
      expect(first.nextCursor).not.toBeNull()
      const next = await listCreators(null, { limit: 1, cursor: first.nextCursor })
      const both = await listCreators(null, { limit: 2 })
      expect([...first.items, ...next.items].map((card) => card.id)).toEqual(both.items.map((card) => card.id))
    })

    it('puts verified creators with public videos first, and lists pending creators to admins only', async () => {
      const [teaching, pending] = await Promise.all([fixture.makeUser('creator'), fixture.makeUser('creator')])
      await sql(`update public.profiles set is_verified = false where id = $1`, [pending.id])
      await fixture.makeVideo(teaching)
      // The pending creator is the newest and the most followed: neither lifts them.
      await sql(`update public.profiles set created_at = now() + interval '1 day' where id = $1`, [pending.id])
      await sql(`insert into public.follows (follower_id, creator_id) values ($1, $3), ($2, $3)`, [
        learner.id,
        other.id,
        pending.id,
      ])

      const walk = async (claims: Person['claims'] | null, limit: number) => {
        const ids: string[] = []
        let cursor: string | null = null
        do {
          const page = await listCreators(claims, { limit, cursor })
          ids.push(...page.items.map((card) => card.id))
          cursor = page.nextCursor
        } while (cursor && ids.length < 100)
        return ids
      }

      for (const claims of [null, learner.claims, creator.claims, pending.claims]) {
        const page = await listCreators(claims, { limit: 50 })
        const ids = page.items.map((card) => card.id)
        expect(ids[0]).toBe(teaching.id)
        expect(ids).not.toContain(pending.id)
        expect(page.items.every((card) => card.isVerified)).toBe(true)
        expect(page.total).toBe(ids.length)
        expect(await walk(claims, 1)).toEqual(ids)
        // A cursor after the last creator (one who left, say): no cards, and still the count.
        const past = encodeCreatorKey({
          rank: 0,
          featured: false,
          followers: 0,
          latest: null,
          username: 'zzzzzzzzzz',
          id: 'ffffffff-ffff-4fff-bfff-ffffffffffff',
        })
        expect(await listCreators(claims, { cursor: past })).toMatchObject({ items: [], total: ids.length, nextCursor: null })
      }

      const forAdmin = await listCreators(admin.claims, { limit: 50 })
      const adminIds = forAdmin.items.map((card) => card.id)
      expect(adminIds[0]).toBe(teaching.id)
      expect(adminIds).toContain(pending.id)
      expect(forAdmin.items.find((card) => card.id === pending.id)).toMatchObject({ isVerified: false, videoCount: 0 })
      expect(forAdmin.total).toBe(adminIds.length)
      expect(await walk(admin.claims, 2)).toEqual(adminIds)

      const pendingName = (await sql(`select username from public.profiles where id = $1`, [pending.id])).rows[0].username
      expect((await listCreators(null, { search: pendingName })).total).toBe(0)
      expect((await listCreators(admin.claims, { search: pendingName })).items.map((card) => card.id)).toEqual([pending.id])

      // /explore suggests verified creators only.
      for (const claims of [null, other.claims]) {
        const suggested = (await suggestCreators(claims, { categories: [], limit: 24 })).map((card) => card.id)
        expect(suggested).toContain(teaching.id)
        expect(suggested).not.toContain(pending.id)
      }

      await sql(`delete from public.follows where creator_id = $1`, [pending.id])
    })

    it('marks the caller’s own card', async () => {
      const mine = await listCreators(creator.claims, { search: uniqueWord })
      expect(mine.items[0]).toMatchObject({ isSelf: true })
    })
  })

  describe('creator pages', () => {
    it('answers 404 Creator Not Found for a malformed id, an unknown id and a learner', async () => {
      for (const id of ['nope', randomUUID(), learner.id]) {
        expect(await refusal(getCreator(null, id))).toEqual({ status: 404, message: CREATOR_MESSAGES.notFound })
      }
    })

    it('shows counts and the public videos only (the creator also sees their private ones)', async () => {
      const open = await fixture.makeVideo(creator)
      const hidden = await fixture.makeVideo(creator, { isPublic: false })
      expect(await getCreator(null, creator.id)).toMatchObject({
        videoCount: 1,
        followers: 0,
        following: 0,
        joinedAt: expect.any(String),
      })
      expect((await listCreatorVideos(null, creator.id, { limit: 10 })).items.map((item) => item.id)).toEqual([open])
      expect((await listCreatorVideos(creator.claims, creator.id, { limit: 10 })).items.map((item) => item.id).sort()).toEqual(
        [open, hidden].sort(),
      )
    })
  })

  describe('follows', () => {
    it('refuses visitors (401), unknown people (404), oneself and learners (400)', async () => {
      expect(await refusal(setFollow(null, creator.id, true))).toEqual({ status: 401, message: CREATOR_MESSAGES.loginToFollow })
      expect(await refusal(setFollow(learner.claims, randomUUID(), true))).toMatchObject({ status: 404 })
      expect(await refusal(setFollow(learner.claims, 'x', true))).toMatchObject({ status: 404 })
      expect(await refusal(setFollow(creator.claims, creator.id, true))).toEqual({
        status: 400,
        message: CREATOR_MESSAGES.cannotFollowSelf,
      })
      expect(await refusal(setFollow(other.claims, learner.id, true))).toMatchObject({ status: 400 })
    })

    it('follows and unfollows; the count is the rows, and asking twice changes nothing', async () => {
      expect(await setFollow(learner.claims, creator.id, true)).toEqual({ isFollowing: true, followers: 1 })
      expect(await setFollow(learner.claims, creator.id, true)).toEqual({ isFollowing: true, followers: 1 })
      expect(await setFollow(other.claims, creator.id, true)).toEqual({ isFollowing: true, followers: 2 })
      expect((await getCreator(learner.claims, creator.id)).isFollowed).toBe(true)
      expect((await listCreators(learner.claims, { search: uniqueWord })).items[0]?.isFollowed).toBe(true)
      expect(await getCreator(null, learner.id).catch(() => null)).toBeNull()

      const following = await listFollowing(learner.claims)
      expect(following.items).toEqual([expect.objectContaining({ id: creator.id, bio: `I teach ${uniqueWord} optics` })])

      expect(await setFollow(other.claims, creator.id, false)).toEqual({ isFollowing: false, followers: 1 })
      const { rows } = await sql('select count(*)::int as n from public.follows where creator_id = $1', [creator.id])
      expect(rows[0].n).toBe(1)
      expect(await refusal(listFollowing(null))).toMatchObject({ status: 401 })
    })
  })

  describe('liked videos and my reports', () => {
    it('lists the videos the caller liked, latest like first', async () => {
      const video = await fixture.makeVideo(second)
      await likeVideo(learner.claims, video, true)
      expect((await listLikedVideos(learner.claims, { limit: 10 })).items.map((item) => item.id)).toEqual([video])
      expect((await listLikedVideos(other.claims, { limit: 10 })).items).toEqual([])
    })

    it('shows the reporter their reports and each outcome, nobody else’s', async () => {
      const video = await fixture.makeVideo(second)
      expect(
        await createReport(learner.claims, { contentType: 'video', contentId: video, reason: 'spam', details: 'mine' }),
      ).toEqual({ status: 'created' })
      await createReport(other.claims, { contentType: 'video', contentId: video, reason: 'other', details: 'theirs' })
      await sql(`update public.reports set status = 'dismissed' where details = 'mine'`)
      const mine = await listMyReports(learner.claims)
      expect(mine).toEqual([
        expect.objectContaining({ contentId: video, status: 'dismissed', details: 'mine', href: `/video/${video}` }),
      ])
      expect(await refusal(listMyReports(null))).toMatchObject({ status: 401 })
    })
  })

  describe('edit profile', () => {
    let work: string
    const pngWithMetadata = () => {
      const file = path.join(work, `pic-${randomUUID().slice(0, 6)}.png`)
      execFileSync('ffmpeg', [
        '-v',
        'error',
        '-f',
        'lavfi',
        '-i',
        'color=c=red:s=64x48',
        '-frames:v',
        '1',
        '-metadata',
        'comment=secret-gps',
        file,
      ])
      return file
    }

    beforeAll(() => {
      work = mkdtempSync(path.join(tmpdir(), 'lumen-creators-test-'))
    })
    afterAll(() => rmSync(work, { recursive: true, force: true }))

    it('refuses visitors, a taken username (409) and a creator without categories, saving nothing', async () => {
      const supabase = await clientFor(learner)
      expect(await refusal(updateProfile({ claims: null, supabase }, { username: 'whoever', bio: '' }))).toMatchObject({
        status: 401,
      })
      const taken = (await getOwnProfile(other.claims)).username.toUpperCase()
      const outcome = await updateProfile({ claims: learner.claims, supabase }, { username: taken, bio: 'changed' }).catch(
        (error) => error,
      )
      expect(outcome).toMatchObject({ status: 409, fieldErrors: { username: AUTH_MESSAGES.usernameTaken } })
      expect((await getOwnProfile(learner.claims)).bio).toBe(`I also like ${uniqueWord}`)

      const creatorClient = await clientFor(second)
      const before = await getOwnProfile(second.claims)
      expect(
        await refusal(
          updateProfile(
            { claims: second.claims, supabase: creatorClient },
            { username: before.username, bio: 'x', categories: [] },
          ),
        ),
      ).toMatchObject({
        status: 400,
      })
    })

    it('refuses a picture that is not an image, and keeps no file', async () => {
      const supabase = await clientFor(learner)
      const fake = path.join(work, 'fake.png')
      execFileSync('sh', ['-c', `printf '<svg onload=alert(1)>' > ${fake}`])
      const me = await getOwnProfile(learner.claims)
      const outcome = await updateProfile(
        { claims: learner.claims, supabase },
        { username: me.username, bio: 'new bio' },
        { picture: { path: fake, name: 'fake.png', size: 21, tooLarge: false } },
      ).catch((error) => error)
      expect(outcome).toMatchObject({ status: 400, fieldErrors: { picture: CREATOR_MESSAGES.pictureNotImage } })
      expect(await fixture.objectNames('avatars', `${learner.id}/`)).toEqual([])
      expect((await getOwnProfile(learner.claims)).bio).toBe(`I also like ${uniqueWord}`)
    })

    it('saves username, bio and a re-encoded picture without metadata; a second picture replaces the first file', async () => {
      const supabase = await clientFor(learner)
      const name = `renamed_${randomUUID().slice(0, 6)}`
      const oldName = (await getOwnProfile(learner.claims)).username
      const file = pngWithMetadata()
      const size = readFileSync(file).length
      await updateProfile(
        { claims: learner.claims, supabase },
        { username: name, bio: 'I learn optics' },
        { picture: { path: file, name: 'me.png', size, tooLarge: false } },
      )
      const saved = await getOwnProfile(learner.claims)
      expect(saved).toMatchObject({
        username: name,
        bio: 'I learn optics',
        avatarUrl: expect.stringContaining(`${learner.id}/avatar-`),
      })
      const [first] = await fixture.objectNames('avatars', `${learner.id}/`)
      const { data } = await fixture.service.storage.from('avatars').download(first!)
      const bytes = Buffer.from(await data!.arrayBuffer())
      expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]))
      expect(bytes.includes(Buffer.from('secret-gps'))).toBe(false)

      // The old name is free at once.
      const taker = await clientFor(other)
      const otherName = (await getOwnProfile(other.claims)).username
      await updateProfile({ claims: other.claims, supabase: taker }, { username: oldName, bio: '' })
      await updateProfile({ claims: other.claims, supabase: taker }, { username: otherName, bio: '' })

      const again = pngWithMetadata()
      await updateProfile(
        { claims: learner.claims, supabase },
        { username: name, bio: 'I learn optics' },
        { picture: { path: again, name: 'me2.png', size, tooLarge: false } },
      )
      const names = await fixture.objectNames('avatars', `${learner.id}/`)
      expect(names).toHaveLength(1)
      expect(names[0]).not.toBe(first)
    })

    it('sends a creator’s newly ticked categories to review (pending, not usable) and drops unticked ones', async () => {
      const supabase = await clientFor(second)
      const me = await getOwnProfile(second.claims)
      await sql(
        `insert into public.creator_categories (creator_id, category_id, status) values ($1, 'natural-sciences-physics', 'approved'), ($1, 'arts-creativity', 'approved')`,
        [second.id],
      )
      await updateProfile(
        { claims: second.claims, supabase },
        { username: me.username, bio: 'Now also media', categories: ['natural-sciences-physics', 'media'] },
      )
      const after = await getOwnProfile(second.claims)
      expect(after.categories).toEqual([
        { id: 'media', name: 'Media', status: 'pending' },
        { id: 'natural-sciences-physics', name: 'Natural Sciences - Physics', status: 'approved' },
      ])
      expect(after.bio).toBe('Now also media')
      expect(await canUseCategory(second.claims, 'media')).toBe(false)
      expect(await canUseCategory(second.claims, 'natural-sciences-physics')).toBe(true)
      expect(await canUseCategory(second.claims, 'arts-creativity')).toBe(false)
    })
  })

  describe('privacy of profiles', () => {
    it('a visitor and a learner cannot read emails, interests or portfolios through /rest/v1', async () => {
      const anon = createClient(fixture.running.url, fixture.running.anonKey, {
        ...nodeRealtimeOptions,
        auth: { persistSession: false, autoRefreshToken: false },
      })
      const publicCard = await anon.from('profiles').select('username,bio,role').eq('id', creator.id)
      expect(publicCard.data).toEqual([expect.objectContaining({ bio: `I teach ${uniqueWord} optics` })])
      for (const client of [anon, await clientFor(other)]) {
        for (const column of ['portfolio_path', 'field_of_interest', 'interests', 'concentration', '*']) {
          const { data, error } = await client.from('profiles').select(column).eq('id', creator.id)
          expect(data ?? null).toBeNull()
          expect(error).not.toBeNull()
        }
        const rpc = await client.rpc('profile_private' as never, { user_ids: [creator.id] } as never)
        expect((rpc.data as unknown[] | null) ?? []).toEqual([])
      }
      expect((await getOwnProfile(creator.claims)).fieldOfInterest).toBe('Physics')
    })
  })
})
