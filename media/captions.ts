/**
 * Caption files: WebVTT or SubRip (SRT) in, plain cues out, and WebVTT out again.
 *
 * Parsing is media-captions' (the Vidstack parser, strict mode); this module adds what a
 * platform needs on top: a size and cue limit, a refusal when the file is not captions at
 * all or when any cue's timing cannot be read (the parser skips such a cue silently), cue
 * text reduced to what a viewer reads (WebVTT's styling tags removed, entities decoded,
 * anything else kept as literal text), and cues in time order.
 *
 * What is stored is the cue list; the WebVTT served to players is written from it by
 * `toWebVtt`, which escapes `&`, `<` and `>`, so a file's markup never reaches a page or a
 * player as markup — `<script>` in a cue is shown as those characters.
 */
import { parseText } from 'media-captions'

export const CAPTION_LIMITS = {
  /** Bytes of the uploaded file: a two-hour lecture's captions are about 150 KB. */
  maxBytes: 1024 * 1024,
  maxCues: 10_000,
  /** Characters of one cue's text. */
  maxCueLength: 1_000,
} as const

export const CAPTION_MESSAGES = {
  tooLarge: 'Caption files must be under 1 MB',
  notText: 'Caption files must be UTF-8 text',
  format: 'Please choose a WebVTT (.vtt) or SubRip (.srt) caption file',
  noCues: 'This caption file has no cues',
  tooManyCues: 'This caption file has more than 10,000 cues',
  badCue: (line: number) => `This caption file could not be read: the cue near line ${line} has no valid timing`,
  badFile: (reason: string) => `This caption file could not be read: ${reason}`,
} as const

export type CaptionFormat = 'vtt' | 'srt'

export interface Cue {
  /** Milliseconds from the start of the video. */
  startMs: number
  endMs: number
  /** What a viewer reads: plain text, line breaks kept. */
  text: string
}

export class CaptionFileError extends Error {
  override name = 'CaptionFileError'
}

/** The format a caption file is in, from its first line (WebVTT must start with `WEBVTT`), else its name. */
export function captionFormat(text: string, fileName = ''): CaptionFormat | null {
  if (/^(?:\uFEFF)?WEBVTT(?:[ \t].*)?$/m.test(text.split(/\r?\n/, 1)[0] ?? '')) return 'vtt'
  if (/^\s*\d+\s*\r?\n\s*\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}\s*-->/.test(text.replace(/^\uFEFF/, ''))) return 'srt'
  if (/\.srt$/i.test(fileName)) return 'srt'
  if (/\.vtt$/i.test(fileName)) return 'vtt'
  return null
}

/** Reads a caption file's bytes; throws `CaptionFileError` with a message meant for its uploader. */
export async function parseCaptionFile(bytes: Uint8Array, fileName = ''): Promise<Cue[]> {
  if (bytes.byteLength > CAPTION_LIMITS.maxBytes) throw new CaptionFileError(CAPTION_MESSAGES.tooLarge)
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new CaptionFileError(CAPTION_MESSAGES.notText)
  }
  if (text.includes('\u0000')) throw new CaptionFileError(CAPTION_MESSAGES.notText)
  return parseCaptionText(text, fileName)
}

export async function parseCaptionText(input: string, fileName = ''): Promise<Cue[]> {
  const text = input.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n')
  const format = captionFormat(text, fileName)
  if (!format) throw new CaptionFileError(CAPTION_MESSAGES.format)

  let parsed
  try {
    parsed = await parseText(text, { type: format, strict: true })
  } catch (error) {
    throw new CaptionFileError(CAPTION_MESSAGES.badFile(error instanceof Error ? error.message : String(error)))
  }
  if (parsed.errors.length) throw new CaptionFileError(CAPTION_MESSAGES.badFile(parsed.errors[0]!.message))

  // The parser drops a cue whose timing it cannot read (or that ends before it starts) without
  // an error: compare with the timing lines the file has, and name the first one it dropped.
  const timingLines = [...text.matchAll(/^.*-->.*$/gm)]
  if (parsed.cues.length < timingLines.length) {
    const readable = new Set(parsed.cues.map((cue) => Math.round(cue.startTime * 1000)))
    const dropped = timingLines.find((match) => !readable.has(startOf(match[0]))) ?? timingLines[parsed.cues.length]!
    throw new CaptionFileError(CAPTION_MESSAGES.badCue(lineOf(text, dropped.index ?? 0)))
  }
  if (parsed.cues.length === 0) throw new CaptionFileError(CAPTION_MESSAGES.noCues)
  if (parsed.cues.length > CAPTION_LIMITS.maxCues) throw new CaptionFileError(CAPTION_MESSAGES.tooManyCues)

  return parsed.cues
    .map((cue) => ({
      startMs: Math.round(cue.startTime * 1000),
      endMs: Math.round(cue.endTime * 1000),
      text: plainCueText(cue.text).slice(0, CAPTION_LIMITS.maxCueLength),
    }))
    .filter((cue) => cue.text.trim() !== '')
    .sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs)
}

/** WebVTT's span tags and timestamps removed, its entities decoded; any other `<…>` stays as text. */
export function plainCueText(text: string): string {
  return text
    .replace(/<\/?(?:b|i|u|c|v|lang|ruby|rt)(?:[.\s][^>\n]*)?>/g, '')
    .replace(/<\d{2,}:\d{2}:\d{2}\.\d{3}>|<\d{2}:\d{2}\.\d{3}>/g, '')
    .replace(/&(lt|gt|amp|nbsp|lrm|rlm);/g, (_, name: string) => ENTITIES[name] ?? '')
    .trim()
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', nbsp: '\u00a0', lrm: '\u200e', rlm: '\u200f' }

/** A WebVTT file for players and `<track>` elements; cue text escaped so it is read as text. */
/** `settings`: WebVTT cue settings written on every cue (e.g. `line:58%`), from our own code only. */
export function toWebVtt(cues: readonly Cue[], options: { settings?: string } = {}): string {
  const settings = options.settings ? ` ${options.settings}` : ''
  const blocks = cues.map((cue) => `${timestamp(cue.startMs)} --> ${timestamp(cue.endMs)}${settings}\n${escapeCueText(cue.text)}`)
  return `WEBVTT\n\n${blocks.join('\n\n')}\n`
}

function escapeCueText(text: string): string {
  // A blank line would end the cue, and `-->` inside text would start a new one.
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\n{2,}/g, '\n')
}

export function timestamp(ms: number): string {
  const hours = Math.floor(ms / 3_600_000)
  const minutes = Math.floor(ms / 60_000) % 60
  const seconds = Math.floor(ms / 1000) % 60
  const millis = ms % 1000
  return `${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}.${pad(millis, 3)}`
}

function pad(value: number, width: number) {
  return String(value).padStart(width, '0')
}

function startOf(timingLine: string): number {
  const match = /(?:(\d+):)?(\d{1,2}):(\d{2})[.,](\d{1,3})\s*-->/.exec(timingLine)
  if (!match) return -1
  const [, hours = '0', minutes = '0', seconds = '0', millis = '0'] = match
  return ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000 + Number(millis.padEnd(3, '0'))
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length
}
