import { createRemixStub } from '@remix-run/testing'
import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { checkpointMarks } from '~/components/checkpoints/checkpoint-player'
import { PlayerMarks } from '~/components/video/player-marks'
import type { CheckpointQuestion } from '~/lib/schemas/checkpoints'

/**
 * One marks bar under the player (ADR 0049): chapters and checkpoints on the same strip,
 * told apart by shape and colour, by a legend, and by their accessible names; each mark a
 * `?t=` link. Seeking and the current chapter are in the e2e suite (chapters.spec.ts).
 */
const VIDEO_ID = '6f1c1d2e-0000-4000-8000-00000000babe'

const questions: CheckpointQuestion[] = [
  { id: 'q1', atSeconds: 8, question: 'Why do stars twinkle?', options: ['a', 'b'], required: true, multiple: false },
  { id: 'q2', atSeconds: 20, question: 'Planets too?', options: ['a', 'b'], required: false, multiple: false },
]

function renderMarks(withChapters: boolean, results: Parameters<typeof checkpointMarks>[1] = {}) {
  const marks = [
    ...(withChapters
      ? [
          { at: 0, label: 'Intro', kind: 'chapter' },
          { at: 15, label: 'Why it happens', kind: 'chapter' },
        ]
      : []),
    ...checkpointMarks(questions, results),
  ]
  const Stub = createRemixStub([
    {
      path: '/video/:id',
      Component: () => <PlayerMarks videoId={VIDEO_ID} marks={marks} durationSeconds={60} />,
    },
  ])
  render(<Stub initialEntries={[`/video/${VIDEO_ID}`]} />)
}

describe('the marks bar', () => {
  it('puts chapters and questions on one strip, each named by its kind, with a legend', async () => {
    renderMarks(true, {
      q2: {
        checkpointId: 'q2',
        attempts: 1,
        lastChosen: [0],
        lastCorrect: true,
        everCorrect: true,
        explanation: '',
        answeredAt: '2026-11-26T00:00:00.000Z',
      },
    })
    const strips = await screen.findAllByRole('navigation', { name: 'Moments in this video' })
    expect(strips).toHaveLength(1)
    const links = within(strips[0]!).getAllByRole('link')
    expect(links.map((link) => link.getAttribute('aria-label'))).toEqual([
      'Chapter: Intro, 0:00',
      'Chapter: Why it happens, 0:15',
      'Question: Why do stars twinkle? (required, not answered), 0:08',
      'Question: Planets too? (optional, answered right), 0:20',
    ])
    expect(links.map((link) => new URL(link.getAttribute('href')!, 'http://lumen.test').search)).toEqual([
      '?t=0',
      '?t=15',
      '?t=8',
      '?t=20',
    ])
    // Distinct shapes: a bar for a chapter, a diamond for a question (green once answered right).
    const shape = (link: HTMLElement) => link.querySelector('span')!.className
    expect(shape(links[0]!)).toContain('w-1.5')
    expect(shape(links[2]!)).toContain('rotate-45')
    expect(shape(links[2]!)).toContain('bg-amber-400')
    expect(shape(links[3]!)).toContain('bg-emerald-500')
    const legend = screen.getByRole('list', { name: 'Marks' })
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Chapter', 'Question', 'Answered right'])
  })

  it('needs no legend for one kind alone', async () => {
    renderMarks(false)
    const strip = await screen.findByRole('navigation', { name: 'Moments in this video' })
    expect(within(strip).getAllByRole('link')).toHaveLength(2)
    expect(screen.queryByRole('list', { name: 'Marks' })).toBeNull()
  })
})
