import { describe, expect, it } from 'vitest'
import { failureLineOf } from '../../scripts/test-output'

describe('failureLineOf (the summary of npm test)', () => {
  it('keeps the failure lines of each runner, without colour codes', () => {
    expect(failureLineOf('\x1b[41m\x1b[1m FAIL \x1b[22m\x1b[49m |unit| a.test.ts > works')).toBe('FAIL  |unit| a.test.ts > works')
    expect(failureLineOf('   × SIGKILL of the media worker > retries 4362ms')).toBe(
      '× SIGKILL of the media worker > retries 4362ms',
    )
    expect(failureLineOf('  ✘  64 [desktop] › tests/e2e/upload.spec.ts:260:3 › posts the form (15.3s)')).toBe(
      '✘  64 [desktop] › tests/e2e/upload.spec.ts:260:3 › posts the form (15.3s)',
    )
    expect(failureLineOf('not ok 3 - anon cannot read drafts')).toBe('not ok 3 - anon cannot read drafts')
    expect(failureLineOf("server.ts(12,3): error TS2304: Cannot find name 'x'.")).toBe(
      "server.ts(12,3): error TS2304: Cannot find name 'x'.",
    )
    expect(failureLineOf('  51:50  error  Unexpected control character  no-control-regex')).toBe(
      '51:50  error  Unexpected control character  no-control-regex',
    )
  })

  it('passes over passing tests, summaries and warnings', () => {
    for (const line of [
      ' ✓ |unit| ops/stalls.test.ts (3 tests) 5071ms',
      '  ✓  1 [desktop] › tests/e2e/upload.spec.ts:279:3 › posts the form (10.0s)',
      'ok 4 - creators read their own drafts',
      ' Test Files  1 failed | 7 passed (8)',
      '  12:5  warning  Unused variable  no-unused-vars',
      '[e2e 2/2]   1 failed',
    ]) {
      expect(failureLineOf(line)).toBeNull()
    }
  })
})
