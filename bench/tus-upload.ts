import { randomBytes, randomUUID } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { copyFile, mkdtemp, rm, unlink } from 'node:fs/promises'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { pathToFileURL } from 'node:url'
import { createClient } from '@supabase/supabase-js'
import * as tus from 'tus-js-client'
import { nodeRealtimeOptions } from '../db/supabase-node'
import { startStack } from '../tests/support/stack'

/**
 * Resumable upload throughput: the same 100 MiB of random bytes uploaded
 * with tus-js-client (Supabase's documented settings: 6 MiB chunks, data
 * with the creation request) to a stand-in on loopback, next to a plain
 * `fs.copyFile` and a streamed copy of those bytes on the same disk, all in
 * one run — the copies are the ceiling the upload is judged against.
 */
const MiB = 1024 * 1024
const SIZE = 100 * MiB
const ROUNDS = 3

export async function benchTusUpload(): Promise<{ name: string; lines: string[] }> {
  const running = await startStack()
  const scratch = await mkdtemp(path.join(path.dirname(running.dataDir), 'lumen-bench-tus-'))
  try {
    const source = path.join(scratch, 'source.mp4')
    await writeRandomFile(source, SIZE)
    const token = await signedInUser(running.url, running.serviceRoleKey, running.anonKey)
    const userId = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub as string

    const copy = await median(async () => {
      const target = path.join(scratch, `copy-${randomUUID()}`)
      const seconds = await timed(() => copyFile(source, target))
      await unlink(target)
      return seconds
    })
    const streamed = await median(async () => {
      const target = path.join(scratch, `stream-${randomUUID()}`)
      const seconds = await timed(() => pipeline(createReadStream(source), createWriteStream(target)))
      await unlink(target)
      return seconds
    })
    const upload = await median(() =>
      timed(() => tusUpload(running.url, running.anonKey, token, source, `${userId}/quotes/bench-${randomUUID()}.mp4`)),
    )

    const rate = (seconds: number) => SIZE / 1e6 / seconds
    const format = (seconds: number) => `${rate(seconds).toFixed(0)} MB/s (${(seconds * 1000).toFixed(0)} ms)`
    return {
      name: 'TUS upload vs a plain copy of the same 100 MiB',
      lines: [
        `tus-js-client → stand-in on loopback, 6 MiB chunks: ${format(upload)}`,
        `fs.copyFile on the same disk:                       ${format(copy)}`,
        `streamed copy (read → write stream), same disk:     ${format(streamed)}`,
        `ratio upload / copyFile: ${(rate(upload) / rate(copy)).toFixed(2)}; upload / streamed copy: ${(rate(upload) / rate(streamed)).toFixed(2)}`,
        `(median of ${ROUNDS} rounds each; page cache, no fsync, on either side)`,
      ],
    }
  } finally {
    await rm(scratch, { recursive: true, force: true })
    await running.close()
  }
}

async function writeRandomFile(file: string, size: number) {
  async function* chunks() {
    for (let left = size; left > 0; left -= MiB) yield randomBytes(Math.min(MiB, left))
  }
  await pipeline(chunks(), createWriteStream(file))
}

/** A learner with a session, made through the auth admin API like the test fixtures. */
async function signedInUser(url: string, serviceRoleKey: string, anonKey: string): Promise<string> {
  const options = { ...nodeRealtimeOptions, auth: { persistSession: false, autoRefreshToken: false } }
  const email = `bench-${randomUUID().slice(0, 8)}@lumen.test`
  const password = `pw-${randomUUID()}`
  const created = await createClient(url, serviceRoleKey, options).auth.admin.createUser({
    email,
    password,
    email_confirm: true,
    user_metadata: { username: `bench_${randomUUID().slice(0, 8)}` },
  })
  if (created.error) throw created.error
  const signedIn = await createClient(url, anonKey, options).auth.signInWithPassword({ email, password })
  if (signedIn.error) throw signedIn.error
  return signedIn.data.session.access_token
}

function tusUpload(url: string, anonKey: string, token: string, file: string, objectName: string): Promise<void> {
  return new Promise((resolve, reject) => {
    new tus.Upload(createReadStream(file), {
      endpoint: `${url}/storage/v1/upload/resumable`,
      retryDelays: [0, 3000, 5000, 10000, 20000],
      headers: { authorization: `Bearer ${token}`, apikey: anonKey },
      uploadDataDuringCreation: true,
      removeFingerprintOnSuccess: true,
      metadata: { bucketName: 'uploads', objectName, contentType: 'video/mp4', cacheControl: '3600' },
      chunkSize: 6 * MiB,
      onSuccess: () => resolve(),
      onError: reject,
    }).start()
  })
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint()
  await work()
  return Number(process.hrtime.bigint() - started) / 1e9
}

async function median(measure: () => Promise<number>): Promise<number> {
  const results: number[] = []
  for (let round = 0; round < ROUNDS; round++) results.push(await measure())
  return results.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { name, lines } = await benchTusUpload()
  console.log(`${name}\n${lines.map((line) => `  ${line}`).join('\n')}`)
}
