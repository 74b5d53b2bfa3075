import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CATEGORIES, CONCENTRATIONS, FIELDS_OF_INTEREST, REPORT_REASONS } from '../../app/lib/catalog'
import type { DatabaseHandle } from '../../db/connect'
import { migratedDatabase } from '../support/databases'

/** The app's fixed lists and the database's constraints must say the same thing. */
describe('the catalog and the database agree', () => {
  let handle: DatabaseHandle
  let dispose: () => Promise<void>
  beforeAll(async () => {
    ;({ handle, dispose } = await migratedDatabase('pglite'))
  })
  afterAll(() => dispose())

  it('on the categories, in order', async () => {
    const { rows } = await handle.pool.query('select id, name from public.categories order by position')
    expect(rows).toEqual(CATEGORIES.map(({ id, name }) => ({ id, name })))
  })

  it.each([
    ['field_of_interest', FIELDS_OF_INTEREST],
    ['concentration', CONCENTRATIONS],
  ] as const)('on every allowed %s', async (column, values) => {
    for (const value of values) {
      await expect(allowed(`public.profiles`, column, value)).resolves.toBe(true)
    }
    await expect(allowed('public.profiles', column, 'Astrology')).resolves.toBe(false)
  })

  it('on the report reasons', async () => {
    for (const reason of REPORT_REASONS) await expect(allowed('public.reports', 'reason', reason.id)).resolves.toBe(true)
    await expect(allowed('public.reports', 'reason', 'boring')).resolves.toBe(false)
  })

  /** Whether the table's check constraints accept `value` in `column` (tested on a throwaway copy). */
  async function allowed(table: string, column: string, value: string): Promise<boolean> {
    const client = await handle.pool.connect()
    try {
      await client.query('begin')
      await client.query(`create temporary table probe (like ${table} including constraints) on commit drop`)
      const checks = await client.query<{ def: string }>(
        `select pg_get_constraintdef(oid) as def from pg_constraint where conrelid = 'probe'::regclass and contype = 'c'`,
      )
      const relevant = checks.rows.map((row) => row.def).filter((def) => def.includes(column))
      if (!relevant.length) throw new Error(`no check constraint on ${table}.${column}`)
      const { rows } = await client.query<{ ok: boolean }>(
        `select ${relevant.map((def) => `(${def.replace(/^CHECK /, '')})`).join(' and ')} as ok from (select $1::text as ${column}) v`,
        [value],
      )
      return rows[0]?.ok ?? false
    } finally {
      await client.query('rollback')
      client.release()
    }
  }
})
