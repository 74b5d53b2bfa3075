import { spawn } from 'node:child_process'
import { randomBytes, createHash } from 'node:crypto'
import path from 'node:path'
import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../db/connect'
import { makeClip } from '../integration/media/clips'
import { freePort, haveBuild, readKeys, ROOT, startServer, tempDataDir, type RunningServer } from './support/processes'

/**
 * ADR 0017 on the embedded default (`npm start`, PGlite): `npm run
 * db:backup` while it serves, `npm run doctor` through it, SIGKILL in the
 * middle of writes (every acknowledged write is there after the restart),
 * and `npm run db:restore` into a fresh folder (every row and file back).
 */
function npmScript(script: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env, LOG_LEVEL: 'warn', VITEST: '' } as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.on('exit', (code) => resolve({ code, output }))
  })
}

const sha256 = (bytes: Buffer | ArrayBuffer) =>
  createHash('sha256')
    .update(Buffer.from(bytes as ArrayBuffer))
    .digest('hex')

describe.skipIf(!haveBuild())('embedded mode: backups, crashes, reconciliation', () => {
  let data: Awaited<ReturnType<typeof tempDataDir>>
  let restored: Awaited<ReturnType<typeof tempDataDir>>
  let server: RunningServer | undefined
  const files = new Map<string, string>()
  const users: { email: string; password: string }[] = []

  beforeAll(async () => {
    data = await tempDataDir('embedded')
    restored = await tempDataDir('restored')
    server = await startServer({ dataDir: data.dir, port: await freePort() })
  })
  afterAll(async () => {
    await server?.kill('SIGKILL')
    await data?.remove()
    await restored?.remove()
  })

  async function put(url: string, key: string, name: string, bytes: Buffer) {
    const response = await fetch(`${url}/storage/v1/object/media/${name}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'video/mp4' },
      body: new Uint8Array(bytes),
    })
    if (response.status !== 200) throw new Error(`upload ${name}: ${response.status} ${await response.text()}`)
  }
  async function addUser(url: string, key: string, email: string, password: string) {
    const response = await fetch(`${url}/auth/v1/admin/users`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, apikey: key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password, email_confirm: true, user_metadata: { role: 'user' } }),
    })
    if (response.status !== 200) throw new Error(`user ${email}: ${response.status} ${await response.text()}`)
  }
  async function get(url: string, key: string, name: string) {
    const response = await fetch(`${url}/storage/v1/object/media/${name}`, { headers: { Authorization: `Bearer ${key}` } })
    return response.status === 200 ? sha256(await response.arrayBuffer()) : `missing (${response.status})`
  }
  async function signIn(url: string, anonKey: string, user: { email: string; password: string }) {
    const response = await fetch(`${url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: anonKey, 'Content-Type': 'application/json' },
      body: JSON.stringify(user),
    })
    return response.status
  }

  it('SIGKILL mid-writes: the database reopens with every acknowledged write', async () => {
    const keys = await readKeys(data.dir)
    const running = server!
    // Writes keep coming; each one counts only once its response arrived.
    let writing = true
    const writer = async (lane: number) => {
      for (let index = 0; writing; index++) {
        const name = `crash/${lane}-${index}.mp4`
        const bytes = randomBytes(4096 + index)
        const user = { email: `crash-${lane}-${index}@example.test`, password: `Pw-${randomBytes(8).toString('hex')}` }
        try {
          await put(running.url, keys.serviceRoleKey, name, bytes)
          files.set(name, sha256(bytes))
          await addUser(running.url, keys.serviceRoleKey, user.email, user.password)
          users.push(user)
        } catch {
          return // the server is gone
        }
      }
    }
    const lanes = [0, 1, 2].map(writer)
    while (files.size < 12) await new Promise((resolve) => setTimeout(resolve, 50))
    running.child.kill('SIGKILL')
    writing = false
    await Promise.all(lanes)
    expect(await running.exited).toMatchObject({ signal: 'SIGKILL' })

    server = await startServer({ dataDir: data.dir, port: running.port })
    for (const [name, hash] of files) expect(await get(server.url, keys.serviceRoleKey, name)).toBe(hash)
    for (const user of users) expect(await signIn(server.url, keys.anonKey, user)).toBe(200)
  })

  it('npm run doctor, asked of the running server, finds nothing lost and nothing orphaned', async () => {
    const result = await npmScript('scripts/doctor.ts', [], { DATA_DIR: data.dir })
    expect(result.output).toContain('run by the server')
    expect(result.output).toContain('nothing wrong')
    expect(result.code).toBe(0)
  })

  it('npm run db:backup while it serves, then db:restore into a fresh folder brings back every row and file', async () => {
    const file = path.join(restored.dir, 'backup.tar.gz')
    const backup = await npmScript('scripts/db-backup.ts', [file], { DATA_DIR: data.dir })
    expect(backup.output).toContain('taken by the running server')
    expect(backup.code).toBe(0)
    // The server kept serving.
    expect((await fetch(`${server!.url}/readyz`)).status).toBe(200)

    const target = path.join(restored.dir, 'data')
    const restore = await npmScript('scripts/db-restore.ts', [file], { DATA_DIR: target })
    expect(restore.output).toContain('restored')
    expect(restore.code).toBe(0)

    const again = await startServer({ dataDir: target, port: await freePort() })
    try {
      const keys = await readKeys(target)
      expect(keys).toEqual(await readKeys(data.dir))
      for (const [name, hash] of files) expect(await get(again.url, keys.serviceRoleKey, name)).toBe(hash)
      for (const user of users) expect(await signIn(again.url, keys.anonKey, user)).toBe(200)
    } finally {
      await again.kill('SIGTERM')
    }
    const doctor = await npmScript('scripts/doctor.ts', [], { DATA_DIR: target })
    expect(doctor.output).toContain('nothing wrong')
  })
})

describe.skipIf(!haveBuild())('embedded mode: a media job left from the last run', () => {
  it('is taken once the restarted server listens, and its first attempt downloads its source', async () => {
    const data = await tempDataDir('pending-job')
    let server: RunningServer | undefined
    try {
      server = await startServer({ dataDir: data.dir, port: await freePort() })
      const keys = await readKeys(data.dir)
      const created = await fetch(`${server.url}/auth/v1/admin/users`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${keys.serviceRoleKey}`,
          apikey: keys.serviceRoleKey,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ email: 'pending@example.test', password: 'Pw-pending-1', email_confirm: true }),
      })
      const creatorId = ((await created.json()) as { id: string }).id
      const source = `${creatorId}/videos/pending.mp4`
      const clip = await readFile(await makeClip(path.join(data.dir, 'pending.mp4'), { seconds: 1 }))
      const stored = await fetch(`${server.url}/storage/v1/object/uploads/${source}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${keys.serviceRoleKey}`, 'Content-Type': 'video/mp4' },
        body: new Uint8Array(clip),
      })
      expect(stored.status).toBe(200)
      await server.kill('SIGTERM')

      // Queued while no server runs (PGlite is one process's): the job waits for the next start.
      const handle = await openDatabase({ dataDir: path.join(data.dir, 'pglite') })
      let videoId: string
      try {
        const { rows } = await handle.pool.query<{ id: string }>(
          `insert into public.videos (creator_id, title, type, source_path) values ($1, 'Left over', 'video', $2) returning id`,
          [creatorId, source],
        )
        videoId = rows[0]!.id
      } finally {
        await handle.close()
      }

      server = await startServer({ dataDir: data.dir, port: await freePort() })
      const ready = await server.waitForLog(
        (line) => typeof line.msg === 'string' && line.msg.includes(`video ${videoId}`) && /: ready: /.test(line.msg),
      )
      expect(ready.msg).toContain('attempt 1/')
      expect(server.output.filter((line) => line.includes('could not download'))).toEqual([])
    } finally {
      await server?.kill('SIGTERM')
      await data.remove()
    }
  })
})
