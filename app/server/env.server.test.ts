import { describe, expect, it } from 'vitest'
import { isEmbedded, parseEnv, siteUrlFor } from './env.server'

describe('environment', () => {
  it('runs embedded on port 3000 with data under .data when nothing is set', () => {
    const env = parseEnv({})
    expect(env.PORT).toBe(3000)
    expect(env.DATA_DIR).toBe('.data')
    expect(isEmbedded(env)).toBe(true)
  })

  it('uses the database server named by DATABASE_URL', () => {
    const env = parseEnv({ DATABASE_URL: 'postgres://u:p@db.example:5432/lumen', PORT: '8080' })
    expect(isEmbedded(env)).toBe(false)
    expect(env.PORT).toBe(8080)
  })

  it('names every invalid setting and points at .env.example', () => {
    expect(() => parseEnv({ PORT: 'eighty', DATABASE_URL: 'not a url' })).toThrowError(
      /PORT[\s\S]*DATABASE_URL[\s\S]*\.env\.example/,
    )
  })

  it('reads SEED_DEMO_DATA as a boolean and leaves it undefined when unset', () => {
    expect(parseEnv({ SEED_DEMO_DATA: 'false' }).SEED_DEMO_DATA).toBe(false)
    expect(parseEnv({ SEED_DEMO_DATA: 'true' }).SEED_DEMO_DATA).toBe(true)
    expect(parseEnv({}).SEED_DEMO_DATA).toBeUndefined()
  })

  it('builds links a visitor copies from SITE_URL, else PUBLIC_URL, else the origin they used', () => {
    expect(siteUrlFor('http://10.0.0.5:3000/video/x', parseEnv({}))).toBe('http://10.0.0.5:3000')
    expect(siteUrlFor('http://10.0.0.5:3000/video/x', parseEnv({ PUBLIC_URL: 'https://lumen.example/' }))).toBe('https://lumen.example')
    expect(
      siteUrlFor('http://10.0.0.5:3000/video/x', parseEnv({ PUBLIC_URL: 'https://app.example', SITE_URL: 'https://lumen.example' })),
    ).toBe('https://lumen.example')
  })
})
