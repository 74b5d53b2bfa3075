import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { action as createQuoteAction, loader as createQuoteLoader } from '../../app/routes/_studio+/create-quote'
import { action, loader } from '../../app/routes/_me+/profile'
import { QUOTE_MESSAGES } from '../../app/lib/schemas/quote'
import { openVideoFixture, sessionCookieHeader, type Person, type VideoFixture } from './support/video-fixture'

/**
 * The failure paths of quotes that the browser tests cannot reach (ADR 0014):
 * My Quotes when its load fails ('Failed to load your quotes', the tab's
 * error state, 500), a delete that fails for a reason other than a refusal
 * ('Failed to delete quote'), /create-quote for a video that cannot be
 * loaded ('Failed to load the video', 404) and a quote the server fails to
 * store ('Failed to create quote: {server error}', 500). The load is made to fail for
 * real: the quotes table is out of reach of the app's queries for a moment.
 */

interface Outcome {
  status: number
  data?: Record<string, unknown>
  location?: string | null
}

async function settle(run: () => Promise<unknown>): Promise<Outcome> {
  let value: unknown
  try {
    value = await run()
  } catch (thrown) {
    value = thrown
  }
  if (value instanceof Response) return { status: value.status, location: value.headers.get('Location') }
  const wrapped = value as { type?: string; data?: unknown; init?: { status?: number } | null }
  if (wrapped?.type === 'DataWithResponseInit') {
    return { status: wrapped.init?.status ?? 200, data: wrapped.data as Record<string, unknown> }
  }
  return { status: 200, data: value as Record<string, unknown> }
}

describe('quotes’ failure paths in the routes', () => {
  let fixture: VideoFixture
  let learner: Person
  let cookie: string
  let quoteId: string
  let videoId: string

  beforeAll(async () => {
    fixture = await openVideoFixture('postgres')
    const creator = await fixture.makeUser('creator')
    learner = await fixture.makeUser('user')
    videoId = await fixture.makeVideo(creator)
    cookie = await sessionCookieHeader(fixture, learner)
    const { rows } = await fixture.running.database.pool.query<{ id: string }>(
      `insert into public.quotes (user_id, video_id, type, body) values ($1, $2, 'text', 'Mine') returning id`,
      [learner.id, videoId],
    )
    quoteId = rows[0]!.id
  })

  afterAll(async () => {
    await fixture?.close()
  })

  /** Runs `check` while the app's queries cannot reach the quotes table (as when the database fails). */
  async function withQuotesUnreachable(check: () => Promise<void>) {
    const pool = fixture.running.database.pool
    await pool.query('alter table public.quotes rename to quotes_unreachable')
    try {
      await check()
    } finally {
      await pool.query('alter table public.quotes_unreachable rename to quotes')
    }
  }

  const loadTab = () =>
    settle(() =>
      loader({
        request: new Request('http://lumen.test/profile?tab=quotes', { headers: { Cookie: cookie } }),
        params: {},
        context: { clientIp: '127.0.0.1' },
      }),
    )

  const postDelete = (fields: Record<string, string>) =>
    settle(() =>
      action({
        request: new Request('http://lumen.test/profile?tab=quotes', {
          method: 'POST',
          body: new URLSearchParams(fields),
          headers: { Cookie: cookie },
        }),
        params: {},
        context: { clientIp: '127.0.0.1' },
      }),
    )

  it('My Quotes lists the quote; when the load fails: “Failed to load your quotes” on the tab, status 500', async () => {
    const loaded = await loadTab()
    expect(loaded.status).toBe(200)
    expect((loaded.data!.data as { quotes: { id: string }[] }).quotes.map((quote) => quote.id)).toEqual([quoteId])

    await withQuotesUnreachable(async () => {
      expect(await loadTab()).toMatchObject({
        status: 500,
        data: { failed: { tab: 'quotes', message: QUOTE_MESSAGES.loadQuotesFailed }, data: null },
      })
    })
    expect(QUOTE_MESSAGES.loadQuotesFailed).toBe('Failed to load your quotes')
  })

  it('a delete that fails (not a refusal) answers “Failed to delete quote”, and the quote stays', async () => {
    await withQuotesUnreachable(async () => {
      expect(await postDelete({ intent: 'delete-quote', quoteId, js: '1' })).toMatchObject({
        status: 500,
        data: { ok: false, formError: 'Failed to delete quote' },
      })
    })
    expect(await postDelete({ intent: 'something-else', quoteId, js: '1' })).toMatchObject({
      status: 400,
      data: { ok: false, formError: 'Failed to delete quote' },
    })
    const { rows } = await fixture.running.database.pool.query('select 1 from public.quotes where id = $1', [quoteId])
    expect(rows).toHaveLength(1)
  })

  it('/create-quote for a video that cannot be loaded: 404 with a search to pick another', async () => {
    const outcome = await settle(() =>
      createQuoteLoader({
        request: new Request('http://lumen.test/create-quote?videoId=00000000-0000-4000-8000-000000000000', {
          headers: { Cookie: cookie },
        }),
        params: {},
        context: { clientIp: '127.0.0.1' },
      }),
    )
    expect(outcome).toMatchObject({ status: 404, data: { mode: 'missing', original: null } })
    expect(QUOTE_MESSAGES.loadFailed).toBe('Failed to load the video')
  })

  it('a quote the server fails to store: “Failed to create quote: …”, 500, the values kept', async () => {
    const form = new FormData()
    for (const [name, value] of Object.entries({ videoId, type: 'text', text: 'A thought', js: '1' })) form.set(name, value)
    // The route logs the unexpected error for the operator; here it is the point of the test.
    vi.mocked(console.error).mockImplementation(() => {})
    await withQuotesUnreachable(async () => {
      const outcome = await settle(() =>
        createQuoteAction({
          request: new Request('http://lumen.test/create-quote', { method: 'POST', body: form, headers: { Cookie: cookie } }),
          params: {},
          context: { clientIp: '127.0.0.1' },
        }),
      )
      expect(outcome.status).toBe(500)
      expect(outcome.data).toMatchObject({ ok: false, values: { text: 'A thought' } })
      expect(String(outcome.data!.formError)).toMatch(/^Failed to create quote: \S/)
    })
  })
})
