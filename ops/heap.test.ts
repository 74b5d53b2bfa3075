import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * Keeps ~80 MB alive and then churns objects that live through a few young-generation collections
 * before dying (as a request's do while it is in flight: up to ~16 MB at a time), printing the
 * largest heap V8 reserved. Measured on Node 20: ~210 MB with ops/heap.ts, ~440 MB without.
 */
const CHURN = `
const live = []
for (let i = 0; i < 40; i++) live.push(new Array(250_000).fill({ i }))
const liveMb = process.memoryUsage().heapUsed / 1048576
let inFlight = []
let largest = 0
for (let round = 0; round < 150_000; round++) {
  inFlight.push(new Array(1_000).fill('request ' + round))
  if (inFlight.length > 2_000) inFlight = []
  if (round % 100 === 0) largest = Math.max(largest, process.memoryUsage().heapTotal / 1048576)
}
console.log(JSON.stringify({ liveMb, largestMb: largest, kept: live.length }))
`

function largestHeap(preload: string[]): { liveMb: number; largestMb: number } {
  const dir = mkdtempSync(path.join(tmpdir(), 'lumen-heap-'))
  try {
    const script = path.join(dir, 'churn.mjs')
    writeFileSync(script, CHURN)
    const run = spawnSync(process.execPath, [...preload, script], { encoding: 'utf8', cwd: process.cwd() })
    if (run.status !== 0) throw new Error(run.stderr)
    return JSON.parse(run.stdout.trim().split('\n').at(-1)!)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('ops/heap', () => {
  it('keeps the heap a process reserves under churn near what is alive (V8 alone lets it reach several times that)', () => {
    const heap = largestHeap(['--import', 'tsx', '--import', path.resolve('ops/heap.ts')])
    expect(heap.liveMb).toBeGreaterThan(60)
    expect(heap.largestMb).toBeLessThan(heap.liveMb * 3.5)
  }, 60_000)
})
