import { describe, expect, it } from 'vitest'
import { hashPassword, passwordMatches } from './passwords'

describe('passwords', () => {
  it('hashes as GoTrue does ($2a$, cost 10) and checks the password against it', async () => {
    const hash = await hashPassword('correct horse battery')
    expect(hash).toMatch(/^\$2a\$10\$[./A-Za-z0-9]{53}$/)
    expect(await passwordMatches('correct horse battery', hash)).toBe(true)
    expect(await passwordMatches('correct horse batterY', hash)).toBe(false)
  })

  it('checks the $2b$ hashes earlier stand-ins and other bcrypt libraries wrote', async () => {
    const written = '$2b$10$rM347jBIrQSaunmImEWAfO0sP5krewEbvMAtRKOxx3BgQ6jKFPgde'
    expect(await passwordMatches('correct horse battery', written)).toBe(true)
    expect(await passwordMatches('wrong', written)).toBe(false)
  })

  it('matches nothing without a bcrypt hash, and still spends a comparison when there is none', async () => {
    expect(await passwordMatches('anything', 'sha256$not-bcrypt')).toBe(false)
    expect(await passwordMatches('', null)).toBe(false)
    const started = performance.now()
    expect(await passwordMatches('anything', undefined)).toBe(false)
    // A bcrypt comparison at cost 10 takes tens of milliseconds; skipping it would take none.
    expect(performance.now() - started).toBeGreaterThan(5)
  })
})
