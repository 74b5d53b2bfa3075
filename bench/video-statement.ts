/**
 * `npx tsx bench/video-statement.ts` (TEST_DATABASE_URL: a PostgreSQL server on this machine): the
 * video page's one statement (app/server/video-page.server.ts) on a scratch database built like the
 * SSR bench's (10,000 videos), run as the demo learner the way `asCaller` runs it, and measured
 * (docs/performance.md, "The video page's statement, EXPLAINed", ADR 0063):
 *
 * - each part alone and the whole: planning and execution time (`EXPLAIN (ANALYZE, TIMING OFF,
 *   SUMMARY)`, medians of `BENCH_EXPLAIN_RUNS`, default 40);
 * - the page's transaction (`BEGIN`, the caller's set-up, the statement, `COMMIT`) sent unnamed (planned
 *   on every call) and named (prepared once on the connection), in turn: its wall time and the backend's
 *   CPU (from /proc) per transaction, `BENCH_STATEMENT_RUNS` (200) × 3 rounds;
 * - the same on a lesson with two sparks.
 *
 * `BENCH_EXPLAIN_PLAN=1` also prints the whole statement's `EXPLAIN (ANALYZE, BUFFERS, VERBOSE)`.
 */
import { readFileSync } from 'node:fs'
import { sql, type RawBuilder } from 'kysely'
import pg from 'pg'
import { videoPageParts, videoPageStatement } from '../app/server/video-page.server'
import { callerParameters, SET_CALLER_SQL } from '../db/as-role'
import { openDatabase } from '../db/connect'
import { kyselyFor } from '../db/kysely'
import { migrate } from '../db/migrate'
import { seedDemoData } from '../db/seed'
import { createScratchDatabase } from '../tests/support/postgres'
import { seedVideos } from './ssr'

const EXPLAIN_RUNS = Number(process.env.BENCH_EXPLAIN_RUNS ?? 40)
const RUNS = Number(process.env.BENCH_STATEMENT_RUNS ?? 200)
if (!process.env.TEST_DATABASE_URL) throw new Error('set TEST_DATABASE_URL to a PostgreSQL server on this machine')

const scratch = await createScratchDatabase('video_statement')
try {
  const handle = await openDatabase({ databaseUrl: scratch.url })
  await migrate(handle.pool)
  await seedDemoData(handle.pool)
  const { videoId } = await seedVideos(handle.pool, 10_000)
  const { rows: users } = await handle.pool.query<{ id: string }>(`select id from auth.users where email = 'learner@lumen.test'`)
  const learner = users[0]!.id
  const db = kyselyFor(handle)
  const client = new pg.Client({ connectionString: scratch.url })
  await client.connect()
  const { rows: backend } = await client.query<{ pid: number }>('select pg_backend_pid() as pid')
  const backendCpuMs = () => {
    const stat = readFileSync(`/proc/${backend[0]!.pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  }
  const asLearner = async <T>(work: () => Promise<T>): Promise<T> => {
    await client.query('begin')
    await client.query(SET_CALLER_SQL, callerParameters('authenticated', { sub: learner, role: 'authenticated' }))
    try {
      return await work()
    } finally {
      await client.query('commit')
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
  const explained = async (statement: RawBuilder<unknown>) => {
    const { sql: text, parameters } = sql`explain (analyze, timing off, summary, format json) ${statement}`.compile(db)
    const planning: number[] = []
    const execution: number[] = []
    for (let run = 0; run < EXPLAIN_RUNS + 5; run++) {
      const { rows } = await asLearner(() => client.query(text, parameters as unknown[]))
      const [summary] = rows[0]['QUERY PLAN'] as Array<{ 'Planning Time': number; 'Execution Time': number }>
      if (run < 5) continue
      planning.push(summary!['Planning Time'])
      execution.push(summary!['Execution Time'])
    }
    return `planning ${median(planning).toFixed(3)} ms, execution ${median(execution).toFixed(3)} ms`
  }
  const transactions = async (video: string) => {
    const { sql: text, parameters } = videoPageStatement(video, learner).compile(db)
    const values = parameters as unknown[]
    const run = (named: boolean) =>
      asLearner(() => client.query(named ? { name: `video-page-${video}`, text, values } : { text, values }))
    for (let warm = 0; warm < 20; warm++) {
      await run(false)
      await run(true)
    }
    const lines: string[] = []
    for (let round = 0; round < 3; round++)
      for (const named of [false, true]) {
        const [cpu, wall] = [backendCpuMs(), performance.now()]
        for (let n = 0; n < RUNS; n++) await run(named)
        lines.push(
          `  ${named ? 'named (prepared)' : 'unnamed'}: wall ${((performance.now() - wall) / RUNS).toFixed(2)} ms, backend CPU ${((backendCpuMs() - cpu) / RUNS).toFixed(2)} ms per page transaction`,
        )
      }
    return lines
  }
  const report = async (label: string, video: string) => {
    console.log(`\n${label}`)
    for (const [name, part] of Object.entries(videoPageParts(video, learner)))
      console.log(`  ${name.padEnd(14)}${await explained(sql`select ${part}`)}`)
    console.log(`  ${'whole'.padEnd(14)}${await explained(videoPageStatement(video, learner))}`)
    console.log((await transactions(video)).join('\n'))
  }
  await report('the bench’s video (no comments, captions, course or sparks)', videoId)
  if (process.env.BENCH_EXPLAIN_PLAN === '1') {
    const { sql: text, parameters } = sql`explain (analyze, buffers, verbose) ${videoPageStatement(videoId, learner)}`.compile(db)
    const { rows } = await asLearner(() => client.query(text, parameters as unknown[]))
    console.log(rows.map((row) => row['QUERY PLAN']).join('\n'))
  }
  await handle.pool.query(
    `update public.videos s set lesson_id = $1, lesson_at_seconds = 30
      where s.id in (select x.id from public.videos x join public.videos l on l.creator_id = x.creator_id
                      where l.id = $1 and x.type = 'spark' order by x.created_at desc limit 2)`,
    [videoId],
  )
  await report('the same video as a lesson with two sparks', videoId)
  await client.end()
  await handle.close()
} finally {
  await scratch.drop()
}
