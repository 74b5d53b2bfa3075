import { createReadStream } from 'node:fs'
import { open } from 'node:fs/promises'
import { Agent, request } from 'node:http'
import { pathToFileURL } from 'node:url'
import * as tus from 'tus-js-client'

/**
 * The uploading side of the TUS bench: tus-js-client with Supabase's
 * documented settings (6 MiB chunks, data with the creation request, the
 * documented retry delays), as the app's upload page runs it. Run as a
 * child process (`fork`), it uploads what the parent asks for and answers
 * the seconds it took — the uploader then has its own process, as a
 * browser has, instead of sharing the server's thread. A job with `bare`
 * sends the same bytes the same way (6 MiB reads, one request each, one
 * after the other) to a bare Node HTTP server: the ceiling of any Node
 * server on the machine.
 */
export interface UploadJob {
  endpoint: string
  anonKey: string
  token: string
  file: string
  objectName: string
  /** Send the chunks as plain PUTs to this bare server's URL instead. */
  bare?: string
}

export type UploadResult = { seconds: number } | { error: string }

export const CHUNK_SIZE = 6 * 1024 * 1024

export function tusUpload(job: UploadJob): Promise<void> {
  return new Promise((resolve, reject) => {
    new tus.Upload(createReadStream(job.file), {
      endpoint: job.endpoint,
      retryDelays: [0, 3000, 5000, 10000, 20000],
      headers: { authorization: `Bearer ${job.token}`, apikey: job.anonKey },
      uploadDataDuringCreation: true,
      removeFingerprintOnSuccess: true,
      metadata: { bucketName: 'uploads', objectName: job.objectName, contentType: 'video/mp4', cacheControl: '3600' },
      chunkSize: CHUNK_SIZE,
      onSuccess: () => resolve(),
      onError: reject,
    }).start()
  })
}

/** The file in CHUNK_SIZE slices, each PUT on a kept-alive connection once the previous one is answered. */
async function bareUpload(url: string, file: string): Promise<void> {
  const agent = new Agent({ keepAlive: true })
  const handle = await open(file)
  try {
    const { size } = await handle.stat()
    for (let offset = 0; offset < size; offset += CHUNK_SIZE) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK_SIZE, size - offset))
      await handle.read(chunk, 0, chunk.length, offset)
      await new Promise<void>((resolve, reject) => {
        const req = request(url, { method: 'PUT', agent }, (res) => {
          res.resume()
          res.on('end', resolve)
        })
        req.on('error', reject)
        req.end(chunk)
      })
    }
  } finally {
    await handle.close()
    agent.destroy()
  }
}

export async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint()
  await work()
  return Number(process.hrtime.bigint() - started) / 1e9
}

if (process.send && import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.on('message', (job: UploadJob) => {
    timed(() => (job.bare ? bareUpload(job.bare, job.file) : tusUpload(job))).then(
      (seconds) => process.send!({ seconds } satisfies UploadResult),
      (error: Error) => process.send!({ error: error.message } satisfies UploadResult),
    )
  })
}
