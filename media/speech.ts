/**
 * Automatic captions (ADRs 0022 and 0037): speech to timed words with an offline recogniser,
 * and the words grouped into caption cues.
 *
 * The engine is CMU PocketSphinx (`pocketsphinx_continuous`, Debian's `pocketsphinx`) with its
 * US English model (`pocketsphinx-en-us`): the one offline recogniser and model that installs
 * here from a package registry (no model can be fetched from a hub). It decodes about four
 * times faster than realtime on one core of this machine; ADR 0022
 * (docs/decisions/0022-caption-search.md, §5) has the measurements. When it is not installed, or `AUTO_CAPTIONS=off`, there is no engine
 * and uploads simply get no automatic track.
 */
import { existsSync } from 'node:fs'
import path from 'node:path'
import { getEnv } from '../ops/env'
import type { Cue } from './captions'
import { runMediaTool, type RunOptions } from './tools'

export interface SpeechEngine {
  /** `pocketsphinx_continuous`. */
  binary: string
  /** The acoustic model folder, its language model and its dictionary. */
  hmm: string
  lm: string
  dict: string
  /** BCP 47 tag and label of the tracks it makes. */
  language: string
  label: string
}

const MODEL_DIR = '/usr/share/pocketsphinx/model/en-us'

/**
 * The engine to use, or null: `AUTO_CAPTIONS=off` turns automatic captions off; otherwise
 * `POCKETSPHINX_BIN` or `pocketsphinx_continuous` on the PATH, with the model under
 * `POCKETSPHINX_MODEL_DIR` (default Debian's).
 */
export function resolveSpeechEngine(env: Record<string, string | undefined> = speechSettings()): SpeechEngine | null {
  if ((env.AUTO_CAPTIONS ?? 'on').toLowerCase() === 'off') return null
  const binary = env.POCKETSPHINX_BIN || findOnPath('pocketsphinx_continuous', env.PATH ?? '')
  if (!binary || !existsSync(binary)) return null
  const modelDir = env.POCKETSPHINX_MODEL_DIR || MODEL_DIR
  const engine = {
    binary,
    hmm: path.join(modelDir, 'en-us'),
    lm: path.join(modelDir, 'en-us.lm.bin'),
    dict: path.join(modelDir, 'cmudict-en-us.dict'),
    language: 'en',
    label: 'English (automatic)',
  }
  return [engine.hmm, engine.lm, engine.dict].every((file) => existsSync(file)) ? engine : null
}

function speechSettings(): Record<string, string | undefined> {
  const { AUTO_CAPTIONS, POCKETSPHINX_BIN, POCKETSPHINX_MODEL_DIR } = getEnv()
  return { PATH: process.env.PATH, AUTO_CAPTIONS, POCKETSPHINX_BIN, POCKETSPHINX_MODEL_DIR }
}

function findOnPath(name: string, searchPath: string): string | null {
  for (const dir of searchPath.split(path.delimiter)) {
    if (dir && existsSync(path.join(dir, name))) return path.join(dir, name)
  }
  return null
}

export interface SpokenWord {
  word: string
  startMs: number
  endMs: number
  /** The recogniser's posterior probability, 0–1. */
  confidence: number
}

/**
 * Recognises the speech in `wav` (16 kHz mono 16-bit PCM, as `ffmpeg -ac 1 -ar 16000` makes)
 * and returns its words with their times. Silence, tones and music give no words.
 */
export async function recogniseSpeech(engine: SpeechEngine, wav: string, options: RunOptions = {}): Promise<SpokenWord[]> {
  const { stdout } = await runMediaTool(
    engine.binary,
    ['-infile', wav, '-hmm', engine.hmm, '-lm', engine.lm, '-dict', engine.dict, '-time', 'yes', '-logfn', '/dev/null'],
    options,
  )
  return parseWordTimes(stdout)
}

/** Lines that are neither words nor pauses: sentence marks, silences, fillers, noise. */
const NOT_A_WORD = /^(<s>|<\/s>|<sil>|\[[A-Z_]+\]|\+\+?[A-Z_]+\+\+?)$/

/**
 * Reads `pocketsphinx_continuous -time yes` output: each utterance's text line, then one
 * `word start end confidence` line per word (seconds). Keeps the words, drops the marks
 * and the alternative-pronunciation suffix (`to(3)` → `to`).
 */
export function parseWordTimes(output: string): SpokenWord[] {
  const words: SpokenWord[] = []
  for (const line of output.split(/\r?\n/)) {
    const match = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)$/.exec(line.trim())
    if (!match) continue
    const token = match[1]!
    if (NOT_A_WORD.test(token)) continue
    const word = token.replace(/\(\d+\)$/, '')
    const startMs = Math.round(Number(match[2]) * 1000)
    const endMs = Math.round(Number(match[3]) * 1000)
    if (!word || endMs < startMs) continue
    words.push({ word, startMs, endMs, confidence: Number(match[4]) })
  }
  return words.sort((a, b) => a.startMs - b.startMs)
}

/**
 * Words the recogniser is less sure of than this are dropped. PocketSphinx's posteriors are low
 * even for clear synthetic speech ("plants" 0.03, "thank" 0.04), so the bar is low: it removes
 * the guesses, while the voice-activity check (media/voice-activity.ts) removes words heard in
 * tones and silence.
 */
export const MIN_WORD_CONFIDENCE = 0.01

export const CUE_RULES = {
  /** A cue ends before this many characters (two short lines on a phone). */
  maxChars: 84,
  /** …or after this long. */
  maxMs: 6_000,
  /** A pause this long between words starts a new cue. */
  pauseMs: 700,
  /** Each cue stays up at least this long (when the next one leaves room). */
  minMs: 1_000,
} as const

/**
 * Groups words into cues a viewer can read: a new cue at a pause, or when one would grow
 * past two short lines or six seconds; the first word capitalised, `i` as `I`, and each
 * cue kept on screen a second at least when the next one leaves room.
 */
export function wordsToCues(words: readonly SpokenWord[]): Cue[] {
  const groups: SpokenWord[][] = []
  let current: SpokenWord[] = []
  for (const word of words) {
    const last = current.at(-1)
    const text = [...current, word].map((entry) => entry.word).join(' ')
    const breakHere =
      last !== undefined &&
      (word.startMs - last.endMs >= CUE_RULES.pauseMs ||
        text.length > CUE_RULES.maxChars ||
        word.endMs - current[0]!.startMs > CUE_RULES.maxMs)
    if (breakHere) {
      groups.push(current)
      current = []
    }
    current.push(word)
  }
  if (current.length) groups.push(current)

  const cues = groups.map((group) => ({
    startMs: group[0]!.startMs,
    endMs: group.at(-1)!.endMs,
    text: sentenceCase(group.map((entry) => (entry.word === 'i' ? 'I' : entry.word.replace(/^i'/, "I'"))).join(' ')),
  }))
  for (const [index, cue] of cues.entries()) {
    const nextStart = cues[index + 1]?.startMs ?? Number.POSITIVE_INFINITY
    if (cue.endMs - cue.startMs < CUE_RULES.minMs) cue.endMs = Math.min(cue.startMs + CUE_RULES.minMs, nextStart)
  }
  return cues
}

function sentenceCase(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
