import { describe, expect, it } from 'vitest'
import { blendDurations, durationsOf, planShards, projectFiles, PROJECTS, specFiles } from '../../scripts/e2e-shards'

/** The e2e split of `npm test` (scripts/e2e-shards.ts): every file of each project in one shard, shards ending together. */
describe('planShards', () => {
  const files = ['tests/e2e/a.spec.ts', 'tests/e2e/b.spec.ts', 'tests/e2e/c.spec.ts', 'tests/e2e/d.spec.ts']

  it('gives every file of every project to exactly one shard', () => {
    const plans = planShards(files, {}, 3)
    for (const project of PROJECTS) {
      const given = plans.flatMap((plan) => plan.files[project]).sort()
      expect(given).toEqual(files)
    }
  })

  it('puts the longest files first into the least-loaded shard, so the shards end within the shortest file of each other', () => {
    const durations = {
      'desktop tests/e2e/a.spec.ts': 90_000,
      'desktop tests/e2e/b.spec.ts': 60_000,
      'desktop tests/e2e/c.spec.ts': 40_000,
      'desktop tests/e2e/d.spec.ts': 30_000,
      'phone tests/e2e/a.spec.ts': 20_000,
      'phone tests/e2e/b.spec.ts': 1_000,
      'phone tests/e2e/c.spec.ts': 1_000,
      'phone tests/e2e/d.spec.ts': 1_000,
    }
    const [first, second] = planShards(files, durations, 2)
    expect(first!.ms + second!.ms).toBe(243_000)
    expect(Math.abs(first!.ms - second!.ms)).toBeLessThanOrEqual(20_000)
    // Not the count split Playwright's --shard would make (a, b | c, d = 150 s against 70 s on desktop).
    expect(first!.files.desktop).toEqual(['tests/e2e/a.spec.ts', 'tests/e2e/d.spec.ts'])
    expect(second!.files.desktop).toEqual(['tests/e2e/b.spec.ts', 'tests/e2e/c.spec.ts'])
  })

  it('plans the first shard to end earlier by as much as asked, for faults to start on its core', () => {
    const durations = Object.fromEntries(
      Array.from({ length: 20 }, (_, index) => [`desktop tests/e2e/f${index}.spec.ts`, 10_000 + index * 1_000]),
    )
    const many = Object.keys(durations).map((key) => key.replace('desktop ', ''))
    const [first, second] = planShards({ desktop: many, phone: [] }, durations, 2, { firstEndsEarlier: 60_000 })
    expect(first!.ms + second!.ms).toBe(390_000)
    expect(second!.ms - first!.ms).toBeGreaterThanOrEqual(60_000 - 29_000)
    expect(second!.ms - first!.ms).toBeLessThanOrEqual(60_000 + 29_000)
    expect([...first!.files.desktop, ...second!.files.desktop].sort()).toEqual([...many].sort())
  })

  it('gives a file never timed a default share, and is the same plan every time', () => {
    const once = planShards(files, { 'desktop tests/e2e/a.spec.ts': 200_000 }, 2)
    expect(planShards(files, { 'desktop tests/e2e/a.spec.ts': 200_000 }, 2)).toEqual(once)
    expect(once[0]!.files.desktop).toEqual(['tests/e2e/a.spec.ts'])
    expect(once[1]!.files.desktop).toEqual(['tests/e2e/b.spec.ts', 'tests/e2e/c.spec.ts', 'tests/e2e/d.spec.ts'])
  })
})

describe('blendDurations', () => {
  it('takes the mean of the last times and this run’s, this run’s alone for a new file, and drops files no longer run', () => {
    expect(
      blendDurations(
        { 'desktop tests/e2e/a.spec.ts': 40_000, 'desktop tests/e2e/gone.spec.ts': 9_000 },
        { 'desktop tests/e2e/a.spec.ts': 50_001, 'phone tests/e2e/new.spec.ts': 7_000 },
      ),
    ).toEqual({ 'desktop tests/e2e/a.spec.ts': 45_001, 'phone tests/e2e/new.spec.ts': 7_000 })
  })
})

describe('durationsOf', () => {
  it('keeps the e2e files of a run by project, adding a file seen twice', () => {
    expect(
      durationsOf([
        { suite: 'e2e desktop', file: 'tests/e2e/a.spec.ts', ms: 1_200.4 },
        { suite: 'e2e phone', file: 'tests/e2e/a.spec.ts', ms: 300 },
        { suite: 'e2e phone', file: 'tests/e2e/a.spec.ts', ms: 100 },
        { suite: 'integration', file: 'tests/integration/x.test.ts', ms: 5_000 },
      ]),
    ).toEqual({ 'desktop tests/e2e/a.spec.ts': 1_200, 'phone tests/e2e/a.spec.ts': 400 })
  })
})

describe('specFiles', () => {
  it('lists the repository’s Playwright files', () => {
    const listed = specFiles()
    expect(listed).toContain('tests/e2e/resume.spec.ts')
    expect(listed.every((file) => file.startsWith('tests/e2e/') && file.endsWith('.spec.ts'))).toBe(true)
  })
})

describe('projectFiles', () => {
  it('gives the phone project only the files with a test tagged for it', () => {
    const files = specFiles()
    const { desktop, phone } = projectFiles(files)
    expect(desktop).toEqual(files)
    // The reel viewer has tests for the phone; the password reset's behaviour does not depend on the viewport.
    expect(phone).toContain('tests/e2e/reels.spec.ts')
    expect(phone).not.toContain('tests/e2e/reset.spec.ts')
    const plans = planShards({ desktop, phone }, {}, 2)
    expect(plans.flatMap((plan) => plan.files.phone).sort()).toEqual([...phone].sort())
  })
})
