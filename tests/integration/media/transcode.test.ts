import { access, readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resolveMediaTools, runMediaTool } from '../../../media/tools'
import { probeMedia } from '../../../media/probe'
import { safeInputArgs } from '../../../media/safe-input'
import {
  masterVariantNames,
  mergeMasterPlaylist,
  mp4NameFor,
  parseMediaPlaylist,
  planRenditions,
  splitPhases,
  transcodeVideo,
  type TranscodeResult,
  type TranscodedRendition,
} from '../../../worker/transcode'
import { ffmpeg, ffprobeJson, makeClip, scratchDir } from './clips'

/**
 * The transcode on real (tiny) clips: a valid HLS ladder no larger than the
 * source, 4 s segments starting on keyframes every 2 s, an MP4 that plays
 * with its index first, a poster; portrait stays portrait; nothing is left
 * behind when it is stopped.
 */
describe('planRenditions', () => {
  const sizes = (width: number, height: number) => planRenditions(width, height).map((r) => `${r.width}x${r.height}`)

  it("takes Apple's rungs up to the source's short side", () => {
    expect(sizes(1920, 1080)).toEqual(['416x234', '640x360', '960x540', '1280x720'])
    expect(sizes(1280, 720)).toEqual(['416x234', '640x360', '960x540', '1280x720'])
    expect(sizes(854, 480)).toEqual(['416x234', '640x360'])
    expect(planRenditions(1920, 1080).map((r) => [r.name, r.videoKbps])).toEqual([
      ['234p', 145],
      ['360p', 730],
      ['540p', 2000],
      ['720p', 3000],
    ])
  })

  it('gives portrait sources (sparks) the portrait rungs', () => {
    expect(sizes(1080, 1920)).toEqual(['234x416', '360x640', '540x960', '720x1280'])
  })

  it('keeps other aspect ratios and never enlarges a small source', () => {
    expect(sizes(640, 480)).toEqual(['312x234', '480x360'])
    expect(sizes(160, 90)).toEqual(['160x90'])
  })

  it("asks no rung for more than an H.264 source's bit rate, and drops a rung that then adds nothing", () => {
    const plan = (bitRate: number, codec = 'h264') =>
      planRenditions(1280, 720, { bitRate, codec }).map((r) => `${r.name}@${r.videoKbps}`)
    expect(plan(10_000_000)).toEqual(['234p@145', '360p@730', '540p@2000', '720p@3000'])
    // 1.2 Mbit/s: 540p and 720p would both get 1,200 kbit/s — the 720p rung alone serves that bandwidth.
    expect(plan(1_200_000)).toEqual(['234p@145', '360p@730', '720p@1200'])
    // 2.1 Mbit/s: 540p's 2,000 is within 10% of 720p's 2,100.
    expect(plan(2_100_000)).toEqual(['234p@145', '360p@730', '720p@2100'])
    // Other codecs carry more per bit: twice their rate is the cap.
    expect(plan(1_200_000, 'hevc')).toEqual(['234p@145', '360p@730', '540p@2000', '720p@2400'])
  })

  it('splits a ladder into a first rung up to 360p and the rest; one rung is one phase', () => {
    const phases = (width: number, height: number) => {
      const plan = planRenditions(width, height)
      const { first, rest } = splitPhases(plan)
      return [first.name, rest.map((r) => r.name), mp4NameFor(first, plan)]
    }
    expect(phases(1280, 720)).toEqual(['360p', ['234p', '540p', '720p'], 'video-360p.mp4'])
    expect(phases(1080, 1920)).toEqual(['360p', ['234p', '540p', '720p'], 'video-360p.mp4'])
    expect(phases(640, 360)).toEqual(['360p', ['234p'], 'video.mp4'])
    expect(phases(320, 180)).toEqual(['180p', [], 'video.mp4'])
  })

  it("phase 2's master keeps phase 1's variant as it was and lists all by bandwidth", () => {
    const rendition = (name: string, width: number, height: number, bandwidth: number) =>
      ({
        name,
        width,
        height,
        bandwidth,
        averageBandwidth: bandwidth - 1,
        codecs: 'avc1.64001f,mp4a.40.2',
      }) as TranscodedRendition
    const published =
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n' +
      '#EXT-X-STREAM-INF:BANDWIDTH=800000,AVERAGE-BANDWIDTH=700000,RESOLUTION=640x360,CODECS="avc1.64001e,mp4a.40.2"\n360p/index.m3u8\n'
    const merged = mergeMasterPlaylist(published, [rendition('234p', 416, 234, 200000), rendition('720p', 1280, 720, 3300000)])
    expect(masterVariantNames(merged)).toEqual(['234p', '360p', '720p'])
    expect(merged).toContain(
      '#EXT-X-STREAM-INF:BANDWIDTH=800000,AVERAGE-BANDWIDTH=700000,RESOLUTION=640x360,CODECS="avc1.64001e,mp4a.40.2"\n360p/index.m3u8\n',
    )
    expect(merged.startsWith('#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n')).toBe(true)
  })
})

describe('transcodeVideo', () => {
  let scratch: Awaited<ReturnType<typeof scratchDir>>
  const file = (name: string) => path.join(scratch.dir, name)
  let landscape: TranscodeResult

  beforeAll(async () => {
    scratch = await scratchDir('transcode')
    await makeClip(file('landscape.mp4'), { width: 640, height: 360, seconds: 9 })
    landscape = await transcodeVideo(file('landscape.mp4'), await probeMedia(file('landscape.mp4')), file('landscape'), {
      poster: true,
    })
  })

  afterAll(async () => {
    await scratch?.remove()
  })

  it('writes a master playlist listing only the renditions no larger than the source', async () => {
    const master = await readFile(file('landscape/hls/master.m3u8'), 'utf8')
    const lines = master.trim().split('\n')
    expect(lines[0]).toBe('#EXTM3U')
    const variants = lines
      .map((line, index) => [line, lines[index + 1]] as const)
      .filter(([line]) => line.startsWith('#EXT-X-STREAM-INF:'))
    expect(variants.map(([, uri]) => uri)).toEqual(['234p/index.m3u8', '360p/index.m3u8'])
    for (const [info] of variants) {
      expect(info).toMatch(/BANDWIDTH=\d+,AVERAGE-BANDWIDTH=\d+,RESOLUTION=\d+x\d+,CODECS="avc1\.64[0-9a-f]{4},mp4a\.40\.2"/)
    }
    expect(variants.map(([info]) => /RESOLUTION=(\d+x\d+)/.exec(info)![1])).toEqual(['416x234', '640x360'])
    expect(landscape.renditions.map((r) => r.height).every((height) => height <= 360)).toBe(true)
  })

  it('has variant playlists of 4 s segments that all exist', async () => {
    for (const rendition of landscape.renditions) {
      const text = await readFile(path.join(landscape.dir, rendition.playlist), 'utf8')
      expect(text).toContain('#EXT-X-PLAYLIST-TYPE:VOD')
      expect(text).toContain('#EXT-X-ENDLIST')
      expect(text).toMatch(/#EXT-X-TARGETDURATION:4\b/)
      const segments = parseMediaPlaylist(text)
      expect(segments.map((segment) => Math.round(segment.duration))).toEqual([4, 4, 1])
      for (const segment of segments) {
        expect((await stat(path.join(landscape.dir, 'hls', rendition.name, segment.uri))).size).toBeGreaterThan(0)
      }
    }
  })

  it('is a playlist an HLS reader (ffprobe) opens, with a stream per rendition', async () => {
    const { stdout } = await runMediaTool(resolveMediaTools().ffprobe.path, [
      '-v',
      'error',
      '-show_streams',
      '-of',
      'json',
      ...safeInputArgs(file('landscape/hls/master.m3u8'), { formats: false }),
    ])
    const streams = (JSON.parse(stdout) as { streams: Array<{ codec_type: string; height?: number }> }).streams
    expect(
      streams
        .filter((s) => s.codec_type === 'video')
        .map((s) => s.height)
        .sort(),
    ).toEqual([234, 360])
    expect(streams.filter((s) => s.codec_type === 'audio')).toHaveLength(2)
  })

  it('puts a keyframe every 2 s', async () => {
    const { stdout } = await runMediaTool(resolveMediaTools().ffprobe.path, [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-show_entries',
      'packet=pts_time,flags',
      '-of',
      'csv=p=0',
      file('landscape/video.mp4'),
    ])
    const keyframes = stdout
      .trim()
      .split('\n')
      .map((line) => line.split(','))
      .filter(([, flags]) => flags?.startsWith('K'))
      .map(([time]) => Math.round(Number(time)))
    expect(keyframes).toEqual([0, 2, 4, 6, 8])
  })

  it('makes an MP4 that plays: the top rendition with sound, its index first', async () => {
    const probe = await ffprobeJson(file('landscape/video.mp4'))
    expect(probe.streams.map((s) => [s.codec_type, s.codec_name, s.height ?? null])).toEqual([
      ['video', 'h264', 360],
      ['audio', 'aac', null],
    ])
    expect(Number(probe.format.duration)).toBeCloseTo(9, 0)
    const bytes = await readFile(file('landscape/video.mp4'))
    expect(bytes.indexOf('moov')).toBeLessThan(bytes.indexOf('mdat'))
  })

  it('makes a poster the size of the top rendition', async () => {
    expect(landscape.poster).toBe('poster.jpg')
    const probe = await ffprobeJson(file('landscape/poster.jpg'))
    expect(probe.streams[0]).toMatchObject({ codec_name: 'mjpeg', width: 640, height: 360 })
  })

  it('lists every output with its content type, the master after the variants', () => {
    const paths = landscape.files.map((f) => f.path)
    expect(paths.indexOf('hls/master.m3u8')).toBeGreaterThan(paths.indexOf('hls/360p/index.m3u8'))
    expect(new Set(landscape.files.map((f) => `${f.path.split('.').pop()} ${f.contentType}`))).toEqual(
      new Set(['ts video/mp2t', 'm3u8 application/vnd.apple.mpegurl', 'mp4 video/mp4', 'jpg image/jpeg']),
    )
    expect(landscape.files.every((f) => f.sizeBytes > 0)).toBe(true)
  })

  it('turns a sideways phone video into portrait renditions, and a silent one into video-only segments', async () => {
    await makeClip(file('raw.mp4'), { width: 416, height: 234, seconds: 2, audio: false })
    await ffmpeg(['-i', file('raw.mp4'), '-c', 'copy', '-metadata:s:v:0', 'rotate=90', file('sideways.mp4')])
    const result = await transcodeVideo(file('sideways.mp4'), await probeMedia(file('sideways.mp4')), file('sideways'), {
      poster: true,
    })
    expect(result.renditions.map((r) => [r.name, r.width, r.height, r.codecs])).toEqual([
      ['234p', 234, 416, expect.stringMatching(/^avc1\.64[0-9a-f]{4}$/)],
    ])
    const mp4 = await ffprobeJson(file('sideways/video.mp4'))
    expect(mp4.streams.map((s) => [s.codec_type, s.width, s.height])).toEqual([['video', 234, 416]])
    expect((await ffprobeJson(file('sideways/poster.jpg'))).streams[0]).toMatchObject({ width: 234, height: 416 })
  })

  it('leaves nothing behind when stopped midway', async () => {
    const controller = new AbortController()
    const probe = await probeMedia(file('landscape.mp4'))
    const running = transcodeVideo(file('landscape.mp4'), probe, file('stopped'), { signal: controller.signal })
    setTimeout(() => controller.abort(), 150)
    await expect(running).rejects.toThrow(/aborted/)
    await expect(access(file('stopped'))).rejects.toThrow()
    await expect(access(file('stopped.partial'))).rejects.toThrow()
  })
})
