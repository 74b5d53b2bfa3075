import { Writable } from 'node:stream'

/**
 * Where a page's `renderToPipeableStream` writes: the pieces are kept in memory
 * and handed over as one body when React has finished (app/entry.server.tsx).
 *
 * React 18's Node renderer encodes text into a 2048-byte buffer; when a string
 * crosses the buffer's end and its last character no longer fits (a curly quote
 * or a dash is three bytes), it sends the whole buffer anyway, so the one or two
 * bytes it left unwritten go out as NULs (React's fix is only in React 19). The
 * browser's parser turns such a NUL into U+FFFD — "Remove “Title\uFFFD”" in an
 * aria-label — wherever a multi-byte character lands on a 2 KB boundary. A page
 * never holds a NUL of its own (Postgres text cannot, and requests carrying one
 * are refused), so each piece's trailing NULs are dropped.
 */
export function htmlSink(onFinish: (body: ReturnType<typeof Buffer.concat>) => void): Writable {
  const chunks: Buffer[] = []
  const sink = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : withoutTrailingNuls(chunk))
      done()
    },
  })
  sink.on('finish', () => onFinish(Buffer.concat(chunks)))
  return sink
}

function withoutTrailingNuls(chunk: Buffer): Buffer {
  let end = chunk.length
  while (end > 0 && chunk[end - 1] === 0) end--
  return end === chunk.length ? chunk : chunk.subarray(0, end)
}
