import { describe, expect, it } from 'vitest'
import { formatReport, runLoad } from '../load/run-load'
import { haveBuild } from './support/processes'

/**
 * ADR 0017: `npm run load` for 30 seconds as a smoke test — viewers and
 * uploads against a real `npm start`: no unexpected answer, every upload
 * processed exactly once. Figures (latencies, memory) are printed, never
 * asserted: the 5-minute runs of `npm run load` are where they come from.
 */
describe.skipIf(!haveBuild())('npm run load, 30 s smoke', () => {
  it('answers every request as expected and processes every upload exactly once', async () => {
    const report = await runLoad({
      mode: 'embedded',
      seconds: 30,
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
