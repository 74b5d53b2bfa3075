import { randomUUID } from 'node:crypto'
import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTarget, type ContractTarget } from '../support/target'
import { createSignedInUser, type TestUser } from '../support/tokens'

/**
 * A generated corpus of hostile input (QUALITY.md): sizes, renamed types,
 * polyglots, traversal names, control characters, 1 MB strings, NUL bytes,
 * deep JSON and `__proto__`, against the stand-in's Auth and Storage. Every
 * refusal is a 4xx with a clear message, and nothing is stored.
 */
describe('bad input', () => {
  let target: ContractTarget
  let alice: TestUser
  beforeAll(async () => {
    target = await openTarget('stand-in')
    alice = await createSignedInUser(target, 'alice')
  })
  afterAll(async () => {
    await target?.close()
  })

  const pool = () => target.running!.database.pool
  const count = async (sql: string, values: unknown[] = []) => Number((await pool().query(sql, values)).rows[0].n)
  async function storedFiles(): Promise<number> {
    const root = path.join(target.running!.dataDir, 'storage')
    const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => [])
    return entries.filter((entry) => entry.isFile()).length
  }

  describe('Auth sign-up', () => {
    const signup = (body: string) =>
      fetch(`${target.url}/auth/v1/signup`, {
        method: 'POST',
        headers: { apikey: target.anonKey, 'Content-Type': 'application/json', 'X-Supabase-Api-Version': '2024-01-01' },
        body,
      })
    const email = () => `corpus-${randomUUID().slice(0, 8)}@lumen.test`
    let deep = '"x"'
    for (let i = 0; i < 100; i++) deep = `{"a":${deep}}`

    it.each([
      ['a 1 MB string', () => JSON.stringify({ email: email(), password: 'Good-Password-1', data: { bio: 'x'.repeat(1024 * 1024) } }), 413],
      ['a NUL byte in a value', () => JSON.stringify({ email: email(), password: 'Good-Password-1', data: { username: 'a\u0000b' } }), 400],
      ['a NUL byte in a key', () => JSON.stringify({ email: email(), password: 'Good-Password-1', data: { ['k\u0000']: 1 } }), 400],
      ['JSON nested 100 deep', () => `{"email":"${email()}","password":"Good-Password-1","data":${deep}}`, 400],
      ['malformed JSON', () => '{"email": ', 400],
      ['an email with CR/LF', () => JSON.stringify({ email: 'a@lumen.test\r\nBcc: x@evil.example', password: 'Good-Password-1' }), 400],
      ['a traversal portfolio path', () => JSON.stringify({ email: email(), password: 'Good-Password-1', data: { role: 'creator', portfolio_path: '../../etc/passwd', portfolio_type: 'document' } }), 422],
      ['a 1,000-character field of interest', () => JSON.stringify({ email: email(), password: 'Good-Password-1', data: { field_of_interest: 'F'.repeat(1000) } }), 422],
    ])('%s: a 4xx with a message, no user', async (_label, body, status) => {
      const before = await count('select count(*) as n from auth.users')
      const response = await signup(body())
      expect(response.status).toBe(status)
      expect(((await response.json()) as { message?: string; msg?: string }).message).toMatch(/\w/)
      expect(await count('select count(*) as n from auth.users')).toBe(before)
    })

    it('__proto__ in sign-up data grants nothing and pollutes nothing', async () => {
      const address = email()
      const response = await signup(`{"email":"${address}","password":"Good-Password-1","data":{"__proto__":{"role":"admin"},"role":"admin"}}`)
      expect(response.status).toBe(200)
      expect(({} as Record<string, unknown>).role).toBeUndefined()
      const { rows } = await pool().query(`select p.role from public.profiles p join auth.users u on u.id = p.id where u.email = $1`, [address])
      expect(rows[0].role).toBe('user')
    })
  })

  describe('Storage names and bodies', () => {
    const upload = (name: string, body: BodyInit, contentType = 'video/mp4') =>
      fetch(`${target.url}/storage/v1/object/uploads/${name}`, {
        method: 'POST',
        headers: { apikey: target.anonKey, Authorization: `Bearer ${alice.accessToken}`, 'Content-Type': contentType },
        body,
      })

    it.each([
      // fetch resolves the dots first: the name lands outside the user's folder, where policies refuse it.
      ['traversal', () => `${alice.id}/quotes/../../etc/passwd.mp4`],
      ['encoded slash', () => `${alice.id}/quotes/..%2f..%2fetc.mp4`],
      ['backslash', () => `${alice.id}/quotes/..%5cwin.mp4`],
      ['NUL byte', () => `${alice.id}/quotes/a%00.mp4`],
      ['1,000 characters', () => `${alice.id}/quotes/${'a'.repeat(1000)}.mp4`],
      ['right-to-left override', () => `${alice.id}/quotes/${encodeURIComponent('evil\u202Egpj.mp4')}`],
      ['control character', () => `${alice.id}/quotes/a%0d%0ab.mp4`],
    ])('a %s name is refused with a clear message and stores nothing', async (_label, name) => {
      const files = await storedFiles()
      const response = await upload(name(), 'bytes')
      expect(response.status).toBeGreaterThanOrEqual(400)
      expect(response.status).toBeLessThan(500)
      expect(await response.text()).toMatch(/Invalid key|not found|Route|row-level security/i)
      expect(await storedFiles()).toBe(files)
      expect(await count(`select count(*) as n from storage.objects where owner_id = $1`, [alice.id])).toBe(0)
    })

    it.each([
      ['HTML named .mp4', '<html><script>alert(1)</script></html>', 'text/html'],
      ['an SVG/HTML polyglot', '<svg xmlns="http://www.w3.org/2000/svg"><script>1</script></svg>', 'image/svg+xml'],
      ['an HLS playlist as a video list type', '#EXTM3U\n#EXT-X-ENDLIST', 'video/mp4, application/vnd.apple.mpegurl'],
    ])('%s is a 415 in the video bucket, nothing stored', async (_label, body, contentType) => {
      const files = await storedFiles()
      const response = await upload(`${alice.id}/quotes/${randomUUID()}.mp4`, body, contentType)
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ statusCode: '415', code: 'InvalidMimeType', message: expect.stringMatching(/mime type/) })
      expect(await storedFiles()).toBe(files)
    })

    it('an avatar of 5 MiB + 1 byte is a 413, nothing stored', async () => {
      const files = await storedFiles()
      const response = await fetch(`${target.url}/storage/v1/object/avatars/${alice.id}/big.png`, {
        method: 'POST',
        headers: { apikey: target.anonKey, Authorization: `Bearer ${alice.accessToken}`, 'Content-Type': 'image/png' },
        body: new Uint8Array(5 * 1024 * 1024 + 1),
      })
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ statusCode: '413', code: 'EntityTooLarge' })
      expect(await storedFiles()).toBe(files)
    })

    it('a JSON body of deep nesting or 10 MB on copy is a 4xx', async () => {
      let deep = '1'
      for (let i = 0; i < 1000; i++) deep = `{"a":${deep}}`
      for (const body of [`{"bucketId":"uploads","sourceKey":${deep}}`, JSON.stringify({ bucketId: 'x'.repeat(10 * 1024 * 1024) })]) {
        const response = await fetch(`${target.url}/storage/v1/object/copy`, {
          method: 'POST',
          headers: { apikey: target.anonKey, Authorization: `Bearer ${alice.accessToken}`, 'Content-Type': 'application/json' },
          body,
        })
        expect(response.status).toBeGreaterThanOrEqual(400)
        expect(response.status).toBeLessThan(500)
      }
    })
  })
})
