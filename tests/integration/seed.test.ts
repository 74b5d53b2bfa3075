import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '../../db/connect'
import { seedDemoData } from '../../db/seed'
import { databaseKinds, migratedDatabase } from '../support/databases'

describe.each(databaseKinds)('demo data on %s', (kind) => {
  let handle: DatabaseHandle
  let dispose: () => Promise<void>

  beforeAll(async () => {
    ;({ handle, dispose } = await migratedDatabase(kind))
  })
  afterAll(() => dispose())

  it('loads the four demo accounts once, however often it runs', async () => {
    expect(await seedDemoData(handle.pool)).toBe(true)
    expect(await seedDemoData(handle.pool)).toBe(false)
    const { rows } = await handle.pool.query<{ n: number }>(
      "select count(*)::int as n from auth.users where email like '%@lumen.test'",
    )
    expect(rows[0]?.n).toBe(4)
  })

  it('gives each demo account the role and review state the README promises', async () => {
    const { rows } = await handle.pool.query(`
      select u.email, p.username, p.role, p.is_verified,
             (select a.status from public.creator_applications a where a.creator_id = p.id) as application,
             (select array_agg(c.status order by c.category_id) from public.creator_categories c where c.creator_id = p.id) as categories
        from auth.users u join public.profiles p on p.id = u.id
       where u.email like '%@lumen.test' order by u.email`)
    expect(rows).toEqual([
      { email: 'admin@lumen.test', username: 'ada.admin', role: 'admin', is_verified: true, application: null, categories: null },
      {
        email: 'creator@lumen.test',
        username: 'maya.creates',
        role: 'creator',
        is_verified: true,
        application: 'approved',
        categories: ['approved', 'approved', 'approved'],
      },
      { email: 'learner@lumen.test', username: 'leo.learns', role: 'user', is_verified: false, application: null, categories: null },
      {
        email: 'newcreator@lumen.test',
        username: 'noah.new',
        role: 'creator',
        is_verified: false,
        application: 'pending',
        categories: ['pending', 'pending'],
      },
    ])
  })

  it('stores the documented password as a bcrypt hash GoTrue accepts', async () => {
    const { rows } = await handle.pool.query<{ ok: boolean; hash: string }>(
      `select encrypted_password = extensions.crypt('Lumen-demo-2026', encrypted_password) as ok, encrypted_password as hash
         from auth.users where email = 'learner@lumen.test'`,
    )
    expect(rows[0]?.ok).toBe(true)
    expect(rows[0]?.hash).toMatch(/^\$2[aby]\$10\$/)
  })
})
