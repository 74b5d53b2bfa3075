import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parseWordTimes, resolveSpeechEngine, wordsToCues, type SpokenWord } from './speech'

const OUTPUT = `welcome to this short lecture
<s> 0.120 0.190 0.999400
welcome 0.200 0.600 0.014261
to(3) 0.610 0.710 0.012043
<sil> 0.720 0.840 0.912155
this 0.850 1.000 0.038524
[NOISE] 1.010 1.100 0.500000
short 1.210 1.530 0.139355
lecture 1.540 1.910 0.592822
</s> 1.920 2.000 1.000000
i think so
i 3.000 3.100 0.5
think 3.110 3.400 0.5
so 3.410 3.600 0.5
`

function word(text: string, startMs: number, endMs: number): SpokenWord {
  return { word: text, startMs, endMs, confidence: 0.5 }
}

describe('parseWordTimes', () => {
  it('keeps the words with their times and drops marks, fillers and pronunciation variants', () => {
    const words = parseWordTimes(OUTPUT)
    expect(words.map((entry) => entry.word)).toEqual(['welcome', 'to', 'this', 'short', 'lecture', 'i', 'think', 'so'])
    expect(words[1]).toEqual({ word: 'to', startMs: 610, endMs: 710, confidence: 0.012043 })
  })

  it('finds nothing in output without word lines (silence, a tone)', () => {
    expect(parseWordTimes('\n<s> 0.000 0.110 1.000000\n</s> 0.120 0.630 1.000000\n')).toEqual([])
    expect(parseWordTimes('')).toEqual([])
  })
})

describe('wordsToCues', () => {
  it('starts a new cue at a pause and capitalises each cue and the word I', () => {
    const cues = wordsToCues(parseWordTimes(OUTPUT))
    expect(cues).toEqual([
      { startMs: 200, endMs: 1910, text: 'Welcome to this short lecture' },
      // 600 ms of speech, kept up for a second.
      { startMs: 3000, endMs: 4000, text: 'I think so' },
    ])
  })

  it('keeps a cue under two short lines and six seconds', () => {
    const words = Array.from({ length: 60 }, (_, index) => word('photosynthesis', index * 400, index * 400 + 380))
    const cues = wordsToCues(words)
    expect(cues.length).toBeGreaterThan(10)
    for (const cue of cues) {
      expect(cue.text.length).toBeLessThanOrEqual(84)
      expect(cue.endMs - cue.startMs).toBeLessThanOrEqual(6000)
    }
    // Every word is in exactly one cue, in order.
    expect(
      cues
        .map((cue) => cue.text.toLowerCase())
        .join(' ')
        .split(' '),
    ).toHaveLength(60)
  })

  it('keeps a short cue up for a second without running into the next', () => {
    const cues = wordsToCues([word('yes', 0, 200), word('no', 1000, 1200), word('maybe', 1500, 1700)])
    expect(cues.map((cue) => [cue.startMs, cue.endMs])).toEqual([
      [0, 1000],
      [1000, 2000],
    ])
    expect(cues[1]!.text).toBe('No maybe')
  })

  it('makes no cues from no words', () => {
    expect(wordsToCues([])).toEqual([])
  })
})

describe('resolveSpeechEngine', () => {
  const dirs: string[] = []
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true })
  })

  async function fakeInstall(): Promise<{ bin: string; model: string }> {
    const dir = await mkdtemp(path.join(tmpdir(), 'lumen-speech-'))
    dirs.push(dir)
    await mkdir(path.join(dir, 'bin'))
    await mkdir(path.join(dir, 'model', 'en-us'), { recursive: true })
    await writeFile(path.join(dir, 'bin', 'pocketsphinx_continuous'), '')
    await writeFile(path.join(dir, 'model', 'en-us.lm.bin'), '')
    await writeFile(path.join(dir, 'model', 'cmudict-en-us.dict'), '')
    return { bin: path.join(dir, 'bin'), model: path.join(dir, 'model') }
  }

  it('finds the recogniser on the PATH with its model', async () => {
    const install = await fakeInstall()
    const engine = resolveSpeechEngine({ PATH: install.bin, POCKETSPHINX_MODEL_DIR: install.model })
    expect(engine).toMatchObject({
      binary: path.join(install.bin, 'pocketsphinx_continuous'),
      lm: path.join(install.model, 'en-us.lm.bin'),
      language: 'en',
      label: 'English (automatic)',
    })
  })

  it('is off with AUTO_CAPTIONS=off, without the binary, or without the model', async () => {
    const install = await fakeInstall()
    expect(resolveSpeechEngine({ PATH: install.bin, POCKETSPHINX_MODEL_DIR: install.model, AUTO_CAPTIONS: 'off' })).toBeNull()
    expect(resolveSpeechEngine({ PATH: '/nonexistent', POCKETSPHINX_MODEL_DIR: install.model })).toBeNull()
    expect(resolveSpeechEngine({ PATH: install.bin, POCKETSPHINX_MODEL_DIR: '/nonexistent' })).toBeNull()
  })
})
