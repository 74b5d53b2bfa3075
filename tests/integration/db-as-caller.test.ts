import { sql } from 'kysely'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asCaller, asServiceRole, connect, disconnect, inOneTransaction, preparedAs } from '../../app/server/db.server'
import { claimsFor, databaseKinds, insertAuthUser, migratedDatabase } from '../support/databases'

describe.each(databaseKinds)('asCaller on %s', (kind) => {
  let dispose: () => Promise<void>
  let pool: pg.Pool
  let alice: string
  let bob: string

  beforeAll(async () => {
    const database = await migratedDatabase(kind)
    dispose = database.dispose
    pool = database.handle.pool
    await disconnect()
    await connect(database.handle)
    alice = await insertAuthUser(database.handle.pool, { username: 'alice_as_caller' })
    bob = await insertAuthUser(database.handle.pool, { username: 'bob_as_caller' })
  })

  afterAll(async () => {
    await disconnect()
    await dispose()
  })

  const whoAmI = sql<{ uid: string | null; role: string }>`select auth.uid() as uid, current_user as role`

  it('runs as anon without claims', async () => {
    const { rows } = await asCaller(null, (tx) => whoAmI.execute(tx))
    expect(rows[0]).toEqual({ uid: null, role: 'anon' })
  })

  it('runs as the authenticated user of the claims', async () => {
    const { rows } = await asCaller(claimsFor(alice), (tx) => whoAmI.execute(tx))
    expect(rows[0]).toEqual({ uid: alice, role: 'authenticated' })
  })

  it('sets claims that hold quotes, backslashes and other characters exactly', async () => {
    const claims = { ...claimsFor(alice), user_metadata: { name: `O'Brien \\ "x" \\' ; commit; --`, emoji: '✓ é' } }
    const { rows } = await asCaller(claims, (tx) =>
      sql<{ claims: string; sub: string; role: string }>`
        select current_setting('request.jwt.claims') as claims, current_setting('request.jwt.claim.sub') as sub, current_user as role`.execute(tx),
    )
    expect(JSON.parse(rows[0]!.claims)).toEqual({ ...claims, role: 'authenticated' })
    expect(rows[0]).toMatchObject({ sub: alice, role: 'authenticated' })
    // Still inside the transaction: the caller's settings end with it.
    const after = await asCaller(null, (tx) => sql<{ claims: string }>`select current_setting('request.jwt.claims', true) as claims`.execute(tx))
    expect(JSON.parse(after.rows[0]!.claims)).toEqual({ role: 'anon' })
  })

  it('refuses claims that ask for a privileged role', async () => {
    const forged = { ...claimsFor(alice), role: 'service_role' } as unknown as ReturnType<typeof claimsFor>
    await expect(asCaller(forged, (tx) => whoAmI.execute(tx))).rejects.toThrow(/end-user claims only/)
  })

  it('lets a user change their own profile and not another user’s', async () => {
    const updated = await asCaller(claimsFor(alice), async (tx) => {
      const own = await tx.updateTable('profiles').set({ bio: 'I teach optics.' }).where('id', '=', alice).executeTakeFirst()
      const other = await tx.updateTable('profiles').set({ bio: 'hacked' }).where('id', '=', bob).executeTakeFirst()
      return { own: Number(own.numUpdatedRows), other: Number(other.numUpdatedRows) }
    })
    expect(updated).toEqual({ own: 1, other: 0 })
    const bios = await asServiceRole('test: read back both profiles', (tx) =>
      tx.selectFrom('profiles').select(['id', 'bio']).where('id', 'in', [alice, bob]).execute(),
    )
    expect(Object.fromEntries(bios.map((row) => [row.id, row.bio]))).toEqual({ [alice]: 'I teach optics.', [bob]: '' })
  })

  it('rolls the whole transaction back when the work fails', async () => {
    await expect(
      asCaller(claimsFor(alice), async (tx) => {
        await tx.updateTable('profiles').set({ bio: 'half-written' }).where('id', '=', alice).execute()
        throw new Error('boom')
      }),
    ).rejects.toThrow('boom')
    const profile = await asCaller(null, (tx) =>
      tx.selectFrom('profiles').select('bio').where('id', '=', alice).executeTakeFirstOrThrow(),
    )
    expect(profile.bio).toBe('I teach optics.')
  })

  it('lets the database refuse what the app forgot to check', async () => {
    // A learner is not a verified creator: the insert policy says no, whatever the app did.
    await expect(
      asCaller(claimsFor(bob), (tx) =>
        tx.insertInto('videos').values({ creator_id: bob, title: 'Sneaky upload', category_id: 'other' }).execute(),
      ),
    ).rejects.toMatchObject({ code: '42501' })
  })

  it('keeps each caller’s identity inside its own transaction under concurrency', async () => {
    const callers = [alice, bob, null, alice, bob, null]
    const seen = await Promise.all(
      callers.map((user) =>
        asCaller(user ? claimsFor(user) : null, async (tx) => {
          await sql`select pg_sleep(0.01)`.execute(tx)
          return (await whoAmI.execute(tx)).rows[0]?.uid ?? null
        }),
      ),
    )
    expect(seen).toEqual(callers)
    const after = await asCaller(null, (tx) => whoAmI.execute(tx))
    expect(after.rows[0]).toEqual({ uid: null, role: 'anon' })
  })

  it('bypasses row-level security only through asServiceRole, which needs a reason', async () => {
    await expect(asServiceRole('  ', async () => 1)).rejects.toThrow(/needs a reason/)
    const { rows } = await asServiceRole('test: the service role', (tx) => whoAmI.execute(tx))
    expect(rows[0]?.role).toBe('service_role')
  })

  const txid = sql<{ id: string }>`select txid_current()::text as id`

  it('inOneTransaction: the reads inside it, also side by side, share one transaction as the caller', async () => {
    const claims = claimsFor(alice)
    const seen = await inOneTransaction(claims, async () => {
      const first = await asCaller(claims, (tx) => txid.execute(tx))
      const [a, b, who] = await Promise.all([
        asCaller(claims, (tx) => txid.execute(tx)),
        asCaller(claims, (tx) => txid.execute(tx)),
        asCaller(claims, (tx) => whoAmI.execute(tx)),
      ])
      return { ids: new Set([first, a, b].map((result) => result.rows[0]!.id)), who: who.rows[0] }
    })
    expect(seen.ids.size).toBe(1)
    expect(seen.who).toEqual({ uid: alice, role: 'authenticated' })
    // Outside it, each asCaller is its own transaction again.
    const [x, y] = [await asCaller(claims, (tx) => txid.execute(tx)), await asCaller(claims, (tx) => txid.execute(tx))]
    expect(x.rows[0]!.id).not.toBe(y.rows[0]!.id)
  })

  it('inOneTransaction refuses another caller or the service role inside it, rather than wait for a second connection', async () => {
    await expect(inOneTransaction(claimsFor(alice), () => asCaller(claimsFor(bob), (tx) => whoAmI.execute(tx)))).rejects.toThrow(
      /another caller/,
    )
    await expect(inOneTransaction(null, () => asServiceRole('test', (tx) => whoAmI.execute(tx)))).rejects.toThrow(
      /inside inOneTransaction/,
    )
  })

  it('inOneTransaction waits for work still running after a failure before it rolls back', async () => {
    const claims = claimsFor(alice)
    let finished = false
    await expect(
      inOneTransaction(claims, () =>
        Promise.all([
          asCaller(claims, async () => {
            throw new Error('first fails')
          }),
          asCaller(claims, async (tx) => {
            await new Promise((resolve) => setTimeout(resolve, 50))
            await whoAmI.execute(tx).catch(() => {})
            finished = true
          }),
        ]),
      ),
    ).rejects.toThrow('first fails')
    expect(finished).toBe(true)
    // The connection is clean for the next caller.
    const { rows } = await asCaller(claimsFor(bob), (tx) => whoAmI.execute(tx))
    expect(rows[0]).toEqual({ uid: bob, role: 'authenticated' })
  })

  it('a statement marked preparedAs keeps its plan on the connection, and row-level security still judges each caller (ADR 0063)', async () => {
    await pool.query(
      `insert into public.notifications (recipient_id, type) select $1::uuid, 'followed' union all select $2::uuid, 'followed' from generate_series(1, 2)`,
      [alice, bob],
    )
    const mine = sql<{ uid: string; seen: number; plans: number }>`${preparedAs('as-caller-test')}select auth.uid() as uid,
        (select count(*)::int from public.notifications where type = ${'followed'}) as seen,
        (select (generic_plans + custom_plans)::int from pg_prepared_statements where name = 'as-caller-test') as plans`
    // After five runs Postgres may keep one generic plan for it: auth.uid() is read at run time either way.
    const seen: Array<{ uid: string; seen: number }> = []
    let plans = 0
    for (let round = 0; round < 8; round++)
      for (const id of [alice, bob]) {
        const { rows } = await asCaller(claimsFor(id), (tx) => mine.execute(tx))
        seen.push({ uid: rows[0]!.uid, seen: rows[0]!.seen })
        plans = Math.max(plans, rows[0]!.plans ?? 0)
      }
    expect(new Set(seen.map((row) => `${row.uid}:${row.seen}`))).toEqual(new Set([`${alice}:1`, `${bob}:2`]))
    // The statement was prepared (pg_prepared_statements counts its runs on one of the pool's connections).
    expect(plans).toBeGreaterThan(1)
    // After the pool ends its idle client and opens another (PGlite's is one session under every client), it still runs.
    const idle = pool.options.idleTimeoutMillis
    pool.options.idleTimeoutMillis = 1
    try {
      const held = await Promise.all(Array.from({ length: pool.totalCount }, () => pool.connect()))
      for (const client of held) client.release()
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect(pool.totalCount).toBe(0)
      const { rows } = await asCaller(claimsFor(bob), (tx) => mine.execute(tx))
      expect(rows[0]).toMatchObject({ uid: bob, seen: 2 })
    } finally {
      pool.options.idleTimeoutMillis = idle
    }
  })
})
