import { open } from 'node:fs/promises'

/**
 * Is anyone speaking? A small voice-activity detector run before the
 * recogniser, because the recogniser finds words in anything: a steady
 * 660 Hz tone comes back as "ah" with a confidence of 0.9. It judges 32 ms
 * frames of 16 kHz mono PCM by their energy and their spectrum:
 *
 * - loud enough: above an absolute floor (silence and hiss are not speech);
 * - not a tone: a frame whose energy sits in one spectral peak (a sine, a
 *   hum, a beep) is not speech, which spreads over harmonics and formants;
 * - not noise: a flat spectrum (hiss, wind, applause) is not speech either;
 * - mostly in the voice band (about 100–4,000 Hz);
 * - not steady: speech rises and falls with its syllables, so a segment whose
 *   frames all have the same loudness (a held chord, a drone) is not speech.
 *
 * Speech frames closer than a short gap are joined into segments; a video
 * has speech when its segments add up to at least `minSpeechMs`. The
 * recogniser's words outside every segment are dropped (docs/decisions/0037-speech-before-captions.md).
 */

export const VAD_RULES = {
  sampleRate: 16_000,
  /** Samples per frame: 32 ms at 16 kHz (a power of two for the FFT). */
  frame: 512,
  /** Frames quieter than this (dB below full scale) are silence. */
  minLevelDb: -50,
  /** A frame whose strongest peak (±2 bins) holds more than this share of its energy is a tone. */
  maxPeakShare: 0.6,
  /** Spectral flatness (geometric / arithmetic mean of the power spectrum) above this is noise. */
  maxFlatness: 0.35,
  /** At least this share of a frame's energy lies in the voice band. */
  minVoiceBandShare: 0.6,
  voiceBandHz: [100, 4_000] as const,
  /** Speech frames this close are one segment. */
  joinGapMs: 300,
  /** A segment's frame levels spread less than this (standard deviation, dB) is a steady sound. */
  minLevelSpreadDb: 1.5,
  /** Segments shorter than this are dropped (a click, a cough). */
  minSegmentMs: 120,
  /** A recording with less speech than this in all has none. */
  minSpeechMs: 400,
} as const

export interface SpeechSegment {
  startMs: number
  endMs: number
}

export interface VoiceActivity {
  segments: SpeechSegment[]
  /** The segments' total length. */
  speechMs: number
  hasSpeech: boolean
}

/** A frame's loudness in dB below full scale. */
export function levelOf(samples: Float64Array): number {
  let sumSquares = 0
  for (const sample of samples) sumSquares += sample * sample
  return 10 * Math.log10(sumSquares / samples.length + 1e-20)
}

/** One frame's verdict by its level and spectrum (exported for tests). */
export function isSpeechFrame(samples: Float64Array, rules = VAD_RULES): boolean {
  if (levelOf(samples) < rules.minLevelDb) return false

  const power = powerSpectrum(samples)
  let total = 0
  let peak = 0
  for (let bin = 1; bin < power.length; bin++) {
    total += power[bin]!
    if (power[bin]! > power[peak]!) peak = bin
  }
  if (total <= 0) return false
  let peakEnergy = 0
  for (let bin = Math.max(1, peak - 2); bin <= Math.min(power.length - 1, peak + 2); bin++) peakEnergy += power[bin]!
  if (peakEnergy / total > rules.maxPeakShare) return false

  const hzPerBin = rules.sampleRate / samples.length
  let voice = 0
  let logSum = 0
  for (let bin = 1; bin < power.length; bin++) {
    const hz = bin * hzPerBin
    if (hz >= rules.voiceBandHz[0] && hz <= rules.voiceBandHz[1]) voice += power[bin]!
    logSum += Math.log(power[bin]! + 1e-20)
  }
  if (voice / total < rules.minVoiceBandShare) return false
  const flatness = Math.exp(logSum / (power.length - 1)) / (total / (power.length - 1))
  return flatness <= rules.maxFlatness
}

export interface FrameVerdict {
  speech: boolean
  levelDb: number
}

/** Joins speech frames into segments, dropping short ones and steady ones. */
export function segmentsOf(frames: readonly FrameVerdict[], rules = VAD_RULES): SpeechSegment[] {
  const frameMs = (rules.frame / rules.sampleRate) * 1000
  const segments: Array<SpeechSegment & { levels: number[] }> = []
  for (const [index, frame] of frames.entries()) {
    if (!frame.speech) continue
    const startMs = index * frameMs
    const last = segments.at(-1)
    if (last && startMs - last.endMs <= rules.joinGapMs) {
      last.endMs = startMs + frameMs
      last.levels.push(frame.levelDb)
    } else segments.push({ startMs, endMs: startMs + frameMs, levels: [frame.levelDb] })
  }
  return segments
    .filter((segment) => segment.endMs - segment.startMs >= rules.minSegmentMs)
    .filter((segment) => standardDeviation(segment.levels) >= rules.minLevelSpreadDb)
    .map((segment) => ({ startMs: Math.round(segment.startMs), endMs: Math.round(segment.endMs) }))
}

function standardDeviation(values: readonly number[]): number {
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length
  return Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length)
}

export function activityOf(frames: readonly FrameVerdict[], rules = VAD_RULES): VoiceActivity {
  const segments = segmentsOf(frames, rules)
  const speechMs = segments.reduce((sum, segment) => sum + segment.endMs - segment.startMs, 0)
  return { segments, speechMs, hasSpeech: speechMs >= rules.minSpeechMs }
}

/** The speech in a WAV file of 16 kHz mono 16-bit PCM (what `ffmpeg -ac 1 -ar 16000 -c:a pcm_s16le` writes). */
export async function detectVoiceActivity(wav: string, rules = VAD_RULES): Promise<VoiceActivity> {
  const file = await open(wav, 'r')
  try {
    const { offset, length } = await findDataChunk(file)
    const frames: FrameVerdict[] = []
    const frameBytes = rules.frame * 2
    const chunk = Buffer.alloc(frameBytes * 256)
    const frame = new Float64Array(rules.frame)
    let position = offset
    const end = offset + length
    let carry = Buffer.alloc(0)
    while (position < end) {
      const { bytesRead } = await file.read(chunk, 0, Math.min(chunk.length, end - position), position)
      if (!bytesRead) break
      position += bytesRead
      let data = Buffer.concat([carry, chunk.subarray(0, bytesRead)])
      while (data.length >= frameBytes) {
        for (let index = 0; index < rules.frame; index++) frame[index] = data.readInt16LE(index * 2) / 32768
        frames.push({ speech: isSpeechFrame(frame, rules), levelDb: levelOf(frame) })
        data = data.subarray(frameBytes)
      }
      carry = Buffer.from(data)
    }
    return activityOf(frames, rules)
  } finally {
    await file.close()
  }
}

/** Words (or anything timed) that overlap a segment, with `padMs` of slack either side. */
export function withinSpeech<T extends { startMs: number; endMs: number }>(
  items: readonly T[],
  segments: readonly SpeechSegment[],
  padMs = 200,
): T[] {
  return items.filter((item) =>
    segments.some((segment) => item.startMs < segment.endMs + padMs && item.endMs > segment.startMs - padMs),
  )
}

async function findDataChunk(file: Awaited<ReturnType<typeof open>>): Promise<{ offset: number; length: number }> {
  const header = Buffer.alloc(12)
  await file.read(header, 0, 12, 0)
  if (header.toString('ascii', 0, 4) !== 'RIFF' || header.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error('not a WAV file')
  }
  const size = (await file.stat()).size
  let offset = 12
  const chunkHeader = Buffer.alloc(8)
  while (offset + 8 <= size) {
    await file.read(chunkHeader, 0, 8, offset)
    const id = chunkHeader.toString('ascii', 0, 4)
    const length = chunkHeader.readUInt32LE(4)
    if (id === 'data') return { offset: offset + 8, length: Math.min(length, size - offset - 8) }
    offset += 8 + length + (length % 2)
  }
  throw new Error('WAV file without a data chunk')
}

/** Power spectrum (bins 0..n/2) of a Hann-windowed frame; n a power of two. */
function powerSpectrum(samples: Float64Array): Float64Array {
  const n = samples.length
  const re = new Float64Array(n)
  const im = new Float64Array(n)
  for (let index = 0; index < n; index++) re[index] = samples[index]! * (0.5 - 0.5 * Math.cos((2 * Math.PI * index) / (n - 1)))
  // Iterative radix-2 FFT.
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1
    for (; j & bit; bit >>= 1) j ^= bit
    j ^= bit
    if (i < j) {
      ;[re[i], re[j]] = [re[j]!, re[i]!]
    }
  }
  for (let size = 2; size <= n; size <<= 1) {
    const angle = (-2 * Math.PI) / size
    for (let start = 0; start < n; start += size) {
      for (let k = 0; k < size / 2; k++) {
        const cos = Math.cos(angle * k)
        const sin = Math.sin(angle * k)
        const a = start + k
        const b = a + size / 2
        const tre = re[b]! * cos - im[b]! * sin
        const tim = re[b]! * sin + im[b]! * cos
        re[b] = re[a]! - tre
        im[b] = im[a]! - tim
        re[a] = re[a]! + tre
        im[a] = im[a]! + tim
      }
    }
  }
  const power = new Float64Array(n / 2 + 1)
  for (let bin = 0; bin <= n / 2; bin++) power[bin] = re[bin]! ** 2 + im[bin]! ** 2
  return power
}
