/**
 * The Deno side of the functions runner: the main module of each function's
 * Deno process (this file runs in Deno, not Node). It loads the function —
 * a module that calls `Deno.serve(handler)`, or one whose default export has
 * `fetch`, the two forms edge-runtime accepts — makes it listen on a loopback
 * port the OS picks (a function's own hostname/port options are overridden, as
 * edge-runtime ignores them too), and prints that port for the router.
 *
 * Usage: deno run … deno-boot.ts <file URL of the function's index.ts>
 *
 * Typed through `globalThis` against the few Deno APIs it uses, so Node's tsc
 * checks it along with the rest of `stack/` and Deno runs it unchanged.
 */
type Handler = (request: Request, info: unknown) => Response | Promise<Response>

interface ServeOptions {
  handler?: Handler
  hostname?: string
  port?: number
  onListen?: (address: { hostname: string; port: number }) => void
  [option: string]: unknown
}

interface DenoApi {
  args: string[]
  stdin: { readable: ReadableStream<Uint8Array> }
  serve(options: ServeOptions | Handler, handler?: Handler): unknown
  exit(code: number): never
}

/** The router waits for this line on stdout; keep it in step with deno-process.ts. */
const LISTENING = 'lumen-function-listening'

const runtime = globalThis as unknown as { Deno: DenoApi; EdgeRuntime?: unknown }
const deno: DenoApi = runtime.Deno
const entry = deno.args[0]
if (!entry) {
  console.error('deno-boot: pass the function module URL')
  deno.exit(2)
}

// The router keeps our stdin open; when it closes, the Node process that
// started us is gone (even by SIGKILL), so no Deno process outlives it.
void (async () => {
  const stdin = deno.stdin.readable.getReader()
  while (!(await stdin.read()).done) {
    // Nothing is ever written; this only waits for the end of the stream.
  }
  deno.exit(0)
})()

// edge-runtime's background-task API. The process stays up between requests,
// so a task only needs its failure reported.
runtime.EdgeRuntime ??= {
  waitUntil(task: Promise<unknown>) {
    task.catch((error) => console.error('EdgeRuntime.waitUntil task failed:', error))
  },
}

let serving = false
const serve = deno.serve.bind(deno)
deno.serve = (first: ServeOptions | Handler, second?: Handler) => {
  if (serving) throw new Error('A function serves once: Deno.serve was called twice.')
  serving = true
  const options = typeof first === 'function' ? {} : first
  const handler = typeof first === 'function' ? first : (second ?? first.handler)
  return serve({
    ...options,
    handler,
    hostname: '127.0.0.1',
    port: 0,
    onListen: ({ port }) => console.log(`${LISTENING} ${port}`),
  })
}

const loaded = (await import(entry)) as { default?: { fetch?: Handler } }
if (!serving) {
  const fetchHandler = loaded.default?.fetch
  if (typeof fetchHandler !== 'function') {
    console.error('The function neither calls Deno.serve() nor exports a default object with fetch().')
    deno.exit(1)
  }
  deno.serve(fetchHandler.bind(loaded.default))
}

export {}
