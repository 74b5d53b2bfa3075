import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTarget, type ContractTarget } from '../support/target'
import { createSignedInUser } from '../support/tokens'

/**
 * ADR 0012, finding 8 (docs/decisions/0012): `/rest/v1` wants a project API
 * key as Supabase's gateway does; the per-user storage quota refuses an
 * upload that would pass it with a clear 413 and stores nothing.
 */
describe('exposure decisions', () => {
  let target: ContractTarget
  beforeAll(async () => {
    target = await openTarget('stand-in')
  })
  afterAll(async () => {
    await target?.close()
  })

  it('/rest/v1 answers 401 without an apikey or with a wrong one', async () => {
    for (const headers of [{}, { apikey: 'nope' }, { Authorization: `Bearer ${target.anonKey}` }] as Record<string, string>[]) {
      const response = await fetch(`${target.url}/rest/v1/categories?select=id`, { headers })
      expect(response.status, JSON.stringify(headers)).toBe(401)
      expect(await response.json()).toMatchObject({ message: expect.stringMatching(/API key/) })
    }
    expect((await fetch(`${target.url}/rest/v1/categories?select=id&apikey=${target.anonKey}`)).status).toBe(200)
    expect((await fetch(`${target.url}/rest/v1/categories?select=id`, { headers: { apikey: target.anonKey } })).status).toBe(200)
  })

  it('an upload past the owner\'s quota is 413 with a clear message, and nothing is stored', async () => {
    const user = await createSignedInUser(target, 'quota')
    const pool = target.running!.database.pool
    // As if the user already stored nearly 5 GiB.
    await pool.query(
      `insert into storage.objects (bucket_id, name, owner, owner_id, metadata)
       values ('uploads', $1, $2::uuid, $3, jsonb_build_object('size', public.storage_quota_bytes() - 3))`,
      [`${user.id}/quotes/old.mp4`, user.id, user.id],
    )
    const name = `${user.id}/quotes/${randomUUID()}.mp4`
    const { error } = await user.client.storage.from('uploads').upload(name, Buffer.from('four'), { contentType: 'video/mp4' })
    expect(error).toMatchObject({ statusCode: '413', message: expect.stringMatching(/Storage quota exceeded: your files may take at most 5120 MiB/) })
    expect((await pool.query('select 1 from storage.objects where name = $1', [name])).rowCount).toBe(0)
    // Three bytes still fit.
    expect((await user.client.storage.from('uploads').upload(`${user.id}/quotes/ok.mp4`, Buffer.from('abc'), { contentType: 'video/mp4' })).error).toBeNull()
  })
})
