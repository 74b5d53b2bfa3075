import { describe, expect, it } from 'vitest'
import { DEFAULT_ESTIMATE, MAX_ESTIMATE, startEstimate } from './first-rendition'

const stored = (value: unknown) => ({ getItem: () => JSON.stringify(value) })
const now = Date.UTC(2026, 10, 26)

describe('the bandwidth the first rendition is picked with', () => {
  it('is what this browser measured before, when recent', () => {
    expect(startEstimate({ storage: stored({ bps: 4_000_000, at: now - 1000 }), downlink: 10, now })).toBe(4_000_000)
    expect(startEstimate({ storage: stored({ bps: 900_000_000, at: now }), now })).toBe(MAX_ESTIMATE)
  })

  it('else a share of the downlink the browser reports, else a conservative default', () => {
    const weekOld = stored({ bps: 4_000_000, at: now - 8 * 24 * 3600 * 1000 })
    expect(startEstimate({ storage: weekOld, downlink: 10, now })).toBe(7_000_000)
    expect(startEstimate({ storage: { getItem: () => 'not json' }, downlink: null, now })).toBe(DEFAULT_ESTIMATE)
    expect(startEstimate({ storage: null, downlink: 0, now })).toBe(DEFAULT_ESTIMATE)
  })
})
