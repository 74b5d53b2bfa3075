import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { detectVoiceActivity, segmentsOf, withinSpeech, type FrameVerdict } from './voice-activity'

/**
 * The voice-activity check on sounds made here: the recogniser's false friends (tones, silence,
 * noise, a held chord) and a voice-like sound (a gliding pitch with its harmonics, rising and
 * falling four times a second like syllables). Real speech (flite) is in the automatic-captions
 * integration suite.
 */

const RATE = 16_000
let dir: string
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lumen-vad-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** A 16 kHz mono 16-bit WAV of `seconds` of `sample(t)` (in −1…1), with a LIST chunk before the data as ffmpeg writes. */
async function wav(name: string, seconds: number, sample: (t: number) => number): Promise<string> {
  const count = Math.round(seconds * RATE)
  const data = Buffer.alloc(count * 2)
  for (let index = 0; index < count; index++) {
    data.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(sample(index / RATE) * 32767))), index * 2)
  }
  const fmt = Buffer.alloc(24)
  fmt.write('fmt ', 0, 'ascii')
  fmt.writeUInt32LE(16, 4)
  fmt.writeUInt16LE(1, 8)
  fmt.writeUInt16LE(1, 10)
  fmt.writeUInt32LE(RATE, 12)
  fmt.writeUInt32LE(RATE * 2, 16)
  fmt.writeUInt16LE(2, 20)
  fmt.writeUInt16LE(16, 22)
  const list = Buffer.concat([Buffer.from('LIST', 'ascii'), Buffer.from([4, 0, 0, 0]), Buffer.from('INFO', 'ascii')])
  const dataHeader = Buffer.alloc(8)
  dataHeader.write('data', 0, 'ascii')
  dataHeader.writeUInt32LE(data.length, 4)
  const body = Buffer.concat([Buffer.from('WAVE', 'ascii'), fmt, list, dataHeader, data])
  const riff = Buffer.alloc(8)
  riff.write('RIFF', 0, 'ascii')
  riff.writeUInt32LE(body.length, 4)
  const file = path.join(dir, `${name}.wav`)
  await writeFile(file, Buffer.concat([riff, body]))
  return file
}

/** A made-up seeded noise source, so that runs are alike. */
function noise(seed = 1) {
  let state = seed
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state / 2 ** 30 - 1
  }
}

/** A voice-like sound: pitch gliding 110–160 Hz, 20 harmonics falling off, loudness following 4 Hz syllables. */
function voiceLike(t: number): number {
  const pitch = 135 + 25 * Math.sin(2 * Math.PI * 0.7 * t)
  const phase = 2 * Math.PI * (135 * t - (25 / (2 * Math.PI * 0.7)) * Math.cos(2 * Math.PI * 0.7 * t))
  let value = 0
  for (let harmonic = 1; harmonic <= 20; harmonic++) {
    if (pitch * harmonic > 4000) break
    // A formant near 500 Hz and one near 1,500 Hz.
    const hz = pitch * harmonic
    const formants = Math.exp(-(((hz - 500) / 250) ** 2)) + 0.6 * Math.exp(-(((hz - 1500) / 400) ** 2)) + 0.05
    value += formants * Math.sin(harmonic * phase)
  }
  const syllables = Math.max(0, Math.sin(2 * Math.PI * 4 * t)) ** 2
  return 0.15 * value * syllables
}

describe('detectVoiceActivity', () => {
  it('finds no speech in a 660 Hz tone, a 440 Hz tone, silence, hiss or a held chord', async () => {
    const random = noise()
    const sounds = {
      tone660: await wav('tone660', 4, (t) => 0.5 * Math.sin(2 * Math.PI * 660 * t)),
      tone440: await wav('tone440', 2, (t) => 0.8 * Math.sin(2 * Math.PI * 440 * t)),
      silence: await wav('silence', 3, () => 0),
      hiss: await wav('hiss', 2, () => 0.3 * random()),
      chord: await wav('chord', 2, (t) =>
        [220, 277, 330].reduce((sum, hz) => sum + 0.25 * Math.sin(2 * Math.PI * hz * t), 0),
      ),
    }
    for (const [name, file] of Object.entries(sounds)) {
      expect({ name, ...(await detectVoiceActivity(file)) }).toMatchObject({ name, hasSpeech: false, segments: [] })
    }
  })

  it('finds a voice-like sound, where it is', async () => {
    // One second of silence, two of "voice", one of a tone.
    const file = await wav('voice', 4, (t) => (t < 1 ? 0 : t < 3 ? voiceLike(t) : 0.5 * Math.sin(2 * Math.PI * 660 * t)))
    const activity = await detectVoiceActivity(file)
    expect(activity.hasSpeech).toBe(true)
    expect(activity.segments.length).toBeGreaterThan(0)
    expect(activity.segments[0]!.startMs).toBeGreaterThanOrEqual(950)
    expect(activity.segments.at(-1)!.endMs).toBeLessThanOrEqual(3100)
    expect(activity.speechMs).toBeGreaterThan(1200)
  })

  it('refuses a file that is not a WAV', async () => {
    const file = path.join(dir, 'not.wav')
    await writeFile(file, 'hello')
    await expect(detectVoiceActivity(file)).rejects.toThrow('not a WAV file')
  })
})

describe('segmentsOf and withinSpeech', () => {
  const speaking = (levelDb: number): FrameVerdict => ({ speech: true, levelDb })
  const quiet: FrameVerdict = { speech: false, levelDb: -90 }

  it('joins frames across short gaps and drops clicks and steady sounds', () => {
    const frames = [
      ...[-20, -30, -22, -35, -25].map(speaking),
      quiet,
      quiet, // 64 ms: joined
      ...[-20, -32].map(speaking),
      ...Array<FrameVerdict>(20).fill(quiet), // 640 ms: a new segment
      speaking(-20), // a click, 32 ms
      ...Array<FrameVerdict>(20).fill(quiet),
      ...Array<FrameVerdict>(10).fill(speaking(-20)), // steady: not speech
    ]
    expect(segmentsOf(frames)).toEqual([{ startMs: 0, endMs: 288 }])
  })

  it('keeps the words said during a segment', () => {
    const words = [
      { word: 'ah', startMs: 0, endMs: 300 },
      { word: 'plants', startMs: 1000, endMs: 1400 },
      { word: 'grow', startMs: 2100, endMs: 2400 },
    ]
    expect(withinSpeech(words, [{ startMs: 900, endMs: 2000 }]).map((word) => word.word)).toEqual(['plants', 'grow'])
  })
})
