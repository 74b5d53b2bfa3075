import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHECKPOINT_MESSAGES } from '../../app/lib/schemas/checkpoints'
import { loader as videoLoader } from '../../app/routes/_watch+/video.$id'
import { action as checkAction } from '../../app/routes/_watch+/video.$id_.check'
import { loader as insightLoader } from '../../app/routes/_studio+/dashboard_.videos.$id'
import {
  addCheckpoint,
  answerCheckpoint,
  checkpointStats,
  deleteCheckpoint,
  getCheckpointAuthoring,
  listCheckpoints,
  myCheckpointProgress,
  myCheckpointResults,
} from '../../app/server/checkpoints.server'
import { saveWatchPosition } from '../../app/server/progress.server'
import { call, tokenFor } from './support/api-client'
import { openVideoFixture, sessionCookieHeader, type Person, type VideoFixture } from './support/video-fixture'

/**
 * Checkpoints (ADR 0047) against PostgreSQL: authoring checked by the one schema
 * and by Postgres; scoring (one answer, several correct options, first try);
 * the answer key and explanations never reach a learner before they answer —
 * not in the video page's data, not in /api, not through /rest/v1 — and no
 * learner sees another's answers; the creator gets aggregates only.
 */

/** Words that appear only in the answer key: if they show up anywhere a learner looks, the key leaked. */
const SECRET = 'Rayleigh-scattering-explains-it'

describe('checkpoints', () => {
  let fixture: VideoFixture
  let creator: Person
  let otherCreator: Person
  let learner: Person
  let other: Person

  beforeAll(async () => {
    fixture = await openVideoFixture('postgres')
    ;[creator, otherCreator, learner, other] = await Promise.all([
      fixture.makeUser('creator'),
      fixture.makeUser('creator'),
      fixture.makeUser('user'),
      fixture.makeUser('user'),
    ])
  })

  afterAll(async () => {
    await fixture?.close()
  })

  const lesson = async (seconds = 30) => {
    const id = await fixture.makeVideo(creator)
    await fixture.running.database.pool.query('update public.videos set duration_seconds = $2 where id = $1', [id, seconds])
    return id
  }

  /** A lesson with a required question at 0:08 (answer: option 1) and an optional one at 0:20 (options 1 and 3). */
  const quiz = async () => {
    const video = await lesson()
    const first = await addCheckpoint(creator.claims, video, {
      at: '0:08',
      question: 'Why is the sky blue?',
      options: ['Reflection of the sea', 'Scattering of sunlight', 'Ozone'],
      correct: [1],
      explanation: SECRET,
      required: true,
    })
    const second = await addCheckpoint(creator.claims, video, {
      at: 20,
      question: 'Which are colours of the sky?',
      options: ['Green', 'Blue', '', 'Red at sunset'],
      correct: [1, 3],
      required: false,
    })
    return { video, first, second }
  }

  it('adds checkpoints checked by the one schema: a moment, 2–5 options, one or more correct', async () => {
    const { video, first, second } = await quiz()
    expect(first).toMatchObject({ atSeconds: 8, required: true, multiple: false, correct: [1] })
    // The blank option is dropped and the correct marks follow their options.
    expect(second).toMatchObject({ options: ['Green', 'Blue', 'Red at sunset'], correct: [1, 2], multiple: true })
    const refusal = (input: Record<string, unknown>) =>
      addCheckpoint(creator.claims, video, {
        at: '0:12',
        question: 'Q',
        options: ['a', 'b'],
        correct: [0],
        ...input,
      }).then(
        () => null,
        (error: { code: string; message: string; fieldErrors?: Record<string, string> }) => error,
      )
    expect(await refusal({ options: ['only one'] })).toMatchObject({ code: 'invalid', message: CHECKPOINT_MESSAGES.optionsCount })
    expect(await refusal({ correct: [] })).toMatchObject({ fieldErrors: { correct: CHECKPOINT_MESSAGES.correctRequired } })
    expect(await refusal({ question: 'x'.repeat(501) })).toMatchObject({
      fieldErrors: { question: CHECKPOINT_MESSAGES.questionTooLong },
    })
    expect(await refusal({ at: '0:30' })).toMatchObject({ fieldErrors: { at: CHECKPOINT_MESSAGES.momentInvalid } })
    expect(await refusal({ at: 'soon' })).toMatchObject({ fieldErrors: { at: CHECKPOINT_MESSAGES.momentInvalid } })
    expect(await refusal({ at: '0:08' })).toMatchObject({ code: 'conflict', message: CHECKPOINT_MESSAGES.momentTaken })
    await expect(
      addCheckpoint(otherCreator.claims, video, { at: 12, question: 'Q', options: ['a', 'b'], correct: [0] }),
    ).rejects.toMatchObject({ code: 'forbidden' })
    await expect(getCheckpointAuthoring(learner.claims, video)).rejects.toMatchObject({ code: 'forbidden' })
    expect((await getCheckpointAuthoring(creator.claims, video)).checkpoints).toHaveLength(2)
    // Nothing half-written by the refusals.
    expect(await listCheckpoints(learner.claims, video)).toHaveLength(2)
  })

  it('scores answers: right only with exactly the correct options; first tries make the creator’s rate', async () => {
    const { video, first, second } = await quiz()
    expect(await answerCheckpoint(learner.claims, first.id, [0])).toEqual({
      checkpointId: first.id,
      correct: false,
      explanation: SECRET,
    })
    expect((await answerCheckpoint(learner.claims, first.id, [1])).correct).toBe(true)
    expect((await answerCheckpoint(learner.claims, second.id, [1])).correct).toBe(false)
    expect((await answerCheckpoint(learner.claims, second.id, [2, 1])).correct).toBe(true)
    await expect(answerCheckpoint(learner.claims, first.id, [])).rejects.toMatchObject({ code: 'invalid' })
    await expect(answerCheckpoint(learner.claims, first.id, [4])).rejects.toMatchObject({ code: 'invalid' })
    await expect(answerCheckpoint(learner.claims, randomUUID(), [0])).rejects.toMatchObject({ code: 'not_found' })

    let stats = await checkpointStats(creator.claims, video)
    expect(stats[0]).toMatchObject({
      learners: 1,
      firstTryCorrect: 0,
      firstTryRate: 0,
      topWrongOption: { index: 0, text: 'Reflection of the sea', count: 1 },
    })
    expect((await answerCheckpoint(other.claims, first.id, [1])).correct).toBe(true)
    await saveWatchPosition(other.claims, video, { position: 8 })
    stats = await checkpointStats(creator.claims, video)
    expect(stats[0]).toMatchObject({ learners: 2, firstTryCorrect: 1, firstTryRate: 0.5, stoppedHere: 1 })
    expect(stats[1]).toMatchObject({ learners: 1, firstTryCorrect: 0, topWrongOption: null })

    // Aggregates only, and only for the creator (or an admin).
    await expect(checkpointStats(learner.claims, video)).rejects.toMatchObject({ code: 'forbidden' })
    await expect(checkpointStats(otherCreator.claims, video)).rejects.toMatchObject({ code: 'forbidden' })

    // Each learner's own results and Progress.
    expect((await myCheckpointResults(learner.claims, video))[first.id]).toMatchObject({ attempts: 2, lastCorrect: true })
    expect((await myCheckpointResults(other.claims, video))[second.id]).toBeUndefined()
    expect((await myCheckpointProgress(other.claims)).find((item) => item.videoId === video)).toMatchObject({
      questions: 2,
      answered: 1,
      right: 1,
    })

    // Deleting a checkpoint takes its answers with it.
    await deleteCheckpoint(creator.claims, first.id)
    expect((await checkpointStats(creator.claims, video)).map((stat) => stat.checkpointId)).toEqual([second.id])
  })

  it('the video page’s data has the questions, not the key: the explanation only after answering', async () => {
    const { video, first } = await quiz()
    const cookie = await sessionCookieHeader(fixture, learner)
    const load = async () => {
      const value = (await videoLoader({
        request: new Request(`http://lumen.test/video/${video}`, { headers: { Cookie: cookie } }),
        params: { id: video },
        context: { clientIp: '127.0.0.1' },
      } as never)) as unknown
      const wrapped = value as { data?: unknown }
      return JSON.stringify(wrapped.data ?? value)
    }
    const before = await load()
    expect(before).toContain('Why is the sky blue?')
    expect(before).not.toContain(SECRET)
    expect(before).not.toMatch(/"correct"|"explanation"/)

    // The plain form: answers posted as fields, redirected back to the page.
    const form = new URLSearchParams({ [`answer-${first.id}`]: '0' })
    const answered = (await checkAction({
      request: new Request(`http://lumen.test/video/${video}/check`, { method: 'POST', body: form, headers: { Cookie: cookie } }),
      params: { id: video },
      context: { clientIp: '127.0.0.1' },
    } as never)) as Response
    expect(answered.status).toBe(302)
    expect(answered.headers.get('Location')).toBe(`/video/${video}#check-yourself`)
    const after = await load()
    expect(after).toContain(SECRET)
    expect(after).toContain('"lastCorrect":false')

    // With JavaScript the same route answers with data.
    const scripted = (await checkAction({
      request: new Request(`http://lumen.test/video/${video}/check`, {
        method: 'POST',
        body: new URLSearchParams({ js: '1', [`answer-${first.id}`]: '1' }),
        headers: { Cookie: cookie },
      }),
      params: { id: video },
      context: { clientIp: '127.0.0.1' },
    } as never)) as { data?: unknown }
    expect(JSON.stringify(scripted.data ?? scripted)).toContain('"correct":true')

    // The other learner's page still has no key and none of the first learner's answers.
    const otherCookie = await sessionCookieHeader(fixture, other)
    const othersPage = (await videoLoader({
      request: new Request(`http://lumen.test/video/${video}`, { headers: { Cookie: otherCookie } }),
      params: { id: video },
      context: { clientIp: '127.0.0.1' },
    } as never)) as { data?: unknown }
    const othersText = JSON.stringify(othersPage.data ?? othersPage)
    expect(othersText).not.toContain(SECRET)
    expect(othersText).toContain('"results":{}')
  })

  it('the creator’s insights page shows the aggregates', async () => {
    const { video, first } = await quiz()
    await answerCheckpoint(learner.claims, first.id, [2])
    const cookie = await sessionCookieHeader(fixture, creator)
    const value = (await insightLoader({
      request: new Request(`http://lumen.test/dashboard/videos/${video}`, { headers: { Cookie: cookie } }),
      params: { id: video },
      context: { clientIp: '127.0.0.1' },
    } as never)) as { data?: { checkpoints: unknown[] } }
    expect((value.data ?? (value as unknown as { checkpoints: unknown[] })).checkpoints[0]).toMatchObject({
      learners: 1,
      firstTryRate: 0,
      topWrongOption: { text: 'Ozone' },
    })
  })

  describe('/api', () => {
    it('GET /videos/{id}/checkpoints has no key; POST /checkpoints/{id}/attempts scores; stats for the creator only', async () => {
      const { video, first } = await quiz()
      const token = await tokenFor(fixture, learner)
      const listed = await call('GET', `/videos/${video}/checkpoints`, { token })
      expect(listed.status).toBe(200)
      expect(JSON.stringify(listed.body)).not.toContain(SECRET)
      expect(JSON.stringify(listed.body)).not.toMatch(/"correct"|"explanation"/)
      expect(listed.json.checkpoints).toEqual([
        expect.objectContaining({ _id: first.id, at: 8, options: ['Reflection of the sea', 'Scattering of sunlight', 'Ozone'] }),
        expect.anything(),
      ])
      expect((await call('GET', `/videos/${video}/checkpoints`)).status).toBe(200)
      expect((await call('GET', `/videos/${randomUUID()}/checkpoints`, { token })).status).toBe(404)

      expect((await call('POST', `/checkpoints/${first.id}/attempts`, { json: { chosen: [1] } })).status).toBe(401)
      expect((await call('POST', `/checkpoints/${first.id}/attempts`, { token, json: { chosen: [] } })).status).toBe(400)
      expect((await call('POST', `/checkpoints/${randomUUID()}/attempts`, { token, json: { chosen: [1] } })).status).toBe(404)
      const wrong = await call('POST', `/checkpoints/${first.id}/attempts`, { token, json: { chosen: [2] } })
      expect(wrong.json).toEqual({ checkpoint: first.id, correct: false, explanation: SECRET })
      const right = await call('POST', `/checkpoints/${first.id}/attempts`, { token, json: { chosen: [1] } })
      expect(right.json).toMatchObject({ correct: true })

      expect((await call('GET', `/videos/${video}/checkpoints/stats`, { token })).status).toBe(403)
      expect((await call('GET', `/videos/${video}/checkpoints/stats`)).status).toBe(401)
      const stats = await call('GET', `/videos/${video}/checkpoints/stats`, { token: await tokenFor(fixture, creator) })
      expect(stats.status).toBe(200)
      expect(stats.json.stats).toEqual([
        expect.objectContaining({ _id: first.id, learners: 1, firstTryCorrect: 0, firstTryRate: 0 }),
        expect.objectContaining({ learners: 0, firstTryRate: null }),
      ])
      expect(JSON.stringify(stats.body)).not.toContain(learner.id)
    })

    it('/rest/v1 gives no learner the keys, nor another learner’s answers, nor the aggregates', async () => {
      const { video, first } = await quiz()
      await answerCheckpoint(learner.claims, first.id, [1])
      const rest = async (path: string, token: string | null, init: RequestInit = {}) => {
        const response = await fetch(`${fixture.running.url}/rest/v1/${path}`, {
          ...init,
          headers: {
            apikey: fixture.running.anonKey,
            Authorization: `Bearer ${token ?? fixture.running.anonKey}`,
            'Content-Type': 'application/json',
          },
        })
        return { status: response.status, body: (await response.json()) as unknown }
      }
      const learnerToken = await tokenFor(fixture, learner)
      const otherToken = await tokenFor(fixture, other)
      expect((await rest(`checkpoints?video_id=eq.${video}&select=id,question`, learnerToken)).body).toHaveLength(2)
      expect((await rest('checkpoint_keys?select=*', learnerToken)).body).toEqual([])
      expect((await rest('checkpoint_keys?select=*', otherToken)).body).toEqual([])
      expect((await rest('checkpoint_keys?select=*', null)).status).not.toBe(200)
      expect(
        JSON.stringify((await rest(`checkpoints?select=*,checkpoint_keys(*)&video_id=eq.${video}`, learnerToken)).body),
      ).not.toContain(SECRET)
      expect((await rest(`checkpoint_keys?checkpoint_id=eq.${first.id}`, await tokenFor(fixture, creator))).body).toEqual([
        expect.objectContaining({ correct: [1], explanation: SECRET }),
      ])
      const mine = (await rest('checkpoint_attempts?select=user_id', learnerToken)).body as { user_id: string }[]
      expect(mine.length).toBeGreaterThan(0)
      expect(mine.every((row) => row.user_id === learner.id)).toBe(true)
      expect((await rest(`checkpoint_attempts?user_id=eq.${learner.id}`, otherToken)).body).toEqual([])
      expect((await rest(`checkpoint_attempts?user_id=eq.${learner.id}`, await tokenFor(fixture, creator))).body).toEqual([])
      const stats = await rest('rpc/checkpoint_stats', otherToken, { method: 'POST', body: JSON.stringify({ video_id: video }) })
      expect(stats.status).not.toBe(200)
      const forged = await rest('checkpoint_attempts', otherToken, {
        method: 'POST',
        body: JSON.stringify({ checkpoint_id: first.id, user_id: other.id, chosen: [1], correct: true }),
      })
      expect(forged.status).toBeGreaterThanOrEqual(400)
      const forgedKey = await rest('checkpoint_keys', await tokenFor(fixture, creator), {
        method: 'PATCH',
        body: JSON.stringify({ correct: [0] }),
      })
      expect(forgedKey.status).toBeGreaterThanOrEqual(400)
    })
  })
})
