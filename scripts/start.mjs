// `npm start`'s server: the bundle `npm run build` made (scripts/build-server.ts), run by Node alone. Plain
// JavaScript, so it reads LUMEN_BUILD_DIR itself (ops/env.ts's schema is TypeScript, inside the bundle).
import { existsSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const bundle = path.resolve(process.env.LUMEN_BUILD_DIR || 'build', 'lumen/server.mjs')
if (!existsSync(bundle)) {
  console.error(`No server bundle at ${bundle}: run \`npm run build\` first (\`npm start\` does).`)
  process.exit(1)
}
await import(pathToFileURL(bundle).href)
