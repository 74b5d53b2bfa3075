/**
 * `npx tsx bench/ssr-ab.ts <build A> <build B> [pglite|postgres] [route keys…]`: two production
 * builds (say, main's and a branch's: `LUMEN_BUILD_DIR=build-main npm run build`) served side by
 * side by the real server on the SSR bench's data, one database each, and the same routes loaded
 * in turn — A then B, B then A in the next round — so that whatever else the machine does weighs
 * on both alike. Prints each route's median CPU per request (the server process's, as bench/ssr.ts
 * counts it) for A and B and B ÷ A; on PostgreSQL also the CPU per request of the PostgreSQL
 * backends serving each side's database (read from /proc when the server runs on this machine).
 * `BENCH_SSR_ROUNDS` (default 6) and `BENCH_SSR_SECONDS` (3).
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
  const client = server.databaseUrl ? new pg.Client({ connectionString: server.databaseUrl }) : null
  await client?.connect()
  return { server, client, seeded: seeded!, cookie: await learnerCookie(server.base, server.dataDir) }
}

/** The app process's CPU ms per request, and the database backends' (null on PGlite, or when unreadable). */
async function cpuPerRequest(
  side: { server: BenchServer; client: pg.Client | null },
  url: string,
  headers: Record<string, string>,
): Promise<[number, number | null]> {
  const before = cpuSeconds(side.server.pid)!
  const dbBefore = await databaseCpu(side.client)
  const result = await load(url, { headers, connections: 10, seconds: SECONDS, warmUp: 0 })
  const app = ((cpuSeconds(side.server.pid)! - before) * 1000) / Math.max(1, result.requests)
  const db = databaseCpuBetween(dbBefore, await databaseCpu(side.client))
  return [app, db === null ? null : (db * 1000) / Math.max(1, result.requests)]
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
  const figures = new Map(routes.map((entry) => [entry.route.key, [[] as number[], [] as number[]]]))
  const dbFigures = new Map(routes.map((entry) => [entry.route.key, [[] as number[], [] as number[]]]))
  const loads: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    loads.push(loadavg()[0]!)
    for (const entry of routes)
      for (const side of round % 2 ? [1, 0] : [0, 1]) {
        const [cpu, db] = await cpuPerRequest(sides[side]!, url(side, entry), headers(side, entry))
        figures.get(entry.route.key)![side]!.push(cpu)
        if (db !== null) dbFigures.get(entry.route.key)![side]!.push(db)
      }
  }
  console.log(
    `${target}: A = ${buildA}, B = ${buildB}; ${ROUNDS} rounds of ${SECONDS} s, 10 connections; load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`,
  )
  console.log(
    `${'route'.padEnd(28)}${'A CPU ms/req'.padStart(14)}${'B CPU ms/req'.padStart(14)}${'B ÷ A'.padStart(8)}${'A KB'.padStart(8)}${'B KB'.padStart(8)}`,
  )
  for (const entry of routes) {
    const [ra, rb] = figures.get(entry.route.key)!
    const [ma, mb] = [median(ra!), median(rb!)]
    const [ka, kb] = sizes.get(entry.route.key)!.map((bytes) => (bytes / 1024).toFixed(1))
    console.log(
      `${entry.route.label.padEnd(28)}${ma.toFixed(2).padStart(14)}${mb.toFixed(2).padStart(14)}${`${(mb / ma).toFixed(2)}×`.padStart(8)}${ka!.padStart(8)}${kb!.padStart(8)}`,
    )
    console.log(
      `${''.padEnd(28)}rounds, A: ${ra!.map((v) => v.toFixed(1)).join(' ')}; B: ${rb!.map((v) => v.toFixed(1)).join(' ')}`,
    )
    const [da, db] = dbFigures.get(entry.route.key)!
    if (da!.length && db!.length) {
      const [mda, mdb] = [median(da!), median(db!)]
      console.log(
        `${''.padEnd(28)}database backends, CPU ms/req: A ${mda.toFixed(2)}, B ${mdb.toFixed(2)} (${(mdb / mda).toFixed(2)}×); app + database: A ${(ma + mda).toFixed(2)}, B ${(mb + mdb).toFixed(2)} (${((mb + mdb) / (ma + mda)).toFixed(2)}×)`,
      )
    }
  }
} finally {
  await a.client?.end()
  await b.client?.end()
  await a.server.stop()
  await b.server.stop()
}
