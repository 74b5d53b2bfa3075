// `npm start`'s server: the bundle `npm run build` made (scripts/build-server.ts), run by Node alone. Plain
// JavaScript, so it reads LUMEN_BUILD_DIR itself (ops/env.ts's schema is TypeScript, inside the bundle).
import path from 'node:path'
import { pathToFileURL } from 'node:url'

await import(pathToFileURL(path.resolve(process.env.LUMEN_BUILD_DIR || 'build', 'lumen/server.mjs')).href)
