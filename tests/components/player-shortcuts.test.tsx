import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useRef, useState } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest'
import { LessonControls } from '~/components/video/lesson-controls'
import { ReelSpeed } from '~/components/video/reel-speed'
import { forgetPlaybackRateChoice, PLAYBACK_SPEED_URL } from '~/components/video/use-playback-rate'
import { FRAME_SECONDS, shortcutFor } from '~/components/video/use-player-shortcuts'

/**
 * The lesson player's keyboard shortcuts, speed menu and help dialog
 * (app/components/video/lesson-controls.tsx, use-player-shortcuts.ts,
 * use-playback-rate.ts): each key acts on the video; none fires while typing in
 * a field or with Ctrl/Cmd/Alt; space and arrows keep their meaning on other
 * controls; a speed is applied, remembered and (signed in) saved. Real playback
 * and full screen stay in the e2e suite (tests/e2e/playback.spec.ts).
 */
const captionsClicked = vi.fn()

function Lesson({ playbackRate = 1 as number | null, presetRate }: { playbackRate?: number | null; presetRate?: number }) {
  const ref = useRef<HTMLVideoElement | null>(null)
  // The element as the server HTML left it, its rate perhaps changed on the browser's own menu before hydration.
  const attach = (element: HTMLVideoElement | null) => {
    ref.current = element
    if (element && presetRate) element.playbackRate = presetRate
  }
  return (
    <main>
      <label>
        Comment
        <textarea />
      </label>
      <label>
        Search
        <input type="search" />
      </label>
      <label>
        Sort
        <select defaultValue="new">
          <option value="new">Newest</option>
          <option value="old">Oldest</option>
        </select>
      </label>
      <div contentEditable suppressContentEditableWarning aria-label="Notes" role="textbox" tabIndex={0} />
      <button type="button">Like</button>
      <div data-testid="player">
        <video ref={attach} aria-label="Lesson" />
        <button type="button" data-captions-toggle onClick={captionsClicked}>
          CC
        </button>
        <LessonControls videoRef={ref} playbackRate={playbackRate} />
      </div>
    </main>
  )
}

let fetchSpy: MockInstance<typeof fetch>

beforeEach(() => {
  forgetPlaybackRateChoice()
  captionsClicked.mockReset()
  fetchSpy = vi.spyOn(globalThis, 'fetch').mockResolvedValue(Response.json({ playbackRate: 1 }))
})

afterEach(() => {
  fetchSpy.mockRestore()
  forgetPlaybackRateChoice()
})

async function renderLesson(playbackRate: number | null = 1) {
  const user = userEvent.setup()
  render(<Lesson playbackRate={playbackRate} />)
  await screen.findByRole('combobox', { name: 'Playback speed' })
  const video = screen.getByLabelText<HTMLVideoElement>('Lesson')
  Object.defineProperty(video, 'duration', { configurable: true, value: 120 })
  video.currentTime = 60
  return { user, video }
}

const press = (key: string, init: KeyboardEventInit = {}, target: Element = document.body) =>
  fireEvent.keyDown(target, { key, bubbles: true, cancelable: true, ...init })

describe('the lesson player’s keys', () => {
  it('play and pause with K and with space on the page', async () => {
    const { video } = await renderLesson()
    expect(video.paused).toBe(true)
    press('k')
    expect(video.paused).toBe(false)
    press('k')
    expect(video.paused).toBe(true)
    press(' ')
    expect(video.paused).toBe(false)
    press(' ', {}, video)
    expect(video.paused).toBe(true)
  })

  it('seek with J/L (10 s) and the arrows (5 s), within the video', async () => {
    const { video } = await renderLesson()
    press('j')
    expect(video.currentTime).toBe(50)
    press('l')
    press('l')
    expect(video.currentTime).toBe(70)
    press('ArrowLeft')
    expect(video.currentTime).toBe(65)
    press('ArrowRight', {}, video)
    expect(video.currentTime).toBe(70)
    video.currentTime = 3
    press('j')
    expect(video.currentTime).toBe(0)
    video.currentTime = 118
    press('l')
    expect(video.currentTime).toBe(120)
  })

  it('change the volume with the up and down arrows, mute with M; louder unmutes', async () => {
    const { video } = await renderLesson()
    press('ArrowDown')
    press('ArrowDown')
    expect(video.volume).toBe(0.8)
    press('ArrowUp')
    expect(video.volume).toBe(0.9)
    press('ArrowUp')
    press('ArrowUp')
    expect(video.volume).toBe(1)
    press('m')
    expect(video.muted).toBe(true)
    press('M'.toLowerCase())
    expect(video.muted).toBe(false)
    press('m')
    press('ArrowUp')
    expect(video.muted).toBe(false)
  })

  it('C presses the CC button, F asks for full screen on the player', async () => {
    await renderLesson()
    press('c')
    expect(captionsClicked).toHaveBeenCalledTimes(1)
    const box = screen.getByTestId('player')
    const requestFullscreen = vi.fn().mockResolvedValue(undefined)
    Object.assign(box, { requestFullscreen })
    press('f')
    expect(requestFullscreen).toHaveBeenCalledTimes(1)
  })

  it('step one frame with , and . only while paused', async () => {
    const { video } = await renderLesson()
    press('.')
    expect(video.currentTime).toBeCloseTo(60 + FRAME_SECONDS, 5)
    press(',')
    press(',')
    expect(video.currentTime).toBeCloseTo(60 - FRAME_SECONDS, 5)
    await act(() => video.play())
    const playingAt = video.currentTime
    press('.')
    expect(video.currentTime).toBe(playingAt)
  })

  it('change the speed a step with > and <, and save the choice to the profile', async () => {
    const { video } = await renderLesson(1)
    const menu = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Playback speed' })
    press('>', { shiftKey: true })
    await waitFor(() => expect(menu.value).toBe('1.25'))
    expect(video.playbackRate).toBe(1.25)
    expect(video.defaultPlaybackRate).toBe(1.25)
    press('>', { shiftKey: true })
    press('>', { shiftKey: true })
    await waitFor(() => expect(video.playbackRate).toBe(1.75))
    press('<', { shiftKey: true })
    await waitFor(() => expect(video.playbackRate).toBe(1.5))
    expect(localStorage.getItem('lumen:playback-rate')).toBe('1.5')
    // Quick presses are saved once, the last one.
    await waitFor(() => expect(fetchSpy).toHaveBeenCalledTimes(1))
    const [url, init] = fetchSpy.mock.calls[0]!
    expect(url).toBe(PLAYBACK_SPEED_URL)
    expect(String((init as RequestInit).body)).toBe('playbackRate=1.5')
  })

  it('keeps a speed chosen on the native controls before the scripts ran, over the saved one', async () => {
    render(<Lesson playbackRate={1} presetRate={1.75} />)
    const menu = await screen.findByRole<HTMLSelectElement>('combobox', { name: 'Playback speed' })
    await waitFor(() => expect(menu.value).toBe('1.75'))
    const video = screen.getByLabelText<HTMLVideoElement>('Lesson')
    expect(video.playbackRate).toBe(1.75)
    expect(video.defaultPlaybackRate).toBe(1.75)
    await waitFor(() => expect(fetchSpy).toHaveBeenCalledTimes(1))
    expect(String((fetchSpy.mock.calls[0]![1] as RequestInit).body)).toBe('playbackRate=1.75')
  })

  it('stays at the ends: no faster than 2×, no slower than 0.5×', async () => {
    const { video } = await renderLesson(2)
    expect(video.playbackRate).toBe(2)
    press('>', { shiftKey: true })
    expect(video.playbackRate).toBe(2)
    for (let i = 0; i < 8; i++) press('<', { shiftKey: true })
    await waitFor(() => expect(video.playbackRate).toBe(0.5))
  })

  it('? opens the shortcuts dialog; Escape closes it and focus goes back', async () => {
    const { user } = await renderLesson()
    const like = screen.getByRole('button', { name: 'Like' })
    like.focus()
    await user.keyboard('?')
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' })
    expect(within(dialog).getByText('Back 10 seconds')).toBeTruthy()
    expect(within(dialog).getByText('Slower or faster')).toBeTruthy()
    // While the dialog is open, the player's keys are off.
    const video = screen.getByLabelText<HTMLVideoElement>('Lesson')
    press('k', {}, dialog)
    expect(video.paused).toBe(true)
    fireEvent(dialog, new Event('cancel', { cancelable: true }))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).toBeNull())
    expect(document.activeElement).toBe(like)
  })

  it('the Keyboard shortcuts button opens the same dialog', async () => {
    const { user } = await renderLesson()
    await user.click(screen.getByRole('button', { name: 'Keyboard shortcuts' }))
    expect(await screen.findByRole('dialog', { name: 'Keyboard shortcuts' })).toBeTruthy()
  })
})

describe('keys that are not the player’s', () => {
  it('none fires while typing in a field', async () => {
    const { user, video } = await renderLesson()
    for (const field of [
      screen.getByRole('textbox', { name: 'Comment' }),
      screen.getByRole('searchbox', { name: 'Search' }),
      screen.getByRole('textbox', { name: 'Notes' }),
    ]) {
      await user.click(field)
      await user.keyboard('kjlmcf,.?> ')
      await user.keyboard('{ArrowLeft}{ArrowRight}{ArrowUp}{ArrowDown}')
    }
    const sort = screen.getByRole('combobox', { name: 'Sort' })
    for (const key of ['k', 'j', 'ArrowDown', ' ', 'm']) press(key, {}, sort)
    const speed = screen.getByRole('combobox', { name: 'Playback speed' })
    for (const key of ['k', 'ArrowDown', '>']) press(key, {}, speed)
    expect(video.paused).toBe(true)
    expect(video.currentTime).toBe(60)
    expect(video.volume).toBe(1)
    expect(video.muted).toBe(false)
    expect(video.playbackRate).toBe(1)
    expect(captionsClicked).not.toHaveBeenCalled()
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('none fires with Ctrl, Cmd or Alt held, nor with Shift on a letter', async () => {
    const { video } = await renderLesson()
    for (const modifier of ['ctrlKey', 'metaKey', 'altKey'] as const) {
      for (const key of ['k', 'j', 'l', 'm', 'c', 'f', 'ArrowLeft', 'ArrowUp', ' ', '>', '?']) press(key, { [modifier]: true })
    }
    press('K', { shiftKey: true })
    press('ArrowLeft', { shiftKey: true })
    expect(video.paused).toBe(true)
    expect(video.currentTime).toBe(60)
    expect(video.volume).toBe(1)
    expect(video.muted).toBe(false)
    expect(video.playbackRate).toBe(1)
    expect(captionsClicked).not.toHaveBeenCalled()
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('space and arrows keep their own meaning on a control outside the player; letters still work there', async () => {
    const { video } = await renderLesson()
    const like = screen.getByRole('button', { name: 'Like' })
    expect(press(' ', {}, like)).toBe(true) // not prevented: the button is pressed
    expect(press('ArrowDown', {}, like)).toBe(true)
    expect(video.paused).toBe(true)
    expect(video.volume).toBe(1)
    expect(press('k', {}, like)).toBe(false)
    expect(video.paused).toBe(false)
    // Space on the player's own CC button presses it, not play.
    const cc = screen.getByRole('button', { name: 'CC' })
    expect(press(' ', {}, cc)).toBe(true)
    expect(video.paused).toBe(false)
  })

  it('a key another handler already took is left alone', () => {
    const event = new KeyboardEvent('keydown', { key: 'k', cancelable: true })
    event.preventDefault()
    expect(shortcutFor(event, null)).toBeNull()
  })
})

describe('the reel viewer’s speed', () => {
  function Reel({ active }: { active: boolean }) {
    const [video, setVideo] = useState<HTMLVideoElement | null>(null)
    return (
      <div>
        <video ref={setVideo} aria-label="Clip" />
        <ReelSpeed video={video} playbackRate={null} active={active} />
      </div>
    )
  }

  it('a visitor’s speed comes from this browser; only < and > are the reel’s, on the current clip', async () => {
    localStorage.setItem('lumen:playback-rate', '1.75')
    vi.useFakeTimers({ shouldAdvanceTime: true })
    render(<Reel active />)
    const video = screen.getByLabelText<HTMLVideoElement>('Clip')
    const menu = await screen.findByRole<HTMLSelectElement>('combobox', { name: 'Playback speed' })
    await waitFor(() => expect(video.playbackRate).toBe(1.75))
    expect(menu.value).toBe('1.75')
    press('k')
    press('ArrowLeft')
    expect(video.paused).toBe(true)
    expect(press('ArrowDown')).toBe(true) // the reel's own: the next clip
    press('>', { shiftKey: true })
    await waitFor(() => expect(video.playbackRate).toBe(2))
    // A visitor's choice stays in the browser: nothing is posted.
    vi.advanceTimersByTime(5_000)
    vi.useRealTimers()
    expect(fetchSpy).not.toHaveBeenCalled()
    expect(localStorage.getItem('lumen:playback-rate')).toBe('2')
  })

  it('choosing in the menu applies the speed', async () => {
    const user = userEvent.setup()
    render(<Reel active={false} />)
    const menu = await screen.findByRole<HTMLSelectElement>('combobox', { name: 'Playback speed' })
    await user.selectOptions(menu, '0.75')
    const video = screen.getByLabelText<HTMLVideoElement>('Clip')
    await waitFor(() => expect(video.playbackRate).toBe(0.75))
    press('>', { shiftKey: true })
    expect(video.playbackRate).toBe(0.75) // not the current clip: its keys are off
  })
})
