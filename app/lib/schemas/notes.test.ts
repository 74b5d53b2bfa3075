import { describe, expect, it } from 'vitest'
import { NOTE_MESSAGES, noteSchema, notesFileName, notesMarkdown, parseNoteMoment } from './notes'

describe('parseNoteMoment', () => {
  it('reads seconds and clocks', () => {
    expect(parseNoteMoment('7')).toBe(7)
    expect(parseNoteMoment('0:07')).toBe(7)
    expect(parseNoteMoment(' 1:05 ')).toBe(65)
    expect(parseNoteMoment('1:02:03')).toBe(3723)
    expect(parseNoteMoment(42)).toBe(42)
    expect(parseNoteMoment('24:00:00')).toBe(86_400)
  })

  it('refuses what is not a moment', () => {
    for (const raw of ['', 'soon', '-1', '1:60', '1:2:3:4', '0:07.5', '24:00:01', 1.5, -3, null, undefined]) {
      expect(parseNoteMoment(raw), String(raw)).toBeNull()
    }
  })
})

describe('noteSchema', () => {
  it('trims the text and keeps its lines', () => {
    expect(noteSchema.parse({ at: '0:07', text: '  a\r\nb  ' })).toEqual({ at: 7, text: 'a\nb' })
  })

  it('names the field at fault', () => {
    const result = noteSchema.safeParse({ at: 'x', text: ' ' })
    expect(result.success).toBe(false)
    expect(result.error?.issues.map((issue) => [issue.path[0], issue.message])).toEqual([
      ['at', NOTE_MESSAGES.badMoment],
      ['text', NOTE_MESSAGES.badBody],
    ])
    expect(noteSchema.safeParse({ at: 1, text: 'x'.repeat(2001) }).error?.issues[0]?.message).toBe(NOTE_MESSAGES.bodyTooLong)
  })
})

describe('notesMarkdown', () => {
  const note = (atSeconds: number, body: string) => ({
    id: `n${atSeconds}`,
    videoId: 'v1',
    atSeconds,
    body,
    createdAt: '2026-11-26T00:00:00.000Z',
    updatedAt: '2026-11-26T00:00:00.000Z',
  })

  it('links each time to its moment and keeps a note’s lines under its bullet', () => {
    const text = notesMarkdown(
      [
        {
          video: { id: 'v1', title: 'Light [1] *bold*', creator: 'ada' },
          notes: [note(7, 'one\n\n# not a heading'), note(3723, 'two')],
        },
      ],
      'https://lumen.example/',
      new Date('2026-11-26T12:00:00Z'),
    )
    expect(text).toBe(
      [
        '# My notes',
        '',
        'Exported from Lumen on 2026-11-26.',
        '',
        '## [Light \\[1\\] \\*bold\\*](https://lumen.example/video/v1)',
        '',
        'By ada',
        '',
        '- [0:07](https://lumen.example/video/v1?t=7) one',
        '',
        '  # not a heading',
        '- [1:02:03](https://lumen.example/video/v1?t=3723) two',
        '',
      ].join('\n'),
    )
  })

  it('says so when there is nothing', () => {
    expect(notesMarkdown([], 'https://lumen.example', new Date('2026-11-26T12:00:00Z'))).toContain('No notes yet.')
  })
})

describe('notesFileName', () => {
  it('is ASCII, from the title', () => {
    expect(notesFileName(null)).toBe('lumen-notes.md')
    expect(notesFileName('Why the Sky Is Blue')).toBe('lumen-notes-why-the-sky-is-blue.md')
    expect(notesFileName('Héllo "world"\r\n; x')).toBe('lumen-notes-hello-world-x.md')
    expect(notesFileName('日本')).toBe('lumen-notes.md')
  })
})
