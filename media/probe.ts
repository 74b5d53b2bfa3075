import { open, stat } from 'node:fs/promises'
import { fileTypeFromFile } from 'file-type'
import { MediaToolError, resolveMediaTools, runMediaTool, type MediaTools } from './tools'
import { DEMUXER_ALLOW_LIST, safeInputArgs } from './safe-input'

/**
 * What a file really is, before anything decodes it for real: magic bytes
 * first (file-type), then ffprobe limited to the local file and to an
 * allow-list of container demuxers, so a text file, an image, an HLS or
 * concat playlist (which would make ffmpeg open other files or URLs) or an
 * audio file is refused whatever its name says.
 */

/** The demuxers we read, by the container the magic bytes name. */
export type Container = 'mov' | 'matroska' | 'avi' | 'mpegts'

const CONTAINER_BY_EXTENSION: Record<string, Container> = {
  mp4: 'mov',
  m4v: 'mov',
  mov: 'mov',
  '3gp': 'mov',
  '3g2': 'mov',
  mkv: 'matroska',
  webm: 'matroska',
  avi: 'avi',
  mts: 'mpegts',
}

/** ffprobe/ffmpeg `-format_whitelist`: every demuxer name the containers above go by. */
export { DEMUXER_ALLOW_LIST }

/** ISO base media files (MP4, MOV, 3GP) get their box structure checked too. */
const ISO_BMFF: ReadonlySet<string> = new Set(['mp4', 'm4v', 'mov', '3gp', '3g2'])

export interface VideoStreamInfo {
  /** The stream's index in the file (map it as `0:<index>`: the first video stream may be cover art). */
  index: number
  codec: string
  /** As displayed: after the rotation in the display matrix and the sample aspect ratio. */
  width: number
  height: number
  /** As coded in the stream. */
  codedWidth: number
  codedHeight: number
  /** Degrees, clockwise as ffprobe reports it (0, 90, 180, 270). */
  rotation: number
  /** Frames per second; 0 when the stream does not say. */
  frameRate: number
  pixelFormat: string | null
}

export interface AudioStreamInfo {
  index: number
  codec: string
  channels: number
  sampleRate: number
}

export interface MediaProbe {
  /** What the magic bytes say, e.g. `{ ext: 'mp4', mime: 'video/mp4' }`. */
  fileType: { ext: string; mime: string }
  /** The demuxer to force when decoding (`ffmpeg -f <container>`). */
  container: Container
  /** ffprobe's format name, e.g. `mov,mp4,m4a,3gp,3g2,mj2`. */
  formatName: string
  /** The longest declared duration (container or any stream), in seconds. */
  durationSeconds: number
  sizeBytes: number
  bitRate: number | null
  video: VideoStreamInfo | null
  audio: AudioStreamInfo | null
  hasVideo: boolean
  hasAudio: boolean
}

export type ProbeRefusal =
  /** Zero bytes. */
  | 'empty'
  /** The magic bytes name no video container we read (`detected` says what they do name, if anything). */
  | 'not-a-video'
  /** The magic bytes name an audio-only format. */
  | 'audio-only'
  /** A known container that is cut short or that ffprobe cannot read. */
  | 'damaged'

/** The file is not a video we accept; `reason` lets callers word it for users. */
export class MediaRefusedError extends Error {
  constructor(
    readonly reason: ProbeRefusal,
    message: string,
    readonly detected?: { ext: string; mime: string },
  ) {
    super(message)
    this.name = 'MediaRefusedError'
  }
}

export interface ProbeOptions {
  tools?: MediaTools
  signal?: AbortSignal
  timeoutMs?: number
}

/**
 * Probes a local video file. Throws `MediaRefusedError` when the file is not
 * a readable video container, and other errors when ffprobe itself could not
 * run (those are worth retrying; a refusal is not).
 */
export async function probeMedia(file: string, options: ProbeOptions = {}): Promise<MediaProbe> {
  const { size } = await stat(file)
  if (size === 0) throw new MediaRefusedError('empty', 'the file is empty')

  const fileType = await fileTypeFromFile(file)
  if (!fileType) throw new MediaRefusedError('not-a-video', 'the magic bytes name no known file type')
  const container = CONTAINER_BY_EXTENSION[fileType.ext]
  if (!container) {
    const reason = fileType.mime.startsWith('audio/') ? 'audio-only' : 'not-a-video'
    throw new MediaRefusedError(reason, `the magic bytes say ${fileType.mime}`, fileType)
  }
  if (ISO_BMFF.has(fileType.ext)) {
    const problem = await checkIsoBoxes(file, size)
    if (problem) throw new MediaRefusedError('damaged', problem, fileType)
  }

  const tools = options.tools ?? resolveMediaTools()
  const { stdout } = await runMediaTool(
    tools.ffprobe.path,
    [
      '-hide_banner',
      '-v', 'error',
      '-show_format',
      '-show_streams',
      '-of', 'json',
      ...safeInputArgs(file, { format: container }),
    ],
    { signal: options.signal, timeoutMs: options.timeoutMs ?? 60_000 },
  ).catch((error: unknown) => {
    // ffprobe ran and said no: the file's fault. Killed, timed out or not started: ours, worth retrying.
    if (error instanceof MediaToolError && error.exitCode !== null && !error.aborted) {
      throw new MediaRefusedError('damaged', `ffprobe could not read it: ${error.stderrTail || 'no details'}`, fileType)
    }
    throw error
  })
  return describeProbe(JSON.parse(stdout) as FfprobeOutput, fileType, container, size)
}

interface FfprobeStream {
  index?: number
  codec_type?: string
  codec_name?: string
  width?: number
  height?: number
  coded_width?: number
  coded_height?: number
  sample_aspect_ratio?: string
  pix_fmt?: string
  avg_frame_rate?: string
  r_frame_rate?: string
  channels?: number
  sample_rate?: string
  duration?: string
  disposition?: { attached_pic?: number }
  tags?: Record<string, string>
  side_data_list?: Array<{ rotation?: number | string }>
}

interface FfprobeOutput {
  format?: { format_name?: string; duration?: string; bit_rate?: string }
  streams?: FfprobeStream[]
}

function describeProbe(
  output: FfprobeOutput,
  fileType: { ext: string; mime: string },
  container: Container,
  sizeBytes: number,
): MediaProbe {
  const formatName = output.format?.format_name ?? ''
  const allowed = new Set(DEMUXER_ALLOW_LIST.split(','))
  if (!formatName.split(',').some((name) => allowed.has(name))) {
    throw new MediaRefusedError('not-a-video', `ffprobe read it as ${formatName || 'nothing'}`, fileType)
  }
  const streams = output.streams ?? []
  // Cover art in a music file is a "video" stream too; it is not a video.
  const videoStream = streams.find(
    (stream) => stream.codec_type === 'video' && !stream.disposition?.attached_pic && stream.codec_name,
  )
  const audioStream = streams.find((stream) => stream.codec_type === 'audio' && stream.codec_name)
  const durations = [output.format?.duration, ...streams.map((stream) => stream.duration)]
    .map((value) => Number(value))
    .filter((value) => Number.isFinite(value) && value > 0)

  return {
    fileType: { ext: fileType.ext, mime: fileType.mime },
    container,
    formatName,
    durationSeconds: durations.length ? Math.max(...durations) : 0,
    sizeBytes,
    bitRate: Number(output.format?.bit_rate) || null,
    video: videoStream ? describeVideo(videoStream) : null,
    audio: audioStream
      ? {
          index: audioStream.index ?? 0,
          codec: audioStream.codec_name!,
          channels: audioStream.channels ?? 0,
          sampleRate: Number(audioStream.sample_rate) || 0,
        }
      : null,
    hasVideo: Boolean(videoStream),
    hasAudio: Boolean(audioStream),
  }
}

function describeVideo(stream: FfprobeStream): VideoStreamInfo {
  const codedWidth = stream.width ?? 0
  const codedHeight = stream.height ?? 0
  const rotation = rotationOf(stream)
  const [sarNum, sarDen] = (stream.sample_aspect_ratio ?? '1:1').split(':').map(Number)
  const sar = sarNum && sarDen ? sarNum / sarDen : 1
  const displayWidth = evenAtLeastTwo(codedWidth * sar)
  const quarterTurn = rotation % 180 !== 0
  return {
    index: stream.index ?? 0,
    codec: stream.codec_name!,
    width: quarterTurn ? codedHeight : displayWidth,
    height: quarterTurn ? displayWidth : codedHeight,
    codedWidth,
    codedHeight,
    rotation,
    frameRate: parseRate(stream.avg_frame_rate) || parseRate(stream.r_frame_rate),
    pixelFormat: stream.pix_fmt ?? null,
  }
}

/** ffprobe ≥ 5 reports a display matrix rotation; older ones a `rotate` tag. Normalised to 0/90/180/270. */
function rotationOf(stream: FfprobeStream): number {
  const fromMatrix = stream.side_data_list?.find((data) => data.rotation !== undefined)?.rotation
  const degrees = Number(fromMatrix ?? stream.tags?.rotate ?? 0)
  if (!Number.isFinite(degrees)) return 0
  return ((Math.round(degrees / 90) * 90) % 360 + 360) % 360
}

function parseRate(rate: string | undefined): number {
  if (!rate) return 0
  const [num, den] = rate.split('/').map(Number)
  if (!num || !den) return 0
  const value = num / den
  return Number.isFinite(value) && value > 0 ? value : 0
}

function evenAtLeastTwo(value: number): number {
  return Math.max(2, Math.round(value / 2) * 2)
}

/**
 * Walks the top-level boxes of an MP4/MOV: every box must fit in the file
 * and a `moov` (the index) must be among them. A file cut short during an
 * upload fails here even when its index came first and ffprobe would read
 * it without complaint.
 */
export async function checkIsoBoxes(file: string, size: number): Promise<string | null> {
  const handle = await open(file, 'r')
  try {
    const header = Buffer.alloc(16)
    let offset = 0
    let sawMoov = false
    let boxes = 0
    while (offset < size) {
      if (++boxes > 10_000) return 'too many top-level boxes'
      const { bytesRead } = await handle.read(header, 0, 16, offset)
      if (bytesRead < 8) return `a box header at byte ${offset} is cut short`
      let boxSize = header.readUInt32BE(0)
      const type = header.toString('latin1', 4, 8)
      let headerSize = 8
      if (boxSize === 1) {
        if (bytesRead < 16) return `a box header at byte ${offset} is cut short`
        boxSize = Number(header.readBigUInt64BE(8))
        headerSize = 16
      } else if (boxSize === 0) {
        boxSize = size - offset // "to the end of the file"
      }
      if (boxSize < headerSize) return `box "${type}" at byte ${offset} has an impossible size`
      if (offset + boxSize > size) return `box "${type}" needs ${offset + boxSize - size} more bytes than the file has`
      if (type === 'moov') sawMoov = true
      offset += boxSize
    }
    return sawMoov ? null : 'it has no index (moov box)'
  } finally {
    await handle.close()
  }
}
