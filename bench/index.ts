/**
 * `npm run bench`: Lumen's speed figures, each printed next to a baseline
 * measured in the same run on the same machine (absolute times drift on
 * shared machines; ratios do not). `npm run bench -- tus` runs one.
 */
import { benchDashboard } from './dashboard'
import { benchSsr } from './ssr'
import { benchTranscode } from './transcode'
import { benchTusUpload } from './tus-upload'

type Bench = () => Promise<{ name: string; lines: string[] }>
const benches: Record<string, Bench> = {
  tus: benchTusUpload,
  transcode: benchTranscode,
  ssr: benchSsr,
  dashboard: benchDashboard,
}

const requested = process.argv.slice(2)
const selected = requested.length ? requested : Object.keys(benches)
for (const key of selected) {
  const bench = benches[key]
  if (!bench) {
    console.error(`unknown bench "${key}"; choose from: ${Object.keys(benches).join(', ')}`)
    process.exit(2)
  }
  const { name, lines } = await bench()
  console.log(`\n== ${name}`)
  for (const line of lines) console.log(`   ${line}`)
}
