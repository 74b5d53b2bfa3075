import { Outlet } from '@remix-run/react'
import { createRemixStub } from '@remix-run/testing'
import { act, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useRef, useState, type ReactNode } from 'react'
import { describe, expect, it } from 'vitest'
import { CheckpointDialog, CheckpointPlayer } from '~/components/checkpoints/checkpoint-player'
import { SparkQuestion } from '~/components/checkpoints/spark-question'
import type { CheckpointAnswer, CheckpointQuestion } from '~/lib/schemas/checkpoints'

/**
 * The checkpoint question panel (ADR 0047, ADR 0049) as a learner meets it with
 * JavaScript: its options, the answer posted to /video/:id/check (scored there: the
 * panel never has the key), right or wrong with the explanation, focus moved to the
 * panel and back, a required question (no Skip, Try again) against an optional one
 * (Skip, Escape), and the spark variant at the end of a clip in the reel viewer.
 * Real playback stays in the e2e suite (checkpoints.spec.ts, checkpoints-sparks.spec.ts).
 */
const VIDEO_ID = '6f1c1d2e-0000-4000-8000-00000000c0de'
const EXPLANATION = 'Moving air bends the light.'

const question = (overrides: Partial<CheckpointQuestion> = {}): CheckpointQuestion => ({
  id: '6f1c1d2e-0000-4000-8000-0000000000a1',
  atSeconds: 8,
  question: 'Why do stars twinkle?',
  options: ['They blink', 'Moving air', 'Clouds'],
  required: true,
  multiple: false,
  ...overrides,
})

/** Renders `children` at /video/:id with the check route scoring option 1 as right. */
function renderWithCheck(children: () => ReactNode) {
  const posts: FormData[] = []
  const Stub = createRemixStub([
    {
      id: 'root',
      path: '/',
      Component: () => <Outlet />,
      children: [
        { path: 'video/:id', Component: () => <main>{children()}</main> },
        {
          path: 'video/:id/check',
          action: async ({ request }) => {
            const form = await request.formData()
            posts.push(form)
            const answers: CheckpointAnswer[] = []
            for (const [name, value] of form.entries()) {
              if (!name.startsWith('answer-')) continue
              answers.push({ checkpointId: name.slice('answer-'.length), correct: value === '1', explanation: EXPLANATION })
            }
            return { ok: true, answers }
          },
        },
      ],
    },
  ])
  render(<Stub initialEntries={[`/video/${VIDEO_ID}`]} />)
  return { posts }
}

describe('the question panel', () => {
  it('shows the options (radio buttons, or checkboxes when several are right) and nothing of the key', async () => {
    renderWithCheck(() => (
      <>
        <CheckpointDialog videoId={VIDEO_ID} question={question()} onRight={() => {}} onContinue={() => {}} />
        <CheckpointDialog
          videoId={VIDEO_ID}
          question={question({ id: '6f1c1d2e-0000-4000-8000-0000000000a2', atSeconds: 20, multiple: true, question: 'Which?' })}
          onRight={() => {}}
          onContinue={() => {}}
        />
      </>
    ))
    const single = await screen.findByRole('dialog', { name: 'Question at 0:08' })
    expect(
      within(single)
        .getAllByRole('radio')
        .map((radio) => radio.closest('label')?.textContent),
    ).toEqual(['They blink', 'Moving air', 'Clouds'])
    expect(within(single).getByText(/Answer it right to go on\. Choose one\./)).toBeTruthy()
    const multiple = screen.getByRole('dialog', { name: 'Question at 0:20' })
    expect(within(multiple).getAllByRole('checkbox')).toHaveLength(3)
    expect(within(multiple).getByText(/Choose all that apply/)).toBeTruthy()
    expect(document.body.textContent).not.toContain(EXPLANATION)
  })

  it('a required question: no Skip; wrong shows the explanation and Try again; right shows Continue, focused', async () => {
    const user = userEvent.setup()
    let continued = 0
    let rights = 0
    const { posts } = renderWithCheck(() => (
      <CheckpointDialog videoId={VIDEO_ID} question={question()} onRight={() => rights++} onContinue={() => continued++} />
    ))
    const dialog = await screen.findByRole('dialog', { name: 'Question at 0:08' })
    expect(within(dialog).getByRole('heading', { name: 'Question at 0:08' })).toBe(document.activeElement)
    expect(within(dialog).queryByRole('button', { name: 'Skip' })).toBeNull()
    await user.keyboard('{Escape}')
    expect(continued).toBe(0)

    await user.click(within(dialog).getByRole('radio', { name: 'They blink' }))
    await user.click(within(dialog).getByRole('button', { name: 'Check answer' }))
    expect(await within(dialog).findByRole('status')).toHaveProperty('textContent', 'Not quite.')
    expect(within(dialog).getByText(EXPLANATION)).toBeTruthy()
    expect(within(dialog).queryByRole('button', { name: 'Continue' })).toBeNull()
    expect(posts[0]?.get(`answer-${question().id}`)).toBe('0')
    expect(posts[0]?.get('js')).toBe('1')
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Try again' })).toBe(document.activeElement))

    await user.click(within(dialog).getByRole('button', { name: 'Try again' }))
    await user.click(within(dialog).getByRole('radio', { name: 'Moving air' }))
    await user.click(within(dialog).getByRole('button', { name: 'Check answer' }))
    await waitFor(() => expect(within(dialog).getByRole('status').textContent).toBe('Right!'))
    expect(rights).toBe(1)
    const next = within(dialog).getByRole('button', { name: 'Continue' })
    await waitFor(() => expect(next).toBe(document.activeElement))
    await user.click(next)
    expect(continued).toBe(1)
  })

  it('an optional question can be skipped, with Skip or Escape', async () => {
    const user = userEvent.setup()
    let continued = 0
    renderWithCheck(() => (
      <CheckpointDialog
        videoId={VIDEO_ID}
        question={question({ required: false })}
        onRight={() => {}}
        onContinue={() => continued++}
      />
    ))
    const dialog = await screen.findByRole('dialog', { name: 'Question at 0:08' })
    expect(within(dialog).getByText(/Optional: answer it or skip it/)).toBeTruthy()
    await user.click(within(dialog).getByRole('button', { name: 'Skip' }))
    expect(continued).toBe(1)
    within(dialog).getByRole('heading').focus()
    await user.keyboard('{Escape}')
    expect(continued).toBe(2)
  })
})

/** A `<video>` at 0 s with a Play button focused before the checkpoint. */
function PlayerHarness({ required = true }: { required?: boolean }) {
  const ref = useRef<HTMLVideoElement | null>(null)
  return (
    <>
      <video ref={ref} aria-label="Lesson" tabIndex={0} />
      <button type="button">Play lesson</button>
      <CheckpointPlayer videoId={VIDEO_ID} videoRef={ref} questions={[question({ required })]} results={{}} />
    </>
  )
}

describe('the player', () => {
  it('stops at the checkpoint, moves focus into the panel, and gives it back after Continue', async () => {
    const user = userEvent.setup()
    renderWithCheck(() => <PlayerHarness />)
    const video = await screen.findByLabelText<HTMLVideoElement>('Lesson')
    const opener = screen.getByRole('button', { name: 'Play lesson' })
    opener.focus()
    act(() => {
      video.currentTime = 8.1
      video.dispatchEvent(new Event('timeupdate'))
    })
    const dialog = await screen.findByRole('dialog', { name: 'Question at 0:08' })
    expect(video.paused).toBe(true)
    expect(video.currentTime).toBe(8)
    await waitFor(() => expect(within(dialog).getByRole('heading')).toBe(document.activeElement))

    await user.click(within(dialog).getByRole('radio', { name: 'Moving air' }))
    await user.click(within(dialog).getByRole('button', { name: 'Check answer' }))
    await user.click(await within(dialog).findByRole('button', { name: 'Continue' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(opener).toBe(document.activeElement)
  })
})

/** The reel clip as far as the spark's question cares: its `<video>`, a Next spark button, and the mount. */
function SparkHarness({
  hydrated = true,
  answeredRight = false,
  required = false,
  onNext = () => {},
}: {
  hydrated?: boolean
  answeredRight?: boolean
  required?: boolean
  onNext?: () => void
}) {
  const [video, setVideo] = useState<HTMLVideoElement | null>(null)
  return (
    <section aria-label="Spark 1 of 2">
      <video ref={setVideo} aria-label="Clip" loop />
      <button type="button">Unmute</button>
      <SparkQuestion
        videoId={VIDEO_ID}
        checkpoint={{ question: question({ required, atSeconds: 12 }), answeredRight }}
        video={video}
        active
        hydrated={hydrated}
        onNext={onNext}
      />
    </section>
  )
}

describe('a spark’s question at its end', () => {
  it('stops the loop; at the end the panel opens over the clip, answers, and Watch again loops it without asking again', async () => {
    const user = userEvent.setup()
    renderWithCheck(() => <SparkHarness />)
    const video = await screen.findByLabelText<HTMLVideoElement>('Clip')
    await waitFor(() => expect(video.loop).toBe(false))
    expect(screen.queryByRole('dialog')).toBeNull()
    const opener = screen.getByRole('button', { name: 'Unmute' })
    opener.focus()

    act(() => {
      video.dispatchEvent(new Event('ended'))
    })
    const dialog = await screen.findByRole('dialog', { name: 'Question' })
    expect(dialog.getAttribute('data-variant')).toBe('spark')
    await waitFor(() => expect(within(dialog).getByRole('heading', { name: 'Question' })).toBe(document.activeElement))
    expect(within(dialog).getByRole('button', { name: 'Skip' })).toBeTruthy()

    await user.click(within(dialog).getByRole('radio', { name: 'Clouds' }))
    await user.click(within(dialog).getByRole('button', { name: 'Check answer' }))
    expect((await within(dialog).findByRole('status')).textContent).toBe('Not quite.')
    expect(within(dialog).getByText(EXPLANATION)).toBeTruthy()
    // Optional: a wrong answer may go on.
    const next = within(dialog).getByRole('button', { name: 'Next spark' })
    await waitFor(() => expect(next).toBe(document.activeElement))
    await user.click(within(dialog).getByRole('button', { name: 'Watch again' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(opener).toBe(document.activeElement)
    expect(video.loop).toBe(true)
    act(() => {
      video.dispatchEvent(new Event('ended'))
    })
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('a required question has no Skip; answered right, Next spark moves on', async () => {
    const user = userEvent.setup()
    let nexts = 0
    renderWithCheck(() => <SparkHarness required onNext={() => nexts++} />)
    const video = await screen.findByLabelText<HTMLVideoElement>('Clip')
    await waitFor(() => expect(video.loop).toBe(false))
    act(() => {
      video.dispatchEvent(new Event('ended'))
    })
    const dialog = await screen.findByRole('dialog', { name: 'Question' })
    expect(within(dialog).queryByRole('button', { name: 'Skip' })).toBeNull()
    expect(within(dialog).getByText(/Answer it right to watch on/)).toBeTruthy()
    await user.click(within(dialog).getByRole('radio', { name: 'They blink' }))
    await user.click(within(dialog).getByRole('button', { name: 'Check answer' }))
    await user.click(await within(dialog).findByRole('button', { name: 'Try again' }))
    await user.click(within(dialog).getByRole('radio', { name: 'Moving air' }))
    await user.click(within(dialog).getByRole('button', { name: 'Check answer' }))
    await user.click(await within(dialog).findByRole('button', { name: 'Next spark' }))
    expect(nexts).toBe(1)
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })

  it('answered right before, the clip keeps looping and never asks', async () => {
    renderWithCheck(() => <SparkHarness answeredRight />)
    const video = await screen.findByLabelText<HTMLVideoElement>('Clip')
    act(() => {
      video.dispatchEvent(new Event('ended'))
    })
    expect(video.loop).toBe(true)
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('without JavaScript, a link on the clip to the spark’s Check yourself form', async () => {
    renderWithCheck(() => <SparkHarness hydrated={false} />)
    const link = await screen.findByRole('link', { name: 'Answer this spark’s question' })
    expect(link.getAttribute('href')).toBe(`/video/${VIDEO_ID}#check-yourself`)
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})
