import { afterAll, beforeAll, expect } from 'vitest'

/**
 * Test files of the unit, integration and security projects share their worker's process and
 * modules (vitest.config.ts, `isolate: false`): a file that points the app's env at its own stack
 * must put it back when it ends, or the next file in that worker sees the first one's settings.
 * This fails the file that leaves `process.env` changed, naming the variables.
 */
let before: Record<string, string | undefined> = {}

beforeAll(() => {
  before = { ...process.env }
})

afterAll(() => {
  const keys = new Set([...Object.keys(before), ...Object.keys(process.env)])
  const changed = [...keys].filter((key) => before[key] !== process.env[key]).sort()
  expect(changed, 'process.env changed by this file and not restored').toEqual([])
})
