import { defineConfig } from 'vitest/config'

const alias = { '~': new URL('./app', import.meta.url).pathname }

export default defineConfig({
  resolve: { alias },
  test: {
    // Two cores: two files at a time, each on its own database.
    maxWorkers: 2,
    minWorkers: 1,
    // Test files share their worker process (the `forks` pool, not isolated): unit, integration and
    // security import the app once per worker instead of once per file, a third of their CPU. A file
    // that changes process.env restores it (tests/support/restores-env.ts fails it otherwise) and
    // undoes its module mocks (tests/unit/shared-worker-mocks.test.ts). The
    // projects that need a fresh process per file (components: a DOM; faults: killed processes)
    // run in the `threads` pool, isolated. Vitest reads isolation per pool, not per project.
    pool: 'forks',
    poolOptions: { forks: { isolate: false } },
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          include: [
            'app/**/*.test.{ts,tsx}',
            'db/**/*.test.ts',
            'media/**/*.test.ts',
            'ops/**/*.test.ts',
            'stack/**/*.test.ts',
            'tests/unit/**/*.test.ts',
          ],
          // Route modules are named by their URL, never picked up as tests.
          exclude: ['app/routes/**', '**/node_modules/**'],
          environment: 'node',
          setupFiles: ['tests/support/fail-on-console-error.ts', 'tests/support/restores-env.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          // Interactive components in a simulated DOM (happy-dom) with Testing Library: seconds, not a browser run.
          // `npm test`'s unit suite runs them too.
          name: 'components',
          include: ['tests/components/**/*.test.tsx'],
          environment: 'happy-dom',
          pool: 'threads',
          // A test waits out the product's own delays (the report dialog's 3 s close, the upload's 1.5 s redirect).
          testTimeout: 30_000,
          setupFiles: ['tests/support/fail-on-console-error.ts', 'tests/support/components.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['tests/support/fail-on-console-error.ts', 'tests/support/restores-env.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      {
        resolve: { alias },
        test: {
          // ADR 0012's findings and the classes around them, replayed against the stand-in (see SECURITY.md).
          name: 'security',
          include: ['tests/security/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['tests/support/fail-on-console-error.ts', 'tests/support/restores-env.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      {
        resolve: { alias },
        test: {
          // ADR 0017: real processes killed, restarted and shut down (`npm test -- faults`; needs `npm run build`).
          name: 'faults',
          include: ['tests/faults/**/*.test.ts'],
          environment: 'node',
          pool: 'threads',
          setupFiles: ['tests/support/fail-on-console-error.ts'],
          testTimeout: 240_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
})
