/**
 * `npx tsx bench/profile.ts [pglite|postgres] [route keys…]`: V8 CPU profiles
 * (the profiler behind `node --cpu-prof`, started and stopped over the
 * inspector so that each profile covers exactly one route's load) of the
 * production server under autocannon, with the SSR bench's data. Writes
 * `<route>.cpuprofile` files (open them in Chrome DevTools or speedscope)
 * under BENCH_PROFILE_DIR (default `.bench-profiles/`) and prints, per route,
 * where the time went: the costliest functions by self time and the share of
 * each part of the stack (inclusive).
 *
 * `BENCH_PROFILE_TWIN=1` also profiles each signed-in route's bare twin (bench/twin-server.ts: the
 * same markup from captured data, no session, no database) and prints, part by part, the CPU per
 * request of the page, of its twin and the difference: where a page's cost above its floor goes.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { WebSocket } from 'ws'
import { benchRoutes, seedVideos, type BenchRoute, type Seeded } from './ssr'
import { learnerCookie, load, startBenchServer, startTwinServer, type BenchServer, type LoadResult, type Target } from './server'

interface CallFrame {
  functionName: string
  url: string
  lineNumber: number
}
interface ProfileNode {
  id: number
  callFrame: CallFrame
  children?: number[]
}
export interface CpuProfile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
  startTime: number
  endTime: number
}

const args = process.argv.slice(2)
const target: Target = args[0] === 'postgres' ? 'postgres' : 'pglite'
const only = args.slice(args[0] === 'postgres' || args[0] === 'pglite' ? 1 : 0)
const SECONDS = Number(process.env.BENCH_SSR_SECONDS ?? 10)
const INSPECT_PORT = Number(process.env.BENCH_INSPECT_PORT ?? 3349)
const outDir = path.resolve(process.env.BENCH_PROFILE_DIR ?? '.bench-profiles')
const WITH_TWIN = Boolean(process.env.BENCH_PROFILE_TWIN)

/** Parts of the stack, matched on the frames' script URL and function name (first match wins, innermost frame first). */
const PARTS: Array<[string, (frame: CallFrame) => boolean]> = [
  ['garbage collection', (frame) => frame.functionName === '(garbage collector)'],
  ['React render (react-dom/server)', (frame) => /react-dom/.test(frame.url)],
  ['PGlite (Postgres in WASM)', (frame) => /@electric-sql\/pglite/.test(frame.url)],
  ['node-postgres (pg protocol)', (frame) => /node_modules\/pg(-protocol|-pool)?\//.test(frame.url)],
  ['Kysely', (frame) => /node_modules\/kysely/.test(frame.url)],
  ['Supabase clients (@supabase/*)', (frame) => /@supabase\//.test(frame.url)],
  ['JWT verification (jose)', (frame) => /node_modules\/jose/.test(frame.url)],
  ['Remix server runtime / router', (frame) => /@remix-run\/(server-runtime|router|node|express)/.test(frame.url)],
  ['turbo-stream (single fetch data)', (frame) => /turbo-stream/.test(frame.url)],
  ['Express', (frame) => /node_modules\/(express|router|send|serve-static|finalhandler)\//.test(frame.url)],
  ['zod', (frame) => /node_modules\/zod/.test(frame.url)],
  ['pino (logs)', (frame) => /node_modules\/pino/.test(frame.url)],
  ['app code (build/server)', (frame) => /\/build\/server\//.test(frame.url)],
  ['server.ts, ops/, stack/, db/', (frame) => /\/(server\.ts|ops\/|stack\/|db\/)/.test(frame.url)],
  ['Node internals (streams, http, crypto)', (frame) => frame.url.startsWith('node:') || frame.url === ''],
]

/**
 * The longest time one sample may stand for (µs). The profiler samples every 200 µs of wall
 * time; a gap far longer than that is the process waiting for a core (the machine is shared),
 * which the next sample would otherwise be charged with — one 770 ms gap once put a Headers
 * conversion at the top of the feed's profile. Capped, each sample is what the thread ran.
 */
const MAX_SAMPLE_US = 1000

interface Breakdown {
  /** Busy time (ms), each sample capped at MAX_SAMPLE_US. */
  total: number
  idle: number
  waited: number
  /** Self time per function, and per part of the stack (innermost named part), in ms. */
  self: Map<string, number>
  parts: Map<string, number>
}

function breakdown(profile: CpuProfile): Breakdown {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const parent = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  const result: Breakdown = { total: 0, idle: 0, waited: 0, self: new Map(), parts: new Map() }
  for (let index = 0; index < profile.samples.length; index++) {
    const raw = profile.timeDeltas[index] ?? 0
    const delta = Math.min(raw, MAX_SAMPLE_US) / 1000
    const node = byId.get(profile.samples[index]!)
    if (!node) continue
    if (node.callFrame.functionName === '(idle)') {
      result.idle += raw / 1000
      continue
    }
    result.total += delta
    result.waited += raw / 1000 - delta
    const frame = node.callFrame
    const key = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}${frame.lineNumber >= 0 ? `:${frame.lineNumber + 1}` : ''}`
    result.self.set(key, (result.self.get(key) ?? 0) + delta)
    // The part of the stack: the innermost frame that belongs to a named part (so Kysely calling pg counts as pg).
    let part = 'other'
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const found = PARTS.find(([, match]) => match(byId.get(id!)!.callFrame))
      if (found) {
        part = found[0]
        break
      }
    }
    result.parts.set(part, (result.parts.get(part) ?? 0) + delta)
  }
  return result
}

export function summarise(profile: CpuProfile, top = 12): string[] {
  const { total, idle, waited, self, parts } = breakdown(profile)
  const percent = (ms: number) => `${((ms / total) * 100).toFixed(1).padStart(5)}%`
  return [
    `busy ${(total / 1000).toFixed(1)} s, idle ${(idle / 1000).toFixed(1)} s, waiting for a core ${(waited / 1000).toFixed(1)} s (not counted)`,
    'where the busy time went (innermost named part of each sample):',
    ...[...parts.entries()].sort((a, b) => b[1] - a[1]).map(([name, ms]) => `  ${percent(ms)}  ${name}`),
    `top ${top} functions by self time:`,
    ...[...self.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, ms]) => `  ${percent(ms)}  ${name}`),
  ]
}

/**
 * A page against its bare twin, per request (ms of busy CPU): by part of the stack, and the functions
 * whose self time grew most — what the page pays above rendering the same markup.
 */
export function aboveTwin(page: { profile: CpuProfile; requests: number }, twin: { profile: CpuProfile; requests: number }, top = 12): string[] {
  const [a, b] = [breakdown(page.profile), breakdown(twin.profile)]
  const per = (ms: number | undefined, requests: number) => (ms ?? 0) / Math.max(requests, 1)
  const rows = (left: Map<string, number>, right: Map<string, number>) =>
    [...new Set([...left.keys(), ...right.keys()])]
      .map((name) => ({ name, page: per(left.get(name), page.requests), twin: per(right.get(name), twin.requests) }))
      .map((row) => ({ ...row, above: row.page - row.twin }))
      .sort((x, y) => y.above - x.above)
  const line = (row: { name: string; page: number; twin: number; above: number }) =>
    `  ${row.page.toFixed(3).padStart(7)} ${row.twin.toFixed(3).padStart(7)} ${(row.above >= 0 ? '+' : '') + row.above.toFixed(3).padStart(6)}  ${row.name}`
  return [
    `busy CPU per request: page ${per(a.total, page.requests).toFixed(2)} ms, twin ${per(b.total, twin.requests).toFixed(2)} ms, above ${(per(a.total, page.requests) - per(b.total, twin.requests)).toFixed(2)} ms`,
    '     page    twin   above  (ms per request, by part of the stack)',
    ...rows(a.parts, b.parts).map(line),
    `     page    twin   above  (ms per request, the ${top} functions whose self time grew most)`,
    ...rows(a.self, b.self).slice(0, top).map(line),
  ]
}

function shortUrl(url: string): string {
  const modules = url.lastIndexOf('node_modules/')
  if (modules >= 0) return url.slice(modules + 'node_modules/'.length)
  return url.replace(/^file:\/\/.*?\/(build|app|db|ops|stack|bench)\//, '$1/')
}

/** A minimal Chrome DevTools Protocol session over the inspector's WebSocket. */
async function inspector(port: number) {
  const list = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{ webSocketDebuggerUrl: string }>
  const socket = new WebSocket(list[0]!.webSocketDebuggerUrl)
  await new Promise((resolve, reject) => {
    socket.once('open', resolve)
    socket.once('error', reject)
  })
  let next = 1
  const waiting = new Map<number, (result: unknown) => void>()
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown }
    if (message.id !== undefined) waiting.get(message.id)?.(message.result)
  })
  return {
    send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
      const id = next++
      socket.send(JSON.stringify({ id, method, params }))
      return new Promise((resolve) => waiting.set(id, resolve as (result: unknown) => void))
    },
    close: () => socket.close(),
  }
}

/** Profiles `routes` on one server (its inspector on `port`): a warm-up without the profiler, then the load. */
async function profileRoutes(
  server: BenchServer,
  port: number,
  routes: BenchRoute[],
  cookie: string,
  suffix = '',
): Promise<Map<string, { profile: CpuProfile; result: LoadResult }>> {
  const session = await inspector(port)
  const profiles = new Map<string, { profile: CpuProfile; result: LoadResult }>()
  try {
    await session.send('Profiler.enable')
    await session.send('Profiler.setSamplingInterval', { interval: 200 })
    for (const route of routes) {
      const headers = route.cookie ? { cookie } : undefined
      await load(server.base + route.path, { headers, connections: 10, seconds: 2, warmUp: 0 })
      await session.send('Profiler.start')
      const result = await load(server.base + route.path, { headers, connections: 10, seconds: SECONDS, warmUp: 0 })
      const { profile } = await session.send<{ profile: CpuProfile }>('Profiler.stop')
      const file = path.join(outDir, `${target}-${route.key}${suffix}.cpuprofile`)
      await writeFile(file, JSON.stringify(profile))
      console.log(
        `\n== ${route.label}${suffix ? ` (${suffix.slice(1)})` : ''} (${target}): ${result.rps.toFixed(0)} req/s under the profiler, p50 ${result.p50} ms; ${path.relative(process.cwd(), file)}`,
      )
      for (const line of summarise(profile)) console.log(`   ${line}`)
      profiles.set(route.key, { profile, result })
    }
  } finally {
    session.close()
  }
  return profiles
}

async function main() {
  let seeded: Seeded | undefined
  const server = await startBenchServer({
    target,
    seed: async (pool) => {
      seeded = await seedVideos(pool, 10_000)
    },
    nodeArgs: [`--inspect=127.0.0.1:${INSPECT_PORT}`],
  })
  await mkdir(outDir, { recursive: true })
  let twin: BenchServer | undefined
  try {
    const cookie = await learnerCookie(server.base, server.dataDir)
    const routes = benchRoutes(seeded!).filter((route) => !only.length || only.includes(route.key))
    const pages = await profileRoutes(server, INSPECT_PORT, routes, cookie)
    const signedIn = routes.filter((route) => route.cookie)
    if (WITH_TWIN && signedIn.length) {
      twin = await startTwinServer(
        server,
        cookie,
        signedIn.map((route) => route.path),
        [`--inspect=127.0.0.1:${INSPECT_PORT + 1}`],
      )
      const twins = await profileRoutes(twin, INSPECT_PORT + 1, signedIn, cookie, '-twin')
      for (const route of signedIn) {
        const [page, bare] = [pages.get(route.key)!, twins.get(route.key)!]
        console.log(`\n== ${route.label} (${target}) above its bare twin`)
        const lines = aboveTwin(
          { profile: page.profile, requests: page.result.requests },
          { profile: bare.profile, requests: bare.result.requests },
        )
        for (const line of lines) console.log(`   ${line}`)
      }
    }
  } finally {
    await twin?.stop()
    await server.stop()
  }
}

await main()
