import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { action, loader } from '../../app/routes/_watch+/sparks-reels'
import { openVideoFixture, sessionCookieHeader, type Person, type VideoFixture } from './support/video-fixture'

/**
 * The reel viewer's own action (POST /sparks-reels: a clip's Like and
 * Comment) and its comment-sheet loader, as the server runs them: a plain
 * form post comes back to the clip (its sheet open after a comment), a
 * script gets the count; the rules are the video page's (likeVideo,
 * addComment), so a repeated like counts once and a hidden clip is 404.
 */
async function settle(run: () => Promise<unknown>) {
  let value: unknown
  try {
    value = await run()
  } catch (thrown) {
    value = thrown
  }
  if (value instanceof Response) {
    const text = value.headers.get('Content-Type')?.includes('json') ? await value.json() : null
    return { status: value.status, location: value.headers.get('Location'), data: text as Record<string, unknown> | null }
  }
  const wrapped = value as { type?: string; data?: unknown; init?: { status?: number } | null }
  if (wrapped?.type === 'DataWithResponseInit') {
    return { status: wrapped.init?.status ?? 200, location: null, data: wrapped.data as Record<string, unknown> }
  }
  return { status: 200, location: null, data: value as Record<string, unknown> }
}

describe('/sparks-reels action and comment sheet', () => {
  let fixture: VideoFixture
  let creator: Person
  let learner: Person
  let cookie: string
  let clip: string
  let hidden: string

  beforeAll(async () => {
    fixture = await openVideoFixture('postgres')
    ;[creator, learner] = await Promise.all([fixture.makeUser('creator'), fixture.makeUser('user')])
    clip = await fixture.makeVideo(creator)
    hidden = await fixture.makeVideo(creator, { isPublic: false })
    cookie = await sessionCookieHeader(fixture, learner)
  })

  afterAll(async () => {
    await fixture?.close()
  })

  const post = (fields: Record<string, string>, query = '') =>
    settle(() =>
      action({
        request: new Request(`http://lumen.test/sparks-reels${query}`, {
          method: 'POST',
          body: new URLSearchParams(fields),
          headers: { Cookie: cookie },
        }),
        params: {},
        context: { clientIp: '127.0.0.1' },
      }),
    )

  const comments = async (id: string) => {
    const outcome = await settle(() =>
      loader({
        request: new Request(`http://lumen.test/sparks-reels?commentsOf=${id}`, { headers: { Cookie: cookie } }),
        params: {},
        context: { clientIp: '127.0.0.1' },
      }),
    )
    return (outcome.data!.comments as { list: { body: string }[] }).list
  }

  it('a like counts once however often it is sent, and a plain post comes back to the clip with the filters', async () => {
    const scripted = await post({ intent: 'like', videoId: clip, like: 'true', js: '1' })
    expect(scripted.data).toMatchObject({ ok: true, intent: 'like', targetId: clip, likes: 1, hasLiked: true })
    const again = await post({ intent: 'like', videoId: clip, like: 'true', js: '1' })
    expect(again.data).toMatchObject({ ok: true, likes: 1, hasLiked: true })
    const plain = await post({ intent: 'like', videoId: clip, like: 'false' }, '?search=optics')
    expect(plain.status).toBe(302)
    expect(plain.location).toBe(`/sparks-reels?search=optics&start=${clip}#reel-${clip}`)
    const after = await post({ intent: 'like', videoId: clip, like: 'false', js: '1' })
    expect(after.data).toMatchObject({ ok: true, likes: 0, hasLiked: false })
  })

  it('a comment is added once and listed in the sheet; an empty one is refused with the spec’s message', async () => {
    const empty = await post({ intent: 'comment', videoId: clip, body: '   ', js: '1' })
    expect(empty.status).toBe(400)
    expect(empty.data).toMatchObject({ ok: false, formError: 'Please enter a comment' })
    const emptyPlain = await post({ intent: 'comment', videoId: clip, body: '' })
    expect(emptyPlain.status).toBe(302)
    expect(emptyPlain.location).toBe(`/sparks-reels?start=${clip}&comments=${clip}#reel-${clip}`)
    expect(await comments(clip)).toHaveLength(0)

    const plain = await post({ intent: 'comment', videoId: clip, body: 'Seven bars, all there.' })
    expect(plain.status).toBe(302)
    expect(plain.location).toBe(`/sparks-reels?start=${clip}&comments=${clip}#reel-${clip}`)
    const scripted = await post({ intent: 'comment', videoId: clip, body: 'And the grey steps.', js: '1' })
    expect(scripted.data).toMatchObject({ ok: true, intent: 'comment', message: 'Comment added' })
    expect((await comments(clip)).map((comment) => comment.body)).toEqual(['And the grey steps.', 'Seven bars, all there.'])
  })

  it('refuses a clip the learner cannot see, an unknown action and a malformed id', async () => {
    expect((await post({ intent: 'like', videoId: hidden, like: 'true', js: '1' })).status).toBe(404)
    expect((await post({ intent: 'comment', videoId: hidden, body: 'Hello', js: '1' })).status).toBe(404)
    expect((await post({ intent: 'delete', videoId: clip, js: '1' })).status).toBe(400)
    expect((await post({ intent: 'like', videoId: 'not-a-uuid', like: 'true', js: '1' })).status).toBe(400)
  })
})
