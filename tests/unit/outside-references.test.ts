import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { findOutsideReferences, scanRepository } from '../../scripts/outside-references'

// Planted examples are built from pieces so that this file does not match itself.
const SECTION = 'spec ' + '\u00a7' + '7'
const SECTIONS = 'spec ' + 'sec' + 'tions 2 and 5'
const ISSUE = 'issue ' + '18'
const ISSUE_HASH = 'issue ' + '#12'
const ISSUE_POSSESSIVE = 'Issue ' + "8's findings"
const SHARED = '../' + 'shared/design/STYLE.md'
const SECTION_WORD = 'section ' + "7's names"
const ISSUE_ITEMS = 'issue ' + 'items 4 and 7'

const dir = mkdtempSync(path.join(tmpdir(), 'lumen-outside-references-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('comments and docs point only inside the repository', () => {
  it.each([SECTION, SECTIONS, SECTION_WORD, ISSUE, ISSUE_HASH, ISSUE_POSSESSIVE, ISSUE_ITEMS, SHARED])(
    'finds %j in a comment',
    (reference) => {
      const text = `const a = 1\n/** The list (${reference}). */\nconst b = 2\n`
      expect(findOutsideReferences(text, 'x.ts')).toEqual([{ file: 'x.ts', line: 2, text: `/** The list (${reference}). */` }])
    },
  )

  it('lets references inside the repository and ordinary words through', () => {
    const text = [
      '// The sparks page size (docs/product.md, Limits and timers; ADR 0019 §3).',
      "// zod's first issue's message, the spec's text, an issue with the network.",
      '-- See docs/decisions/0012-exposure-decisions.md, finding 8.',
      '// Its #EXT-X-TARGETDURATION (RFC 8216 section 4.3.3.1), the 10 sections of a grid.',
    ].join('\n')
    expect(findOutsideReferences(text)).toEqual([])
  })

  it('scans every file of a tree without git, skipping node_modules and builds', () => {
    mkdirSync(path.join(dir, 'app'), { recursive: true })
    mkdirSync(path.join(dir, 'node_modules/pkg'), { recursive: true })
    mkdirSync(path.join(dir, 'build'), { recursive: true })
    writeFileSync(path.join(dir, 'app/a.ts'), `// fine\n// see ${SHARED}\n`)
    writeFileSync(path.join(dir, 'app/b.ts'), '// fine\n')
    writeFileSync(path.join(dir, 'node_modules/pkg/index.js'), `// ${ISSUE}\n`)
    writeFileSync(path.join(dir, 'build/index.js'), `// ${ISSUE}\n`)
    expect(scanRepository(dir).map(({ file, line }) => `${file}:${line}`)).toEqual(['app/a.ts:2'])
  })

  it('finds none in this repository', () => {
    const found = scanRepository(path.resolve(import.meta.dirname, '../..'))
    expect(found.map(({ file, line, text }) => `${file}:${line}: ${text}`)).toEqual([])
  })
})
