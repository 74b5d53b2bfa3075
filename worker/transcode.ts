import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { resolveMediaTools, runMediaTool, type MediaTools } from '../media/tools'
import type { MediaProbe } from '../media/probe'
import { safeInputArgs } from '../media/safe-input'

/**
 * One upload in, everything a player needs out:
 * - HLS renditions made in ONE ffmpeg pass (decode once, `split` the frames,
 *   scale and encode each rung): Apple's rungs no larger than the source,
 *   portrait ones for portrait sources, keyframes every 2 s, 4 s segments;
 * - a progressive MP4 for players without HLS (no JavaScript): the highest
 *   rung made in the pass remuxed (no second encode), index first (`+faststart`);
 * - optionally a poster JPEG from about 1 s in.
 * Everything is written to `<outDir>.partial` and renamed to `outDir` only
 * once every playlist, segment, the MP4 and the poster exist.
 *
 * The worker calls it twice for a ladder of more than one rung (ADR 0025):
 * phase 1 makes `splitPhases(plan).first` alone, with the poster and an MP4
 * of it, so the video plays within seconds; phase 2 makes the rest in one
 * pass and a master playlist that also lists what phase 1 published.
 *
 * The master playlist is written here rather than by ffmpeg's
 * `master_pl_name`: the ffmpeg 4.1 that the npm package ships crashes writing
 * it, and ours carries measured values (BANDWIDTH is the peak segment bit
 * rate, as Apple's spec asks) instead of ffmpeg's configured ones.
 */

interface Rung {
  shortSide: number
  longSide: number
  videoKbps: number
  audioKbps: number
}

/** Apple's HLS authoring ladder, 16:9, up to 720p. */
export const LADDER: readonly Rung[] = [
  { shortSide: 234, longSide: 416, videoKbps: 145, audioKbps: 64 },
  { shortSide: 360, longSide: 640, videoKbps: 730, audioKbps: 96 },
  { shortSide: 540, longSide: 960, videoKbps: 2000, audioKbps: 128 },
  { shortSide: 720, longSide: 1280, videoKbps: 3000, audioKbps: 128 },
]

export const SEGMENT_SECONDS = 4
export const KEYFRAME_SECONDS = 2
/**
 * x264 `superfast`: measured against `veryfast` on this 2-core machine
 * (ADR 0025) it takes ~25% less CPU for the whole ladder at ~1 dB lower SSIM
 * at the same bit rate — what it takes to finish a 60 s 720p ladder within
 * 25 s here. `ultrafast` would save another ~20% on a rung at ~2 dB more.
 */
export const DEFAULT_PRESET = 'superfast'
/** The rung phase 1 makes first: the highest with a short side at most this. */
export const FIRST_RUNG_SHORT_SIDE = 360
/** A rung whose bit rate is within this share of the next higher one's adds nothing: it is dropped. */
const SAME_RATE = 0.9
/** Frame rates above this (slow-motion phone clips) are brought down to 30 fps. */
const MAX_FRAME_RATE = 60

export interface Rendition {
  /** Folder name under hls/, e.g. `360p` (named after the short side, portrait or not). */
  name: string
  width: number
  height: number
  videoKbps: number
  audioKbps: number
}

/**
 * The rungs for a source of `width`×`height` (as displayed): every rung
 * whose short side is at most the source's, in the source's orientation and
 * aspect ratio. A source smaller than the lowest rung gets one rendition at
 * its own size.
 *
 * With the source's bit rate (`sourceBitRate`, bits/s), no rung asks for
 * more than it has: an H.264 source's rate caps every rung (more bits
 * cannot add what the source does not have), another codec's twice its rate
 * (HEVC, VP9 and AV1 pack more in a bit). A rung whose capped rate is then
 * within 10% of the next higher rung's is dropped: the higher one costs a
 * player the same bandwidth and shows more pixels.
 */
export function planRenditions(
  width: number,
  height: number,
  source: { bitRate?: number | null; codec?: string } = {},
): Rendition[] {
  const portrait = height > width
  const shortSide = Math.min(width, height)
  const longSide = Math.max(width, height)
  const capKbps = source.bitRate ? ((source.codec === 'h264' ? 1 : 2) * source.bitRate) / 1000 : Infinity
  const sized = (short: number, rung: Rung): Rendition => {
    const long = even((short * longSide) / shortSide)
    const area = (short * long) / (rung.shortSide * rung.longSide)
    // Another aspect ratio than 16:9 has more or fewer pixels per rung: bits follow, within reason.
    const kbps = Math.round(rung.videoKbps * Math.min(1.5, Math.max(0.5, area)))
    return {
      name: `${short}p`,
      width: portrait ? short : long,
      height: portrait ? long : short,
      videoKbps: Math.max(64, Math.min(kbps, Math.round(capKbps))),
      audioKbps: rung.audioKbps,
    }
  }
  const rungs = LADDER.filter((rung) => rung.shortSide <= shortSide)
  if (!rungs.length) return [sized(even(shortSide), LADDER[0]!)]
  const planned = rungs.map((rung) => sized(rung.shortSide, rung))
  return planned.filter((rendition, index) => {
    const higher = planned[index + 1]
    return !higher || rendition.videoKbps < SAME_RATE * higher.videoKbps
  })
}

/**
 * The two phases of a ladder: `first`, made alone so that the video plays
 * soon (the highest rung up to 360p: small enough to encode at several
 * times realtime, large enough to watch on a phone), and `rest`, made in a
 * second pass. A ladder of one rung has no second phase.
 */
export function splitPhases(plan: Rendition[]): { first: Rendition; rest: Rendition[] } {
  const eligible = plan.filter((rendition) => Math.min(rendition.width, rendition.height) <= FIRST_RUNG_SHORT_SIDE)
  const first = eligible.at(-1) ?? plan[0]!
  return { first, rest: plan.filter((rendition) => rendition !== first) }
}

/** The MP4 of a phase: `video.mp4` when it is the top rung's (final), else `video-<rung>.mp4`. */
export function mp4NameFor(rendition: Rendition, plan: Rendition[]): string {
  return rendition === plan.at(-1) ? 'video.mp4' : `video-${rendition.name}.mp4`
}

export interface TranscodeOptions {
  /** The rungs to make in this pass; default every rung of `planRenditions` (one phase). */
  renditions?: Rendition[]
  /** Also make poster.jpg (when the video has no thumbnail of its own), at this size (default: the top rung made here). */
  poster?: boolean | { width: number; height: number }
  /** Name of the progressive MP4, a remux of the highest rung made here; `null`: none. Default `video.mp4`. */
  mp4?: string | null
  /**
   * The master playlist already published (phase 1's): its variants that are
   * not made here are listed in the new master too, as they were. A promise
   * when this pass runs alongside phase 1: awaited once the encoding is done.
   */
  publishedMaster?: string | Promise<string>
  signal?: AbortSignal
  /** A lower CPU priority for ffmpeg (nice value), for a pass that runs alongside another. */
  niceness?: number
  tools?: MediaTools
  /** x264 preset; `superfast` unless a benchmark says otherwise. */
  preset?: string
  /** Kill ffmpeg after this long; default 10 min plus 4× the duration. */
  timeoutMs?: number
}

export interface OutputFile {
  /** Relative to the output folder, with forward slashes: `hls/360p/segment_000.ts`. */
  path: string
  contentType: string
  sizeBytes: number
}

export interface TranscodedRendition extends Rendition {
  playlist: string
  segments: string[]
  /** Peak segment bit rate (bits/s), as in the master playlist. */
  bandwidth: number
  averageBandwidth: number
  codecs: string
}

export interface TranscodeResult {
  dir: string
  /** `hls/master.m3u8` */
  master: string
  renditions: TranscodedRendition[]
  /** `video.mp4` (or `video-360p.mp4` in phase 1), or null when none was asked for. */
  mp4: string | null
  /** `poster.jpg`, when asked for. */
  poster: string | null
  /** Every file written, segments first and the master playlist after its variants. */
  files: OutputFile[]
}

export const CONTENT_TYPES = {
  m3u8: 'application/vnd.apple.mpegurl',
  ts: 'video/mp2t',
  mp4: 'video/mp4',
  jpg: 'image/jpeg',
} as const

export async function transcodeVideo(
  input: string,
  probe: MediaProbe,
  outDir: string,
  options: TranscodeOptions = {},
): Promise<TranscodeResult> {
  const video = probe.video
  if (!video) throw new Error('transcodeVideo needs a probe with a video stream')
  const tools = options.tools ?? resolveMediaTools()
  const preset = options.preset ?? DEFAULT_PRESET
  const timeoutMs = options.timeoutMs ?? 10 * 60_000 + 4 * probe.durationSeconds * 1000
  const run = (args: string[], cwd?: string) =>
    runMediaTool(tools.ffmpeg.path, args, { signal: options.signal, timeoutMs, cwd, niceness: options.niceness })

  const renditions =
    options.renditions ?? planRenditions(video.width, video.height, { bitRate: probe.bitRate, codec: video.codec })
  const mp4 = options.mp4 === undefined ? 'video.mp4' : options.mp4
  const partial = `${outDir}.partial`
  await rm(partial, { recursive: true, force: true })
  await mkdir(path.join(partial, 'hls'), { recursive: true })
  try {
    // Run inside the output folder: the muxer's name patterns (%v, %03d) then never meet a % in our own path.
    await run(ladderArguments(path.resolve(input), probe, renditions, preset), partial)

    // ffmpeg names variant folders by index (v0, v1, …); give them their rung's name.
    const transcoded: TranscodedRendition[] = []
    for (const [index, rendition] of renditions.entries()) {
      await rename(path.join(partial, 'hls', `v${index}`), path.join(partial, 'hls', rendition.name))
      transcoded.push(await checkVariant(partial, rendition, probe.hasAudio))
    }
    const version = await variantVersion(partial, transcoded)
    const published = await options.publishedMaster
    await writeFile(
      path.join(partial, 'hls', 'master.m3u8'),
      published ? mergeMasterPlaylist(published, transcoded, version) : masterPlaylist(transcoded, version),
    )

    const top = transcoded.at(-1)!
    if (mp4)
      await run([
        '-hide_banner',
        '-nostdin',
        '-v',
        'error',
        '-y',
        ...safeInputArgs(path.join(partial, top.playlist), { format: 'hls', formats: false }),
        '-map',
        '0',
        '-c',
        'copy',
        '-map_metadata',
        '-1',
        '-movflags',
        '+faststart',
        '-f',
        'mp4',
        path.join(partial, mp4),
      ])

    let poster: string | null = null
    if (options.poster) {
      poster = 'poster.jpg'
      const size = options.poster === true ? top : options.poster
      await makePoster(path.resolve(input), probe, size, path.join(partial, poster), run)
    }

    const files = await listOutputs(partial, transcoded, mp4, poster)
    await rm(outDir, { recursive: true, force: true })
    await rename(partial, outDir)
    return { dir: outDir, master: 'hls/master.m3u8', renditions: transcoded, mp4, poster, files }
  } catch (error) {
    await rm(partial, { recursive: true, force: true })
    throw error
  }
}

function ladderArguments(input: string, probe: MediaProbe, renditions: Rendition[], preset: string): string[] {
  const source = probe.video!
  const audio = probe.audio
  const keepRate = source.frameRate > 0 && source.frameRate <= MAX_FRAME_RATE
  const frameRate = keepRate ? source.frameRate : 30
  const gop = Math.max(1, Math.round(frameRate * KEYFRAME_SECONDS))
  const branches = renditions.map((_, index) => `[s${index}]`).join('')
  const graph = [
    `[0:${source.index}]${keepRate ? '' : `fps=${frameRate},`}split=${renditions.length}${branches}`,
    ...renditions.map(
      (rendition, index) => `[s${index}]scale=${rendition.width}:${rendition.height},setsar=1,format=yuv420p[v${index}]`,
    ),
  ].join(';')

  const args = [
    '-hide_banner',
    '-nostdin',
    '-v',
    'error',
    '-y',
    ...safeInputArgs(input, { format: probe.container }),
    '-filter_complex',
    graph,
  ]
  for (const [index] of renditions.entries()) {
    args.push('-map', `[v${index}]`)
    if (audio) args.push('-map', `0:${audio.index}`)
  }
  args.push(
    '-c:v',
    'libx264',
    '-preset',
    preset,
    '-profile:v',
    'high',
    // A keyframe every 2 s, whatever the content, so every 4 s segment starts on one.
    '-g',
    String(gop),
    '-keyint_min',
    String(gop),
    '-sc_threshold',
    '0',
    '-force_key_frames',
    `expr:gte(t,n_forced*${KEYFRAME_SECONDS})`,
  )
  for (const [index, rendition] of renditions.entries()) {
    args.push(
      `-b:v:${index}`,
      `${rendition.videoKbps}k`,
      `-maxrate:v:${index}`,
      `${Math.round(rendition.videoKbps * 1.1)}k`,
      `-bufsize:v:${index}`,
      `${rendition.videoKbps * 2}k`,
    )
    if (audio) args.push(`-b:a:${index}`, `${rendition.audioKbps}k`)
  }
  if (audio) args.push('-c:a', 'aac', '-ac', '2')
  args.push(
    '-map_metadata',
    '-1',
    '-map_chapters',
    '-1',
    '-max_muxing_queue_size',
    '4096',
    '-f',
    'hls',
    '-hls_time',
    String(SEGMENT_SECONDS),
    '-hls_playlist_type',
    'vod',
    '-hls_list_size',
    '0',
    '-hls_segment_type',
    'mpegts',
    '-hls_flags',
    'independent_segments',
    '-hls_segment_filename',
    'hls/v%v/segment_%03d.ts',
    '-var_stream_map',
    renditions.map((_, index) => (audio ? `v:${index},a:${index}` : `v:${index}`)).join(' '),
    'hls/v%v/index.m3u8',
  )
  return args
}

/** A variant is done when its playlist ends and every segment it lists exists and has bytes. */
async function checkVariant(dir: string, rendition: Rendition, hasAudio: boolean): Promise<TranscodedRendition> {
  const playlist = `hls/${rendition.name}/index.m3u8`
  const text = await readFile(path.join(dir, playlist), 'utf8')
  if (!text.includes('#EXT-X-ENDLIST')) throw new Error(`${playlist} is unfinished (no #EXT-X-ENDLIST)`)
  const entries = parseMediaPlaylist(text)
  if (!entries.length) throw new Error(`${playlist} lists no segments`)

  let peak = 0
  let bits = 0
  let seconds = 0
  const segments: string[] = []
  for (const entry of entries) {
    const segment = `hls/${rendition.name}/${entry.uri}`
    const { size } = await stat(path.join(dir, segment)).catch(() => ({ size: 0 }))
    if (!size) throw new Error(`${segment}, listed in ${playlist}, is missing or empty`)
    segments.push(segment)
    bits += size * 8
    seconds += entry.duration
    // A very short last segment would overstate the peak: judge it over at least a full segment's time.
    peak = Math.max(peak, (size * 8) / Math.max(entry.duration, Math.min(SEGMENT_SECONDS, seconds)))
  }

  const codecs = [await avcCodecOf(path.join(dir, segments[0]!), playlist), ...(hasAudio ? ['mp4a.40.2'] : [])].join(',')
  return {
    ...rendition,
    playlist,
    segments,
    bandwidth: Math.ceil(peak),
    averageBandwidth: Math.ceil(bits / Math.max(seconds, 0.001)),
    codecs,
  }
}

/**
 * The RFC 6381 codec of a segment's H.264 stream, `avc1.PPCCLL`, from its
 * first sequence parameter set (the three bytes after the NAL header:
 * profile, constraint flags, level), as ffmpeg's own HLS muxer does. Read
 * from the bytes, not with ffprobe: the static ffprobe of the npm package
 * crashes on MPEG-TS.
 */
async function avcCodecOf(segment: string, playlist: string): Promise<string> {
  const handle = await open(segment, 'r')
  try {
    const head = Buffer.alloc(64 * 1024)
    const { bytesRead } = await handle.read(head, 0, head.length, 0)
    for (let at = 0; at + 7 <= bytesRead; at++) {
      if (head[at] === 0 && head[at + 1] === 0 && head[at + 2] === 1 && (head[at + 3]! & 0x9f) === 0x07) {
        return `avc1.${head.subarray(at + 4, at + 7).toString('hex')}`
      }
    }
  } finally {
    await handle.close()
  }
  throw new Error(`the first segment of ${playlist} has no H.264 sequence parameter set`)
}

/** `#EXTINF` durations and the URIs after them. */
export function parseMediaPlaylist(text: string): Array<{ duration: number; uri: string }> {
  const entries: Array<{ duration: number; uri: string }> = []
  let duration: number | undefined
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    if (line.startsWith('#EXTINF:')) duration = Number.parseFloat(line.slice('#EXTINF:'.length))
    else if (line && !line.startsWith('#') && duration !== undefined) {
      entries.push({ duration, uri: line })
      duration = undefined
    }
  }
  return entries
}

async function variantVersion(dir: string, renditions: TranscodedRendition[]): Promise<number> {
  const text = await readFile(path.join(dir, renditions[0]!.playlist), 'utf8')
  return Number(/#EXT-X-VERSION:(\d+)/.exec(text)?.[1] ?? 3)
}

export function masterPlaylist(renditions: TranscodedRendition[], version = 3): string {
  return variantsPlaylist(
    renditions.map((rendition) => ({
      bandwidth: rendition.bandwidth,
      streamInf:
        `#EXT-X-STREAM-INF:BANDWIDTH=${rendition.bandwidth},AVERAGE-BANDWIDTH=${rendition.averageBandwidth},` +
        `RESOLUTION=${rendition.width}x${rendition.height},CODECS="${rendition.codecs}"`,
      uri: `${rendition.name}/index.m3u8`,
    })),
    version,
  )
}

export interface MasterVariant {
  /** The whole `#EXT-X-STREAM-INF:…` line. */
  streamInf: string
  uri: string
  bandwidth: number
}

/** The variants a master playlist lists, in its order. */
export function parseMasterPlaylist(text: string): { version: number; variants: MasterVariant[] } {
  const variants: MasterVariant[] = []
  let streamInf: string | undefined
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    if (line.startsWith('#EXT-X-STREAM-INF:')) streamInf = line
    else if (line && !line.startsWith('#') && streamInf) {
      variants.push({ streamInf, uri: line, bandwidth: Number(/BANDWIDTH=(\d+)/.exec(streamInf)?.[1] ?? 0) })
      streamInf = undefined
    }
  }
  return { version: Number(/#EXT-X-VERSION:(\d+)/.exec(text)?.[1] ?? 3), variants }
}

/** The variant folder names (`360p`) a master playlist lists. */
export function masterVariantNames(text: string): string[] {
  return parseMasterPlaylist(text).variants.map((variant) => variant.uri.split('/')[0]!)
}

/**
 * Phase 2's master: the variants of the published one that were not made
 * again, with the new renditions, lowest bandwidth first.
 */
export function mergeMasterPlaylist(published: string, renditions: TranscodedRendition[], version = 3): string {
  const fresh = parseMasterPlaylist(masterPlaylist(renditions, version)).variants
  const old = parseMasterPlaylist(published)
  const kept = old.variants.filter((variant) => !fresh.some((made) => made.uri === variant.uri))
  return variantsPlaylist(
    [...kept, ...fresh].sort((a, b) => a.bandwidth - b.bandwidth),
    Math.max(version, old.version),
  )
}

function variantsPlaylist(variants: MasterVariant[], version: number): string {
  const lines = ['#EXTM3U', `#EXT-X-VERSION:${version}`, '#EXT-X-INDEPENDENT-SEGMENTS']
  for (const variant of variants) lines.push(variant.streamInf, variant.uri)
  return `${lines.join('\n')}\n`
}

async function makePoster(
  input: string,
  probe: MediaProbe,
  size: { width: number; height: number },
  output: string,
  run: (args: string[]) => Promise<unknown>,
) {
  const at = Math.min(1, probe.durationSeconds * 0.1)
  const attempt = (seconds: number) =>
    run([
      '-hide_banner',
      '-nostdin',
      '-v',
      'error',
      '-y',
      ...safeInputArgs(input, { format: probe.container, before: ['-ss', seconds.toFixed(3)] }),
      '-map',
      `0:${probe.video!.index}`,
      '-frames:v',
      '1',
      '-vf',
      `scale=${size.width}:${size.height},setsar=1,format=yuvj420p`,
      '-map_metadata',
      '-1',
      '-q:v',
      '3',
      '-f',
      'mjpeg',
      output,
    ])
  await attempt(at)
  // A container whose declared duration overstates its frames can leave nothing at `at`.
  if (!(await stat(output).catch(() => null))?.size) await attempt(0)
  if (!(await stat(output).catch(() => null))?.size) throw new Error('ffmpeg made no poster frame')
}

async function listOutputs(
  dir: string,
  renditions: TranscodedRendition[],
  mp4: string | null,
  poster: string | null,
): Promise<OutputFile[]> {
  const names = [
    ...renditions.flatMap((rendition) => [...rendition.segments, rendition.playlist]),
    'hls/master.m3u8',
    ...(mp4 ? [mp4] : []),
    ...(poster ? [poster] : []),
  ]
  const files: OutputFile[] = []
  for (const name of names) {
    const { size } = await stat(path.join(dir, name))
    if (!size) throw new Error(`${name} is empty`)
    const extension = name.slice(name.lastIndexOf('.') + 1) as keyof typeof CONTENT_TYPES
    files.push({ path: name, contentType: CONTENT_TYPES[extension], sizeBytes: size })
  }
  return files
}

function even(value: number): number {
  return Math.max(2, Math.round(value / 2) * 2)
}
