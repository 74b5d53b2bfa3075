import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { resolveMediaTools, runMediaTool } from '../../../media/tools'

/**
 * Test media made on the spot with ffmpeg's generators (no binary fixtures
 * in the repository): a test card and a sine tone, tiny and fast to encode.
 */
export interface ClipOptions {
  width?: number
  height?: number
  seconds?: number
  rate?: number
  /** A 440 Hz tone (true), none (false), or this lavfi audio source (`sine=frequency=660`, `anullsrc`). */
  audio?: boolean | string
  /** Extra output options, e.g. `['-metadata:s:v:0', 'rotate=90']` or `['-movflags', '+faststart']`. */
  output?: string[]
}

export async function makeClip(file: string, options: ClipOptions = {}): Promise<string> {
  const { width = 320, height = 180, seconds = 2, rate = 30, audio = true, output = [] } = options
  await ffmpeg([
    '-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=${rate}`,
    ...(audio ? ['-f', 'lavfi', '-i', audio === true ? 'sine=frequency=440:sample_rate=22050' : audio] : []),
    '-t', String(seconds),
    '-map', '0:v',
    ...(audio ? ['-map', '1:a', '-c:a', 'aac', '-b:a', '32k'] : []),
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p',
    ...output,
    file,
  ])
  return file
}

export async function ffmpeg(args: string[]): Promise<void> {
  await runMediaTool(resolveMediaTools().ffmpeg.path, ['-hide_banner', '-nostdin', '-v', 'error', '-y', ...args], {
    timeoutMs: 120_000,
  })
}

/** ffprobe's JSON for a file (streams and format). */
export async function ffprobeJson(file: string): Promise<{
  format: { format_name: string; duration?: string }
  streams: Array<{ codec_type: string; codec_name: string; width?: number; height?: number }>
}> {
  const { stdout } = await runMediaTool(resolveMediaTools().ffprobe.path, [
    '-v', 'error', '-show_format', '-show_streams', '-of', 'json', file,
  ])
  return JSON.parse(stdout)
}

export async function scratchDir(label: string): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), `lumen-${label}-`))
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) }
}
