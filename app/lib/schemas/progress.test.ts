import { describe, expect, it } from 'vitest'
import { positionSchema, resumeMoment, watchedShare } from './progress'

describe('resume helpers', () => {
  it('offers to resume from whole seconds, not in the first seconds nor when finished', () => {
    expect(resumeMoment(null)).toBeNull()
    expect(resumeMoment({ positionSeconds: 4.9, finished: false })).toBeNull()
    expect(resumeMoment({ positionSeconds: 5, finished: false })).toBe(5)
    expect(resumeMoment({ positionSeconds: 754.8, finished: false })).toBe(754)
    expect(resumeMoment({ positionSeconds: 754.8, finished: true })).toBeNull()
  })

  it('fills the card’s bar by the share watched, full when finished, empty without a length', () => {
    expect(watchedShare({ positionSeconds: 30, durationSeconds: 120, finished: false })).toBe(0.25)
    expect(watchedShare({ positionSeconds: 30, durationSeconds: null, finished: false })).toBe(0)
    expect(watchedShare({ positionSeconds: 100, durationSeconds: 120, finished: true })).toBe(1)
    expect(watchedShare({ positionSeconds: 500, durationSeconds: 120, finished: false })).toBe(1)
  })

  it('reads a position in seconds from a form or JSON', () => {
    expect(positionSchema.parse({ position: '12.5' })).toEqual({ position: 12.5 })
    expect(positionSchema.safeParse({ position: -1 }).success).toBe(false)
    expect(positionSchema.safeParse({ position: 'soon' }).success).toBe(false)
    expect(positionSchema.safeParse({}).success).toBe(false)
  })
})
