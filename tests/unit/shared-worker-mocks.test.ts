import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * The unit, integration and security projects run their files one after another in shared worker
 * processes (vitest.config.ts, `isolate: false`). A module mocked with `vi.mock` stays mocked there
 * for the files after it, and modules made with the mock stay cached (ops/health.ts once got
 * ops/outage.test.ts's fake logger, and failed in one file order). A file that mocks a module
 * unmocks it and resets the modules when it ends.
 */
const SHARED = ['app', 'db', 'media', 'ops', 'stack', 'tests/unit', 'tests/integration', 'tests/security']

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(full)
    return /\.test\.tsx?$/.test(entry.name) ? [full] : []
  })
}

describe('files sharing a Vitest worker', () => {
  const files = SHARED.flatMap(testFiles)

  it('are found', () => {
    expect(files.length).toBeGreaterThan(100)
  })

  it('undo their module mocks when they end', () => {
    const offending = files.flatMap((file) => {
      const source = readFileSync(file, 'utf8')
      const mocked = [...source.matchAll(/\bvi\.(?:do)?mock\(\s*(['"][^'"]+['"])/g)].map((match) => match[1]!)
      return mocked
        .filter((module) => !source.includes(`vi.doUnmock(${module})`) || !source.includes('vi.resetModules()'))
        .map((module) => `${file}: vi.mock(${module}) without vi.doUnmock(${module}) and vi.resetModules() in an afterAll`)
    })
    expect(offending).toEqual([])
  })
})
