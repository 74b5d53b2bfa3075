import { readdirSync } from 'node:fs'
import path from 'node:path'
import { durationsOf, writeDurations } from './e2e-shards'
import { readPlaywrightReport } from './test-timing'
const dir = process.argv[2]!
const times = readdirSync(dir).filter((f) => f.startsWith('playwright-')).flatMap((f) => readPlaywrightReport(path.join(dir, f), 'e2e').files)
writeDurations(durationsOf(times), '/work/main/tests/e2e/durations.json')
