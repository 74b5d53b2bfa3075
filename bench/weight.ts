import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { gzipSync } from 'node:zlib'
import type { ServerBuild } from '@remix-run/node'
import type { Figure } from './figures'
import { ensureBuild } from './server'

/**
 * Page weight from the production build: the JavaScript a first visit to a
 * page loads before it is interactive — Remix's entry, the root route and
 * the page's route module with every chunk they import statically (the
 * build's own manifest, the one the server puts in `<link rel=modulepreload>`),
 * gzipped at level 6 as a server or CDN would. Chunks loaded later by
 * `import()` (hls.js, dialogs) are not counted, and the bench says whether
 * hls.js is among the static ones.
 */
const PAGES: Array<{ path: string; route: string }> = [
  { path: '/', route: 'routes/_index' },
  { path: '/feed', route: 'routes/_discover+/feed' },
  { path: '/sparks', route: 'routes/_watch+/sparks' },
  { path: '/sparks-reels', route: 'routes/_watch+/sparks-reels' },
  { path: '/video/:id', route: 'routes/_watch+/video.$id' },
]
const FEED_GOAL_KB = 150

export async function benchWeight(): Promise<{ name: string; lines: string[]; figures: Figure[] }> {
  const buildDir = path.resolve(ensureBuild())
  const build = (await import(pathToFileURL(path.join(buildDir, 'server/index.js')).href)) as ServerBuild
  const sizes = new Map<string, { raw: number; gzip: number }>()
  const sizeOf = async (asset: string) => {
    let size = sizes.get(asset)
    if (!size) {
      const bytes = await readFile(path.join(buildDir, 'client', asset))
      size = { raw: bytes.length, gzip: gzipSync(bytes, { level: 6 }).length }
      sizes.set(asset, size)
    }
    return size
  }
  const lines = [`${'page'.padEnd(16)}${'files'.padStart(6)}${'KB'.padStart(8)}${'KB gzip'.padStart(9)}  hls.js`]
  const figures: Figure[] = []
  for (const page of PAGES) {
    const route = build.assets.routes[page.route]
    const root = build.assets.routes.root
    if (!route || !root) {
      lines.push(`${page.path.padEnd(16)} (no route ${page.route} in the build)`)
      continue
    }
    const files = new Set([
      build.assets.entry.module,
      ...build.assets.entry.imports,
      root.module,
      ...(root.imports ?? []),
      route.module,
      ...(route.imports ?? []),
    ])
    let raw = 0
    let gzip = 0
    for (const file of files) {
      const size = await sizeOf(file)
      raw += size.raw
      gzip += size.gzip
    }
    const hls = [...files].some((file) => /\/hls[.-]/.test(file))
    lines.push(
      `${page.path.padEnd(16)}${String(files.size).padStart(6)}${(raw / 1024).toFixed(1).padStart(8)}${(gzip / 1024).toFixed(1).padStart(9)}  ${hls ? 'loaded up front' : 'on demand'}`,
    )
    if (page.path === '/feed') {
      figures.push({
        label: '/feed JavaScript (gzip)',
        value: gzip / 1024,
        unit: 'KB',
        goal: `≤ ${FEED_GOAL_KB} KB`,
        met: gzip / 1024 <= FEED_GOAL_KB,
      })
    }
    if (page.path !== '/video/:id' && page.path !== '/sparks-reels') {
      figures.push({
        label: `${page.path}: hls.js up front`,
        value: hls ? 1 : 0,
        unit: 'files',
        goal: 'none (no player)',
        met: !hls,
      })
    }
  }
  return { name: 'Page weight: JavaScript a first visit loads (production build)', lines, figures }
}
