import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type DatabaseHandle } from '../../db/connect'
import { passwordMatches } from '../../stack/auth/passwords'
import { adminPasswordProblem } from '../../scripts/create-admin'
import { createScratchDatabase, type ScratchDatabase } from '../support/postgres'

/**
 * ADR 0012, finding 1: a server install has no demo accounts, so its first
 * admin comes from `npm run create-admin`, with a password the spec scores
 * strong.
 */
const run = promisify(execFile)

describe('npm run create-admin', () => {
  let scratch: ScratchDatabase
  let handle: DatabaseHandle
  beforeAll(async () => {
    scratch = await createScratchDatabase('create_admin')
    handle = await openDatabase({ databaseUrl: scratch.url })
  })
  afterAll(async () => {
    await handle?.close()
    await scratch?.drop()
  })

  const createAdmin = (...args: string[]) =>
    run('npx', ['tsx', 'scripts/create-admin.ts', ...args], {
      env: { ...process.env, DATABASE_URL: scratch.url },
      timeout: 60_000,
    }).then(
      ({ stdout }) => ({ code: 0, stdout, stderr: '' }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    )

  it('refuses weak passwords by the spec\'s score', () => {
    expect(adminPasswordProblem('')).toMatch(/required/)
    expect(adminPasswordProblem('Sh0rt!')).toMatch(/too short/)
    expect(adminPasswordProblem('password')).toMatch(/weak/)
    expect(adminPasswordProblem('lumen-demo')).toMatch(/moderate/)
    expect(adminPasswordProblem('x'.repeat(80) + 'A1!')).toMatch(/longer than 72/)
    // The README publishes the demo accounts' password.
    expect(adminPasswordProblem('Lumen-demo-2026')).toMatch(/published/)
    expect(adminPasswordProblem('Lumen-admin-2026')).toBeUndefined()
    expect(adminPasswordProblem('Lumendemo2026')).toBeUndefined()
  })

  it('creates nothing for a weak password', async () => {
    const result = await createAdmin('--email', 'weak@example.com', '--username', 'weak_admin', '--password', 'password')
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/Password is weak/)
    const { rows } = await handle.pool.query(`select 1 from pg_namespace where nspname = 'auth'`)
    if (rows.length) expect((await handle.pool.query(`select 1 from auth.users`)).rowCount).toBe(0)
  })

  it('creates a confirmed user whose profile is an admin, once', async () => {
    const result = await createAdmin('--email', 'Root@Example.com', '--username', 'root.admin', '--password', 'Correct-Horse-9')
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/admin created: root@example.com/)
    const { rows } = await handle.pool.query<{ role: string; is_verified: boolean; username: string; encrypted_password: string; email_confirmed_at: Date | null }>(
      `select p.role, p.is_verified, p.username, u.encrypted_password, u.email_confirmed_at
       from auth.users u join public.profiles p on p.id = u.id where u.email = 'root@example.com'`,
    )
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ role: 'admin', is_verified: true, username: 'root.admin' })
    expect(rows[0]!.email_confirmed_at).not.toBeNull()
    expect(await passwordMatches('Correct-Horse-9', rows[0]!.encrypted_password)).toBe(true)
    // Nothing of the demo data came with it.
    expect((await handle.pool.query(`select 1 from auth.users where email like '%@lumen.test'`)).rowCount).toBe(0)

    const again = await createAdmin('--email', 'root@example.com', '--username', 'root2', '--password', 'Correct-Horse-9')
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/already exists/)
  })
})
