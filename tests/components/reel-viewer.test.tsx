import { Outlet } from '@remix-run/react'
import { createRemixStub } from '@remix-run/testing'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { ReelViewer, type ReelItem } from '~/components/reel-viewer'

/**
 * The reel viewer's navigation (app/components/reel-viewer.tsx) with JavaScript:
 * which spark is current (the region marked `aria-current`), moved by the
 * keyboard, the Previous/Next buttons, and the next page loaded near the end.
 * Swipes, scroll snapping and playback stay in the e2e suite (a real browser).
 */
function spark(n: number): ReelItem {
  return {
    id: `spark-${n}`,
    title: `Spark title ${n}`,
    description: `What spark ${n} shows`,
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

/** `failures`: how many of the first page loads answer as the loader does when it cannot read the sparks. */
function renderReel({ startIndex = 0, count = 3, total = 5, nextCursor = 'after-3' as string | null, failures = 0 } = {}) {
  const pagesAsked: string[] = []
  const Stub = createRemixStub([
    {
      id: 'root',
      path: '/',
      Component: () => <Outlet />,
      loader: () => ({ user: { id: 'learner-1' } }),
      children: [
        {
          path: 'sparks/watch',
          Component: () => (
            <ReelViewer
              initial={{ items: [1, 2, 3].slice(0, count).map(spark), nextCursor, firstPosition: 1, total, startIndex }}
              backHref="/sparks"
              pageHref={(cursor) => `/sparks/page?cursor=${cursor}`}
            />
          ),
        },
        {
          path: 'sparks/page',
          loader: ({ request }) => {
            pagesAsked.push(new URL(request.url).searchParams.get('cursor') ?? '')
            if (pagesAsked.length <= failures) return { page: null }
            return { page: { items: [spark(4), spark(5)], nextCursor: null } }
          },
        },
      ],
    },
  ])
  render(<Stub initialEntries={['/sparks/watch']} />)
  return { pagesAsked, user: userEvent.setup() }
}

/** The name of the spark the viewer is on. */
function current(): string | null {
  const marked = screen.getAllByRole('region').filter((region) => region.getAttribute('aria-current') === 'true')
  expect(marked).toHaveLength(1)
  return marked[0]!.getAttribute('aria-label')
}

const regionOf = (position: number) => screen.getByRole('region', { name: new RegExp(`^Spark ${position} of `) })

describe('the reel viewer', () => {
  it('opens at the requested spark and says where it is', async () => {
    renderReel({ startIndex: 1 })
    await screen.findByRole('region', { name: 'Spark 2 of 5: Spark title 2' })
    expect(current()).toBe('Spark 2 of 5: Spark title 2')
    expect(screen.getByRole('link', { name: /Back to sparks/ }).getAttribute('href')).toBe('/sparks')
  })

  it('moves one spark with ↓/↑ and Page Down/Page Up', async () => {
    const { user } = renderReel()
    await screen.findByRole('region', { name: /^Spark 1 of 5/ })
    expect(current()).toBe('Spark 1 of 5: Spark title 1')

    await user.keyboard('{ArrowDown}')
    expect(current()).toBe('Spark 2 of 5: Spark title 2')
    await user.keyboard('{ArrowUp}')
    expect(current()).toBe('Spark 1 of 5: Spark title 1')
    await user.keyboard('{PageDown}')
    expect(current()).toBe('Spark 2 of 5: Spark title 2')
    await user.keyboard('{PageUp}')
    expect(current()).toBe('Spark 1 of 5: Spark title 1')
    // Not past the first one.
    await user.keyboard('{ArrowUp}')
    expect(current()).toBe('Spark 1 of 5: Spark title 1')
  })

  it('leaves the keys alone while a modifier is held', async () => {
    const { user } = renderReel()
    await screen.findByRole('region', { name: /^Spark 1 of 5/ })
    await user.keyboard('{Control>}{ArrowDown}{/Control}')
    expect(current()).toBe('Spark 1 of 5: Spark title 1')
  })

  it('moves with the Previous and Next buttons, which link to the neighbour without JavaScript', async () => {
    const { user } = renderReel({ nextCursor: null, total: 3 })
    await screen.findByRole('region', { name: /^Spark 1 of 3/ })
    const first = regionOf(1)
    expect(within(first).getByRole('button', { name: 'Previous spark' })).toHaveProperty('disabled', true)
    const next = within(first).getByRole('link', { name: 'Next spark' })
    expect(next.getAttribute('href')).toBe('#reel-spark-2')

    await user.click(next)
    expect(current()).toBe('Spark 2 of 3: Spark title 2')
    await user.click(within(regionOf(2)).getByRole('link', { name: 'Next spark' }))
    expect(current()).toBe('Spark 3 of 3: Spark title 3')
    expect(within(regionOf(3)).getByRole('button', { name: 'Next spark' })).toHaveProperty('disabled', true)
    await user.click(within(regionOf(3)).getByRole('link', { name: 'Previous spark' }))
    expect(current()).toBe('Spark 2 of 3: Spark title 2')
  })

  it('loads the next sparks as the end comes near, and moves on into them', async () => {
    const { user, pagesAsked } = renderReel()
    await screen.findByRole('region', { name: /^Spark 1 of 5/ })
    await user.keyboard('{ArrowDown}')
    // Two from the end of what is loaded: the next page is asked for once.
    await screen.findByRole('region', { name: 'Spark 5 of 5: Spark title 5' })
    expect(pagesAsked).toEqual(['after-3'])

    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}')
    await waitFor(() => expect(current()).toBe('Spark 5 of 5: Spark title 5'))
    expect(within(regionOf(5)).getByRole('button', { name: 'Next spark' })).toHaveProperty('disabled', true)
    expect(pagesAsked).toEqual(['after-3'])
  })

  it('says so when the next sparks fail to load, and asks again on ↓ at the last spark or Try again', async () => {
    const { user, pagesAsked } = renderReel({ failures: 2 })
    await screen.findByRole('region', { name: /^Spark 1 of 5/ })
    await user.keyboard('{ArrowDown}')
    await waitFor(() => expect(pagesAsked).toEqual(['after-3']))
    // Told at the last spark it has, not before.
    expect(screen.queryByRole('alert')).toBeNull()
    await user.keyboard('{ArrowDown}')
    expect(current()).toBe('Spark 3 of 5: Spark title 3')
    expect((await screen.findByRole('alert')).textContent).toContain('Failed to load sparks. Please try again later.')

    // ↓ at the last spark asks again (and fails again); Try again asks once more, and the sparks come.
    await user.keyboard('{ArrowDown}')
    await waitFor(() => expect(pagesAsked).toEqual(['after-3', 'after-3']))
    expect(current()).toBe('Spark 3 of 5: Spark title 3')
    await user.click(await screen.findByRole('button', { name: 'Try again' }))
    await screen.findByRole('region', { name: 'Spark 5 of 5: Spark title 5' })
    expect(pagesAsked).toEqual(['after-3', 'after-3', 'after-3'])
    expect(screen.queryByRole('alert')).toBeNull()
    await user.keyboard('{ArrowDown}')
    expect(current()).toBe('Spark 4 of 5: Spark title 4')
  })

  it('counts what it has once the last page is in, when the first count said more', async () => {
    // The count was made when the list opened; a clip removed since (or one opened by its link that comes again) is not there.
    const { user } = renderReel({ total: 6 })
    await screen.findByRole('region', { name: /^Spark 1 of 6/ })
    await user.keyboard('{ArrowDown}')
    await screen.findByRole('region', { name: 'Spark 5 of 5: Spark title 5' })
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}')
    await waitFor(() => expect(current()).toBe('Spark 5 of 5: Spark title 5'))
    expect(within(regionOf(5)).getByRole('button', { name: 'Next spark' })).toHaveProperty('disabled', true)
  })

  it('mutes and pauses from its buttons', async () => {
    const { user } = renderReel()
    const first = await screen.findByRole('region', { name: /^Spark 1 of 5/ })
    await user.click(within(first).getByRole('button', { name: 'Unmute' }))
    expect(within(first).getByRole('button', { name: 'Mute' })).toBeTruthy()
    await user.click(within(first).getByRole('button', { name: 'Pause' }))
    expect(within(first).getByRole('button', { name: 'Play' })).toBeTruthy()
    // A new spark starts playing.
    await user.keyboard('{ArrowDown}')
    expect(within(regionOf(2)).getByRole('button', { name: 'Pause' })).toBeTruthy()
  })
})
