import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

/**
 * Comments and docs point only inside the repository: to `docs/product.md` for
 * what the product must do, to an ADR in `docs/decisions/` for why it was built
 * so, to SECURITY.md or docs/performance.md. A clone has no tracker and no
 * documents beside it, so a reference to a numbered section of an outside
 * document (a spec's numbered section), to a tracker's numbered issue or to
 * a folder beside the repository leads nowhere; the test shows examples. `tests/unit/outside-references.test.ts` fails on any of them.
 *
 * The patterns are spelled in pieces so that this file does not match itself.
 */
const S = '\u00a7'
export const OUTSIDE_REFERENCE_PATTERNS: readonly RegExp[] = [
  new RegExp(`\\bspec\\s*${S}`, 'i'),
  new RegExp(`\\bspec(?:'s)?\\s+sections?\\b`, 'i'),
  new RegExp(`\\bissues?\\s+#?\\d`, 'i'),
  new RegExp(`\\bissue\\s+\\d+'s\\b`, 'i'),
  new RegExp(`\\bissue\\s+items?\\s+\\d`, 'i'),
  new RegExp(`supabase-${'contract'}`),
  new RegExp(`\\b${'section'}s?\\s+[1-9](?![\\d.])`, 'i'),
  new RegExp(`\\.\\./shared/`),
  new RegExp(`/work/${'shared'}\\b`),
  new RegExp(`product-${'spec'}`),
  new RegExp(`\\bARCHITECTURE(?:\\.md|\\s+decision)`),
]

export interface OutsideReference {
  file: string
  line: number
  text: string
}

/** Every line of `text` that points outside the repository, numbered from 1. */
export function findOutsideReferences(text: string, file = ''): OutsideReference[] {
  const found: OutsideReference[] = []
  text.split('\n').forEach((line, index) => {
    if (OUTSIDE_REFERENCE_PATTERNS.some((pattern) => pattern.test(line))) {
      found.push({ file, line: index + 1, text: line.trim() })
    }
  })
  return found
}

/** Folders never scanned: installed packages, builds, test output, git's own. */
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'build', 'test-results', 'playwright-report', '.data', '.cache'])

/** The repository's tracked files (git), or every file outside the skipped folders when there is no git. */
export function repositoryFiles(root: string): string[] {
  try {
    return execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
      .split('\0')
      .filter((file) => file !== '' && !file.split('/').some((part) => SKIPPED_DIRS.has(part)))
  } catch {
    const files: string[] = []
    const walk = (dir: string) => {
      for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
        if (SKIPPED_DIRS.has(entry.name) || entry.name.startsWith('build-')) continue
        const relative = dir === '' ? entry.name : `${dir}/${entry.name}`
        if (entry.isDirectory()) walk(relative)
        else if (entry.isFile()) files.push(relative)
      }
    }
    walk('')
    return files
  }
}

/** The outside references of every text file of the repository at `root`. */
export function scanRepository(root: string): OutsideReference[] {
  const found: OutsideReference[] = []
  for (const file of repositoryFiles(root)) {
    if (file === 'package-lock.json') continue
    let text: string
    try {
      text = readFileSync(path.join(root, file), 'utf8')
    } catch {
      continue // listed by git but deleted in the work tree
    }
    if (text.includes('\0')) continue // binary
    found.push(...findOutsideReferences(text, file))
  }
  return found
}
