import { stat } from 'node:fs/promises'
import { MediaRefusedError, probeMedia, type MediaProbe, type ProbeOptions } from './probe'

/**
 * Is this upload a video we will publish? The server-side answer, by
 * content: the file's magic bytes and what ffprobe reads, never its name or
 * the type the browser claimed. Messages are for the uploader: the spec's
 * own where it has one (docs/product.md, Rules and messages), else plain sentences that say what to do.
 */

/** Video max 100MB (docs/product.md, Limits and timers). */
export const MAX_VIDEO_BYTES = 104_857_600
/** Sparks are clips under 60 seconds (measured here, enforced by the database too). */
export const SPARK_MAX_SECONDS = 60
/** Longer than any lesson a 100 MB upload can reasonably hold; beyond it the header is lying. */
export const MAX_DURATION_SECONDS = 3 * 60 * 60
/** 8K (DCI 8192×4320): larger frames are refused before anything decodes them. */
export const MAX_SIDE_PIXELS = 8192
export const MAX_FRAME_PIXELS = 8192 * 4320

export const MESSAGES = {
  invalid: 'Please select a valid video file',
  videoTooLarge: 'Video file is too large. Maximum size is 100MB',
  quoteTooLarge: 'Video file is too large. Please select a file under 100MB',
} as const

/** What the upload is for: a feed video, a spark, or a video quote (a response to a video). */
export type UploadPurpose = 'video' | 'spark' | 'quote'

export interface ValidateVideoOptions extends ProbeOptions {
  type: UploadPurpose
  maxBytes?: number
}

export type VideoValidation = { ok: true; probe: MediaProbe } | { ok: false; message: string }

export async function validateVideoFile(file: string, options: ValidateVideoOptions): Promise<VideoValidation> {
  const maxBytes = options.maxBytes ?? MAX_VIDEO_BYTES
  const { size } = await stat(file)
  if (size > maxBytes) return refuse(tooLargeMessage(options.type, maxBytes))

  let probe: MediaProbe
  try {
    probe = await probeMedia(file, options)
  } catch (error) {
    if (error instanceof MediaRefusedError) return refuse(invalid(refusalDetail(error)))
    throw error
  }
  return judgeProbe(probe, options.type)
}

/** The rules on what ffprobe found (separate so they can be checked without a file). */
export function judgeProbe(probe: MediaProbe, type: UploadPurpose): VideoValidation {
  const video = probe.video
  if (!video) return refuse(invalid('This file has no video track, only sound.'))
  if (!video.width || !video.height) return refuse(invalid('Its picture size could not be read.'))
  if (
    Math.max(video.width, video.height) > MAX_SIDE_PIXELS ||
    video.width * video.height > MAX_FRAME_PIXELS
  ) {
    return refuse(
      invalid(`Its picture is ${video.width}×${video.height}; the largest we take is 8K (${MAX_SIDE_PIXELS} pixels wide).`),
    )
  }
  if (!(probe.durationSeconds > 0)) return refuse(invalid('Its length could not be read.'))
  if (probe.durationSeconds > MAX_DURATION_SECONDS) {
    return refuse(invalid(`It says it is ${formatLength(probe.durationSeconds)} long; the longest we take is 3 hours.`))
  }
  // The database keeps three decimals: 59.9996 s would be stored as 60.000 and refused there.
  if (type === 'spark' && Math.round(probe.durationSeconds * 1000) / 1000 >= SPARK_MAX_SECONDS) {
    return refuse(sparkTooLongMessage(probe.durationSeconds))
  }
  return { ok: true, probe }
}

export function sparkTooLongMessage(durationSeconds: number): string {
  const shown = Math.max(SPARK_MAX_SECONDS, Math.floor(durationSeconds))
  return `Sparks must be under 60 seconds. This video is ${shown} seconds long.`
}

function tooLargeMessage(type: UploadPurpose, maxBytes: number): string {
  if (maxBytes !== MAX_VIDEO_BYTES) {
    return `Video file is too large. Maximum size is ${Math.floor(maxBytes / 1_048_576)}MB`
  }
  return type === 'quote' ? MESSAGES.quoteTooLarge : MESSAGES.videoTooLarge
}

function refusalDetail(error: MediaRefusedError): string {
  switch (error.reason) {
    case 'empty':
      return 'This file is empty.'
    case 'audio-only':
      return 'This file has sound only, no video.'
    case 'damaged':
      return 'This video file is incomplete or damaged; try exporting or uploading it again.'
    case 'not-a-video':
      return error.detected
        ? `This file is ${describeType(error.detected)}, not a video. We take MP4, MOV, WebM, MKV, AVI and MPEG-TS.`
        : 'This file is not a video. We take MP4, MOV, WebM, MKV, AVI and MPEG-TS.'
  }
}

function describeType(type: { ext: string; mime: string }): string {
  const [kind] = type.mime.split('/')
  const name = type.ext.toUpperCase()
  if (kind === 'image') return `a ${name} image`
  if (kind === 'audio') return `a ${name} audio file`
  return `a ${name} file`
}

function formatLength(seconds: number): string {
  const hours = seconds / 3600
  return hours >= 48 ? `${Math.round(hours / 24)} days` : `${Math.round(hours)} hours`
}

function invalid(detail: string): string {
  return `${MESSAGES.invalid}. ${detail}`
}

function refuse(message: string): { ok: false; message: string } {
  return { ok: false, message }
}
