/**
 * `npm run bench`: Lumen's speed figures, each printed next to a baseline
 * measured in the same run on the same machine (absolute times drift on
 * shared machines; ratios do not), and at the end one summary table of
 * every figure against its goal. `npm run bench -- tus` runs one.
 */
import { benchDashboard } from './dashboard'
import { summaryTable, type Figure } from './figures'
import { benchLighthouse } from './lighthouse'
import { benchNextClip } from './next-clip'
import { benchPlayback } from './playback'
import { benchWrites } from './position-writes'
import { benchRanking } from './ranking'
import { benchSsr } from './ssr'
import { benchTranscode } from './transcode'
import { benchTusUpload } from './tus-upload'
import { benchWeight } from './weight'

type Bench = () => Promise<{ name: string; lines: string[]; figures?: Figure[] }>
const benches: Record<string, Bench> = {
  weight: benchWeight,
  tus: benchTusUpload,
  transcode: benchTranscode,
  ssr: benchSsr,
  dashboard: benchDashboard,
  playback: benchPlayback,
  lighthouse: benchLighthouse,
  ranking: benchRanking,
  'next-clip': benchNextClip,
  writes: benchWrites,
}

const requested = process.argv.slice(2)
const selected = requested.length ? requested : Object.keys(benches)
const figures: Figure[] = []
for (const key of selected) {
  const bench = benches[key]
  if (!bench) {
    console.error(`unknown bench "${key}"; choose from: ${Object.keys(benches).join(', ')}`)
    process.exit(2)
  }
  const { name, lines, figures: measured = [] } = await bench()
  console.log(`\n== ${name}`)
  for (const line of lines) console.log(`   ${line}`)
  figures.push(...measured.map((figure) => ({ ...figure, group: figure.group ?? name })))
}
if (figures.length) {
  console.log('\n== Summary (ratios are the figures to trust on a shared machine; absolute ones drift)')
  for (const line of summaryTable(figures)) console.log(line)
}
