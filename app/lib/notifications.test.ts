import { describe, expect, it } from 'vitest'
import { badgeText, dayLabel, groupByDay, markReadSchema, type NotificationItem } from './notifications'

const item = (id: string, day: string): NotificationItem => ({
  id,
  type: 'followed',
  createdAt: `${day}T10:00:00.000000Z`,
  day,
  readAt: null,
  actor: null,
  message: 'x',
  detail: null,
  href: null,
})

describe('notifications', () => {
  it('labels today, yesterday, then the date', () => {
    expect(dayLabel('2026-11-26', '2026-11-26')).toBe('Today')
    expect(dayLabel('2026-11-25', '2026-11-26')).toBe('Yesterday')
    expect(dayLabel('2026-02-28', '2026-03-01')).toBe('Yesterday')
    expect(dayLabel('2026-11-20', '2026-11-26')).toBe('Friday, November 20, 2026')
  })

  it('groups consecutive items by day, keeping their order', () => {
    const groups = groupByDay([item('a', '2026-11-26'), item('b', '2026-11-26'), item('c', '2026-11-24')])
    expect(groups.map((group) => [group.day, group.items.map((entry) => entry.id)])).toEqual([
      ['2026-11-26', ['a', 'b']],
      ['2026-11-24', ['c']],
    ])
  })

  it('caps the badge at 99+', () => {
    expect(badgeText(7)).toBe('7')
    expect(badgeText(100)).toBe('99+')
  })

  it('marks all, or up to 100 ids, nothing else', () => {
    expect(markReadSchema.safeParse({ all: true }).success).toBe(true)
    expect(markReadSchema.safeParse({ ids: ['3f1c2a7e-9b1d-4c55-8f0e-0d6f3b2a1c9e'] }).success).toBe(true)
    expect(markReadSchema.safeParse({ all: false }).success).toBe(false)
    expect(markReadSchema.safeParse({ ids: [] }).success).toBe(false)
    expect(markReadSchema.safeParse({ ids: ['nope'] }).success).toBe(false)
  })
})
