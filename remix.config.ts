import type { VitePluginConfig } from '@remix-run/dev'
import { flatRoutes } from 'remix-flat-routes'

/**
 * Remix options, kept apart from the Vite wiring so they read as the app's
 * own settings. `vite.config.ts` passes them to the Remix Vite plugin.
 *
 * Routes are grouped by area in `+` folders (remix-flat-routes, as the Epic Stack does;
 * docs/decisions/0061-routes-by-area.md): `api+/` is the JSON API, `admin+/` the admin
 * console (a layout with a route per tab), and the pathless `_auth+/`, `_discover+/`,
 * `_watch+/`, `_studio+/`, `_me+/` and `_media+/` keep their files' flat names, so a
 * folder changes no URL. Remix's own convention is switched off (`ignoredRouteFiles`)
 * so the routes come from one place.
 */
export const ROUTE_IGNORED_FILES = ['**/*.test.{ts,tsx}', '**/.*']

export const remixConfig: VitePluginConfig = {
  appDirectory: 'app',
  // Overridable so parallel builds (several checkouts' test runs) don't overwrite each other.
  buildDirectory: process.env.LUMEN_BUILD_DIR ?? 'build',
  ignoredRouteFiles: ['**/*'],
  routes: async (defineRoutes) => flatRoutes('routes', defineRoutes, { ignoredRouteFiles: ROUTE_IGNORED_FILES }),
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
}
