import { createRemixStub } from '@remix-run/testing'
import { render, screen, within } from '@testing-library/react'
import type { ReactNode } from 'react'
import { describe, expect, it } from 'vitest'
import { ReelLessonLink, SparkLessons } from '~/components/video/spark-lessons'

/**
 * Sparks lead to lessons (ADR 0050): what the video page and the reel viewer show of a
 * link — the lesson's moment in the link, a name that says which lesson from when, the
 * lesson's sparks each opening the reel viewer — and nothing when there is no link.
 */
function renderAt(element: ReactNode) {
  const Stub = createRemixStub([{ path: '/', Component: () => <>{element}</> }])
  return render(<Stub initialEntries={['/']} />)
}

const lesson = { id: 'lesson-1', title: 'Light and colour', at: 192, href: '/video/lesson-1?t=192' }

describe('spark lessons', () => {
  it('a spark’s page: Watch the full lesson opens the lesson at its moment', async () => {
    renderAt(<SparkLessons lesson={lesson} sparks={[]} />)
    const region = await screen.findByRole('region', { name: 'From a lesson' })
    const link = within(region).getByRole('link', { name: 'Watch the full lesson: Light and colour from 3:12' })
    expect(link.getAttribute('href')).toBe('/video/lesson-1?t=192')
    expect(within(region).getByText('From 3:12')).toBeTruthy()
  })

  it('a lesson’s page lists its sparks, each opening the reel viewer at that clip', async () => {
    renderAt(
      <SparkLessons
        lesson={null}
        sparks={[
          {
            id: 's1',
            title: 'The blue sky',
            thumbnailUrl: null,
            durationSeconds: 20,
            at: null,
            href: '/sparks-reels?start=s1#reel-s1',
          },
          {
            id: 's2',
            title: 'Red sunsets',
            thumbnailUrl: null,
            durationSeconds: 20,
            at: 75,
            href: '/sparks-reels?start=s2#reel-s2',
          },
        ]}
      />,
    )
    const region = await screen.findByRole('region', { name: 'Sparks from this lesson' })
    const links = within(region).getAllByRole('link')
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/sparks-reels?start=s1#reel-s1',
      '/sparks-reels?start=s2#reel-s2',
    ])
    expect(links[1]!.textContent).toContain('1:15')
  })

  it('shows nothing without a link or sparks', async () => {
    const { container } = renderAt(
      <>
        <SparkLessons lesson={null} sparks={[]} />
        <ReelLessonLink lesson={null} />
        <span>end</span>
      </>,
    )
    await screen.findByText('end')
    expect(container.querySelectorAll('a, section')).toHaveLength(0)
  })

  it('the reel’s chip names the lesson and the moment', async () => {
    renderAt(<ReelLessonLink lesson={{ ...lesson, at: null, href: '/video/lesson-1' }} />)
    const link = await screen.findByRole('link', { name: 'Watch the full lesson: Light and colour' })
    expect(link.getAttribute('href')).toBe('/video/lesson-1')
  })
})
