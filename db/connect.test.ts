import { describe, expect, it } from 'vitest'
import { redactUrl, toIsoTimestamp } from './connect'

describe('toIsoTimestamp', () => {
  it('turns Postgres text timestamps into ISO 8601 that Date reads', () => {
    expect(toIsoTimestamp('2026-11-21 05:36:09.384+00')).toBe('2026-11-21T05:36:09.384+00:00')
    expect(toIsoTimestamp('2026-11-21 05:36:09+05:30')).toBe('2026-11-21T05:36:09+05:30')
    expect(new Date(toIsoTimestamp('2026-11-21 05:36:09.384-03')).toISOString()).toBe('2026-11-21T08:36:09.384Z')
  })

  it('leaves timestamps without a zone readable as local ISO', () => {
    expect(toIsoTimestamp('2026-11-21 05:36:09')).toBe('2026-11-21T05:36:09')
  })
})

describe('redactUrl', () => {
  it('hides the password of a database URL', () => {
    expect(redactUrl('postgres://lumen:secret@127.0.0.1:5432/db')).toBe('postgres://lumen:***@127.0.0.1:5432/db')
  })

  it('does not echo an unparseable URL, which may hold a secret', () => {
    expect(redactUrl('lumen:secret@nowhere')).not.toContain('secret')
  })
})
