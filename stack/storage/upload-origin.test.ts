import { describe, expect, it } from 'vitest'
import { uploadOrigin } from './resumable'

describe('the origin a TUS upload’s Location names', () => {
  it('is the address the client sent its creation to', () => {
    expect(uploadOrigin('http://localhost:3000', 'http', '127.0.0.1:3000')).toBe('http://127.0.0.1:3000')
    expect(uploadOrigin('http://localhost:3000', 'http', 'lumen.lan:3000')).toBe('http://lumen.lan:3000')
    expect(uploadOrigin('http://localhost:3000', 'http', '[::1]:3000')).toBe('http://[::1]:3000')
  })

  it('is PUBLIC_URL for its own host (keeping its https) and for a Host that is not a plain host name', () => {
    expect(uploadOrigin('https://lumen.example', 'http', 'lumen.example')).toBe('https://lumen.example')
    expect(uploadOrigin('http://localhost:3000', 'http', 'evil.example/x?')).toBe('http://localhost:3000')
    expect(uploadOrigin('http://localhost:3000', 'http', undefined)).toBe('http://localhost:3000')
  })
})
