import { createWriteStream } from 'node:fs'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'

/**
 * Writes a download (the web stream Storage answers with) to `file`, stopping once it passes
 * `maxBytes`: false then (what was written is partial), true when all of it is there. Any other
 * failure, or `signal` aborting, is thrown. Shared by the app's checks of an upload
 * (app/server/upload-objects.server.ts) and the worker's downloads (worker/storage-io.ts).
 */
export async function writeWithinLimit(
  source: ReadableStream | WebReadableStream,
  file: string,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<boolean> {
  let received = 0
  let tooLarge = false
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length
      if (received > maxBytes) {
        tooLarge = true
        callback(new Error('larger than the upload limit'))
      } else callback(null, chunk)
    },
  })
  try {
    const input = Readable.fromWeb(source as WebReadableStream)
    if (signal) await pipeline(input, limit, createWriteStream(file), { signal })
    else await pipeline(input, limit, createWriteStream(file))
  } catch (error) {
    if (tooLarge) return false
    throw error
  }
  return true
}
