import { sql } from 'kysely'
import { isUuid } from '~/lib/ids'
import {
  answerSchema,
  CHECKPOINT_MESSAGES,
  checkpointSchema,
  type CheckpointAnswer,
  type CheckpointQuestion,
  type CheckpointResult,
  type CheckpointStat,
  type CheckpointWithKey,
  type SparkQuestion,
  type VideoCheckpointStats,
  type ProgressItem,
} from '~/lib/schemas/checkpoints'
import { asCaller, type JwtClaims, type Tx } from './db.server'
import { DomainError, isPermissionError, type FieldErrors } from './errors.server'

/**
 * Checkpoints: questions inside a video (ADR 0047). The pages (the authoring
 * page, the video page's player and "Check yourself" form, the insights page)
 * and the /api twins call these; Postgres decides who may (row-level security
 * and the functions of supabase/migrations/20261213000700_checkpoints.sql).
 *
 * The answer key never leaves here for a learner: questions are read from
 * `public.checkpoints` (no key), an answer is scored by `answer_checkpoint()`,
 * which returns only right/wrong and the explanation, and the key table is
 * readable by the video's creator and admins alone.
 */

const videoNotFound = () => new DomainError('not_found', CHECKPOINT_MESSAGES.videoNotFound)
const checkpointNotFound = () => new DomainError('not_found', CHECKPOINT_MESSAGES.notFound)

export interface QuestionRow {
  id: string
  at_seconds: string | number
  question: string
  options: string[]
  required: boolean
  multiple: boolean
}

export function toQuestion(row: QuestionRow): CheckpointQuestion {
  return {
    id: row.id,
    atSeconds: Number(row.at_seconds),
    question: row.question,
    options: row.options,
    required: row.required,
    multiple: row.multiple,
  }
}

/** The video if the caller can see it, and whether they may change its checkpoints (its creator or an admin). */
async function visibleVideo(tx: Tx, videoId: string, signedIn = true) {
  // Visitors may not call can_edit_captions (and may never edit).
  const canEdit = signedIn ? sql`public.can_edit_captions(v.id)` : sql`false`
  const { rows } = await sql<{ id: string; type: string; duration_seconds: string | null; can_edit: boolean }>`
    select v.id, v.type, v.duration_seconds, ${canEdit} as can_edit
      from public.videos v where v.id = ${videoId}::uuid
  `.execute(tx)
  return rows[0] ?? null
}

/** The questions of a video the caller can see, in time order (no key); empty for an unknown or hidden video. */
export async function listCheckpoints(claims: JwtClaims | null, videoId: string): Promise<CheckpointQuestion[]> {
  if (!isUuid(videoId)) return []
  return asCaller(claims, (tx) => readQuestions(tx, videoId))
}

async function readQuestions(tx: Tx, videoId: string): Promise<CheckpointQuestion[]> {
  const { rows } = await sql<QuestionRow>`
    select id, at_seconds, question, options, required, multiple
      from public.checkpoints where video_id = ${videoId}::uuid
     order by at_seconds
  `.execute(tx)
  return rows.map(toQuestion)
}

/** Like listCheckpoints, but 404 for a video the caller cannot see (the API). */
export async function requireCheckpoints(claims: JwtClaims | null, videoId: string): Promise<CheckpointQuestion[]> {
  if (!isUuid(videoId)) throw videoNotFound()
  return asCaller(claims, async (tx) => {
    if (!(await visibleVideo(tx, videoId, claims !== null))) throw videoNotFound()
    return readQuestions(tx, videoId)
  })
}

export interface AuthoringView {
  video: { id: string; title: string; type: 'video' | 'spark'; durationSeconds: number | null }
  checkpoints: CheckpointWithKey[]
}

/** The authoring page: the video and its checkpoints with their keys. 404 unknown/hidden, 403 not the creator or an admin. */
export async function getCheckpointAuthoring(claims: JwtClaims, videoId: string): Promise<AuthoringView> {
  if (!isUuid(videoId)) throw videoNotFound()
  return asCaller(claims, async (tx) => {
    const { rows } = await sql<{
      id: string
      title: string
      type: 'video' | 'spark'
      duration_seconds: string | null
      can_edit: boolean
    }>`
      select v.id, v.title, v.type, v.duration_seconds, public.can_edit_captions(v.id) as can_edit
        from public.videos v where v.id = ${videoId}::uuid
    `.execute(tx)
    const video = rows[0]
    if (!video) throw videoNotFound()
    if (!video.can_edit) throw new DomainError('forbidden', CHECKPOINT_MESSAGES.notYourVideo)
    const keyed = await sql<QuestionRow & { correct: number[]; explanation: string }>`
      select c.id, c.at_seconds, c.question, c.options, c.required, c.multiple, k.correct, k.explanation
        from public.checkpoints c join public.checkpoint_keys k on k.checkpoint_id = c.id
       where c.video_id = ${videoId}::uuid
       order by c.at_seconds
    `.execute(tx)
    return {
      video: {
        id: video.id,
        title: video.title,
        type: video.type,
        durationSeconds: video.duration_seconds === null ? null : Number(video.duration_seconds),
      },
      checkpoints: keyed.rows.map((row) => ({
        ...toQuestion(row),
        correct: row.correct.map(Number),
        explanation: row.explanation,
      })),
    }
  })
}

/**
 * Adds a checkpoint (the video's creator or an admin), checked by `checkpointSchema`
 * and again by Postgres. Throws invalid (with field errors), not_found, forbidden, conflict.
 */
export async function addCheckpoint(claims: JwtClaims, videoId: string, input: unknown): Promise<CheckpointWithKey> {
  if (!isUuid(videoId)) throw videoNotFound()
  const parsed = checkpointSchema.safeParse(input)
  if (!parsed.success) {
    const fieldErrors: FieldErrors = {}
    for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0] ?? 'form')] ??= issue.message
    throw new DomainError('invalid', parsed.error.issues[0]?.message ?? CHECKPOINT_MESSAGES.questionRequired, fieldErrors)
  }
  const value = parsed.data
  return asCaller(claims, async (tx) => {
    const video = await visibleVideo(tx, videoId)
    if (!video) throw videoNotFound()
    if (!video.can_edit) throw new DomainError('forbidden', CHECKPOINT_MESSAGES.notYourVideo)
    if (video.duration_seconds === null) throw new DomainError('invalid', CHECKPOINT_MESSAGES.notProcessed)
    if (video.type === 'video' && value.at >= Number(video.duration_seconds)) {
      throw new DomainError('invalid', CHECKPOINT_MESSAGES.momentInvalid, { at: CHECKPOINT_MESSAGES.momentInvalid })
    }
    try {
      const { rows } = await sql<QuestionRow>`
        select id, at_seconds, question, options, required, multiple
          from public.add_checkpoint(${videoId}::uuid, ${value.at}, ${value.question}, ${sql.val(value.options)}::text[],
                                     ${sql.val(value.correct)}::smallint[], ${value.explanation}, ${value.required})
      `.execute(tx)
      return { ...toQuestion(rows[0]!), correct: value.correct, explanation: value.explanation }
    } catch (error) {
      throw databaseRefusal(error, video.type)
    }
  })
}

function databaseRefusal(error: unknown, type: string): unknown {
  const code = (error as { code?: string } | null)?.code
  const message = error instanceof Error ? error.message : ''
  if (isPermissionError(error)) return new DomainError('forbidden', CHECKPOINT_MESSAGES.notYourVideo)
  // A spark's one question is at its end: a second one there is a second question (checkpoints_one_per_spark).
  if (code === '23505' && type === 'spark') return new DomainError('conflict', CHECKPOINT_MESSAGES.sparkOnlyOne)
  if (code === '23505')
    return new DomainError('conflict', CHECKPOINT_MESSAGES.momentTaken, { at: CHECKPOINT_MESSAGES.momentTaken })
  if (code === '23514') {
    if (/at most 20|only one/.test(message)) {
      return new DomainError('conflict', type === 'spark' ? CHECKPOINT_MESSAGES.sparkOnlyOne : CHECKPOINT_MESSAGES.tooMany)
    }
    if (/inside the video/.test(message)) {
      return new DomainError('invalid', CHECKPOINT_MESSAGES.momentInvalid, { at: CHECKPOINT_MESSAGES.momentInvalid })
    }
    if (/processed/.test(message)) return new DomainError('invalid', CHECKPOINT_MESSAGES.notProcessed)
    return new DomainError('invalid', CHECKPOINT_MESSAGES.optionsCount, { options: CHECKPOINT_MESSAGES.optionsCount })
  }
  return error
}

/** Deletes a checkpoint (its key and answers go with it). 404 unknown/hidden, 403 not the creator or an admin. */
export async function deleteCheckpoint(claims: JwtClaims, checkpointId: string): Promise<{ videoId: string }> {
  if (!isUuid(checkpointId)) throw checkpointNotFound()
  return asCaller(claims, async (tx) => {
    const { rows } = await sql<{
      video_id: string
    }>`select video_id from public.checkpoints where id = ${checkpointId}::uuid`.execute(tx)
    if (!rows[0]) throw checkpointNotFound()
    const deleted = await sql<{ video_id: string }>`
      delete from public.checkpoints where id = ${checkpointId}::uuid returning video_id
    `.execute(tx)
    if (!deleted.rows[0]) throw new DomainError('forbidden', CHECKPOINT_MESSAGES.notYourVideo)
    return { videoId: deleted.rows[0].video_id }
  })
}

/** Scores and records the caller's answer (`chosen`: option indexes). Throws invalid or not_found. */
export async function answerCheckpoint(claims: JwtClaims, checkpointId: string, chosen: unknown): Promise<CheckpointAnswer> {
  if (!isUuid(checkpointId)) throw checkpointNotFound()
  const parsed = answerSchema.safeParse(chosen)
  if (!parsed.success)
    throw new DomainError('invalid', CHECKPOINT_MESSAGES.chooseOption, { chosen: CHECKPOINT_MESSAGES.chooseOption })
  return asCaller(claims, (tx) => answerIn(tx, checkpointId, parsed.data))
}

async function answerIn(tx: Tx, checkpointId: string, chosen: number[]): Promise<CheckpointAnswer> {
  try {
    const { rows } = await sql<{ correct: boolean; explanation: string }>`
      select correct, explanation from public.answer_checkpoint(${checkpointId}::uuid, ${sql.val(chosen)}::smallint[])
    `.execute(tx)
    return { checkpointId, correct: rows[0]!.correct, explanation: rows[0]!.explanation }
  } catch (error) {
    if (isPermissionError(error)) throw checkpointNotFound()
    if ((error as { code?: string } | null)?.code === '22023') {
      throw new DomainError('invalid', CHECKPOINT_MESSAGES.chooseOption, { chosen: CHECKPOINT_MESSAGES.chooseOption })
    }
    throw error
  }
}

/**
 * The "Check yourself" form without JavaScript: several answers at once
 * (`answers`: checkpoint id → chosen indexes), all of the video's, in one
 * transaction; unanswered questions are skipped. Throws invalid when none was answered.
 */
export async function answerCheckpoints(
  claims: JwtClaims,
  videoId: string,
  answers: Record<string, number[]>,
): Promise<CheckpointAnswer[]> {
  if (!isUuid(videoId)) throw videoNotFound()
  const given = Object.entries(answers).filter(([id, chosen]) => isUuid(id) && chosen.length > 0)
  if (given.length === 0) throw new DomainError('invalid', CHECKPOINT_MESSAGES.chooseOption)
  return asCaller(claims, async (tx) => {
    const questions = new Set((await readQuestions(tx, videoId)).map((question) => question.id))
    const results: CheckpointAnswer[] = []
    for (const [id, chosen] of given) {
      if (!questions.has(id)) throw checkpointNotFound()
      const parsed = answerSchema.safeParse(chosen)
      if (!parsed.success) throw new DomainError('invalid', CHECKPOINT_MESSAGES.chooseOption)
      results.push(await answerIn(tx, id, parsed.data))
    }
    return results
  })
}

/** The caller's own results on a video's checkpoints, by checkpoint id (only those they answered). */
export async function myCheckpointResults(claims: JwtClaims, videoId: string): Promise<Record<string, CheckpointResult>> {
  if (!isUuid(videoId)) return {}
  return asCaller(claims, async (tx) => {
    const { rows } = await sql<ResultRow>`select * from public.my_checkpoint_results(${videoId}::uuid)`.execute(tx)
    return toCheckpointResults(rows)
  })
}

/** A row of `public.my_checkpoint_results()`. */
export interface ResultRow {
  checkpoint_id: string
  attempts: number
  last_chosen: number[]
  last_correct: boolean
  ever_correct: boolean
  explanation: string
  answered_at: Date | string
}

export function toCheckpointResults(rows: ResultRow[]): Record<string, CheckpointResult> {
  return Object.fromEntries(
    rows.map((row) => [
      row.checkpoint_id,
      {
        checkpointId: row.checkpoint_id,
        attempts: row.attempts,
        lastChosen: row.last_chosen.map(Number),
        lastCorrect: row.last_correct,
        everCorrect: row.ever_correct,
        explanation: row.explanation,
        answeredAt: new Date(row.answered_at).toISOString(),
      },
    ]),
  )
}

/** Aggregates per checkpoint for the video's creator or an admin. 404 unknown/hidden, 403 anyone else. */
export async function checkpointStats(claims: JwtClaims, videoId: string): Promise<CheckpointStat[]> {
  if (!isUuid(videoId)) throw videoNotFound()
  return asCaller(claims, async (tx) => {
    const video = await visibleVideo(tx, videoId)
    if (!video) throw videoNotFound()
    if (!video.can_edit) throw new DomainError('forbidden', CHECKPOINT_MESSAGES.notYourVideo)
    const { rows } = await sql<StatRow>`select * from public.checkpoint_stats(${videoId}::uuid)`.execute(tx)
    return rows.map(toStat)
  })
}

/** A row of `public.checkpoint_stats()`. */
interface StatRow {
  checkpoint_id: string
  at_seconds: string
  question: string
  options: string[]
  required: boolean
  learners: number
  first_try_correct: number
  top_wrong_option: number | null
  top_wrong_count: number
  stopped_here: number
}

function toStat(row: StatRow): CheckpointStat {
  return {
    checkpointId: row.checkpoint_id,
    atSeconds: Number(row.at_seconds),
    question: row.question,
    options: row.options,
    required: row.required,
    learners: row.learners,
    firstTryCorrect: row.first_try_correct,
    firstTryRate: row.learners > 0 ? row.first_try_correct / row.learners : null,
    topWrongOption:
      row.top_wrong_option === null
        ? null
        : { index: row.top_wrong_option, text: row.options[row.top_wrong_option] ?? '', count: row.top_wrong_count },
    stoppedHere: row.stopped_here,
  }
}

/** How many of the creator's videos (newest first) the Engagement tab shows checkpoints for. */
export const ENGAGEMENT_VIDEOS = 50

/**
 * The dashboard's Engagement tab (ADR 0049): the same aggregates as each video's insights
 * page (`checkpoint_stats()`, which checks the caller may read them), for every video of
 * the caller's own that has checkpoints — newest first, at most ENGAGEMENT_VIDEOS — in one query.
 */
export async function creatorCheckpointStats(claims: JwtClaims): Promise<VideoCheckpointStats[]> {
  return asCaller(claims, async (tx) => {
    const { rows } = await sql<StatRow & { video_id: string; title: string; type: 'video' | 'spark' }>`
      with mine as (
        select v.id, v.title, v.type, v.created_at
          from public.videos v
         where v.creator_id = (select auth.uid())
           and exists (select 1 from public.checkpoints c where c.video_id = v.id)
         order by v.created_at desc, v.id
         limit ${ENGAGEMENT_VIDEOS}
      )
      select m.id as video_id, m.title, m.type, s.*
        from mine m cross join lateral public.checkpoint_stats(m.id) s
       order by m.created_at desc, m.id, s.at_seconds
    `.execute(tx)
    const videos: VideoCheckpointStats[] = []
    for (const row of rows) {
      let video = videos.at(-1)
      if (video?.videoId !== row.video_id) {
        video = { videoId: row.video_id, title: row.title, type: row.type, stats: [] }
        videos.push(video)
      }
      video.stats.push(toStat(row))
    }
    return videos
  })
}

/** The caller's Progress: per video with checkpoints they answered, how many questions and how many right. */
export type { ProgressItem }

export async function myCheckpointProgress(claims: JwtClaims): Promise<ProgressItem[]> {
  return asCaller(claims, async (tx) => {
    const { rows } = await sql<{
      video_id: string
      title: string
      questions: number
      answered: number
      right_count: number
      last_at: Date | string
    }>`
      select v.id as video_id, v.title,
             (select count(*)::int from public.checkpoints q where q.video_id = v.id) as questions,
             count(distinct a.checkpoint_id)::int as answered,
             count(distinct a.checkpoint_id) filter (where a.correct)::int as right_count,
             max(a.created_at) as last_at
        from public.checkpoint_attempts a
        join public.checkpoints c on c.id = a.checkpoint_id
        join public.videos v on v.id = c.video_id
       where a.user_id = ${claims.sub}::uuid
       group by v.id, v.title
       order by max(a.created_at) desc
       limit 100
    `.execute(tx)
    return rows.map((row) => ({
      videoId: row.video_id,
      title: row.title,
      questions: row.questions,
      answered: row.answered,
      right: row.right_count,
      lastAnsweredAt: new Date(row.last_at).toISOString(),
    }))
  })
}

/** What the video page needs: the questions (no key), the caller's own results and the video's length (for the marks). */
export async function getVideoCheckpoints(
  claims: JwtClaims,
  videoId: string,
): Promise<{ questions: CheckpointQuestion[]; results: Record<string, CheckpointResult>; durationSeconds: number | null }> {
  if (!isUuid(videoId)) return { questions: [], results: {}, durationSeconds: null }
  const [questions, video] = await Promise.all([
    listCheckpoints(claims, videoId),
    asCaller(claims, (tx) => visibleVideo(tx, videoId)),
  ])
  return {
    questions,
    results: questions.length > 0 ? await myCheckpointResults(claims, videoId) : {},
    durationSeconds: video?.duration_seconds == null ? null : Number(video.duration_seconds),
  }
}

/**
 * The question each of these sparks ends with (ADR 0049), by spark id, for the reel viewer:
 * the question without its key, and whether the caller has answered it right already. One
 * query for a page of clips; sparks without a question (or that the caller cannot see) are absent.
 */
export async function sparkQuestions(claims: JwtClaims, sparkIds: string[]): Promise<Record<string, SparkQuestion>> {
  const ids = sparkIds.filter(isUuid)
  if (ids.length === 0) return {}
  return asCaller(claims, async (tx) => {
    const { rows } = await sql<QuestionRow & { video_id: string; answered_right: boolean }>`
      select c.id, c.video_id, c.at_seconds, c.question, c.options, c.required, c.multiple,
             exists (select 1 from public.checkpoint_attempts a
                      where a.checkpoint_id = c.id and a.user_id = (select auth.uid()) and a.correct) as answered_right
        from public.checkpoints c
       where c.video_id = any(${sql.val(ids)}::uuid[]) and c.on_spark
    `.execute(tx)
    return Object.fromEntries(rows.map((row) => [row.video_id, { question: toQuestion(row), answeredRight: row.answered_right }]))
  })
}
