import { randomUUID } from 'node:crypto'
import type { SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { announceSkippedRealSupabase, clientFor, openTarget, targetNames, type ContractTarget } from '../../support/target'

/**
 * The slice of PostgREST edge functions read the database through
 * (`GET /rest/v1/<table>?select=…&col=eq.…`, stack/functions/postgrest-reads.ts),
 * driven by supabase-js `from().select().eq()` as a function would, against
 * the stand-in on PGlite and on PostgreSQL, and a real Supabase when set.
 * Row-level security must decide exactly as it does behind real PostgREST.
 */
announceSkippedRealSupabase()

interface TargetCase {
  name: ContractTarget['name']
  database?: 'pglite' | 'postgres'
}

const targets = targetNames.flatMap((name): TargetCase[] =>
  name === 'stand-in' ? [{ name, database: 'pglite' }, { name, database: 'postgres' }] : [{ name }],
)

describe.each(targets)('PostgREST reads on $name ($database)', ({ name, database }) => {
  let target: ContractTarget
  let creator: { id: string; client: SupabaseClient }
  let learner: { id: string; client: SupabaseClient }

  async function account(label: string, metadata: Record<string, unknown> = {}) {
    const email = `${label}-${randomUUID().slice(0, 8)}@lumen.test`
    const { data, error } = await clientFor(target, 'service').auth.admin.createUser({
      email,
      password: 'correct-horse-battery',
      email_confirm: true,
      user_metadata: { username: `${label}_${randomUUID().slice(0, 8)}`, ...metadata },
    })
    if (error || !data.user) throw error ?? new Error('no user')
    const client = clientFor(target)
    const signedIn = await client.auth.signInWithPassword({ email, password: 'correct-horse-battery' })
    if (signedIn.error) throw signedIn.error
    return { id: data.user.id, client }
  }

  beforeAll(async () => {
    target = await openTarget(name, { database })
    creator = await account('creator', { role: 'creator' })
    learner = await account('learner')
  })
  afterAll(async () => {
    await target?.close()
  })

  it('reads the chosen columns of every visible row as anon', async () => {
    const { data, error } = await clientFor(target).from('categories').select('id,name')
    expect(error).toBeNull()
    expect(data).toContainEqual({ id: 'media', name: 'Media' })
    expect(Object.keys(data![0]!).sort()).toEqual(['id', 'name'])
  })

  it('filters with eq and answers a single object for .single()', async () => {
    const { data, error } = await clientFor(target).from('categories').select('name').eq('id', 'media').single()
    expect(error).toBeNull()
    expect(data).toEqual({ name: 'Media' })
  })

  it('answers 406 PGRST116 when .single() finds no row', async () => {
    const { data, error, status } = await clientFor(target).from('categories').select('name').eq('id', 'no-such').single()
    expect(data).toBeNull()
    expect(status).toBe(406)
    expect(error).toMatchObject({ code: 'PGRST116', details: 'The result contains 0 rows' })
  })

  it('lets row-level security decide: a creator sees their application, a learner sees none of it', async () => {
    const own = await creator.client.from('creator_applications').select('creator_id,status').eq('creator_id', creator.id)
    expect(own.data).toEqual([{ creator_id: creator.id, status: 'pending' }])
    const other = await learner.client.from('creator_applications').select('creator_id').eq('creator_id', creator.id)
    expect(other).toMatchObject({ error: null, data: [] })
  })

  it('reads everything with the service role', async () => {
    const { data } = await clientFor(target, 'service').from('creator_applications').select('status').eq('creator_id', creator.id)
    expect(data).toEqual([{ status: 'pending' }])
  })

  it('answers 401 for a token not signed with the secret', async () => {
    const part = (json: object) => Buffer.from(JSON.stringify(json)).toString('base64url')
    const forged = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ role: 'service_role' })}.${part({ sig: 1 })}`
    const response = await fetch(`${target.url}/rest/v1/categories?select=id`, {
      headers: { apikey: target.anonKey, Authorization: `Bearer ${forged}` },
    })
    expect(response.status).toBe(401)
    expect(await response.json()).toMatchObject({ code: 'PGRST301' })
  })

  it('answers 404 for a table that does not exist', async () => {
    const { status, error } = await clientFor(target).from('no_such_table').select('id')
    expect(status).toBe(404)
    expect(error).not.toBeNull()
  })

  it('answers 400 with the database code for a value of the wrong type', async () => {
    const { status, error } = await clientFor(target).from('profiles').select('id').eq('id', 'not-a-uuid')
    expect(status).toBe(400)
    expect(error).toMatchObject({ code: '22P02' })
  })

  it.runIf(name === 'stand-in')('answers 501 for what the stand-in does not serve: other filters, writes', async () => {
    const client = clientFor(target, 'service')
    expect((await client.from('categories').select('id').order('id')).status).toBe(501)
    expect((await client.from('categories').select('id').gt('position', 3)).status).toBe(400)
    expect((await client.from('categories').insert({ id: 'x', name: 'X', position: 99 })).status).toBe(501)
  })
})
