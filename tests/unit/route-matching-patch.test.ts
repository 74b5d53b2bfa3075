import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createMemoryHistory, createRouter, matchRoutes, type AgnosticRouteObject } from '@remix-run/router'
import { createStaticRouter } from 'react-router-dom/server'
import { describe, expect, it } from 'vitest'

/**
 * Our patches to Remix's router (patches/, applied by `npm install`'s postinstall; ADR in
 * docs/decisions/0065-route-matching-once.md): route matching done once per routes array instead of
 * on every request. These tests hold the router to what it did before: the same matches, each caller
 * with its own copy, and routes patched in later (Remix's lazy route discovery in the browser) found.
 */
const require = createRequire(import.meta.url)

function routes(): AgnosticRouteObject[] {
  return [
    {
      id: 'root',
      path: '/',
      children: [
        { id: 'index', index: true },
        { id: 'layout', children: [{ id: 'feed', path: 'feed' }, { id: 'video', path: 'video/:id' }] },
        { id: 'optional', path: 'lang/:lang?/about' },
        { id: 'splat', path: '*' },
      ],
    },
  ]
}

const ids = (matches: ReturnType<typeof matchRoutes>) => matches?.map((match) => match.route.id) ?? null

describe('route matching, patched to be done once', () => {
  it('is applied to every file the server and the browser load', () => {
    const files = [
      require.resolve('@remix-run/router/dist/router.cjs.js'),
      require.resolve('@remix-run/router/dist/router.js'),
      require.resolve('@remix-run/react/dist/server.js'),
      require.resolve('@remix-run/react/dist/esm/server.js'),
      require.resolve('react-router-dom/server.js'),
      require.resolve('react-router-dom/server.mjs'),
    ]
    for (const file of files) expect(readFileSync(file, 'utf8'), file).toContain("Lumen's patch (patches/)")
  })

  it('finds the same routes and params as before, asked again and again', () => {
    const tree = routes()
    for (let round = 0; round < 3; round++) {
      expect(ids(matchRoutes(tree, '/'))).toEqual(['root', 'index'])
      expect(ids(matchRoutes(tree, '/feed'))).toEqual(['root', 'layout', 'feed'])
      expect(ids(matchRoutes(tree, '/FEED/'))).toEqual(['root', 'layout', 'feed'])
      expect(matchRoutes(tree, '/video/abc')?.at(-1)?.params).toEqual({ id: 'abc' })
      expect(matchRoutes(tree, '/video/a%20b')?.at(-1)?.params).toEqual({ id: 'a b' })
      expect(matchRoutes(tree, '/lang/fr/about')?.at(-1)?.params).toEqual({ lang: 'fr' })
      expect(matchRoutes(tree, '/lang/about')?.at(-1)?.params).toEqual({ lang: undefined })
      expect(matchRoutes(tree, '/no/such/page')?.at(-1)?.params).toEqual({ '*': 'no/such/page' })
      expect(ids(matchRoutes(tree, '/app/feed', '/app'))).toEqual(['root', 'layout', 'feed'])
      expect(matchRoutes(tree, '/elsewhere', '/app')).toBeNull()
    }
  })

  it('gives each caller its own matches: changing one changes nothing for the next', () => {
    const tree = routes()
    const first = matchRoutes(tree, '/video/abc')!
    // Every match of a branch shares one params object, as the router made them.
    expect(first[0]!.params).toBe(first.at(-1)!.params)
    ;(first.at(-1)!.params as Record<string, string>).id = 'changed'
    first.pop()
    const second = matchRoutes(tree, '/video/abc')!
    expect(ids(second)).toEqual(['root', 'layout', 'video'])
    expect(second.at(-1)!.params).toEqual({ id: 'abc' })
    expect(second).not.toBe(first)
  })

  it('finds routes patched in after a miss (lazy route discovery)', async () => {
    const tree = routes()
    tree[0]!.children = tree[0]!.children!.filter((route) => route.id !== 'splat')
    // As Remix's browser router does: a path it does not know asks for its routes, patched into the tree it already matched.
    const router = createRouter({
      routes: tree,
      history: createMemoryHistory(),
      patchRoutesOnNavigation: ({ path, patch }) => {
        if (path.startsWith('/courses/')) patch('layout', [{ id: 'course', path: 'courses/:id' }])
      },
    }).initialize()
    await router.navigate('/feed')
    expect(router.state.matches.map((match) => match.route.id)).toEqual(['root', 'layout', 'feed'])
    await router.navigate('/courses/1')
    expect(router.state.matches.map((match) => match.route.id)).toEqual(['root', 'layout', 'course'])
    expect(router.state.matches.at(-1)!.params).toEqual({ id: '1' })
    router.dispose()
  })

  it('renders each request with its own matches and data from data routes made once', () => {
    const tree = routes()
    const context = (pathname: string, matches: ReturnType<typeof matchRoutes>) =>
      ({
        basename: '/',
        location: { pathname, search: '', hash: '', state: null, key: 'default' },
        matches: matches ?? [],
        loaderData: { feed: { page: pathname } },
        actionData: null,
        errors: null,
        statusCode: 200,
        loaderHeaders: {},
        actionHeaders: {},
        activeDeferreds: null,
      }) as unknown as Parameters<typeof createStaticRouter>[1]
    const feed = createStaticRouter(tree as never, context('/feed', matchRoutes(tree, '/feed')))
    const video = createStaticRouter(tree as never, context('/video/x', matchRoutes(tree, '/video/x')))
    expect(video.routes).toBe(feed.routes)
    expect(feed.state.matches.map((match) => match.route.id)).toEqual(['root', 'layout', 'feed'])
    expect(video.state.matches.map((match) => match.route.id)).toEqual(['root', 'layout', 'video'])
    expect(video.state.matches.at(-1)!.params).toEqual({ id: 'x' })
    expect(feed.state.location.pathname).toBe('/feed')
  })
})
