/**
 * The input side of every ffprobe/ffmpeg call on a file someone uploaded (or
 * one we made from it), in one place. A hostile file must never make ffmpeg
 * open anything but the local file it was given: no network protocols, no
 * playlists pointing elsewhere, no demuxer we did not choose.
 *
 * - `-protocol_whitelist file`: only local files, also for what a demuxer
 *   opens by itself (HLS segments, concat lists).
 * - `-format_whitelist`: only the demuxers named (for uploads, the video
 *   containers we accept), so a file cannot pick a demuxer by its content.
 * - `-f <demuxer>`: the demuxer chosen from the magic bytes, not guessed.
 * - `file:` prefix: a name that looks like a protocol (`http:…`) is still a file.
 */

/** ffprobe/ffmpeg `-format_whitelist`: every demuxer name the accepted video containers go by. */
export const DEMUXER_ALLOW_LIST = 'mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,avi,mpegts'

export interface SafeInputOptions {
  /** `-f`: the demuxer to read the file with (from its magic bytes). */
  format?: string
  /** `-format_whitelist`: the demuxers allowed; `false` for none beyond `-f` (images, our own HLS). */
  formats?: string | false
  /** Input options that belong before `-i` (`-ss`, `-noautorotate`). */
  before?: string[]
}

/** `-protocol_whitelist file [-format_whitelist …] [before…] [-f …] -i file:<path>`. */
export function safeInputArgs(file: string, options: SafeInputOptions = {}): string[] {
  const formats = options.formats ?? DEMUXER_ALLOW_LIST
  return [
    '-protocol_whitelist',
    'file',
    ...(formats ? ['-format_whitelist', formats] : []),
    ...(options.before ?? []),
    ...(options.format ? ['-f', options.format] : []),
    '-i',
    `file:${file}`,
  ]
}
