import { describe, expect, it } from 'vitest'
import { DEMO_CLIPS } from '../../../stack/demo-content'
import {
  CHAPTER_MESSAGES,
  chapterErrors,
  chapterIndexAt,
  chapterLines,
  chaptersFromDescription,
  chaptersFromRows,
  chaptersSchema,
  parseClock,
} from './chapters'

const three = [
  { start: 0, title: 'Intro' },
  { start: 10, title: 'Middle' },
  { start: 20, title: 'End' },
]

function errorsOf(input: unknown, duration: number | null = null) {
  const parsed = chaptersSchema(duration).safeParse(input)
  return parsed.success ? {} : chapterErrors(parsed.error)
}

describe('parseClock', () => {
  it('reads m:ss, mm:ss, h:mm:ss and plain seconds', () => {
    expect(parseClock('0:00')).toBe(0)
    expect(parseClock('1:05')).toBe(65)
    expect(parseClock('12:30')).toBe(750)
    expect(parseClock('1:02:03')).toBe(3723)
    expect(parseClock(' 75 ')).toBe(75)
  })
  it('refuses what is not a time', () => {
    for (const text of ['', '1:5', '1:60', '1:60:00', 'a:00', '-1', '1.5', '1:02:03:04']) expect(parseClock(text)).toBeNull()
  })
})

describe('chaptersSchema: the rules Postgres also holds', () => {
  it('accepts none, and three well spaced chapters starting at 0', () => {
    expect(errorsOf([])).toEqual({})
    expect(errorsOf(three)).toEqual({})
    expect(chaptersSchema().parse([{ start: 0, title: '  Intro ' }, ...three.slice(1)])[0]!.title).toBe('Intro')
  })
  it('refuses fewer than three', () => {
    expect(errorsOf(three.slice(0, 2))).toEqual({ chapters: CHAPTER_MESSAGES.tooFew })
  })
  it('names the row that breaks a rule', () => {
    expect(
      errorsOf([
        { start: 5, title: 'A' },
        { start: 20, title: 'B' },
        { start: 30, title: 'C' },
      ]),
    ).toEqual({ 'chapters.0.start': CHAPTER_MESSAGES.firstAtZero })
    expect(errorsOf([three[0], { start: 9, title: 'B' }, three[2]])).toEqual({ 'chapters.1.start': CHAPTER_MESSAGES.tooShort })
    expect(errorsOf([three[0], { start: 30, title: 'B' }, { start: 20, title: 'C' }])).toEqual({
      'chapters.2.start': CHAPTER_MESSAGES.tooShort,
    })
    expect(errorsOf([three[0], { start: 10, title: '   ' }, three[2]])).toEqual({
      'chapters.1.title': CHAPTER_MESSAGES.titleRequired,
    })
    expect(errorsOf([three[0], { start: 10, title: 'x'.repeat(101) }, three[2]])).toEqual({
      'chapters.1.title': CHAPTER_MESSAGES.titleTooLong,
    })
    expect(errorsOf([three[0], { start: 10, title: 'a\u0000b' }, three[2]])).toEqual({
      'chapters.1.title': CHAPTER_MESSAGES.unsupported,
    })
    expect(errorsOf([three[0], { start: 10.5, title: 'B' }, { start: 30, title: 'C' }])).toEqual({
      'chapters.1.start': CHAPTER_MESSAGES.badTime,
    })
    expect(errorsOf([three[0], { start: Number.NaN, title: 'B' }, three[2]])).toEqual({
      'chapters.1.start': CHAPTER_MESSAGES.badTime,
    })
  })
  it('holds the last chapter to 10 s when the length is known', () => {
    expect(errorsOf(three, 30)).toEqual({})
    expect(errorsOf(three, 29)).toEqual({ 'chapters.2.start': CHAPTER_MESSAGES.pastEnd })
  })
  it('refuses more than 100', () => {
    const many = Array.from({ length: 101 }, (_, index) => ({ start: index * 10, title: `Part ${index}` }))
    expect(errorsOf(many)).toEqual({ chapters: CHAPTER_MESSAGES.tooMany })
  })
})

describe('chapters from a description ("0:00 Intro" lines, YouTube style)', () => {
  const description = [
    'A lesson about waves.',
    '',
    '0:00 Intro',
    '1:05 - The maths',
    '12:30 | Questions',
    'Thanks for watching!',
  ].join('\n')
  it('reads the lines with a time at the start', () => {
    expect(chapterLines(description)).toEqual([
      { start: 0, title: 'Intro' },
      { start: 65, title: 'The maths' },
      { start: 750, title: 'Questions' },
    ])
  })
  it('takes them as chapters when they keep the rules', () => {
    expect(chaptersFromDescription(description)).toHaveLength(3)
    expect(chaptersFromDescription(description, 800)).toHaveLength(3)
  })
  it('has none when they do not (never an error: a description is free text)', () => {
    expect(chaptersFromDescription('0:00 Intro\n1:00 Outro')).toEqual([])
    expect(chaptersFromDescription('0:05 Intro\n1:00 Middle\n2:00 End')).toEqual([])
    expect(chaptersFromDescription('0:00 Intro\n0:05 Middle\n2:00 End')).toEqual([])
    expect(chaptersFromDescription(description, 755)).toEqual([])
    expect(chaptersFromDescription('No times here.')).toEqual([])
  })
})

describe('rows typed on the edit page', () => {
  it('drops empty rows and keeps a bad time as a bad time', () => {
    const { chapters, rows } = chaptersFromRows([
      { start: '0:00', title: 'Intro' },
      { start: '', title: '' },
      { start: 'soon', title: 'Later' },
    ])
    expect(rows).toHaveLength(2)
    expect(chapters[0]).toEqual({ start: 0, title: 'Intro' })
    expect(chapters[1]!.start).toBeNaN()
  })
})

describe('chapterIndexAt', () => {
  it('is the last chapter started', () => {
    expect(chapterIndexAt(three, 0)).toBe(0)
    expect(chapterIndexAt(three, 9.9)).toBe(0)
    expect(chapterIndexAt(three, 10)).toBe(1)
    expect(chapterIndexAt(three, 1000)).toBe(2)
    expect(chapterIndexAt([], 5)).toBe(-1)
  })
})

describe('the demo content', () => {
  it('gives only chapters that keep the rules', () => {
    const chaptered = DEMO_CLIPS.filter((clip) => clip.chapters?.length)
    expect(chaptered.length).toBeGreaterThan(0)
    for (const clip of chaptered) {
      const list = clip.chapters!.map(([start, title]) => ({ start, title }))
      expect(errorsOf(list, clip.seconds), clip.title).toEqual({})
    }
  })
})
