/**
 * The e2e suite's starting data: the production server starts on an empty
 * data folder, seeds the demo accounts and content, and runs until its media
 * worker has published every demo video; then it is stopped and each
 * Playwright shard gets its own copy of the folder (database, storage, keys,
 * mailbox). Each shard so starts in seconds from the same state — the demo
 * videos ready — instead of transcoding them again while its tests run.
 *
 * The prepared folder is kept in the system's temporary folder
 * (`lumen-e2e-data-cache/<hash>`), named after everything that decides it
 * (`E2E_DATA_INPUTS`: schema, seed, stand-in, media worker, server; not the
 * pages) and the ffmpeg used, for a day: a later `npm test` on the same
 * machine copies it instead of preparing it again. `E2E_DATA_CACHE=0` turns
 * the cache off. The shards' copies go where tests keep their throwaway
 * databases (`scratchRoot()`: memory-backed where the machine allows).
 */
import { spawn } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { resolveMediaTools } from '../media/tools'
import { DEMO_CLIPS, DEMO_CREATOR_ID } from '../stack/demo-content'
import type { StackKeys } from '../stack/keys'
import { scratchRoot } from '../tests/support/scratch-dir'
import { E2E_DATA_INPUTS, sourceHash } from './source-hash'

const READY_WITHIN_MS = 6 * 60_000
/** A prepared folder older than this is made again (the demo videos' ages are relative to when it was made). */
const CACHE_FOR_MS = 24 * 3600_000
const CACHE_ROOT = path.join(tmpdir(), 'lumen-e2e-data-cache')
const COMPLETE = '.prepared'

export interface E2eData {
  /** One folder per shard, copies of the prepared one. */
  shards: string[]
  remove(): Promise<void>
}

export async function prepareE2eData(shardCount: number, port: number): Promise<E2eData> {
  const made: string[] = []
  const remove = async () => {
    await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })))
  }
  try {
    const template = await preparedFolder(port, made)
    const shards: string[] = []
    for (let index = 0; index < shardCount; index++) {
      const dir = await mkdtemp(path.join(scratchRoot(), 'lumen-e2e-'))
      made.push(dir)
      await cp(template, dir, { recursive: true })
      shards.push(dir)
    }
    return { shards, remove }
  } catch (error) {
    await remove()
    throw error
  }
}

/** The prepared folder: from the cache when it holds one for these inputs, else made now (and kept there). */
async function preparedFolder(port: number, made: string[]): Promise<string> {
  const started = Date.now()
  if (process.env.E2E_DATA_CACHE === '0') {
    const dir = await mkdtemp(path.join(tmpdir(), 'lumen-e2e-template-'))
    made.push(dir)
    await runUntilDemoReady(dir, port)
    console.log(`e2e data prepared in ${((Date.now() - started) / 1000).toFixed(0)} s (cache off)`)
    return dir
  }
  const key = sourceHash(E2E_DATA_INPUTS) + '-' + sourceHashOfText(resolveMediaTools().ffmpeg.path)
  const cached = path.join(CACHE_ROOT, key)
  if (fresh(cached)) {
    console.log(`e2e data from the cache (${cached})`)
    return cached
  }
  await mkdir(CACHE_ROOT, { recursive: true })
  await removeStale()
  const dir = await mkdtemp(path.join(CACHE_ROOT, 'making-'))
  try {
    await runUntilDemoReady(dir, port)
    await writeFile(path.join(dir, COMPLETE), new Date().toISOString())
    await rm(cached, { recursive: true, force: true })
    // Another run may have finished the same folder meanwhile: either copy will do.
    await rename(dir, cached).catch(() => rm(dir, { recursive: true, force: true }))
  } catch (error) {
    await rm(dir, { recursive: true, force: true })
    throw error
  }
  console.log(`e2e data prepared in ${((Date.now() - started) / 1000).toFixed(0)} s, kept in ${cached}`)
  return cached
}

function fresh(dir: string): boolean {
  const marker = path.join(dir, COMPLETE)
  return existsSync(marker) && Date.now() - statSync(marker).mtimeMs < CACHE_FOR_MS
}

/** Folders of other inputs (or half-made ones) older than the cache's lifetime. */
async function removeStale() {
  for (const name of await readdir(CACHE_ROOT).catch(() => [] as string[])) {
    const dir = path.join(CACHE_ROOT, name)
    const age = Date.now() - statSync(dir).mtimeMs
    if (age > CACHE_FOR_MS) await rm(dir, { recursive: true, force: true }).catch(() => undefined)
  }
}

function sourceHashOfText(text: string): string {
  let hash = 0
  for (const char of text) hash = (hash * 31 + char.charCodeAt(0)) >>> 0
  return hash.toString(16)
}

async function runUntilDemoReady(dataDir: string, port: number) {
  // The production server as `npm start` runs it (the build is made before the data).
  const server = spawn(process.execPath, ['scripts/start.mjs'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), DATA_DIR: dataDir },
    detached: true,
  })
  let output = ''
  for (const stream of [server.stdout, server.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => server.on('close', resolve))
  try {
    const deadline = Date.now() + READY_WITHIN_MS
    let ready = 0
    while (ready < DEMO_CLIPS.length) {
      if (server.exitCode !== null) throw new Error(`the server stopped while preparing e2e data:\n${output}`)
      if (Date.now() > deadline)
        throw new Error(`only ${ready} of ${DEMO_CLIPS.length} demo videos ready after 6 min:\n${output}`)
      ready = await readyDemoVideos(dataDir, port).catch(() => 0)
      if (ready < DEMO_CLIPS.length) await sleep(1000)
    }
  } finally {
    // SIGTERM: the server closes its database cleanly before it exits, so the folder can be copied.
    if (server.exitCode === null && server.pid) process.kill(-server.pid, 'SIGTERM')
    await exited
  }
}

/** How many demo videos the server lists as ready, asked as a visitor would ask its REST API. */
async function readyDemoVideos(dataDir: string, port: number): Promise<number> {
  const keys = JSON.parse(await readFile(path.join(dataDir, 'keys.json'), 'utf8')) as StackKeys
  const response = await fetch(`http://localhost:${port}/rest/v1/videos?select=id&status=eq.ready&creator_id=eq.${DEMO_CREATOR_ID}`, {
    headers: { apikey: keys.anonKey, authorization: `Bearer ${keys.anonKey}` },
  })
  if (!response.ok) return 0
  return ((await response.json()) as unknown[]).length
}
