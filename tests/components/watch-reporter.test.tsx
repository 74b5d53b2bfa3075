import { act, render } from '@testing-library/react'
import { useRef } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { useWatchReporter, WATCH_REPORT_URL } from '~/components/video/use-watch-reporter'

/**
 * The player's progress reports (app/components/video/use-watch-reporter.ts) and the position
 * they carry (ADR 0034, ADR 0056): the first report carries it; while the video plays the
 * 4-second reports carry it once it moved 10 s since the last one sent (every third report);
 * pause and leaving the page always carry where playback is. Real playback is in the e2e suite
 * (tests/e2e/resume.spec.ts).
 */
const VIDEO = '00000000-0000-4000-8000-000000000001'

function Player() {
  const ref = useRef<HTMLVideoElement | null>(null)
  useWatchReporter(ref, VIDEO, true)
  return <video ref={ref} data-testid="player" />
}

describe('the watch reporter', () => {
  const sent: Array<{ via: 'fetch' | 'beacon'; body: URLSearchParams }> = []
  let state: { paused: boolean; currentTime: number }

  beforeEach(() => {
    sent.length = 0
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'performance'] })
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        if (url === WATCH_REPORT_URL) sent.push({ via: 'fetch', body: new URLSearchParams(String(init.body)) })
        return new Response('{"counted":false}')
      }),
    )
    Object.defineProperty(navigator, 'sendBeacon', {
      configurable: true,
      value: (url: string, body: URLSearchParams) => {
        if (url === WATCH_REPORT_URL) sent.push({ via: 'beacon', body })
        return true
      },
    })
  })

  afterEach(() => {
    vi.useRealTimers()
    vi.unstubAllGlobals()
  })

  const mount = () => {
    const { getByTestId } = render(<Player />)
    const video = getByTestId('player') as HTMLVideoElement
    state = { paused: true, currentTime: 0 }
    Object.defineProperty(video, 'paused', { configurable: true, get: () => state.paused })
    Object.defineProperty(video, 'currentTime', { configurable: true, get: () => state.currentTime })
    Object.defineProperty(video, 'duration', { configurable: true, get: () => 600 })
    Object.defineProperty(video, 'seeking', { configurable: true, get: () => false })
    return video
  }
  const settle = () => act(async () => {})
  const positions = () => sent.map((report) => report.body.get('position'))

  it('carries the position on the first report, then every 10 s of video while playing, and on pause and leaving', async () => {
    const video = mount()
    state.paused = false
    video.dispatchEvent(new Event('play'))
    await settle()
    // Twelve seconds of playback, a timeupdate each second; the interval reports every 4 s.
    for (let second = 1; second <= 13; second++) {
      vi.advanceTimersByTime(1000)
      state.currentTime = second
      video.dispatchEvent(new Event('timeupdate'))
      await settle()
    }
    // Reports at 0 (play), 4 s, 8 s and 12 s (the interval fires before that second's timeupdate).
    expect(positions()).toEqual(['0.000', null, null, '11.000'])
    expect(sent.map((report) => Number(report.body.get('played')))).toEqual([0, 3, 4, 4])
    expect(sent.every((report) => report.body.get('session') === sent[0]!.body.get('session'))).toBe(true)

    state.paused = true
    video.dispatchEvent(new Event('pause'))
    await settle()
    expect(positions().at(-1)).toBe('13.000')

    // Sought while paused, then the page is left: the beacon carries where playback is.
    state.currentTime = 42
    window.dispatchEvent(new Event('pagehide'))
    await settle()
    expect(sent.at(-1)).toMatchObject({ via: 'beacon' })
    expect(positions().at(-1)).toBe('42.000')
    expect(sent).toHaveLength(6)
  })

  it('a stalled video (playing, not moving) sends nothing more after its first report', async () => {
    const video = mount()
    state.paused = false
    video.dispatchEvent(new Event('play'))
    await settle()
    vi.advanceTimersByTime(12_000)
    await settle()
    expect(positions()).toEqual(['0.000'])
  })
})
