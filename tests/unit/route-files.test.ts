import { readdirSync } from 'node:fs'
import path from 'node:path'
import { resolveConfig } from '@remix-run/dev/dist/config.js'
import { describe, expect, it } from 'vitest'
import { remixConfig } from '../../remix.config'

/**
 * Routes by area (docs/decisions/0061-routes-by-area.md): remix-flat-routes reads `app/routes`, and a
 * file it does not take for a route is ignored without a word. Every file there is a route, except test
 * files; and the areas keep the URLs learners and the API rely on.
 */
const ROOT = path.resolve(import.meta.dirname, '../..')
const ROUTES_DIR = path.join(ROOT, 'app/routes')

async function manifest() {
  const config = await resolveConfig(
    { appDirectory: remixConfig.appDirectory, ignoredRouteFiles: remixConfig.ignoredRouteFiles, future: remixConfig.future, routes: remixConfig.routes } as Parameters<
      typeof resolveConfig
    >[0],
    { rootDirectory: ROOT } as Parameters<typeof resolveConfig>[1],
  )
  return Object.values(config.routes) as { id: string; parentId?: string; path?: string; index?: boolean; file: string }[]
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.relative(ROUTES_DIR, path.join(dir, entry.name))],
  )
}

function fullPath(routes: Awaited<ReturnType<typeof manifest>>, route: (typeof routes)[number]): string {
  const parent = routes.find((other) => other.id === route.parentId)
  const own = route.path ?? ''
  return [parent && parent.id !== 'root' ? fullPath(routes, parent) : '', own].filter(Boolean).join('/')
}

describe('route files', () => {
  it('every file under app/routes is a route, but test files', async () => {
    const routed = new Set((await manifest()).map((route) => route.file.replace(/^routes\//, '')))
    const files = filesUnder(ROUTES_DIR).filter((file) => !/\.test\.tsx?$/.test(file))
    expect(files.filter((file) => !routed.has(file))).toEqual([])
    expect(files.length).toBeGreaterThan(100)
  })

  it('the area folders change no URL: each page and API path is where it was', async () => {
    const routes = await manifest()
    const paths = new Set(routes.map((route) => `/${fullPath(routes, route)}`))
    for (const url of [
      '/login',
      '/feed',
      '/video/:id',
      '/video/:id/edit',
      '/sparks-reels',
      '/course/:id/edit',
      '/courses/new',
      '/profile',
      '/media/*',
      '/captions/:file',
      '/api/videos/:id/like',
      '/api/admin/test',
      '/admin',
    ]) {
      expect(paths, url).toContain(url)
    }
  })
})
