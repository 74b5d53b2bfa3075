/**
 * `npx tsx bench/ssr-ab.ts <build A> <build B> [pglite|postgres] [route keys…]`: two production
 * builds (say, main's and a branch's: `LUMEN_BUILD_DIR=build-main npm run build`) served side by
 * side by the real server on the SSR bench's data, one database each, and the same routes loaded
 * in turn — A then B, B then A in the next round — so that whatever else the machine does weighs
 * on both alike. Prints each route's median CPU per request (the server process's, as bench/ssr.ts
 * counts it) for A and B and B ÷ A, and the median requests per second. On PostgreSQL it also
 * prints the CPU per request of the side's database server processes (its scratch database's
 * backends, read from /proc, so for a server on this machine): the app process's figure does not
 * hold the database's work there, as it does on PGlite. `BENCH_SSR_ROUNDS` (default 6) and
 * `BENCH_SSR_SECONDS` (3).
 */
import { loadavg } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { databaseCpu, databaseCpuBetween } from './position-writes'
import { benchRoutes, seedVideos, type Seeded } from './ssr'
import { cpuSeconds, learnerCookie, load, startBenchServer, type BenchServer, type Target } from './server'

const [buildA, buildB, ...rest] = process.argv.slice(2)
if (!buildA || !buildB) throw new Error('usage: bench/ssr-ab.ts <build A> <build B> [pglite|postgres] [route keys…]')
const target: Target = rest[0] === 'postgres' ? 'postgres' : 'pglite'
const only = rest.slice(rest[0] === 'postgres' || rest[0] === 'pglite' ? 1 : 0)
const ROUNDS = Number(process.env.BENCH_SSR_ROUNDS ?? 6)
const SECONDS = Number(process.env.BENCH_SSR_SECONDS ?? 3)

async function start(build: string) {
  let seeded: Seeded | undefined
  const server = await startBenchServer({
    target,
    seed: async (pool) => {
      seeded = await seedVideos(pool, 10_000)
    },
    env: { LUMEN_BUILD_DIR: path.resolve(build) },
  })
  return { server, seeded: seeded!, cookie: await learnerCookie(server.base, server.dataDir) }
}

/** The CPU seconds so far of each backend of the server's scratch database (null on PGlite). */
async function backendsCpu(server: BenchServer): Promise<Map<number, number> | null> {
  if (!server.databaseUrl) return null
  const client = new pg.Client({ connectionString: server.databaseUrl })
  await client.connect()
  try {
    return await databaseCpu(client)
  } finally {
    await client.end()
  }
}

interface Round {
  cpu: number
  databaseCpu: number
  rps: number
}

async function measureRound(server: BenchServer, url: string, headers: Record<string, string>): Promise<Round> {
  const databaseBefore = await backendsCpu(server)
  const before = cpuSeconds(server.pid)!
  const result = await load(url, { headers, connections: 10, seconds: SECONDS, warmUp: 0 })
  const cpu = cpuSeconds(server.pid)! - before
  const database = databaseCpuBetween(databaseBefore, await backendsCpu(server)) ?? 0
  const requests = Math.max(1, result.requests)
  return { cpu: (cpu * 1000) / requests, databaseCpu: (database * 1000) / requests, rps: result.rps }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

const a = await start(buildA)
const b = await start(buildB)
try {
  const sides = [a, b]
  const routes = benchRoutes(a.seeded)
    .map((route, index) => ({ route, pathB: benchRoutes(b.seeded)[index]!.path }))
    .filter(({ route }) => !only.length || only.includes(route.key))
  const url = (side: number, entry: (typeof routes)[number]) =>
    sides[side]!.server.base + (side === 0 ? entry.route.path : entry.pathB)
  const headers = (side: number, entry: (typeof routes)[number]): Record<string, string> => ({
    'accept-encoding': 'gzip, deflate, br',
    ...(entry.route.cookie ? { cookie: sides[side]!.cookie } : {}),
  })
  for (const entry of routes)
    for (const side of [0, 1])
      await load(url(side, entry), { headers: headers(side, entry), connections: 10, seconds: 2, warmUp: 0 })
  // Each page's size, uncompressed (what its render and its data make), once per side.
  const sizes = new Map<string, number[]>()
  for (const entry of routes) {
    const bytes: number[] = []
    for (const side of [0, 1]) {
      const response = await fetch(url(side, entry), { headers: { ...headers(side, entry), 'accept-encoding': 'identity' } })
      bytes.push((await response.arrayBuffer()).byteLength)
    }
    sizes.set(entry.route.key, bytes)
  }
  const figures = new Map(routes.map((entry) => [entry.route.key, [[] as Round[], [] as Round[]]]))
  const loads: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    loads.push(loadavg()[0]!)
    for (const entry of routes)
      for (const side of round % 2 ? [1, 0] : [0, 1]) {
        figures.get(entry.route.key)![side]!.push(await measureRound(sides[side]!.server, url(side, entry), headers(side, entry)))
      }
  }
  console.log(
    `${target}: A = ${buildA}, B = ${buildB}; ${ROUNDS} rounds of ${SECONDS} s, 10 connections; load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`,
  )
  const postgres = target === 'postgres'
  console.log(
    `${'route'.padEnd(28)}${'A CPU ms/req'.padStart(14)}${'B CPU ms/req'.padStart(14)}${'B ÷ A'.padStart(8)}${
      postgres ? `${'A db ms/req'.padStart(13)}${'B db ms/req'.padStart(13)}${'B ÷ A'.padStart(8)}` : ''
    }${'A req/s'.padStart(9)}${'B req/s'.padStart(9)}${'A KB'.padStart(8)}${'B KB'.padStart(8)}`,
  )
  const ratio = (a: number, b: number) => `${(b / a).toFixed(2)}×`
  for (const entry of routes) {
    const [ra, rb] = figures.get(entry.route.key)!
    const of = (rounds: Round[], key: keyof Round) => median(rounds.map((round) => round[key]))
    const [ma, mb] = [of(ra!, 'cpu'), of(rb!, 'cpu')]
    const [da, db] = [of(ra!, 'databaseCpu'), of(rb!, 'databaseCpu')]
    const [ka, kb] = sizes.get(entry.route.key)!.map((bytes) => (bytes / 1024).toFixed(1))
    console.log(
      `${entry.route.label.padEnd(28)}${ma.toFixed(2).padStart(14)}${mb.toFixed(2).padStart(14)}${ratio(ma, mb).padStart(8)}${
        postgres ? `${da.toFixed(2).padStart(13)}${db.toFixed(2).padStart(13)}${ratio(da, db).padStart(8)}` : ''
      }${of(ra!, 'rps').toFixed(0).padStart(9)}${of(rb!, 'rps').toFixed(0).padStart(9)}${ka!.padStart(8)}${kb!.padStart(8)}`,
    )
    const list = (rounds: Round[], key: keyof Round) => rounds.map((round) => round[key].toFixed(1)).join(' ')
    console.log(`${''.padEnd(28)}rounds, A: ${list(ra!, 'cpu')}; B: ${list(rb!, 'cpu')}`)
    if (postgres) console.log(`${''.padEnd(28)}database, A: ${list(ra!, 'databaseCpu')}; B: ${list(rb!, 'databaseCpu')}`)
  }
} finally {
  await a.server.stop()
  await b.server.stop()
}
