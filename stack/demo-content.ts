import { createHash, randomUUID } from 'node:crypto'
import { existsSync, openAsBlob, readFileSync } from 'node:fs'
import { copyFile, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createClient } from '@supabase/supabase-js'
import type pg from 'pg'
import { nodeRealtimeOptions } from '../db/supabase-node'
import { resolveMediaTools, runMediaTool } from '../media/tools'
import { withRole } from '../db/as-role'
import { projectRoot } from '../ops/paths'
import { DEMO_CAPTIONS, type DemoCue } from './demo-captions'

/**
 * Demo videos and sparks for a fresh embedded install (see
 * README.md): a handful of short clips made with ffmpeg's
 * own generators at seed time — no media files live in the repository —
 * uploaded to Storage like any creator's upload and inserted as
 * `processing`, so the real media worker turns them into HLS.
 *
 * Runs once: only while the demo creator (supabase/seed.sql) has no videos.
 * Takes about 15 s of ffmpeg on two cores (ultrafast presets, small frames);
 * the clips are cached (see `cacheKey`), so later fresh installs on the same machine skip it.
 */

/** The demo creator of supabase/seed.sql (creator@lumen.test, maya.creates). */
export const DEMO_CREATOR_ID = 'de300000-0000-4000-8000-000000000002'

export type DemoLog = (line: string) => void

export interface SeedDemoContentOptions {
  pool: pg.Pool
  /** Storage is reached over its HTTP API with the service role: the stand-in or a real Supabase. */
  supabaseUrl: string
  serviceRoleKey: string
  log?: DemoLog
  /** Where clips are made (a temporary folder inside it is removed afterwards). */
  tempDir?: string
  /**
   * Where made clips and posters are kept for the next fresh install on this machine
   * (every e2e run and test data folder starts one); `false` turns the cache off.
   * Default: `lumen-demo-cache` in the system's temporary folder.
   */
  cacheDir?: string | false
}

interface DemoClip {
  type: 'video' | 'spark'
  title: string
  description: string
  category: string
  seconds: number
  /** ffmpeg inputs (lavfi sources) and a filter graph that ends in [v] and, with sound, [a]. */
  inputs(tools: Capabilities): string[]
  graph(tools: Capabilities): string
  audio?: boolean
  /** Where the poster frame is taken; default 60 % in. */
  posterAt?: number
  /** Its chapters (ADR 0042): [start second, title], as a creator would give them. */
  chapters?: readonly (readonly [number, string])[]
}

interface Capabilities {
  drawtext: boolean
  gradients: boolean
  font: string | null
}

const FEED = { width: 640, height: 360 }
const SPARK = { width: 360, height: 640 }
const RATE = 24

/** Explained in the titles and descriptions; the pictures are ffmpeg's generators, chosen to fit. */
export const DEMO_CLIPS: DemoClip[] = [
  {
    type: 'video',
    title: 'Why the Sky Is Blue',
    description:
      'Sunlight carries every colour, but the molecules of the air scatter short, blue wavelengths far more than red ones (Rayleigh scattering grows as 1/λ⁴). Why the daytime sky glows blue, and why sunsets burn orange.',
    category: 'natural-sciences-physics',
    // Long enough for three chapters of at least 10 s each.
    seconds: 36,
    chapters: [
      [0, 'Light meets air'],
      [14, 'Blue skies, red sunsets'],
      [24, 'In one sentence'],
    ],
    inputs: (caps) => [
      '-f',
      'lavfi',
      '-i',
      caps.gradients
        ? `gradients=s=${size(FEED)}:r=${RATE}:c0=0x0b1d51:c1=0x1d4ed8:c2=0x38bdf8:c3=0xfbbf24:n=4:speed=0.015`
        : `color=c=0x1d4ed8:s=${size(FEED)}:r=${RATE}`,
    ],
    graph: () => '[0:v]format=yuv420p[v]',
  },
  {
    type: 'video',
    title: 'Why Stars Twinkle',
    description:
      'Starlight crosses kilometres of turbulent air that bends it this way and that, so a star’s point of light dances. Planets, seen as tiny discs, barely twinkle. Atmospheric seeing, and why telescopes climb mountains and go to space.',
    category: 'applied-sciences-space-science-astronomy',
    seconds: 22,
    inputs: (caps) => [
      '-f',
      'lavfi',
      '-i',
      caps.gradients
        ? `gradients=s=${size(FEED)}:r=${RATE}:c0=0x020617:c1=0x312e81:c2=0x7c3aed:c3=0xf59e0b:n=4:speed=0.01`
        : `color=c=0x1e1b4b:s=${size(FEED)}:r=${RATE}`,
    ],
    graph: () => '[0:v]format=yuv420p[v]',
  },
  {
    type: 'video',
    title: 'The Game of Life: Complexity from Four Rules',
    description:
      'A grid, two states and four rules about neighbours — yet gliders, oscillators and even working computers emerge. A first look at cellular automata and emergent behaviour.',
    category: 'technology-innovation',
    seconds: 22,
    inputs: () => [
      '-f',
      'lavfi',
      '-i',
      `life=s=160x90:r=${RATE}:ratio=0.12:mold=8:life_color=#a5b4fc:death_color=#1e1b4b:mold_color=#312e81`,
    ],
    graph: () => `[0:v]scale=${FEED.width}:${FEED.height}:flags=neighbor,format=yuv420p[v]`,
  },
  {
    type: 'video',
    title: 'Fractals: Endless Detail from One Formula',
    description:
      'Repeat z → z² + c and colour each point by how fast it escapes: the Mandelbrot set. How a one-line formula draws detail at every zoom, and where fractals turn up — antennas, computer graphics, coastlines.',
    category: 'technology-innovation',
    seconds: 24,
    inputs: () => ['-f', 'lavfi', '-i', `mandelbrot=s=320x180:r=${RATE}:start_scale=3:end_scale=0.004:end_pts=560:maxiter=160`],
    graph: () => `[0:v]scale=${FEED.width}:${FEED.height},format=yuv420p[v]`,
  },
  {
    type: 'spark',
    title: 'Beats: Two Tones, One Wobble',
    description:
      'Play 440 Hz and 444 Hz together and the loudness pulses four times a second — the difference of the two. Musicians tune by listening for the beats to slow down and vanish.',
    category: 'natural-sciences-physics',
    seconds: 12,
    audio: true,
    inputs: () => [
      '-f',
      'lavfi',
      '-i',
      `color=c=0x1e1b4b:s=${size(SPARK)}:r=${RATE}`,
      '-f',
      'lavfi',
      '-i',
      'aevalsrc=0.25*sin(2*PI*440*t)+0.25*sin(2*PI*444*t):s=44100',
    ],
    graph: () =>
      `[1:a]asplit[a][w];[w]showwaves=s=${SPARK.width}x360:mode=cline:rate=${RATE}:colors=0xfbbf24[waves];` +
      '[0:v][waves]overlay=0:110:shortest=1,format=yuv420p[v]',
  },
  {
    type: 'spark',
    title: 'Rule 30: Chaos from One Line',
    description:
      'Each new row depends only on the three cells above it, yet Rule 30 looks so random it has been used to generate random numbers. Simple rules, unpredictable results.',
    category: 'technology-innovation',
    seconds: 10,
    inputs: () => ['-f', 'lavfi', '-i', `cellauto=s=180x320:rule=30:r=${RATE}:scroll=1:start_full=1`],
    graph: () =>
      "[0:v]lutrgb=r='if(val,251,30)':g='if(val,191,27)':b='if(val,36,75)'," +
      `scale=${SPARK.width}:${SPARK.height}:flags=neighbor,format=yuv420p[v]`,
  },
  {
    type: 'spark',
    title: 'Pulsars: Cosmic Lighthouses',
    description:
      'A pulsar is a spinning neutron star sweeping beams of radio waves past Earth. Some tick hundreds of times a second, steadier than many clocks — listen to a slow one here.',
    category: 'applied-sciences-space-science-astronomy',
    seconds: 14,
    audio: true,
    // On a pulse (every 0.75 s, 18 frames), when the wave is tallest.
    posterAt: 7.5,
    inputs: () => [
      '-f',
      'lavfi',
      '-i',
      `color=c=0x020617:s=${size(SPARK)}:r=${RATE}`,
      '-f',
      'lavfi',
      '-i',
      'aevalsrc=0.7*exp(-mod(t\\,0.75)*25)*sin(2*PI*660*t):s=44100',
    ],
    graph: () =>
      `[1:a]asplit[a][w];[w]showwaves=s=${SPARK.width}x300:mode=cline:rate=${RATE}:colors=0xa5b4fc[waves];` +
      '[0:v][waves]overlay=0:170:shortest=1,format=yuv420p[v]',
  },
  {
    type: 'spark',
    title: 'How Screens Mix Colour',
    description:
      'Every pixel is red, green and blue light added together. Colour bars like these let engineers check that a screen shows each mix — and each shade of grey — correctly.',
    category: 'technology-innovation',
    seconds: 9,
    inputs: () => ['-f', 'lavfi', '-i', `smptehdbars=s=${SPARK.height}x${SPARK.width}:r=${RATE}`],
    graph: () => '[0:v]transpose=1,format=yuv420p[v]',
  },
  {
    type: 'spark',
    title: 'Gliders: Patterns That Walk',
    description:
      'In the Game of Life a five-cell glider moves one square diagonally every four generations: a pattern that travels although no cell ever moves.',
    category: 'technology-innovation',
    seconds: 15,
    inputs: () => [
      '-f',
      'lavfi',
      '-i',
      `life=s=90x160:r=${RATE}:ratio=0.18:mold=10:life_color=#fbbf24:death_color=#0f172a:mold_color=#1e293b`,
    ],
    graph: () => `[0:v]scale=${SPARK.width}:${SPARK.height}:flags=neighbor,format=yuv420p[v]`,
  },
]

/**
 * The demo creator's course (ADR 0048): four of the clips above as one path, in two
 * sections, published — so /courses, /explore, the creator's Courses tab and Next lesson
 * have something to show on a fresh install. Lessons by title, with their section.
 */
export const DEMO_COURSE = {
  title: 'Patterns from Simple Rules',
  description:
    'How a few local rules make gliders, chaos and endless detail: cellular automata first, then fractals. Four short lessons, in order.',
  category: 'technology-innovation',
  lessons: [
    ['The Game of Life: Complexity from Four Rules', 'Cellular automata'],
    ['Gliders: Patterns That Walk', 'Cellular automata'],
    ['Rule 30: Chaos from One Line', 'Cellular automata'],
    ['Fractals: Endless Detail from One Formula', 'Fractals'],
  ],
} as const

/**
 * Seeds the demo videos when the demo creator has none; returns how many
 * it added (0 when skipped). On any failure nothing is kept: objects
 * already stored are removed, and the rows go in one transaction at the end.
 */
export async function seedDemoContent(options: SeedDemoContentOptions): Promise<number> {
  const { pool, log = () => {} } = options
  const { rows } = await pool.query<{ creator: boolean; videos: string }>(
    `select exists (select 1 from public.profiles where id = $1) as creator,
            (select count(*) from public.videos where creator_id = $1) as videos`,
    [DEMO_CREATOR_ID],
  )
  if (!rows[0]?.creator || Number(rows[0].videos) > 0) return 0

  const started = Date.now()
  const tools = resolveMediaTools()
  const caps = await capabilities(tools.ffmpeg.path)
  const work = await mkdtemp(path.join(options.tempDir ?? tmpdir(), 'lumen-demo-'))
  // Seeding acts for no user: the service role (the demo creator's session is not ours to mint).
  const storage = createClient(options.supabaseUrl, options.serviceRoleKey, {
    ...nodeRealtimeOptions,
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  }).storage
  const stored: Array<{ bucket: 'uploads' | 'thumbnails'; name: string }> = []
  const cacheRoot = options.cacheDir ?? path.join(tmpdir(), 'lumen-demo-cache')
  const cache = cacheRoot === false ? null : path.join(cacheRoot, cacheKey(caps, tools.ffmpeg.path))

  try {
    const made: Array<{ id: string; clip: DemoClip; sourcePath: string; thumbnailPath: string; index: number }> = []
    for (const [index, clip] of DEMO_CLIPS.entries()) {
      const id = randomUUID()
      const cached = cache && { video: path.join(cache, `${index}.mp4`), poster: path.join(cache, `${index}.jpg`) }
      let video = path.join(work, `${index}.mp4`)
      let poster = path.join(work, `${index}.jpg`)
      if (cached && existsSync(cached.video) && existsSync(cached.poster)) {
        ;({ video, poster } = cached)
      } else {
        await makeClip(tools.ffmpeg.path, caps, clip, video, path.join(work, `${index}.txt`))
        await makePoster(tools.ffmpeg.path, caps, clip, video, poster)
        if (cached) await keep(cached, { video, poster })
      }
      const sourcePath = `${DEMO_CREATOR_ID}/videos/${randomUUID()}.mp4`
      const thumbnailPath = `${DEMO_CREATOR_ID}/${id}.jpg`
      await put(storage, 'uploads', sourcePath, video, 'video/mp4')
      stored.push({ bucket: 'uploads', name: sourcePath })
      await put(storage, 'thumbnails', thumbnailPath, poster, 'image/jpeg')
      stored.push({ bucket: 'thumbnails', name: thumbnailPath })
      made.push({ id, clip, sourcePath, thumbnailPath, index })
    }

    await withRole(pool, 'service_role', { role: 'service_role' }, async (client) => {
      for (const { id, clip, sourcePath, thumbnailPath, index } of made) {
        // Spread over the last days, newest first in the order above; the insert queues the media job.
        await client.query(
          `insert into public.videos (id, creator_id, title, description, category_id, type, source_path, thumbnail_path, created_at, chapters)
           values ($1, $2, $3, $4, $5, $6, $7, $8, now() - make_interval(hours => $9), $10)`,
          [
            id,
            DEMO_CREATOR_ID,
            clip.title,
            clip.description,
            clip.category,
            clip.type,
            sourcePath,
            thumbnailPath,
            3 + index * 7,
            JSON.stringify((clip.chapters ?? []).map(([start, title]) => ({ start, title }))),
          ],
        )
        await addDemoCaptions(client, id, DEMO_CAPTIONS[clip.title] ?? [])
      }
      await addDemoCourse(client, new Map(made.map(({ id, clip }) => [clip.title, id])))
    })
    stored.length = 0
    log(
      `demo content: ${made.length} videos and sparks made in ${((Date.now() - started) / 1000).toFixed(1)} s, queued for processing`,
    )
    return made.length
  } finally {
    for (const bucket of ['uploads', 'thumbnails'] as const) {
      const names = stored.filter((object) => object.bucket === bucket).map((object) => object.name)
      if (names.length)
        await storage
          .from(bucket)
          .remove(names)
          .catch(() => undefined)
    }
    await rm(work, { recursive: true, force: true })
  }
}

/** The demo course and its lessons, in the seeding transaction. */
async function addDemoCourse(client: pg.PoolClient, videoByTitle: Map<string, string>) {
  const { rows } = await client.query<{ id: string }>(
    `insert into public.courses (creator_id, title, description, category_id, is_published)
     values ($1, $2, $3, $4, true) returning id`,
    [DEMO_CREATOR_ID, DEMO_COURSE.title, DEMO_COURSE.description, DEMO_COURSE.category],
  )
  const courseId = rows[0]!.id
  for (const [position, [title, section]] of DEMO_COURSE.lessons.entries()) {
    const videoId = videoByTitle.get(title)
    if (!videoId) throw new Error(`the demo course names a clip that is not there: ${title}`)
    await client.query(
      `insert into public.course_lessons (course_id, video_id, position, section_title) values ($1, $2, $3, $4)`,
      [courseId, videoId, position, section],
    )
  }
}

/** The clip's English captions as a track and its cues (the same rows a creator's upload makes). */
async function addDemoCaptions(client: pg.PoolClient, videoId: string, cues: readonly DemoCue[]) {
  if (!cues.length) return
  const { rows } = await client.query<{ id: string }>(
    `insert into public.caption_tracks (video_id, language, label, source, cue_count) values ($1, 'en', 'English', 'upload', $2) returning id`,
    [videoId, cues.length],
  )
  await client.query(
    `insert into public.caption_cues (track_id, video_id, seq, start_ms, end_ms, body)
     select $1, $2, s.n - 1, s.start_ms, s.end_ms, s.body
       from unnest($3::int[], $4::int[], $5::text[]) with ordinality as s(start_ms, end_ms, body, n)`,
    [
      rows[0]!.id,
      videoId,
      cues.map(([start]) => start * 1000),
      cues.map(([, end]) => end * 1000),
      cues.map(([, , text]) => text),
    ],
  )
}

/**
 * Names the cache folder after everything that decides the clips: this file's own
 * text (the clip list, graphs and encoder settings), what the ffmpeg build can draw,
 * and which ffmpeg it is. Any change makes a new folder, so a stale clip is never reused.
 */
function cacheKey(caps: Capabilities, ffmpeg: string): string {
  const hash = createHash('sha256').update(JSON.stringify({ caps, ffmpeg }))
  hash.update(readFileSync(path.join(projectRoot, 'stack/demo-content.ts')))
  return hash.digest('hex').slice(0, 16)
}

/** Copies a made clip into the cache, each file under a temporary name first so a reader never sees half of one. */
async function keep(cached: { video: string; poster: string }, made: { video: string; poster: string }) {
  try {
    await mkdir(path.dirname(cached.video), { recursive: true })
    for (const [from, to] of [
      [made.video, cached.video],
      [made.poster, cached.poster],
    ] as const) {
      const partial = `${to}.${randomUUID()}.partial`
      await copyFile(from, partial)
      await rename(partial, to)
    }
  } catch {
    // A cache that cannot be written only costs the next install the same ffmpeg time.
  }
}

async function makeClip(ffmpeg: string, caps: Capabilities, clip: DemoClip, output: string, titleFile: string) {
  const dims = clip.type === 'spark' ? SPARK : FEED
  let graph = clip.graph(caps)
  if (caps.drawtext && caps.font) {
    // The title for the first seconds, as an opening card.
    await writeFile(titleFile, wrap(clip.title, clip.type === 'spark' ? 18 : 30))
    const fontsize = clip.type === 'spark' ? 28 : 34
    graph = graph.replace(/\[v\]$/, '[raw]')
    graph += `;[raw]${titleFilter(caps.font, titleFile, fontsize, dims, "enable='lt(t,4)'")}[v]`
  }
  await runMediaTool(
    ffmpeg,
    [
      '-hide_banner',
      '-nostdin',
      '-v',
      'error',
      '-y',
      ...clip.inputs(caps),
      '-filter_complex',
      graph,
      '-map',
      '[v]',
      ...(clip.audio ? ['-map', '[a]', '-c:a', 'aac', '-b:a', '64k'] : []),
      '-t',
      String(clip.seconds),
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-crf',
      '26',
      '-pix_fmt',
      'yuv420p',
      '-r',
      String(RATE),
      '-g',
      String(RATE * 2),
      '-movflags',
      '+faststart',
      output,
    ],
    { timeoutMs: 120_000 },
  )
}

/** A frame from the middle of the clip with its title: the card's thumbnail. */
async function makePoster(ffmpeg: string, caps: Capabilities, clip: DemoClip, video: string, output: string) {
  const dims = clip.type === 'spark' ? SPARK : FEED
  const titleFile = `${output}.txt`
  const filters = []
  if (caps.drawtext && caps.font) {
    await writeFile(titleFile, wrap(clip.title, clip.type === 'spark' ? 18 : 30))
    filters.push(titleFilter(caps.font, titleFile, clip.type === 'spark' ? 28 : 34, dims))
  }
  await runMediaTool(
    ffmpeg,
    [
      '-hide_banner',
      '-nostdin',
      '-v',
      'error',
      '-y',
      '-ss',
      String(clip.posterAt ?? Math.max(5, clip.seconds * 0.6)),
      '-i',
      video,
      '-frames:v',
      '1',
      ...(filters.length ? ['-vf', filters.join(',')] : []),
      '-q:v',
      '3',
      output,
    ],
    { timeoutMs: 60_000 },
  )
}

function titleFilter(font: string, textFile: string, fontsize: number, dims: { width: number; height: number }, extra = '') {
  const spark = dims.height > dims.width
  return [
    `drawtext=fontfile='${filterPath(font)}'`,
    `textfile='${filterPath(textFile)}'`,
    'fontcolor=white',
    `fontsize=${fontsize}`,
    'line_spacing=8',
    'box=1',
    'boxcolor=0x0f172a@0.6',
    'boxborderw=16',
    spark ? 'x=(w-text_w)/2' : 'x=36',
    spark ? 'y=h*0.72' : 'y=h-text_h-44',
    ...(extra ? [extra] : []),
  ].join(':')
}

/** Paths inside a filter graph: forward slashes, and the option separator escaped (Windows drive letters). */
function filterPath(file: string): string {
  return file.replaceAll('\\', '/').replaceAll(':', '\\:').replaceAll("'", "\\'")
}

function wrap(text: string, width: number): string {
  const lines: string[] = []
  for (const word of text.split(' ')) {
    const last = lines.at(-1)
    if (last !== undefined && `${last} ${word}`.length <= width) lines[lines.length - 1] = `${last} ${word}`
    else lines.push(word)
  }
  return lines.join('\n')
}

function size(dims: { width: number; height: number }): string {
  return `${dims.width}x${dims.height}`
}

const FONT_CANDIDATES = [
  '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
  '/usr/share/fonts/TTF/DejaVuSans-Bold.ttf',
  '/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf',
  '/usr/share/fonts/dejavu-sans-fonts/DejaVuSans-Bold.ttf',
  '/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf',
  '/usr/share/fonts/liberation-sans/LiberationSans-Bold.ttf',
  '/System/Library/Fonts/Supplemental/Arial Bold.ttf',
  '/Library/Fonts/Arial Bold.ttf',
  'C:\\Windows\\Fonts\\arialbd.ttf',
]

/** What this ffmpeg build can draw: titles need drawtext and a font; gradients arrived in ffmpeg 4.4. */
async function capabilities(ffmpeg: string): Promise<Capabilities> {
  const { stdout } = await runMediaTool(ffmpeg, ['-hide_banner', '-filters'], { timeoutMs: 30_000 })
  const has = (name: string) => new RegExp(`\\s${name}\\s`).test(stdout)
  return {
    drawtext: has('drawtext'),
    gradients: has('gradients'),
    font: FONT_CANDIDATES.find((candidate) => existsSync(candidate)) ?? null,
  }
}

async function put(
  storage: ReturnType<typeof createClient>['storage'],
  bucket: 'uploads' | 'thumbnails',
  name: string,
  file: string,
  contentType: string,
) {
  const { error } = await storage.from(bucket).upload(name, await openAsBlob(file, { type: contentType }), { contentType })
  if (error) throw new Error(`demo content: could not store ${bucket}/${name}: ${error.message}`)
}
