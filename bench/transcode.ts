import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { cpus, loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { createClient } from '@supabase/supabase-js'
import { withRole } from '../db/as-role'
import { nodeRealtimeOptions } from '../db/supabase-node'
import { describeMediaTools, resolveMediaTools, runMediaTool } from '../media/tools'
import { probeMedia } from '../media/probe'
import { claimsFor, insertAuthUser } from '../tests/support/databases'
import { startStack } from '../tests/support/stack'
import { startMediaWorker } from '../worker/media-worker'
import { DEFAULT_PRESET, KEYFRAME_SECONDS, planRenditions, transcodeVideo, type TranscodeResult } from '../worker/transcode'
import type { Figure } from './figures'

/**
 * Time to playable (ADR 0025): a 60 s 1280×720 30 fps clip with
 * sound, uploaded to the stand-in, its video row inserted as the upload
 * action does (that is "the upload finished"), and the real media worker run
 * on it at once (a server-mode worker is woken by LISTEN; an embedded one
 * polls every 2 s): the time until phase 1 is published (the video ready,
 * one rendition and its poster) and until the whole ladder is (phase 2
 * done), download, validation and uploads included.
 *
 * Baselines from the same run on the same machine: the worker's job before
 * ADR 0025 (every rung in one `veryfast` pass, then the MP4 and the poster;
 * nothing played until it was done), and one plain 720p `veryfast` encode.
 * Wall time suffers when others share the machine; the CPU time ffmpeg used
 * (Linux: the children's time in /proc/self/stat) much less, so both are
 * shown.
 */
const SECONDS = 60
const WIDTH = 1280
const HEIGHT = 720
const RATE = 30

export async function benchTranscode(): Promise<{ name: string; lines: string[]; figures: Figure[] }> {
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

    const worker = await workerPath(source, scratch)

    const before = 'veryfast'
    const gop = String(RATE * KEYFRAME_SECONDS)
    let ladderResult: TranscodeResult | undefined
    const ladder = await timed(async () => {
      ladderResult = await transcodeVideo(source, probe, path.join(scratch, 'ladder'), {
        poster: true,
        tools,
        preset: before,
        renditions: planRenditions(WIDTH, HEIGHT),
      })
    })
    const single = await timed(() =>
      ffmpeg([
        '-i',
        source,
        '-vf',
        `scale=${WIDTH}:${HEIGHT},format=yuv420p`,
        '-c:v',
        'libx264',
        '-preset',
        before,
        '-profile:v',
        'high',
        '-g',
        gop,
        '-keyint_min',
        gop,
        '-sc_threshold',
        '0',
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

    const describe = (timing: Timing) =>
      `${timing.wall.toFixed(1)} s → ${(SECONDS / timing.wall).toFixed(2)}× realtime` +
      (timing.cpu === null
        ? ''
        : `; CPU ${timing.cpu.toFixed(1)} s (${(timing.cpu / SECONDS).toFixed(2)} CPU-s per video second)`)
    const bytes = (test: (name: string) => boolean) =>
      ladderResult!.files.filter((file) => test(file.path)).reduce((sum, file) => sum + file.sizeBytes, 0) / 1e6
    const name = `Time to playable: a ${SECONDS} s ${WIDTH}×${HEIGHT} ${RATE} fps upload through the media worker (x264 ${DEFAULT_PRESET})`
    return {
      name,
      lines: [
        `upload finished → playable (phase 1: ${worker.first} + poster + MP4, published): ${worker.playable.toFixed(1)} s` +
          (worker.playableCpu === null ? '' : `; CPU ${worker.playableCpu.toFixed(1)} s`),
        `upload finished → whole ladder published (phase 2: ${worker.rest}):     ${describe(worker.whole)}`,
        `before, the worker's one pass (${ladderResult!.renditions.map((r) => r.name).join('/')}, ${before}) + MP4 + poster, nothing playable until done: ${describe(ladder)}`,
        `baseline, one 720p ${before} encode to MP4:  ${describe(single)}`,
        `before/after output: HLS ${bytes((file) => file.startsWith('hls/')).toFixed(1)} MB one pass ${before}, ${worker.hlsMegabytes.toFixed(1)} MB two phases ${DEFAULT_PRESET}; source ${((await stat(source)).size / 1e6).toFixed(1)} MB`,
        `${describeMediaTools(tools)}; load average ${load} at start, ${loadavg()[0]!.toFixed(1)} at end (${cpus().length} cores)`,
      ],
      figures: [
        {
          group: 'Time to playable (60 s 720p upload)',
          label: 'upload finished → playable',
          value: worker.playable,
          unit: 's',
          baseline: { label: 'one pass before', value: ladder.wall },
          goal: '≤ 10 s',
          met: worker.playable <= 10,
        },
        {
          group: 'Time to playable (60 s 720p upload)',
          label: 'upload finished → whole ladder',
          value: worker.whole.wall,
          unit: 's',
          baseline: { label: 'one pass before', value: ladder.wall },
          goal: '≤ 25 s (≥ 2.4× realtime)',
          met: worker.whole.wall <= 25,
        },
      ],
    }
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
}

/** The real path: stand-in Storage and database (PGlite), a verified creator's upload, the worker's runOnce. */
async function workerPath(source: string, scratch: string) {
  const running = await startStack()
  try {
    const pool = running.database.pool
    const creatorId = await insertAuthUser(pool, { role: 'creator' })
    await pool.query('update public.profiles set is_verified = true where id = $1', [creatorId])
    const service = createClient(running.url, running.serviceRoleKey, {
      ...nodeRealtimeOptions,
      auth: { persistSession: false, autoRefreshToken: false },
    })
    const sourcePath = `${creatorId}/videos/${randomUUID()}.mp4`
    const { error } = await service.storage
      .from('uploads')
      .upload(sourcePath, await readFile(source), { contentType: 'video/mp4' })
    if (error) throw error

    let playableAt: bigint | undefined
    let playableCpu: number | null = null
    let first = ''
    let rest = ''
    const worker = startMediaWorker({
      pool,
      supabaseUrl: running.url,
      serviceRoleKey: running.serviceRoleKey,
      autoStart: false,
      tempDir: scratch,
      log: (_level, message) => {
        const playable = / playable: (.*) published/.exec(message)
        if (playable) {
          playableAt = process.hrtime.bigint()
          playableCpu = childCpuSeconds()
          first = playable[1]!
        }
        const ready = / ready: (.*) added/.exec(message)
        if (ready) rest = ready[1]!
      },
    })
    // "The upload finished": the upload action's insert, which queues the job.
    const videoId = await withRole(pool, 'authenticated', claimsFor(creatorId), async (client) => {
      const { rows } = await client.query<{ id: string }>(
        `insert into public.videos (title, description, type, source_path) values ('Bench', 'Bench', 'video', $1) returning id`,
        [sourcePath],
      )
      return rows[0]!.id
    })
    const started = process.hrtime.bigint()
    const cpuAtStart = childCpuSeconds()
    const whole = await timed(() => worker.runOnce())
    await worker.stop()
    const { rows } = await pool.query<{ status: string; more_qualities_pending: boolean }>(
      'select status, more_qualities_pending from public.videos where id = $1',
      [videoId],
    )
    if (rows[0]?.status !== 'ready' || rows[0].more_qualities_pending || !playableAt) {
      throw new Error(`the bench video did not go through both phases: ${JSON.stringify(rows[0])}`)
    }
    const { rows: sizes } = await pool.query<{ bytes: string }>(
      `select coalesce(sum((metadata->>'size')::bigint), 0)::text as bytes from storage.objects
        where bucket_id = 'media' and name like $1`,
      [`videos/${videoId}/hls/%`],
    )
    return {
      first,
      rest,
      playable: Number(playableAt - started) / 1e9,
      // ffmpeg/ffprobe of phase 1 have all exited when it is published: their CPU time is counted.
      playableCpu: playableCpu === null || cpuAtStart === null ? null : playableCpu - cpuAtStart,
      whole,
      hlsMegabytes: Number(sizes[0]!.bytes) / 1e6,
    }
  } finally {
    await running.close()
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
