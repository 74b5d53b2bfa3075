import { describe, expect, it } from 'vitest'
import {
  CAPTION_MESSAGES,
  captionFormat,
  parseCaptionFile,
  parseCaptionText,
  plainCueText,
  timestamp,
  toWebVtt,
} from './captions'

const encode = (text: string) => new TextEncoder().encode(text)

describe('caption files', () => {
  it('converts SRT to cues, overlapping cues kept and put in time order', async () => {
    const srt = [
      '2',
      '00:00:03,000 --> 00:00:05,500',
      'Overlap &amp; more',
      '',
      '1',
      '00:00:01,000 --> 00:00:04,000',
      'Hello <b>world</b>',
      'second line',
      '',
    ].join('\r\n')
    expect(await parseCaptionText(srt, 'lecture.srt')).toEqual([
      { startMs: 1000, endMs: 4000, text: 'Hello world\nsecond line' },
      { startMs: 3000, endMs: 5500, text: 'Overlap & more' },
    ])
  })

  it('reads WebVTT with a header, identifiers, settings and a byte-order mark', async () => {
    const vtt = '\uFEFFWEBVTT Kind: captions\n\nNOTE a note\n\nintro\n00:01.250 --> 00:02.000 align:start\n<v Ada>Welcome</v>\n'
    expect(await parseCaptionText(vtt)).toEqual([{ startMs: 1250, endMs: 2000, text: 'Welcome' }])
  })

  it('keeps a script payload as literal text and writes it back escaped', async () => {
    const cues = await parseCaptionText('WEBVTT\n\n00:00.000 --> 00:02.000\n<script>alert(1)</script>\n')
    expect(cues[0]!.text).toBe('<script>alert(1)</script>')
    const vtt = toWebVtt(cues)
    expect(vtt).not.toContain('<script>')
    expect(vtt).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    // And reading our own output gives the same text back.
    expect((await parseCaptionText(vtt))[0]!.text).toBe('<script>alert(1)</script>')
  })

  it('refuses what is not a caption file, with a message for the uploader', async () => {
    await expect(parseCaptionText('just some notes\n', 'notes.txt')).rejects.toThrow(CAPTION_MESSAGES.format)
    await expect(parseCaptionText('not a header\n\n00:00.000 --> 00:01.000\nx\n', 'a.vtt')).rejects.toThrow(/could not be read/)
    await expect(parseCaptionText('WEBVTT\n\n', 'a.vtt')).rejects.toThrow(CAPTION_MESSAGES.noCues)
    await expect(parseCaptionFile(new Uint8Array([0xff, 0xfe, 0x00, 0x41]), 'a.srt')).rejects.toThrow(CAPTION_MESSAGES.notText)
    await expect(parseCaptionFile(new Uint8Array(1024 * 1024 + 1), 'a.vtt')).rejects.toThrow(CAPTION_MESSAGES.tooLarge)
  })

  it('names the line of a cue whose timing cannot be read instead of dropping it silently', async () => {
    const vtt = 'WEBVTT\n\n00:00.000 --> 00:01.000\nfine\n\n00:00:05.000 --> 00:00:02.000\nbackwards\n'
    await expect(parseCaptionText(vtt)).rejects.toThrow(CAPTION_MESSAGES.badCue(6))
    const srt = '1\n00:00:01,000 --> 00:00:02,000\nok\n\n2\n00:00:xx,000 --> 00:00:03,000\nbroken\n'
    await expect(parseCaptionText(srt, 'a.srt')).rejects.toThrow(/line 6/)
  })

  it('tells the format from the content before the name', () => {
    expect(captionFormat('WEBVTT\n\n', 'x.srt')).toBe('vtt')
    expect(captionFormat('1\n00:00:01,000 --> 00:00:02,000\nx', 'x.vtt')).toBe('srt')
    expect(captionFormat('hello', 'x.txt')).toBeNull()
  })

  it('strips only WebVTT styling from cue text', () => {
    expect(plainCueText('<c.yellow>one</c> <i>two</i> <00:00:01.000>three &lt;b&gt;')).toBe('one two three <b>')
    expect(plainCueText('a < b and <notatag>')).toBe('a < b and <notatag>')
  })

  it('writes WebVTT timestamps', () => {
    expect(timestamp(0)).toBe('00:00:00.000')
    expect(timestamp(3_723_045)).toBe('01:02:03.045')
    expect(toWebVtt([{ startMs: 0, endMs: 1500, text: 'a\n\n\nb' }])).toBe('WEBVTT\n\n00:00:00.000 --> 00:00:01.500\na\nb\n')
  })
})

describe('caption file bytes', () => {
  it('reads UTF-8 with accents', async () => {
    const cues = await parseCaptionFile(encode('WEBVTT\n\n00:00.000 --> 00:01.000\nÉnergie cinétique\n'), 'fr.vtt')
    expect(cues[0]!.text).toBe('Énergie cinétique')
  })
})
