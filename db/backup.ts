import { spawn } from 'node:child_process'
import { copyFile, link, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto'
import { uuid_ossp } from '@electric-sql/pglite/contrib/uuid_ossp'
import type { DatabaseHandle } from './connect'

/**
 * Backups of the embedded mode (ADR 0017; server modes use pg_dump or
 * Supabase's backups, see README). One `.tar.gz` holds:
 * - `pglite.tar`: PGlite's own dump of its data directory, taken after a
 *   CHECKPOINT while this process holds the pool's only connection, so no
 *   transaction is half-way;
 * - `storage/objects/<bucket>/<version>`: the stored files, hard-linked in
 *   the same moment (object files are never rewritten, only added and
 *   removed, so a link made then keeps exactly the bytes the dump's rows
 *   name, whatever is deleted afterwards);
 * - `keys.json`: the stand-in's keys, so sessions and signed URLs stay
 *   valid after a restore. The backup is as secret as the data folder.
 * The running server takes it (`npm run db:backup` asks it over loopback),
 * without stopping.
 */
export async function backupEmbedded(handle: DatabaseHandle, dataDir: string, outFile: string): Promise<{ objects: number }> {
  if (handle.kind !== 'pglite' || !handle.lite) throw new Error('backupEmbedded is for the embedded (PGlite) database')
  const staging = await mkdtemp(path.join(dataDir, '.backup-'))
  try {
    let objects = 0
    const client = await handle.pool.connect()
    try {
      await client.query('checkpoint')
      const dump = await handle.lite.dumpDataDir('none')
      await writeFile(path.join(staging, 'pglite.tar'), Buffer.from(await dump.arrayBuffer()))
      objects = await linkTree(path.join(dataDir, 'storage/objects'), path.join(staging, 'storage/objects'))
    } finally {
      client.release()
    }
    await copyFile(path.join(dataDir, 'keys.json'), path.join(staging, 'keys.json')).catch(() => {})
    await writeFile(
      path.join(staging, 'lumen-backup.json'),
      JSON.stringify({ format: 1, takenAt: new Date().toISOString(), objects }),
    )
    const partial = `${outFile}.partial`
    await run('tar', ['-czf', partial, '-C', staging, '.'])
    await rename(partial, outFile)
    return { objects }
  } finally {
    await rm(staging, { recursive: true, force: true })
  }
}

/** Brings a backup back into `dataDir`, which must hold no database yet. */
export async function restoreEmbedded(file: string, dataDir: string): Promise<{ objects: number }> {
  await mkdir(dataDir, { recursive: true })
  if ((await readdir(path.join(dataDir, 'pglite')).catch(() => [])).length) {
    throw new Error(`${dataDir}/pglite already holds a database: restore into an empty DATA_DIR (or move it aside first)`)
  }
  const staging = await mkdtemp(path.join(dataDir, '.restore-'))
  try {
    await run('tar', ['-xzf', path.resolve(file), '-C', staging])
    const manifest = JSON.parse(await readFile(path.join(staging, 'lumen-backup.json'), 'utf8')) as { format: number }
    if (manifest.format !== 1) throw new Error(`unknown backup format ${manifest.format}`)
    const tarball = await readFile(path.join(staging, 'pglite.tar'))
    const lite = await PGlite.create(path.join(dataDir, 'pglite'), {
      loadDataDir: new Blob([tarball]),
      extensions: { pgcrypto, uuid_ossp },
    })
    await lite.close()
    const objects = await countFiles(path.join(staging, 'storage/objects'))
    await mkdir(path.join(dataDir, 'storage'), { recursive: true })
    await rm(path.join(dataDir, 'storage/objects'), { recursive: true, force: true })
    await rename(path.join(staging, 'storage/objects'), path.join(dataDir, 'storage/objects')).catch(
      async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error
        await mkdir(path.join(dataDir, 'storage/objects'), { recursive: true })
      },
    )
    if (await stat(path.join(staging, 'keys.json')).catch(() => null)) {
      await rename(path.join(staging, 'keys.json'), path.join(dataDir, 'keys.json'))
    }
    return { objects }
  } finally {
    await rm(staging, { recursive: true, force: true })
  }
}

async function linkTree(from: string, to: string): Promise<number> {
  let count = 0
  await mkdir(to, { recursive: true })
  for (const entry of await readdir(from, { withFileTypes: true }).catch(() => [])) {
    const source = path.join(from, entry.name)
    if (entry.isDirectory()) count += await linkTree(source, path.join(to, entry.name))
    else if (entry.isFile()) {
      await link(source, path.join(to, entry.name)).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return // removed meanwhile: its row was replaced before the dump
        if (error.code === 'EXDEV' || error.code === 'EPERM') await copyFile(source, path.join(to, entry.name))
        else throw error
      })
      count++
    }
  }
  return count
}

async function countFiles(dir: string): Promise<number> {
  let count = 0
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    if (entry.isDirectory()) count += await countFiles(path.join(dir, entry.name))
    else count++
  }
  return count
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} failed (${code}): ${stderr.trim()}`))))
  })
}
