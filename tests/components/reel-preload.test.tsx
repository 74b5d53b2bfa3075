import { Outlet } from '@remix-run/react'
import { createRemixStub } from '@remix-run/testing'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { ReelViewer, type ReelItem } from '~/components/reel-viewer'

/**
 * What the reel viewer fetches ahead (ADR 0051), with JavaScript: the clip in
 * view and the next one buffer, the previous one keeps what it has, the rest
 * fetch nothing; with Save-Data (or a slow connection) the next clip fetches
 * nothing either; a clip left two behind gets a fresh element without a source. Whether the browser
 * really buffers is the e2e suite's (tests/e2e/reels-preload.spec.ts).
 */
function spark(n: number): ReelItem {
  return {
    id: `spark-${n}`,
    title: `Spark title ${n}`,
    description: '',
    thumbnailUrl: null,
    mp4Url: `/media/spark-${n}.mp4`,
    hlsUrl: null,
    durationSeconds: 20,
    width: 720,
    height: 1280,
    likeCount: 0,
    commentCount: 0,
    hasLiked: false,
    followsCreator: false,
    creator: { id: 'creator-1', username: 'maya.creates', avatarUrl: null },
  }
}

function renderReel(startIndex = 0) {
  const Stub = createRemixStub([
    {
      id: 'root',
      path: '/',
      Component: () => <Outlet />,
      children: [
        {
          path: 'sparks/watch',
          Component: () => (
            <ReelViewer
              initial={{ items: [1, 2, 3, 4, 5].map(spark), nextCursor: null, firstPosition: 1, total: 5, startIndex }}
              backHref="/sparks"
              pageHref={(cursor) => `/sparks/page?cursor=${cursor}`}
            />
          ),
        },
      ],
    },
  ])
  render(<Stub initialEntries={['/sparks/watch']} />)
  return userEvent.setup()
}

const videos = () => Array.from(document.querySelectorAll<HTMLVideoElement>('[data-reel-viewer] video'))
const preloads = () => videos().map((video) => video.getAttribute('preload'))

function fakeConnection(hints: { saveData?: boolean; effectiveType?: string }) {
  const connection = Object.assign(new EventTarget(), hints)
  Object.defineProperty(Navigator.prototype, 'connection', { configurable: true, get: () => connection })
  return connection
}

afterEach(() => {
  delete (Navigator.prototype as { connection?: unknown }).connection
})

describe('the reel viewer’s preloading', () => {
  it('buffers the clip in view and the next one, and moves the window along', async () => {
    const user = renderReel()
    await screen.findByRole('region', { name: /^Spark 1 of 5/ })
    await waitFor(() => expect(preloads()).toEqual(['auto', 'auto', 'none', 'none', 'none']))
    await user.keyboard('{ArrowDown}')
    await waitFor(() => expect(preloads()).toEqual(['metadata', 'auto', 'auto', 'none', 'none']))
    await user.keyboard('{ArrowDown}')
    await waitFor(() => expect(preloads()).toEqual(['none', 'metadata', 'auto', 'auto', 'none']))
  })

  it('fetches nothing ahead with Save-Data, and again once the connection says it is fast', async () => {
    const connection = fakeConnection({ saveData: true, effectiveType: '4g' })
    const user = renderReel()
    await screen.findByRole('region', { name: /^Spark 1 of 5/ })
    await waitFor(() => expect(preloads()).toEqual(['auto', 'none', 'none', 'none', 'none']))
    await user.keyboard('{ArrowDown}')
    await waitFor(() => expect(preloads()).toEqual(['none', 'auto', 'none', 'none', 'none']))
    Object.assign(connection, { saveData: false })
    connection.dispatchEvent(new Event('change'))
    await waitFor(() => expect(preloads()).toEqual(['metadata', 'auto', 'auto', 'none', 'none']))
  })

  it('fetches nothing ahead on a 3g connection', async () => {
    fakeConnection({ effectiveType: '3g' })
    renderReel(1)
    await screen.findByRole('region', { name: /^Spark 2 of 5/ })
    await waitFor(() => expect(preloads()).toEqual(['none', 'auto', 'none', 'none', 'none']))
  })

  it('gives a clip two behind a fresh element without a source, and keeps the element that becomes current', async () => {
    const user = renderReel()
    await screen.findByRole('region', { name: /^Spark 1 of 5/ })
    const [first, second, third] = videos()
    expect(third!.querySelector('source')).toBeNull()
    await user.keyboard('{ArrowDown}')
    await waitFor(() => expect(preloads()[0]).toBe('metadata'))
    // The previous clip keeps its element; the new next one gets its source.
    expect(videos()[0]).toBe(first)
    await user.keyboard('{ArrowDown}')
    await waitFor(() => expect(preloads()[0]).toBe('none'))
    // Two behind: a fresh element without a source; the old one, and its media, are gone.
    expect(videos()[0]).not.toBe(first)
    expect(first!.isConnected).toBe(false)
    expect(videos()[0]!.querySelector('source')).toBeNull()
    // The element that was the next one is the one in view now.
    expect(videos()[1]).toBe(second)
    expect(videos()[3]!.querySelector('source')?.getAttribute('src')).toBe('/media/spark-4.mp4')
  })
})
