import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises'
import { cpus, loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { describeMediaTools, resolveMediaTools, runMediaTool } from '../media/tools'
import { probeMedia } from '../media/probe'
import {
  DEFAULT_PRESET,
  KEYFRAME_SECONDS,
  planRenditions,
  SEGMENT_SECONDS,
  transcodeVideo,
  type TranscodeResult,
} from '../worker/transcode'

/**
 * Transcoding speed: the worker's whole job for a 60 s 1280×720 30 fps clip
 * with sound — the HLS ladder in one pass, the MP4 remux and the poster —
 * as wall time against the clip's length (× realtime), next to two
 * baselines from the same run on the same machine: one plain 720p encode
 * with the same preset (what a single-rendition site would pay), and the
 * same four renditions as four separate passes (what one pass saves).
 * Wall time suffers when others share the machine; the CPU time ffmpeg
 * used (Linux: the children's time in /proc/self/stat) much less, so both
 * are shown.
 */
const SECONDS = 60
const WIDTH = 1280
const HEIGHT = 720
const RATE = 30

export async function benchTranscode(): Promise<{ name: string; lines: string[] }> {
  const tools = resolveMediaTools()
  const scratch = await mkdtemp(path.join(tmpdir(), 'lumen-bench-transcode-'))
  const ffmpeg = (args: string[]) =>
    runMediaTool(tools.ffmpeg.path, ['-hide_banner', '-nostdin', '-v', 'error', '-y', ...args], { timeoutMs: 30 * 60_000 })
  try {
    const source = path.join(scratch, 'source.mp4')
    await ffmpeg([
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=${WIDTH}x${HEIGHT}:rate=${RATE}`,
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=48000',
      '-t',
      String(SECONDS),
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-crf',
      '18',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      source,
    ])
    const probe = await probeMedia(source, { tools })
    const load = loadavg()[0]!.toFixed(1)

    const gop = String(RATE * KEYFRAME_SECONDS)
    const x264 = [
      '-c:v',
      'libx264',
      '-preset',
      DEFAULT_PRESET,
      '-profile:v',
      'high',
      '-g',
      gop,
      '-keyint_min',
      gop,
      '-sc_threshold',
      '0',
    ]
    const single = await timed(() =>
      ffmpeg([
        '-i',
        source,
        '-vf',
        `scale=${WIDTH}:${HEIGHT},format=yuv420p`,
        ...x264,
        '-b:v',
        '3000k',
        '-maxrate',
        '3300k',
        '-bufsize',
        '6000k',
        '-c:a',
        'aac',
        '-b:a',
        '128k',
        '-ac',
        '2',
        '-movflags',
        '+faststart',
        path.join(scratch, 'single.mp4'),
      ]),
    )

    const renditions = planRenditions(WIDTH, HEIGHT)
    let ladderResult: TranscodeResult | undefined
    const ladder = await timed(async () => {
      ladderResult = await transcodeVideo(source, probe, path.join(scratch, 'ladder'), { poster: true, tools })
    })

    const separate = await timed(async () => {
      for (const rendition of renditions) {
        const dir = path.join(scratch, 'separate', rendition.name)
        await mkdir(dir, { recursive: true })
        await ffmpeg([
          '-i',
          source,
          '-vf',
          `scale=${rendition.width}:${rendition.height},setsar=1,format=yuv420p`,
          ...x264,
          '-b:v',
          `${rendition.videoKbps}k`,
          '-maxrate',
          `${Math.round(rendition.videoKbps * 1.1)}k`,
          '-bufsize',
          `${rendition.videoKbps * 2}k`,
          '-c:a',
          'aac',
          '-b:a',
          `${rendition.audioKbps}k`,
          '-ac',
          '2',
          '-f',
          'hls',
          '-hls_time',
          String(SEGMENT_SECONDS),
          '-hls_playlist_type',
          'vod',
          '-hls_segment_filename',
          path.join(dir, 'segment_%03d.ts'),
          path.join(dir, 'index.m3u8'),
        ])
      }
    })

    const describe = (timing: Timing) =>
      `${timing.wall.toFixed(1)} s → ${(SECONDS / timing.wall).toFixed(2)}× realtime` +
      (timing.cpu === null
        ? ''
        : `; CPU ${timing.cpu.toFixed(1)} s (${(timing.cpu / SECONDS).toFixed(2)} CPU-s per video second)`)
    const ratio = (a: Timing, b: Timing) =>
      a.cpu !== null && b.cpu !== null
        ? `${(a.cpu / b.cpu).toFixed(2)}× by CPU, ${(a.wall / b.wall).toFixed(2)}× by wall time`
        : `${(a.wall / b.wall).toFixed(2)}× by wall time`
    const bytes = (test: (name: string) => boolean) =>
      ladderResult!.files.filter((file) => test(file.path)).reduce((sum, file) => sum + file.sizeBytes, 0) / 1e6
    return {
      name: `Transcoding a ${SECONDS} s ${WIDTH}×${HEIGHT} ${RATE} fps clip (x264 ${DEFAULT_PRESET})`,
      lines: [
        `worker's job (ladder ${renditions.map((r) => r.name).join('/')} in one pass + MP4 remux + poster): ${describe(ladder)}`,
        `baseline, one 720p encode to MP4:           ${describe(single)}`,
        `baseline, the same 4 renditions, 4 passes:  ${describe(separate)}`,
        `ladder / one 720p encode: ${ratio(ladder, single)}`,
        `ladder / separate passes: ${ratio(ladder, separate)}`,
        `output: ${ladderResult!.files.length} files — HLS ${bytes((name) => name.startsWith('hls/')).toFixed(1)} MB, ` +
          `MP4 ${bytes((name) => name === 'video.mp4').toFixed(1)} MB; source ${((await stat(source)).size / 1e6).toFixed(1)} MB`,
        `${describeMediaTools(tools)}; load average ${load} at start, ${loadavg()[0]!.toFixed(1)} at end (${cpus().length} cores)`,
      ],
    }
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
}

interface Timing {
  wall: number
  /** CPU seconds used by child processes (ffmpeg), or null where /proc is not available. */
  cpu: number | null
}

async function timed(work: () => Promise<unknown>): Promise<Timing> {
  const cpuBefore = childCpuSeconds()
  const started = process.hrtime.bigint()
  await work()
  const wall = Number(process.hrtime.bigint() - started) / 1e9
  const cpuAfter = childCpuSeconds()
  return { wall, cpu: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore }
}

let ticksPerSecond: number | undefined
/** User + system time of this process's finished children (cutime + cstime), in seconds. */
function childCpuSeconds(): number | null {
  try {
    ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100
    const stat = readFileSync('/proc/self/stat', 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // Fields 16 and 17 of proc(5), counted from the state (field 3) at index 0.
    return (Number(fields[13]) + Number(fields[14])) / ticksPerSecond
  } catch {
    return null
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { name, lines } = await benchTranscode()
  console.log(`${name}\n${lines.map((line) => `  ${line}`).join('\n')}`)
}
