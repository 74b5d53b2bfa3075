import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHECKPOINT_MESSAGES } from '../../app/lib/schemas/checkpoints'
import { loader as dashboardLoader } from '../../app/routes/_studio+/dashboard'
import { loader as reelsLoader } from '../../app/routes/_watch+/sparks-reels'
import { addCheckpoint, answerCheckpoint, creatorCheckpointStats, sparkQuestions } from '../../app/server/checkpoints.server'
import { openVideoFixture, sessionCookieHeader, type Person, type VideoFixture } from './support/video-fixture'

/**
 * A spark's question at its end and the dashboard's Engagement tab (ADR 0049) against
 * PostgreSQL: a spark takes one question, at its end; the reel viewer's data carries the
 * question but never the key (the explanation, the correct options) before answering, and
 * says once the learner has answered it right; the creator's Engagement tab has the
 * insights page's aggregates for each of their videos with checkpoints, and nobody else's.
 */

const SECRET = 'Only-the-key-knows-this'

describe('spark checkpoints', () => {
  let fixture: VideoFixture
  let creator: Person
  let otherCreator: Person
  let learner: Person

  beforeAll(async () => {
    fixture = await openVideoFixture('postgres')
    ;[creator, otherCreator, learner] = await Promise.all([
      fixture.makeUser('creator'),
      fixture.makeUser('creator'),
      fixture.makeUser('user'),
    ])
  })

  afterAll(async () => {
    await fixture?.close()
  })

  const spark = async (owner = creator) => {
    const id = await fixture.makeVideo(owner)
    await fixture.running.database.pool.query(`update public.videos set type = 'spark', duration_seconds = 12 where id = $1`, [
      id,
    ])
    return id
  }

  const ask = (video: string, owner = creator) =>
    addCheckpoint(owner.claims, video, {
      at: 3,
      question: 'What did the clip show?',
      options: ['A prism', 'A mirror'],
      correct: [0],
      explanation: SECRET,
      required: false,
    })

  it('a spark ends with one question: at its end, and a second is refused', async () => {
    const video = await spark()
    const first = await ask(video)
    expect(first.atSeconds).toBe(12)
    await expect(ask(video)).rejects.toMatchObject({ code: 'conflict', message: CHECKPOINT_MESSAGES.sparkOnlyOne })
  })

  it('the reel viewer gets the question without its key, and whether the learner answered it right', async () => {
    const video = await spark()
    const question = await ask(video)
    const none = await spark()

    const before = await sparkQuestions(learner.claims, [video, none])
    expect(Object.keys(before)).toEqual([video])
    expect(before[video]).toEqual({
      question: {
        id: question.id,
        atSeconds: 12,
        question: 'What did the clip show?',
        options: ['A prism', 'A mirror'],
        required: false,
        multiple: false,
      },
      answeredRight: false,
    })

    // The reel page's data, as the browser gets it: the question, no key.
    const cookie = await sessionCookieHeader(fixture, learner)
    const load = async () => {
      const value = (await reelsLoader({
        request: new Request(`http://lumen.test/sparks-reels?start=${video}`, { headers: { Cookie: cookie } }),
        params: {},
        context: { clientIp: '127.0.0.1' },
      } as never)) as { data?: unknown }
      return JSON.stringify(value.data ?? value)
    }
    const page = await load()
    expect(page).toContain('What did the clip show?')
    expect(page).not.toContain(SECRET)
    expect(page).not.toMatch(/"correct"|"explanation"/)
    expect(page).toContain('"answeredRight":false')

    await answerCheckpoint(learner.claims, question.id, [1])
    expect((await sparkQuestions(learner.claims, [video]))[video]?.answeredRight).toBe(false)
    await answerCheckpoint(learner.claims, question.id, [0])
    expect((await sparkQuestions(learner.claims, [video]))[video]?.answeredRight).toBe(true)
    expect(await load()).toContain('"answeredRight":true')
    // Another learner's answers are theirs alone.
    const other = await fixture.makeUser('user')
    expect((await sparkQuestions(other.claims, [video]))[video]?.answeredRight).toBe(false)
  })

  it('the Engagement tab has each video’s checkpoint aggregates, for its creator only', async () => {
    const video = await spark()
    const question = await ask(video)
    const theirs = await spark(otherCreator)
    await ask(theirs, otherCreator)
    await answerCheckpoint(learner.claims, question.id, [1])
    await answerCheckpoint(learner.claims, question.id, [0])
    const second = await fixture.makeUser('user')
    await answerCheckpoint(second.claims, question.id, [0])

    const mine = await creatorCheckpointStats(creator.claims)
    const row = mine.find((entry) => entry.videoId === video)
    expect(row).toMatchObject({ type: 'spark' })
    expect(row?.stats).toEqual([
      expect.objectContaining({
        checkpointId: question.id,
        learners: 2,
        firstTryCorrect: 1,
        firstTryRate: 0.5,
        topWrongOption: { index: 1, text: 'A mirror', count: 1 },
        stoppedHere: 0,
      }),
    ])
    expect(mine.some((entry) => entry.videoId === theirs)).toBe(false)
    expect(await creatorCheckpointStats(learner.claims)).toEqual([])

    // The dashboard loads them on the Engagement tab only.
    const cookie = await sessionCookieHeader(fixture, creator)
    const dashboard = async (tab: string) => {
      const value = (await dashboardLoader({
        request: new Request(`http://lumen.test/dashboard?tab=${tab}`, { headers: { Cookie: cookie } }),
        params: {},
        context: { clientIp: '127.0.0.1' },
      } as never)) as { data?: { checkpoints: unknown } }
      return (value.data ?? (value as unknown as { checkpoints: unknown })).checkpoints
    }
    expect(await dashboard('engagement')).toEqual(expect.arrayContaining([expect.objectContaining({ videoId: video })]))
    expect(await dashboard('overview')).toBeNull()
  })
})
