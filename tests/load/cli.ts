/**
 * `npm run load [-- --mode embedded|server|both] [--seconds 300] [--viewers 200] [--uploads 10] [--log-dir DIR]`:
 * ADR 0017's load test (tests/load/run-load.ts) on loopback, bounded (at most 900 s, 500 viewers,
 * 20 upload lanes). Server mode needs TEST_DATABASE_URL (a PostgreSQL superuser URL; a scratch
 * database is made in it and dropped after). Exits 1 when an answer was unexpected, an upload
 * was processed twice or not at all, or a process's memory grew more than 20% after warm-up.
 */
import { parseArgs } from 'node:util'
import { formatReport, runLoad } from './run-load'

const { values } = parseArgs({
  options: {
    mode: { type: 'string', default: 'both' },
    seconds: { type: 'string', default: '300' },
    viewers: { type: 'string', default: '200' },
    uploads: { type: 'string', default: '10' },
    'log-dir': { type: 'string' },
  },
})
const modes = values.mode === 'both' ? (['embedded', 'server'] as const) : ([values.mode] as Array<'embedded' | 'server'>)
let failed = false
for (const mode of modes) {
  if (mode !== 'embedded' && mode !== 'server') throw new Error(`--mode must be embedded, server or both`)
  if (mode === 'server' && !process.env.TEST_DATABASE_URL) {
    console.log('server mode skipped: set TEST_DATABASE_URL to a PostgreSQL superuser URL')
    continue
  }
  const report = await runLoad({
    mode,
    seconds: Number(values.seconds),
    viewers: Number(values.viewers),
    uploads: Number(values.uploads),
    logDir: values['log-dir'] ? `${values['log-dir']}/${mode}` : undefined,
    log: (line) => console.log(`[load ${mode}] ${line}`),
  })
  console.log(`\n== load: ${mode}`)
  for (const line of formatReport(report)) console.log(`   ${line}`)
  failed ||=
    report.unexpectedCount > 0 ||
    report.processedTwice.length > 0 ||
    report.notProcessed.length > 0 ||
    report.memory.some((entry) => entry.growthPct > 20)
}
process.exit(failed ? 1 : 0)
