import { copyFile, readFile, truncate, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MediaToolError, resolveMediaTools, runMediaTool } from '../../../media/tools'
import type { MediaProbe } from '../../../media/probe'
import { safeInputArgs } from '../../../media/safe-input'
import { judgeProbe, validateVideoFile } from '../../../media/validate-upload'
import { ffmpeg, makeClip, scratchDir } from './clips'

/**
 * The server's judgement of an upload, by content: a generated corpus of
 * real videos and of things pretending to be videos (QUALITY.md, "Types"
 * and "Sizes"), each refused with a message the uploader can act on.
 */
const INVALID = 'Please select a valid video file.'

describe('validateVideoFile', () => {
  let scratch: Awaited<ReturnType<typeof scratchDir>>
  let clip: string
  const file = (name: string) => path.join(scratch.dir, name)

  beforeAll(async () => {
    scratch = await scratchDir('validate')
    clip = await makeClip(file('clip.mp4'), { width: 320, height: 180, seconds: 2 })
  })

  afterAll(async () => {
    await scratch?.remove()
  })

  describe('accepts real videos', () => {
    it('an MP4 with sound, with its size, length and streams', async () => {
      const result = await validateVideoFile(clip, { type: 'video' })
      expect(result.ok).toBe(true)
      if (!result.ok) return
      expect(result.probe).toMatchObject({
        container: 'mov',
        fileType: { ext: 'mp4', mime: 'video/mp4' },
        hasVideo: true,
        hasAudio: true,
        video: { codec: 'h264', width: 320, height: 180, rotation: 0, frameRate: 30 },
        audio: { codec: 'aac' },
      })
      expect(result.probe.durationSeconds).toBeCloseTo(2, 0)
      expect(result.probe.formatName).toContain('mp4')
    })

    it('the same video in Matroska, whatever it is named', async () => {
      await ffmpeg(['-i', clip, '-c', 'copy', '-f', 'matroska', file('clip-mkv.mp4')])
      const result = await validateVideoFile(file('clip-mkv.mp4'), { type: 'video' })
      expect(result.ok && result.probe.container).toBe('matroska')
    })

    it('a phone video recorded sideways reports its size as displayed (portrait)', async () => {
      await ffmpeg(['-i', clip, '-c', 'copy', '-metadata:s:v:0', 'rotate=90', file('sideways.mp4')])
      const result = await validateVideoFile(file('sideways.mp4'), { type: 'spark' })
      expect(result.ok && result.probe.video).toMatchObject({ width: 180, height: 320, codedWidth: 320, rotation: 90 })
    })

    it('a silent video (no audio stream)', async () => {
      await makeClip(file('silent.mp4'), { width: 160, height: 90, seconds: 1, audio: false })
      const result = await validateVideoFile(file('silent.mp4'), { type: 'video' })
      expect(result.ok && { hasVideo: result.probe.hasVideo, hasAudio: result.probe.hasAudio }).toEqual({
        hasVideo: true,
        hasAudio: false,
      })
    })
  })

  describe('refuses what is not a video, with a clear message', () => {
    async function refusal(name: string, content: string | Buffer, type: 'video' | 'spark' = 'video') {
      await writeFile(file(name), content)
      const result = await validateVideoFile(file(name), { type })
      expect(result.ok).toBe(false)
      return result.ok ? '' : result.message
    }

    it('a text file named .mp4', async () => {
      expect(await refusal('notes.mp4', 'These are my lecture notes, not a video.\n')).toBe(
        `${INVALID} This file is not a video. We take MP4, MOV, WebM, MKV, AVI and MPEG-TS.`,
      )
    })

    it('an HTML page named .mp4', async () => {
      const message = await refusal('page.mp4', '<!doctype html><html><body><script>alert(1)</script></body></html>')
      expect(message).toMatch(/^Please select a valid video file\. This file is not a video\./)
    })

    it('a PNG renamed .mp4, saying what it really is', async () => {
      await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=64x36', '-frames:v', '1', '-f', 'image2', '-c:v', 'png', file('picture.png')])
      expect(await refusal('picture.mp4', await readFile(file('picture.png')))).toBe(
        `${INVALID} This file is a PNG image, not a video. We take MP4, MOV, WebM, MKV, AVI and MPEG-TS.`,
      )
    })

    it('an HLS playlist disguised as a video (it would make ffmpeg read other files)', async () => {
      const playlist = `#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n${clip}\n#EXT-X-ENDLIST\n`
      expect(await refusal('playlist.mp4', playlist)).toMatch(/^Please select a valid video file\. This file is not a video\./)
    })

    it('an ffconcat list disguised as a video', async () => {
      expect(await refusal('list.mp4', `ffconcat version 1.0\nfile '${clip}'\n`)).toMatch(
        /^Please select a valid video file\. This file is not a video\./,
      )
    })

    it('ffprobe, run the way the probe runs it, will not open a playlist even when handed one directly', async () => {
      await writeFile(file('direct.m3u8'), `#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n${clip}\n#EXT-X-ENDLIST\n`)
      const run = runMediaTool(resolveMediaTools().ffprobe.path, [
        '-v', 'error', '-show_format', '-of', 'json', ...safeInputArgs(file('direct.m3u8')),
      ])
      await expect(run).rejects.toBeInstanceOf(MediaToolError)
    })

    it('zero bytes', async () => {
      expect(await refusal('empty.mp4', Buffer.alloc(0))).toBe(`${INVALID} This file is empty.`)
    })

    it('an MP4 cut short, its index (at the end) lost', async () => {
      const bytes = await readFile(clip)
      expect(await refusal('cut.mp4', bytes.subarray(0, Math.floor(bytes.length / 2)))).toBe(
        `${INVALID} This video file is incomplete or damaged; try exporting or uploading it again.`,
      )
    })

    it('an MP4 cut short after its index (which ffprobe alone would accept)', async () => {
      await ffmpeg(['-i', clip, '-c', 'copy', '-movflags', '+faststart', file('faststart.mp4')])
      const bytes = await readFile(file('faststart.mp4'))
      expect(await refusal('cut-faststart.mp4', bytes.subarray(0, bytes.length - 1000))).toMatch(/incomplete or damaged/)
    })

    it('an MP4 with sound only', async () => {
      await ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=22050', '-t', '1', '-c:a', 'aac', '-f', 'mp4', file('sound.mp4')])
      const result = await validateVideoFile(file('sound.mp4'), { type: 'video' })
      expect(result).toEqual({ ok: false, message: `${INVALID} This file has no video track, only sound.` })
    })

    it('an M4A audio file renamed .mp4', async () => {
      await ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=22050', '-t', '1', '-c:a', 'aac', '-f', 'ipod', file('song.mp4')])
      const result = await validateVideoFile(file('song.mp4'), { type: 'video' })
      expect(result).toEqual({ ok: false, message: `${INVALID} This file has sound only, no video.` })
    })

    it('a picture wider than 8K', async () => {
      await makeClip(file('wide.mp4'), { width: 8200, height: 16, seconds: 1, rate: 1, audio: false })
      const result = await validateVideoFile(file('wide.mp4'), { type: 'video' })
      expect(result).toEqual({
        ok: false,
        message: `${INVALID} Its picture is 8200×16; the largest we take is 8K (8192 pixels wide).`,
      })
    })

    it('a header claiming 47 days is refused (or read at its true length by ffprobes that ignore it)', async () => {
      await ffmpeg(['-i', clip, '-c', 'copy', file('plain.mp4')])
      const bytes = await readFile(file('plain.mp4'))
      const mvhd = bytes.indexOf('mvhd')
      expect(bytes[mvhd + 4]).toBe(0) // version 0: 32-bit timescale and duration
      const timescale = bytes.readUInt32BE(mvhd + 16)
      bytes.writeUInt32BE(47 * 24 * 3600 * timescale, mvhd + 20)
      await writeFile(file('long-header.mp4'), bytes)
      const result = await validateVideoFile(file('long-header.mp4'), { type: 'video' })
      if (result.ok) expect(result.probe.durationSeconds).toBeLessThan(10)
      else expect(result.message).toBe(`${INVALID} It says it is 47 days long; the longest we take is 3 hours.`)
    })

    it('absurd sizes and lengths in what ffprobe reports', async () => {
      const good = await validateVideoFile(clip, { type: 'video' })
      if (!good.ok) throw new Error(good.message)
      const probe: MediaProbe = good.probe
      expect(judgeProbe({ ...probe, video: { ...probe.video!, width: 100_000, height: 100_000 } }, 'video')).toEqual({
        ok: false,
        message: `${INVALID} Its picture is 100000×100000; the largest we take is 8K (8192 pixels wide).`,
      })
      expect(judgeProbe({ ...probe, durationSeconds: 0 }, 'video')).toEqual({
        ok: false,
        message: `${INVALID} Its length could not be read.`,
      })
      expect(judgeProbe({ ...probe, durationSeconds: 5 * 3600 }, 'video').ok).toBe(false)
      expect(judgeProbe({ ...probe, video: { ...probe.video!, width: 0 } }, 'video').ok).toBe(false)
    })
  })

  describe('sizes', () => {
    it('a video of 100 MB + 1 byte gets the spec message (quotes get theirs)', async () => {
      await copyFile(clip, file('huge.mp4'))
      await truncate(file('huge.mp4'), 104_857_601) // sparse: no 100 MB written
      expect(await validateVideoFile(file('huge.mp4'), { type: 'video' })).toEqual({
        ok: false,
        message: 'Video file is too large. Maximum size is 100MB',
      })
      expect(await validateVideoFile(file('huge.mp4'), { type: 'quote' })).toEqual({
        ok: false,
        message: 'Video file is too large. Please select a file under 100MB',
      })
    })
  })

  describe('sparks are under 60 seconds, by ffprobe', () => {
    it('a 70 s spark is refused, saying how long it is; the same file is a fine feed video', async () => {
      await makeClip(file('seventy.mp4'), { width: 64, height: 36, seconds: 70, rate: 1 })
      expect(await validateVideoFile(file('seventy.mp4'), { type: 'spark' })).toEqual({
        ok: false,
        message: 'Sparks must be under 60 seconds. This video is 70 seconds long.',
      })
      expect((await validateVideoFile(file('seventy.mp4'), { type: 'video' })).ok).toBe(true)
    })

    it('a 59 s spark is accepted', async () => {
      await makeClip(file('fifty-nine.mp4'), { width: 64, height: 36, seconds: 59, rate: 1 })
      const result = await validateVideoFile(file('fifty-nine.mp4'), { type: 'spark' })
      expect(result.ok).toBe(true)
      if (result.ok) expect(result.probe.durationSeconds).toBeLessThan(60)
    })

    it('a length that would round to 60.000 s in the database is refused', async () => {
      const good = await validateVideoFile(clip, { type: 'spark' })
      if (!good.ok) throw new Error(good.message)
      expect(judgeProbe({ ...good.probe, durationSeconds: 59.9996 }, 'spark')).toEqual({
        ok: false,
        message: 'Sparks must be under 60 seconds. This video is 60 seconds long.',
      })
      expect(judgeProbe({ ...good.probe, durationSeconds: 59.999 }, 'spark').ok).toBe(true)
    })
  })
})
