import { describe, expect, it } from 'vitest'
import { formatCount, pluralNoun } from '~/lib/format'
import { countAxis, measureAxis, valueAxis } from './axis'

describe('countAxis', () => {
  it('never has a fractional tick for a count', () => {
    for (let max = 0; max <= 1000; max++) {
      const { ticks, top } = countAxis(max)
      expect(ticks.every(Number.isInteger), `max ${max}: ${ticks.join(', ')}`).toBe(true)
      expect(top).toBeGreaterThanOrEqual(max)
      expect(ticks.at(-1)).toBe(top)
      expect(ticks.length, `max ${max}`).toBeGreaterThanOrEqual(2)
      expect(ticks.length, `max ${max}`).toBeLessThanOrEqual(6)
    }
  })

  it('reads 0–1 when every value is 0 or 1', () => {
    expect(countAxis(0)).toEqual({ top: 1, ticks: [0, 1] })
    expect(countAxis(1)).toEqual({ top: 1, ticks: [0, 1] })
  })

  it('steps 1, 2, 5 × 10ⁿ', () => {
    expect(countAxis(3).ticks).toEqual([0, 1, 2, 3])
    expect(countAxis(7).ticks).toEqual([0, 2, 4, 6, 8])
    expect(countAxis(18).ticks).toEqual([0, 5, 10, 15, 20])
    expect(countAxis(1234).ticks).toEqual([0, 500, 1000, 1500])
  })
})

describe('measureAxis', () => {
  it('keeps fractions for measures and a fixed top for shares', () => {
    expect(measureAxis(0.3).ticks).toEqual([0, 0.1, 0.2, 0.3])
    expect(valueAxis([0.2, 0.9], { counts: false, maxValue: 1 }).top).toBe(1)
    expect(measureAxis(0)).toEqual({ top: 1, ticks: [0, 0.2, 0.4, 0.6, 0.8, 1] })
  })
})

describe('plurals', () => {
  it('follows Intl.PluralRules', () => {
    expect(formatCount(1, 'view')).toBe('1 view')
    expect(formatCount(0, 'view')).toBe('0 views')
    expect(formatCount(1200, 'like')).toBe('1,200 likes')
    expect(formatCount(2, 'reply', 'replies')).toBe('2 replies')
    expect(pluralNoun(1, 'video')).toBe('video')
  })
})
