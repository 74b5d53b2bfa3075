import type { VitePluginConfig } from '@remix-run/dev'

/**
 * Remix options, kept apart from the Vite wiring so they read as the app's
 * own settings. `vite.config.ts` passes them to the Remix Vite plugin.
 */
export const remixConfig: VitePluginConfig = {
  appDirectory: 'app',
  // Overridable so parallel builds (several checkouts' test runs) don't overwrite each other.
  buildDirectory: process.env.LUMEN_BUILD_DIR ?? 'build',
  ignoredRouteFiles: ['**/*.test.{ts,tsx}', '**/.*'],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
}
