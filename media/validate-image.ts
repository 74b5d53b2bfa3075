import { open, rename, rm, stat } from 'node:fs/promises'
import { fileTypeFromFile } from 'file-type'
import { MediaToolError, resolveMediaTools, runMediaTool, type MediaTools } from './tools'
import { safeInputArgs } from './safe-input'

/**
 * Thumbnails: a real JPEG, PNG, WebP or GIF by its magic bytes (an SVG,
 * which can carry script, is refused), at most 5 MB, of a sane size — and
 * what is published is our own re-encode: a JPEG at most 1280 px on its long
 * side with every metadata segment gone (EXIF with GPS positions, camera
 * serials, comments), turned upright first so dropping EXIF's orientation
 * does not tip the picture over.
 */

/** Thumbnail max 5MB (docs/product.md, Limits and timers). */
export const MAX_THUMBNAIL_BYTES = 5_242_880
export const THUMBNAIL_MAX_SIDE = 1280
/** Decoding a 30 000 × 30 000 PNG costs gigabytes: refuse before decoding. */
const MAX_IMAGE_SIDE = 16_384
const MAX_IMAGE_PIXELS = 50_000_000

export const IMAGE_MESSAGES = {
  tooLarge: 'Thumbnail file is too large. Maximum size is 5MB',
  invalid: 'Please select a valid image file (JPEG, PNG, WebP or GIF)',
} as const

/** The ffmpeg demuxer for each accepted type: forced, so nothing else is ever guessed. */
const DEMUXERS = { jpg: 'jpeg_pipe', png: 'png_pipe', webp: 'webp_pipe', gif: 'gif' } as const
type ImageExt = keyof typeof DEMUXERS

export interface ImageInfo {
  ext: ImageExt
  mime: string
  width: number
  height: number
}

export type ImageValidation = { ok: true; image: ImageInfo } | { ok: false; message: string }

export interface ImageOptions {
  maxBytes?: number
  tools?: MediaTools
  signal?: AbortSignal
}

export async function validateImageFile(file: string, options: ImageOptions = {}): Promise<ImageValidation> {
  const maxBytes = options.maxBytes ?? MAX_THUMBNAIL_BYTES
  const { size } = await stat(file)
  if (size > maxBytes) return { ok: false, message: IMAGE_MESSAGES.tooLarge }
  if (size === 0) return { ok: false, message: `${IMAGE_MESSAGES.invalid}. This file is empty.` }

  const type = await fileTypeFromFile(file)
  if (!type || !(type.ext in DEMUXERS)) {
    if (await looksLikeSvg(file)) {
      return { ok: false, message: `${IMAGE_MESSAGES.invalid}. SVG images are not accepted.` }
    }
    return { ok: false, message: `${IMAGE_MESSAGES.invalid}.` }
  }
  const ext = type.ext as ImageExt

  const tools = options.tools ?? resolveMediaTools()
  let dimensions: { width: number; height: number }
  try {
    const { stdout } = await runMediaTool(
      tools.ffprobe.path,
      [
        '-hide_banner', '-v', 'error',
        '-select_streams', 'v:0',
        '-show_entries', 'stream=width,height',
        '-of', 'json',
        ...safeInputArgs(file, { format: DEMUXERS[ext], formats: false }),
      ],
      { signal: options.signal, timeoutMs: 30_000 },
    )
    const stream = (JSON.parse(stdout) as { streams?: Array<{ width?: number; height?: number }> }).streams?.[0]
    dimensions = { width: stream?.width ?? 0, height: stream?.height ?? 0 }
  } catch (error) {
    if (error instanceof MediaToolError && error.exitCode !== null && !error.aborted) {
      return { ok: false, message: `${IMAGE_MESSAGES.invalid}. This image is damaged.` }
    }
    throw error
  }
  const { width, height } = dimensions
  if (!width || !height) {
    // ffmpeg reads no frame size from an animated WebP (it cannot decode those at all).
    const why = ext === 'webp' ? 'Animated WebP images are not accepted; use a still image.' : 'This image is damaged.'
    return { ok: false, message: `${IMAGE_MESSAGES.invalid}. ${why}` }
  }
  if (Math.max(width, height) > MAX_IMAGE_SIDE || width * height > MAX_IMAGE_PIXELS) {
    return { ok: false, message: `${IMAGE_MESSAGES.invalid}. Its picture (${width}×${height}) is too large.` }
  }
  return { ok: true, image: { ext, mime: type.mime, width, height } }
}

export interface ReencodedImage {
  width: number
  height: number
  sizeBytes: number
}

/**
 * Re-encodes a validated image as a metadata-free JPEG no larger than
 * `maxSide` (the first frame of a GIF). Writes `output` only when it succeeds.
 */
export async function reencodeThumbnail(
  input: string,
  output: string,
  options: { maxSide?: number; tools?: MediaTools; signal?: AbortSignal } = {},
): Promise<ReencodedImage> {
  const type = await fileTypeFromFile(input)
  if (!type || !(type.ext in DEMUXERS)) throw new Error(`not an accepted image: ${type?.mime ?? 'unknown type'}`)
  const ext = type.ext as ImageExt
  const maxSide = options.maxSide ?? THUMBNAIL_MAX_SIDE
  const upright = ext === 'jpg' ? uprightFilter(await jpegOrientation(input)) : ''
  const filters = [
    upright,
    // Never enlarge; keep the aspect ratio; even sizes for 4:2:0 chroma.
    `scale=w='min(${maxSide},iw)':h='min(${maxSide},ih)':force_original_aspect_ratio=decrease`,
    'scale=trunc(iw/2)*2:trunc(ih/2)*2',
    'setsar=1',
    'format=yuvj420p',
  ].filter(Boolean)

  const partial = `${output}.partial`
  const tools = options.tools ?? resolveMediaTools()
  try {
    await runMediaTool(
      tools.ffmpeg.path,
      [
        '-hide_banner', '-nostdin', '-v', 'error', '-y',
        // EXIF orientation is applied by our filter on every ffmpeg version (5.x would also do it itself).
        ...safeInputArgs(input, { format: DEMUXERS[ext], formats: false, before: ['-noautorotate'] }),
        '-frames:v', '1',
        '-vf', filters.join(','),
        '-map_metadata', '-1',
        '-fflags', '+bitexact',
        '-flags:v', '+bitexact',
        '-c:v', 'mjpeg',
        '-q:v', '3',
        '-f', 'mjpeg',
        `file:${partial}`,
      ],
      { signal: options.signal, timeoutMs: 60_000 },
    )
    await rename(partial, output)
  } finally {
    await rm(partial, { force: true })
  }
  const { stdout } = await runMediaTool(
    tools.ffprobe.path,
    ['-v', 'error', '-f', 'jpeg_pipe', '-show_entries', 'stream=width,height', '-of', 'json', `file:${output}`],
    { signal: options.signal, timeoutMs: 30_000 },
  )
  const stream = (JSON.parse(stdout) as { streams: Array<{ width: number; height: number }> }).streams[0]!
  return { width: stream.width, height: stream.height, sizeBytes: (await stat(output)).size }
}

/** ffmpeg filters that turn an image with this EXIF orientation (1–8) upright. */
export function uprightFilter(orientation: number | null): string {
  switch (orientation) {
    case 2: return 'hflip'
    case 3: return 'hflip,vflip'
    case 4: return 'vflip'
    case 5: return 'transpose=0'
    case 6: return 'transpose=1'
    case 7: return 'transpose=3'
    case 8: return 'transpose=2'
    default: return ''
  }
}

/** The EXIF orientation tag of a JPEG (1–8), or null when it has none. */
export async function jpegOrientation(file: string): Promise<number | null> {
  const handle = await open(file, 'r')
  try {
    // EXIF sits in an APP1 segment near the start; 256 KB covers any real header.
    const buffer = Buffer.alloc(256 * 1024)
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
    return orientationFromJpeg(buffer.subarray(0, bytesRead))
  } finally {
    await handle.close()
  }
}

function orientationFromJpeg(jpeg: Buffer): number | null {
  if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return null
  let offset = 2
  while (offset + 4 <= jpeg.length) {
    if (jpeg[offset] !== 0xff) return null
    const marker = jpeg[offset + 1]!
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01 || marker === 0xff) {
      offset += marker === 0xff ? 1 : 2
      continue
    }
    if (marker === 0xda || marker === 0xd9) return null // image data starts: no EXIF before it
    const length = jpeg.readUInt16BE(offset + 2)
    const start = offset + 4
    const end = offset + 2 + length
    if (length < 2 || end > jpeg.length) return null
    if (marker === 0xe1 && jpeg.toString('latin1', start, start + 6) === 'Exif\0\0') {
      return orientationFromTiff(jpeg.subarray(start + 6, end))
    }
    offset = end
  }
  return null
}

function orientationFromTiff(tiff: Buffer): number | null {
  if (tiff.length < 8) return null
  const order = tiff.toString('latin1', 0, 2)
  if (order !== 'II' && order !== 'MM') return null
  const little = order === 'II'
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at))
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at))
  const ifd = u32(4)
  if (ifd + 2 > tiff.length) return null
  const count = u16(ifd)
  for (let index = 0; index < count; index++) {
    const entry = ifd + 2 + index * 12
    if (entry + 12 > tiff.length) return null
    if (u16(entry) === 0x0112) {
      const value = u16(entry + 8)
      return value >= 1 && value <= 8 ? value : null
    }
  }
  return null
}

async function looksLikeSvg(file: string): Promise<boolean> {
  const handle = await open(file, 'r')
  try {
    const buffer = Buffer.alloc(4096)
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
    return /<svg[\s>]/i.test(buffer.toString('utf8', 0, bytesRead))
  } finally {
    await handle.close()
  }
}
