import { readdir, readFile, rm, stat, unlink } from 'node:fs/promises'
import path from 'node:path'
import type pg from 'pg'

/**
 * Reconciliation (ADR 0017): `npm run doctor` and the media worker's hourly
 * sweep. It compares what the database says with what the disk holds and
 * fixes only what it is sure of:
 *
 * - counters (videos.like_count, comment_count, quote_count, view_count;
 *   quotes.like_count) equal the rows they count — fixed (the rows are the
 *   truth, the counter a cache of them);
 * - resumable (TUS) uploads unfinished after 24 hours — removed; their data
 *   files without info, and temp files, likewise;
 * - stored files that no `storage.objects` row names — removed once an hour
 *   old (younger ones may belong to a commit in progress);
 * - rows whose file is missing, ready videos whose playlist or MP4 has no
 *   object, videos processing with no open job — reported, never "fixed":
 *   only a person can tell what they should be.
 *
 * File checks run only with the stand-in's storage (`storageDir`); on a
 * hosted Supabase, Storage is its own.
 */
export interface ReconcileOptions {
  pool: pg.Pool
  /** `<DATA_DIR>/storage` of the stand-in; undefined with a hosted Supabase. */
  storageDir?: string
  /** Fix what is sure (default); false only reports. */
  fix?: boolean
  now?: number
  /** Unfinished uploads older than this are abandoned; default 24 h. */
  abandonedMs?: number
  /** Files without rows younger than this are left alone; default 1 h. */
  orphanGraceMs?: number
}

export interface Finding {
  check: string
  detail: string
  fixed: boolean
}

export interface ReconcileReport {
  findings: Finding[]
  /** What was looked at, per check. */
  checked: Record<string, number>
}

const HOUR = 60 * 60 * 1000
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

const COUNTERS = [
  { table: 'public.videos', column: 'like_count', child: 'public.video_likes', key: 'video_id' },
  { table: 'public.videos', column: 'comment_count', child: 'public.comments', key: 'video_id' },
  { table: 'public.videos', column: 'quote_count', child: 'public.quotes', key: 'video_id' },
  { table: 'public.videos', column: 'view_count', child: 'public.video_views', key: 'video_id' },
  { table: 'public.quotes', column: 'like_count', child: 'public.quote_likes', key: 'quote_id' },
] as const

export async function reconcile(options: ReconcileOptions): Promise<ReconcileReport> {
  const fix = options.fix ?? true
  const now = options.now ?? Date.now()
  const findings: Finding[] = []
  const checked: Record<string, number> = {}
  const { pool } = options

  // Counters ---------------------------------------------------------------------------
  for (const counter of COUNTERS) {
    const actual = `(select count(*) from ${counter.child} c where c.${counter.key} = p.id)`
    const { rows } = await pool.query<{ id: string; stored: number; actual: number }>(
      `select p.id, p.${counter.column}::int as stored, ${actual}::int as actual
         from ${counter.table} p where p.${counter.column} <> ${actual}`,
    )
    checked[`${counter.table}.${counter.column}`] = Number(
      (await pool.query<{ n: number }>(`select count(*)::int as n from ${counter.table}`)).rows[0]?.n ?? 0,
    )
    for (const row of rows) {
      if (fix) {
        await pool.query(`update ${counter.table} p set ${counter.column} = ${actual} where p.id = $1`, [row.id])
      }
      findings.push({
        check: 'counter',
        detail: `${counter.table}.${counter.column} of ${row.id} was ${row.stored}, its rows count ${row.actual}`,
        fixed: fix,
      })
    }
  }

  // Videos that can never become ready, and ready ones whose media is gone -------------
  const stuck = await pool.query<{ id: string }>(
    `select v.id from public.videos v
      where v.status = 'processing' and v.source_path is not null
        and not exists (select 1 from public.media_jobs j where j.video_id = v.id and j.status in ('queued', 'running'))`,
  )
  for (const row of stuck.rows) {
    findings.push({ check: 'video', detail: `video ${row.id} is processing but has no open media job`, fixed: false })
  }
  const unplayable = await pool.query<{ id: string; path: string }>(
    `select v.id, p.path from public.videos v
       cross join lateral (values (v.hls_path), (v.mp4_path)) as p(path)
      where v.status = 'ready' and p.path is not null
        and not exists (select 1 from storage.objects o where o.bucket_id = 'media' and o.name = p.path)`,
  )
  for (const row of unplayable.rows) {
    findings.push({ check: 'video', detail: `ready video ${row.id} names media/${row.path}, which has no object`, fixed: false })
  }

  if (options.storageDir) {
    await reconcileFiles(options.storageDir, pool, { fix, now, findings, checked, options })
  }
  return { findings, checked }
}

async function reconcileFiles(
  storageDir: string,
  pool: pg.Pool,
  run: { fix: boolean; now: number; findings: Finding[]; checked: Record<string, number>; options: ReconcileOptions },
) {
  const { fix, now, findings, checked } = run
  const abandonedMs = run.options.abandonedMs ?? 24 * HOUR
  const graceMs = run.options.orphanGraceMs ?? HOUR
  const remove = async (file: string) => {
    if (fix) await rm(file, { recursive: true, force: true })
  }
  const age = async (file: string) => now - (await stat(file).catch(() => ({ mtimeMs: now }))).mtimeMs

  // Resumable uploads: <version>.json infos next to <version> data files.
  const resumable = path.join(storageDir, 'resumable')
  const names = await readdir(resumable).catch(() => [] as string[])
  checked.resumable = names.filter((name) => name.endsWith('.json')).length
  for (const name of names) {
    const file = path.join(resumable, name)
    if (name.endsWith('.json')) {
      const id = name.slice(0, -'.json'.length)
      const info = await readFile(file, 'utf8')
        .then((text) => JSON.parse(text) as { creation_date?: string; finalized?: boolean; size?: number; offset?: number })
        .catch(() => null)
      const created = info?.creation_date ? new Date(info.creation_date).getTime() : now - (await age(file))
      if (now - created <= abandonedMs) continue
      if (info?.finalized) {
        await remove(file)
        continue
      }
      await remove(path.join(resumable, id))
      await remove(file)
      findings.push({
        check: 'upload',
        detail: `resumable upload ${id} abandoned since ${new Date(created).toISOString()}`,
        fixed: fix,
      })
    } else if (UUID.test(name) && !names.includes(`${name}.json`) && (await age(file)) > abandonedMs) {
      await remove(file)
      findings.push({ check: 'upload', detail: `resumable data ${name} without its upload info`, fixed: fix })
    }
  }
  const tmp = path.join(storageDir, 'tmp')
  for (const name of await readdir(tmp).catch(() => [] as string[])) {
    if ((await age(path.join(tmp, name))) <= graceMs) continue
    await remove(path.join(tmp, name))
    findings.push({ check: 'file', detail: `temp file storage/tmp/${name} left by an interrupted upload`, fixed: fix })
  }

  // Objects: every file its row, every row its file.
  const { rows } = await pool.query<{ bucket_id: string; name: string; version: string | null }>(
    'select bucket_id, name, version from storage.objects',
  )
  checked.objects = rows.length
  const known = new Set(rows.map((row) => `${row.bucket_id}/${row.version}`))
  const objects = path.join(storageDir, 'objects')
  const onDisk = new Set<string>()
  for (const bucket of await readdir(objects).catch(() => [] as string[])) {
    for (const version of await readdir(path.join(objects, bucket)).catch(() => [] as string[])) {
      onDisk.add(`${bucket}/${version}`)
      if (known.has(`${bucket}/${version}`)) continue
      const file = path.join(objects, bucket, version)
      if ((await age(file)) <= graceMs) continue
      if (fix) await unlink(file).catch(() => {})
      findings.push({ check: 'file', detail: `storage file ${bucket}/${version} has no object row`, fixed: fix })
    }
  }
  for (const row of rows) {
    if (!row.version || onDisk.has(`${row.bucket_id}/${row.version}`)) continue
    findings.push({
      check: 'object',
      detail: `object ${row.bucket_id}/${row.name} has no file (version ${row.version})`,
      fixed: false,
    })
  }
}

/** The report as lines for a terminal. */
export function describeReport(report: ReconcileReport): string[] {
  const looked = Object.entries(report.checked)
    .map(([check, count]) => `${check}: ${count}`)
    .join(', ')
  const lines = [`checked ${looked}`]
  if (!report.findings.length) lines.push('nothing wrong: nothing lost, nothing orphaned, every counter right')
  for (const finding of report.findings)
    lines.push(`${finding.fixed ? 'fixed   ' : 'reported'} [${finding.check}] ${finding.detail}`)
  const fixed = report.findings.filter((finding) => finding.fixed).length
  lines.push(`${report.findings.length} found, ${fixed} fixed, ${report.findings.length - fixed} left for a person`)
  return lines
}
