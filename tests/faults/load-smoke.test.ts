import { describe, expect, it } from 'vitest'
import { formatReport, runLoad } from '../load/run-load'
import { haveBuild } from './support/processes'

/**
 * ADR 0017: `npm run load` for 15 seconds as a smoke test — viewers and
 * uploads against a real `npm start`: no unexpected answer, every upload
 * processed exactly once. Figures (latencies, memory) are printed, never
 * asserted: the 5-minute runs of `npm run load` are where they come from.
 * 15 s (30 s before): about 350 requests and each lane's uploads overlapping
 * the viewers, which is what the assertions need; the other half only
 * repeated the same requests.
 */
describe.skipIf(!haveBuild())('npm run load, 15 s smoke', () => {
  it('answers every request as expected and processes every upload exactly once', async () => {
    const report = await runLoad({
      mode: 'embedded',
      seconds: 15,
      viewers: 25,
      uploads: 2,
      catalogue: { videos: 1, sparks: 1 },
    })
    console.log(formatReport(report).join('\n'))
    expect(report.requests).toBeGreaterThan(0)
    expect(report.unexpected).toEqual([])
    expect(report.uploadsSent).toBeGreaterThan(0)
    expect(report.processedTwice).toEqual([])
    expect(report.notProcessed).toEqual([])
  }, 480_000)
})
