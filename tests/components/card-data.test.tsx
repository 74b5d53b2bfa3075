import { createRemixStub } from '@remix-run/testing'
import { render } from '@testing-library/react'
import type { ReactNode } from 'react'
import { describe, expect, it } from 'vitest'
import { cardData, cardPage, VideoCard } from '~/components/video-card'
import { LIMITS } from '~/lib/catalog'
import type { VideoCardItem } from '~/lib/video-types'

/**
 * The pages send their cards through `cardData` (the loaders' data is serialised into every
 * page's HTML): only what a card shows goes out, and the card it draws is the card the whole
 * item drew.
 */
function markup(element: ReactNode): string {
  const Stub = createRemixStub([{ path: '/', Component: () => <>{element}</> }])
  return render(<Stub initialEntries={['/']} />).container.innerHTML
}

const item: VideoCardItem & { reason: { kind: 'follow'; text: string } } = {
  id: 'v1',
  title: 'Light and colour',
  description: `A lesson about light ${'and colour '.repeat(20)}`,
  type: 'video',
  category: { id: 'science', name: 'Science' },
  isPublic: false,
  thumbnailUrl: 'http://storage.test/thumbnails/v1.jpg',
  mp4Url: 'http://storage.test/media/v1.mp4',
  hlsUrl: 'http://storage.test/media/v1/master.m3u8',
  durationSeconds: 312,
  width: 1280,
  height: 720,
  creator: { id: 'c1', username: 'maya.creates', avatarUrl: 'http://storage.test/avatars/c1.jpg' },
  likeCount: 4,
  commentCount: 2,
  viewCount: 90,
  createdAt: '2026-11-26T10:00:00.000Z',
  said: { text: 'light bends at the surface', startSeconds: 42 },
  progress: { positionSeconds: 100, durationSeconds: 312, finished: false, updatedAt: '2026-11-26T11:00:00.000Z' },
  reason: { kind: 'follow', text: 'Because you follow maya.creates' },
}

describe('card data', () => {
  it('keeps what the card shows and drops the rest (media URLs, sizes, counters, date)', () => {
    const card = cardData(item)
    expect(Object.keys(card).sort()).toEqual(
      [
        'category',
        'creator',
        'description',
        'durationSeconds',
        'id',
        'isPublic',
        'progress',
        'reason',
        'said',
        'thumbnailUrl',
        'title',
        'type',
      ].sort(),
    )
    expect(card.description.length).toBeLessThanOrEqual(LIMITS.cardDescription + 1)
    expect(card.reason).toEqual({ text: item.reason.text })
    expect(JSON.stringify(card).length).toBeLessThan(JSON.stringify(item).length / 1.5)
  })

  it('draws the same card as the whole item, for a video and a spark', () => {
    for (const type of ['video', 'spark'] as const) {
      const whole = { ...item, type }
      expect(markup(<VideoCard video={cardData(whole)} />)).toBe(markup(<VideoCard video={whole} />))
    }
  })

  it('leaves out what an item does not have, and a failed page stays null', () => {
    const { said: _said, progress: _progress, reason: _reason, ...plain } = item
    expect(cardData(plain)).not.toHaveProperty('said')
    expect(cardData(plain)).not.toHaveProperty('progress')
    expect(cardData(plain)).not.toHaveProperty('reason')
    expect(cardPage(null)).toBeNull()
    expect(cardPage({ items: [item], nextCursor: 'next' })).toEqual({ items: [cardData(item)], nextCursor: 'next' })
  })
})
