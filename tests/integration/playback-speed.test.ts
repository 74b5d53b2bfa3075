import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { action as editProfileAction } from '../../app/routes/_me+/profile_.edit'
import { action as playbackSpeedAction, loader as playbackSpeedLoader } from '../../app/routes/_me+/profile_.playback-speed'
import { PLAYBACK_RATE_MESSAGES } from '../../app/lib/playback-rate'
import { CREATOR_MESSAGES } from '../../app/lib/schemas/creators'
import { getPlaybackRate, setPlaybackRate } from '../../app/server/playback.server'
import { getOwnProfile, updateProfile } from '../../app/server/profiles.server'
import { call, tokenFor } from './support/api-client'
import { openVideoFixture, sessionCookieHeader, type Person, type VideoFixture } from './support/video-fixture'

/**
 * The playback speed preference (ADR 0043): the domain (app/server/playback.server.ts and
 * the edit-profile save), the player's POST /profile/playback-speed, Edit Profile's form
 * without JavaScript, and its API twin GET/PUT /api/users/profile — each answer checked
 * against the OpenAPI document by `call`.
 */
let fixture: VideoFixture
let learner: Person
let other: Person
let creator: Person
let tokens: { learner: string; other: string }

beforeAll(async () => {
  fixture = await openVideoFixture('postgres')
  ;[learner, other, creator] = await Promise.all([
    fixture.makeUser('user'),
    fixture.makeUser('user'),
    fixture.makeUser('creator'),
  ])
  tokens = { learner: await tokenFor(fixture, learner), other: await tokenFor(fixture, other) }
}, 120_000)

afterAll(async () => {
  await fixture?.close()
})

const speedOf = async (person: Person) => getPlaybackRate(person.claims)

describe('the domain', () => {
  it('starts at 1×, saves each step for its owner only, and has nothing for a visitor', async () => {
    expect(await getPlaybackRate(null)).toBeNull()
    expect(await speedOf(learner)).toBe(1)
    expect(await setPlaybackRate(learner.claims, '1.5')).toBe(1.5)
    expect(await speedOf(learner)).toBe(1.5)
    expect((await getOwnProfile(learner.claims)).playbackRate).toBe(1.5)
    expect(await speedOf(other)).toBe(1)
    for (const rate of [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2]) {
      expect(await setPlaybackRate(creator.claims, rate)).toBe(rate)
      expect(await speedOf(creator)).toBe(rate)
    }
  })

  it('refuses anything but a step from 0.5× to 2×, and leaves the saved speed', async () => {
    for (const bad of ['3', '0.25', '1.1', 'fast', '', null, undefined, Number.NaN, '1e0x']) {
      await expect(setPlaybackRate(learner.claims, bad)).rejects.toMatchObject({
        code: 'invalid',
        fieldErrors: { playbackRate: PLAYBACK_RATE_MESSAGES.invalid },
      })
    }
    await expect(setPlaybackRate(null, '1')).rejects.toMatchObject({ code: 'unauthenticated' })
    expect(await speedOf(learner)).toBe(1.5)
  })

  it('the edit-profile save sets it when given, keeps it when not, and refuses a bad one whole', async () => {
    const caller = { claims: learner.claims, supabase: fixture.service }
    const { username } = await getOwnProfile(learner.claims)
    await updateProfile(caller, { username, bio: 'Slow and steady', playbackRate: '0.75' })
    expect(await speedOf(learner)).toBe(0.75)
    await updateProfile(caller, { username, bio: 'Still steady' })
    expect(await speedOf(learner)).toBe(0.75)
    await expect(updateProfile(caller, { username, bio: 'Too fast', playbackRate: '4' })).rejects.toMatchObject({
      code: 'invalid',
      fieldErrors: { playbackRate: PLAYBACK_RATE_MESSAGES.invalid },
    })
    const after = await getOwnProfile(learner.claims)
    expect(after.bio).toBe('Still steady')
    expect(after.playbackRate).toBe(0.75)
  })
})

describe('POST /profile/playback-speed (the player’s save)', () => {
  const post = async (body: Record<string, string>, cookie?: string) =>
    (await playbackSpeedAction({
      request: new Request('http://lumen.test/profile/playback-speed', {
        method: 'POST',
        body: new URLSearchParams(body),
        headers: cookie ? { Cookie: cookie } : {},
      }),
      params: {},
      context: { clientIp: '127.0.0.1' },
    })) as Response

  it('saves the signed-in learner’s choice; 400 for a bad one, 401 signed out, 405 for GET', async () => {
    const cookie = await sessionCookieHeader(fixture, other)
    const saved = await post({ playbackRate: '1.25' }, cookie)
    expect(saved.status).toBe(200)
    expect(await saved.json()).toEqual({ playbackRate: 1.25 })
    expect(await speedOf(other)).toBe(1.25)
    const bad = await post({ playbackRate: '9' }, cookie)
    expect(bad.status).toBe(400)
    expect(await bad.json()).toEqual({
      error: PLAYBACK_RATE_MESSAGES.invalid,
      fieldErrors: { playbackRate: PLAYBACK_RATE_MESSAGES.invalid },
    })
    expect((await post({ playbackRate: '2' })).status).toBe(401)
    expect(await speedOf(other)).toBe(1.25)
    expect(playbackSpeedLoader().status).toBe(405)
  })
})

describe('Edit Profile without JavaScript', () => {
  const submit = async (fields: Record<string, string>, cookie: string) => {
    const form = new FormData()
    for (const [name, value] of Object.entries(fields)) form.set(name, value)
    try {
      return (await editProfileAction({
        request: new Request('http://lumen.test/profile/edit', { method: 'POST', body: form, headers: { Cookie: cookie } }),
        params: {},
        context: { clientIp: '127.0.0.1' },
      })) as Response
    } catch (thrown) {
      if (thrown instanceof Response) return thrown
      throw thrown
    }
  }

  it('saves the Playback speed field with the rest of the form; a bad value is a field error', async () => {
    const cookie = await sessionCookieHeader(fixture, other)
    const { username } = await getOwnProfile(other.claims)
    const saved = await submit({ username, bio: '', playbackRate: '2' }, cookie)
    expect(saved.status).toBe(302)
    expect(saved.headers.get('Location')).toBe('/profile')
    expect(await speedOf(other)).toBe(2)
    // A failure is the page's action data (Remix's `data()`), at the error's status.
    const bad = (await submit({ username, bio: '', playbackRate: '2.5' }, cookie)) as unknown as {
      data: { formError: string; fieldErrors: Record<string, string>; values: { playbackRate: string } }
      init: { status: number }
    }
    expect(bad.init.status).toBe(400)
    const body = bad.data
    expect(body.formError).toBe(CREATOR_MESSAGES.profileFailed)
    expect(body.fieldErrors).toEqual({ playbackRate: PLAYBACK_RATE_MESSAGES.invalid })
    expect(body.values.playbackRate).toBe('2.5')
    expect(await speedOf(other)).toBe(2)
  })
})

describe('GET/PUT /api/users/profile', () => {
  const multipart = (fields: Record<string, string>) => {
    const data = new FormData()
    for (const [name, value] of Object.entries(fields)) data.set(name, value)
    return data
  }

  it('GET: 401 signed out; your user object and player preferences', async () => {
    expect((await call('GET', '/users/profile')).status).toBe(401)
    await setPlaybackRate(learner.claims, 1.75)
    const mine = await call('GET', '/users/profile', { token: tokens.learner })
    expect(mine.status).toBe(200)
    expect(mine.json.user).toMatchObject({ _id: learner.id, email: learner.email })
    expect(mine.json.preferences).toEqual({ playbackRate: 1.75, captionsOn: false })
    const theirs = await call('GET', '/users/profile', { token: tokens.other })
    expect((theirs.json.preferences as { playbackRate: number }).playbackRate).toBe(await speedOf(other))
  })

  it('PUT: sets playbackRate and captionsOn, keeps them when left out, 400 for bad values', async () => {
    const saved = await call('PUT', '/users/profile', {
      token: tokens.learner,
      form: multipart({ playbackRate: '0.5', captionsOn: 'true' }),
    })
    expect(saved.status).toBe(200)
    expect(saved.json.preferences).toEqual({ playbackRate: 0.5, captionsOn: true })
    const kept = await call('PUT', '/users/profile', { token: tokens.learner, form: multipart({ bio: 'Half speed' }) })
    expect(kept.json.preferences).toEqual({ playbackRate: 0.5, captionsOn: true })
    const bad = await call('PUT', '/users/profile', { token: tokens.learner, form: multipart({ playbackRate: '2.25' }) })
    expect(bad.status).toBe(400)
    expect(bad.json.fieldErrors).toEqual({ playbackRate: PLAYBACK_RATE_MESSAGES.invalid })
    const badCaptions = await call('PUT', '/users/profile', { token: tokens.learner, form: multipart({ captionsOn: 'yes' }) })
    expect(badCaptions.status).toBe(400)
    expect(Object.keys(badCaptions.json.fieldErrors as object)).toEqual(['captionsOn'])
    expect((await call('GET', '/users/profile', { token: tokens.learner })).json.preferences).toEqual({
      playbackRate: 0.5,
      captionsOn: true,
    })
  })
})
