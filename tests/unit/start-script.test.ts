import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '../..')

describe("npm start's launcher (scripts/start.mjs)", () => {
  it('says to build first when the build folder has no server bundle', () => {
    const result = spawnSync(process.execPath, ['scripts/start.mjs'], {
      cwd: root,
      env: { ...process.env, LUMEN_BUILD_DIR: path.join(root, 'no-such-build') },
      encoding: 'utf8',
    })
    expect(result.status).toBe(1)
    expect(result.stderr).toContain(`No server bundle at ${path.join(root, 'no-such-build/lumen/server.mjs')}`)
    expect(result.stderr).toContain('npm run build')
  })
})
