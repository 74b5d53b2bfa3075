import { describe, expect, it } from 'vitest'
import { clipPreload, isMeteredConnection, keepsMedia } from '~/lib/reel-preload'

/** The reel viewer's preloading rules (app/lib/reel-preload.ts, ADR 0051). */
describe('isMeteredConnection', () => {
  it('is true with Save-Data or an effective type of 3g or slower', () => {
    expect(isMeteredConnection({ saveData: true, effectiveType: '4g' })).toBe(true)
    for (const effectiveType of ['slow-2g', '2g', '3g']) expect(isMeteredConnection({ effectiveType })).toBe(true)
  })

  it('is false on 4g without Save-Data, and where the browser gives no hints', () => {
    expect(isMeteredConnection({ saveData: false, effectiveType: '4g' })).toBe(false)
    expect(isMeteredConnection({})).toBe(false)
    expect(isMeteredConnection(null)).toBe(false)
    expect(isMeteredConnection(undefined)).toBe(false)
  })
})

describe('clipPreload', () => {
  const around = (current: number, hydrated: boolean, metered: boolean) =>
    [0, 1, 2, 3, 4].map((index) => clipPreload({ index, current, hydrated, metered }))

  it('buffers the clip in view and the next one, keeps the previous one, and nothing else', () => {
    expect(around(2, true, false)).toEqual(['none', 'metadata', 'auto', 'auto', 'none'])
    expect(around(0, true, false)).toEqual(['auto', 'auto', 'none', 'none', 'none'])
  })

  it('fetches nothing ahead on a metered connection', () => {
    expect(around(2, true, true)).toEqual(['none', 'none', 'auto', 'none', 'none'])
  })

  it('without JavaScript preloads only the clip opened at', () => {
    expect(around(1, false, false)).toEqual(['none', 'auto', 'none', 'none', 'none'])
  })
})

describe('keepsMedia', () => {
  it('keeps the previous, current and next clips only', () => {
    expect([0, 1, 2, 3, 4, 5].map((index) => keepsMedia(index, 2))).toEqual([false, true, true, true, false, false])
  })
})
