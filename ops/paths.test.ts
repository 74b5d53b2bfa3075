import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { projectRoot, rootAbove } from './paths'

const scratch = mkdtempSync(path.join(tmpdir(), 'lumen-paths-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('the repository root', () => {
  it('is the nearest folder at or above the given one holding package.json', () => {
    const repo = path.join(scratch, 'repo')
    const bundle = path.join(repo, 'build/lumen')
    mkdirSync(bundle, { recursive: true })
    writeFileSync(path.join(repo, 'package.json'), '{}')
    expect(rootAbove(bundle)).toBe(repo)
    expect(rootAbove(repo)).toBe(repo)
    expect(rootAbove(path.join(repo, 'build'))).toBe(repo)
  })

  it('says so when no folder above holds one', () => {
    const lonely = path.join(scratch, 'nowhere/deeper')
    mkdirSync(lonely, { recursive: true })
    // The system's temporary folder has no package.json above it.
    expect(() => rootAbove(lonely)).toThrow(/no package\.json at or above/)
  })

  it('is this checkout for the sources, where the migrations are', () => {
    expect(projectRoot).toBe(path.resolve(import.meta.dirname, '..'))
  })
})
