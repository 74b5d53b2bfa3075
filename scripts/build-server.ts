/**
 * `npm run build`'s second step: the Node server — server.ts and everything of ours it imports (the
 * stand-in, the database code, the media worker, ops) — as one ES module, `<build>/lumen/server.mjs`,
 * which `npm start` runs with Node alone. Packages stay in node_modules, imported at run time as before.
 *
 * Run through tsx, each start spent about 40 % of its CPU in tsx's loader (every module resolved and
 * transformed through hooks on a thread of their own): 6.6 CPU-s and 4.2 s to "ready" against 3.9 CPU-s
 * and 2.5 s bundled (docs/decisions/0068-bundled-server.md). `tsx server.ts` still works (development,
 * the benchmarks that serve other builds).
 */
import path from 'node:path'
import { build } from 'esbuild'
import { setting } from '../ops/env'

const buildDir = path.resolve(setting('LUMEN_BUILD_DIR') ?? 'build')
const outfile = path.join(buildDir, 'lumen/server.mjs')

await build({
  entryPoints: ['server.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  // Error stacks name the bundle's lines; `NODE_OPTIONS=--enable-source-maps` maps them to the sources.
  sourcemap: 'linked',
  logLevel: 'warning',
})
console.log(`server bundled: ${path.relative(process.cwd(), outfile)}`)
