import { reloadEnv } from '../../../app/server/env.server'

/**
 * Points the app's env at a test's stack: sets `values` in process.env and reloads the app's
 * parsed env. The returned function puts process.env back as it was and reloads again — test
 * files share their worker (vitest.config.ts), and tests/support/restores-env.ts fails a file
 * that leaves process.env changed.
 */
export function pointAppEnvAt(values: Record<string, string>): () => void {
  const saved = { ...process.env }
  Object.assign(process.env, values)
  reloadEnv()
  return () => {
    process.env = saved
    reloadEnv()
  }
}
