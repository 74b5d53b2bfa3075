/**
 * The e2e suite's starting data, made once per `npm test`: the production
 * server starts on an empty data folder, seeds the demo accounts and content,
 * and runs until its media worker has published every demo video; then it is
 * stopped and each Playwright shard gets its own copy of the folder
 * (database, storage, keys, mailbox). Each shard so starts in seconds from the
 * same state — the demo videos ready — instead of transcoding them again
 * while its tests run.
 */
import { spawn } from 'node:child_process'
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { DEMO_CLIPS, DEMO_CREATOR_ID } from '../stack/demo-content'
import type { StackKeys } from '../stack/keys'

const READY_WITHIN_MS = 6 * 60_000

export interface E2eData {
  /** One folder per shard, copies of the prepared one. */
  shards: string[]
  remove(): Promise<void>
}

export async function prepareE2eData(shardCount: number, port: number): Promise<E2eData> {
  const template = await mkdtemp(path.join(tmpdir(), 'lumen-e2e-template-'))
  const made: string[] = [template]
  const remove = async () => {
    await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })))
  }
  try {
    const started = Date.now()
    await runUntilDemoReady(template, port)
    console.log(`e2e data ready in ${((Date.now() - started) / 1000).toFixed(0)} s`)
    const shards: string[] = []
    for (let index = 0; index < shardCount; index++) {
      const dir = await mkdtemp(path.join(tmpdir(), 'lumen-e2e-'))
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

async function runUntilDemoReady(dataDir: string, port: number) {
  const server = spawn('npx', ['cross-env', 'NODE_ENV=production', 'tsx', 'server.ts'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir },
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
