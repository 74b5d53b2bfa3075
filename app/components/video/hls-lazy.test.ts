import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * hls.js (375 KB, its light build) stays out of every page's initial scripts: a static import
 * anywhere in app/ would put it in a chunk the pages preload and evaluate while they hydrate —
 * on the video page, long tasks Lighthouse counts in its Total Blocking Time (ADRs 0027, 0057).
 * It is loaded only through `loadHls()` (warm-hls.ts), a dynamic import.
 */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name)
    if (statSync(file).isDirectory()) return sources(file)
    return /\.(ts|tsx)$/.test(name) && !/\.(test|d)\.tsx?$/.test(name) ? [file] : []
  })
}

/** `import … from 'hls.js…'`, `import 'hls.js…'`, `export … from 'hls.js…'` — not `import type`, not `import('…')`. */
const STATIC_IMPORT = /^\s*(?:import(?!\s+type\b)[^'"()]*?\bfrom\s*|import\s*|export\s[^'"]*?\bfrom\s*)['"](hls\.js[^'"]*)['"]/gm

function staticHlsImports(text: string): string[] {
  return [...text.matchAll(STATIC_IMPORT)].map((match) => match[1]!).filter((specifier) => !specifier.endsWith('?url'))
}

describe('hls.js is loaded lazily', () => {
  it('the pattern tells static imports from dynamic ones and asset URLs', () => {
    expect(staticHlsImports(`import Hls from 'hls.js'\nimport 'hls.js/light'\nexport { default } from "hls.js"`)).toEqual([
      'hls.js',
      'hls.js/light',
      'hls.js',
    ])
    expect(
      staticHlsImports(
        `import type Hls from 'hls.js'\nconst m = import('hls.js/light')\nimport worker from 'hls.js/dist/hls.worker.js?url'`,
      ),
    ).toEqual([])
  })

  it('no module of the app imports it statically', () => {
    const found = sources(path.resolve('app')).flatMap((file) =>
      staticHlsImports(readFileSync(file, 'utf8')).map((specifier) => `${path.relative('.', file)}: ${specifier}`),
    )
    expect(found).toEqual([])
  })

  it('warm-hls loads both builds with a dynamic import', () => {
    const text = readFileSync(path.resolve('app/components/video/warm-hls.ts'), 'utf8')
    expect(text).toContain("import('hls.js/light')")
    expect(text).toContain("import('hls.js')")
  })
})
