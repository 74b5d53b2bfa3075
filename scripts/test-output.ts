/**
 * What `npm test` (scripts/test.ts) keeps of a suite's output for its closing
 * summary: the lines that name a failure — Vitest's `FAIL`/`×`, Playwright's
 * `✘`, pg_prove's `not ok`, tsc's `error TS…` and ESLint's `line:col  error`.
 */
const FAILURE_LINE = /^\s*(FAIL\s|×|✘|not ok\b)|error TS\d+|^\s*\d+:\d+\s+error\s/

// eslint-disable-next-line no-control-regex -- ANSI colour codes start with ESC
const ANSI = /\x1b\[[0-9;]*m/g

/** The line without colour codes and surrounding space when it names a failure, else null. */
export function failureLineOf(line: string): string | null {
  const plain = line.replace(ANSI, '')
  return FAILURE_LINE.test(plain) ? plain.trim() : null
}
