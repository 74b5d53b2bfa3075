import { describe, expect, it } from 'vitest'
import {
  excerpt,
  formatBytes,
  formatCompact,
  formatCount,
  formatDate,
  formatDay,
  formatDuration,
  formatNumber,
  truncate,
} from './format'

describe('formatDate', () => {
  it('shows the UTC calendar date in a fixed locale, whatever the machine', () => {
    expect(formatDate('2024-03-05T23:30:00Z')).toBe('Mar 5, 2024')
    expect(formatDate('2024-12-31T00:00:00.000+00:00')).toBe('Dec 31, 2024')
  })
})

describe('formatDay', () => {
  it('names a calendar day the same in every time zone, short and long', () => {
    expect(formatDay('2026-11-23')).toEqual({ short: 'Nov 23', long: 'Monday, November 23, 2026' })
    expect(formatDay('2024-02-29')).toEqual({ short: 'Feb 29', long: 'Thursday, February 29, 2024' })
  })
})

describe('formatCount', () => {
  it('uses the singular for exactly one', () => {
    expect(formatCount(1, 'like')).toBe('1 like')
  })
  it('uses the plural for zero and many, with thousands separators', () => {
    expect(formatCount(0, 'view')).toBe('0 views')
    expect(formatCount(1200, 'view')).toBe('1,200 views')
  })
})

describe('formatNumber and formatCompact', () => {
  it('writes the full number with separators', () => {
    expect(formatNumber(1234567)).toBe('1,234,567')
  })
  it('abbreviates large numbers to one decimal', () => {
    expect(formatCompact(999)).toBe('999')
    expect(formatCompact(1234)).toBe('1.2K')
    expect(formatCompact(2_500_000)).toBe('2.5M')
  })
})

describe('formatDuration', () => {
  it('writes minutes and seconds under an hour', () => {
    expect(formatDuration(0)).toBe('0:00')
    expect(formatDuration(59.6)).toBe('1:00')
    expect(formatDuration(75)).toBe('1:15')
  })
  it('adds hours and pads the minutes from an hour on', () => {
    expect(formatDuration(3725)).toBe('1:02:05')
  })
  it('never shows a negative duration', () => {
    expect(formatDuration(-3)).toBe('0:00')
  })
})

describe('formatBytes', () => {
  it('picks bytes, kilobytes or megabytes', () => {
    expect(formatBytes(512)).toBe('512 B')
    expect(formatBytes(1536)).toBe('1.5 KB')
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MB')
  })
})

describe('truncate and excerpt', () => {
  it('keeps a short text whole (trimmed) and cuts a long one with an ellipsis', () => {
    expect(truncate('  short  ', 80)).toBe('short')
    expect(truncate('abcdef ghij', 7)).toBe('abcdef…')
  })
  it('labels a long text with its first 57 characters', () => {
    expect(excerpt('a'.repeat(60))).toBe('a'.repeat(60))
    expect(excerpt('a'.repeat(61))).toBe(`${'a'.repeat(57)}…`)
  })
})
