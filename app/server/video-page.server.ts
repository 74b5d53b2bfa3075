import { sql, type RawBuilder } from 'kysely'
import { pageCaptionTrack, type CueView } from '~/lib/caption-types'
import { isUuid } from '~/lib/ids'
import { parsePlaybackRate } from '~/lib/playback-rate'
import { resumeMoment } from '~/lib/schemas/progress'
import { VIDEO_MESSAGES } from '~/lib/schemas/video'
import { trackView, TRACK_COLUMNS } from '../../db/caption-tracks'
import { lessonCourseQuery, toLessonCourse, type LessonCourseRow } from './course-progress.server'
import { storedChapters } from './chapters.server'
import { toCheckpointResults, toQuestion, type QuestionRow, type ResultRow } from './checkpoints.server'
import { listComments, toCommentView } from './comments.server'
import { asCaller, preparedAs, type JwtClaims } from './db.server'
import { DomainError } from './errors.server'
import {
  lessonLinksQuery,
  lessonSparksQuery,
  toLessonLink,
  toLessonSpark,
  type LessonLinkRow,
  type LessonSparkRow,
} from './spark-lessons.server'
import { browserSupabaseUrl } from './supabase.server'
import { toNote, type NoteRow } from './notes.server'
import { toWatchPosition, type ProgressRow } from './progress-rows.server'
import { listQuotes, toQuoteView, type QuoteRow } from './quotes.server'
import { pageComment, pageQuote, toVideoDetail, videoPageView, type VideoDetailRow } from './videos.server'

/**
 * Everything the video page shows a signed-in learner (ADR 0054), read in ONE statement as the
 * caller: the video, the first page of its comments and quotes, its captions (the player's tracks
 * and one transcript), its chapters, whether the caller follows the creator, where they stopped
 * ("Resume from …", ADR 0034), the checkpoints with their own results (ADR 0047), their private
 * notes (ADR 0044), their playback speed (ADR 0043), the course it is a lesson of (ADR 0048) and a
 * spark's lesson or a lesson's sparks (ADR 0050). Row-level security judges every part
 * (`asCaller`), exactly as the separate reads did; each part is a scalar subquery returning JSON,
 * shaped afterwards by the same row mappers those reads use.
 *
 * Comments and quotes past the first page are not in it: the page gets them as deferred data
 * (`more`), read after the statement and streamed behind the first paint.
 *
 * To add a field: add a part to `parts` (an SQL expression returning JSON; `$video` and `$me`
 * are in scope through `video` and `me`) and shape it in the returned object.
 *
 * The statement is prepared once per connection and its plan kept (ADR 0063: planning its parts
 * and their policies cost more than running them), so its text must be the same on every call:
 * every value a parameter (`${…}`), never `sql.raw` or `sql.lit` of something that varies.
 */

/** Comments and quotes in the first paint; the rest (up to LIST_LIMIT) come as deferred data. */
export const FIRST_COMMENTS = 20
export const FIRST_QUOTES = 10
/** How many of each the page shows in all (as before: the newest 100). */
const LIST_LIMIT = 100

const notFound = () => new DomainError('not_found', VIDEO_MESSAGES.notFound)

type Json<T> = RawBuilder<T>

/** The page's parts: each one scalar subquery returning JSON (or a scalar), all run in one statement. */
function parts(videoId: string, me: string) {
  const video = sql`${videoId}::uuid`
  const self = sql`${me}::uuid`
  return {
    video: sql<(VideoDetailRow & PageVideoExtras) | null>`(
      select row_to_json(x) from (
        select v.id, v.title, v.description, v.type, v.is_public, v.status, v.category_id, v.created_at,
               v.duration_seconds, v.width, v.height, v.view_count, v.like_count, v.comment_count, v.quote_count,
               v.hls_path, v.mp4_path, v.more_qualities_pending, v.thumbnail_path, v.external_url, v.creator_id,
               v.chapters, p.username, p.avatar_path, p.role,
               public.video_status_message(v.id) as status_message,
               public.can_delete_video(v.creator_id) as can_delete,
               public.can_edit_captions(v.id) as can_edit_captions,
               exists (select 1 from public.video_likes l where l.video_id = v.id and l.user_id = ${self}) as has_liked,
               exists (select 1 from public.follows f where f.follower_id = ${self} and f.creator_id = v.creator_id) as following
          from public.videos v join public.profiles p on p.id = v.creator_id
         where v.id = ${video}
      ) x)`,
    comments: sql<CommentRow[]>`(
      select coalesce(json_agg(c), '[]') from (
        select c.id, c.body, c.created_at, c.user_id, p.username, p.avatar_path, p.role,
               public.can_delete_comment(c.user_id, c.video_id) as can_delete
          from public.comments c join public.profiles p on p.id = c.user_id
         where c.video_id = ${video}
         order by c.created_at desc, c.id desc
         limit ${FIRST_COMMENTS + 1}
      ) c)`,
    quotes: sql<Array<QuoteRow & { has_liked: boolean }>>`(
      select coalesce(json_agg(q), '[]') from (
        select q.id, q.video_id, q.type, q.body, q.moment_seconds, q.created_at, q.like_count, q.user_id,
               q.response_status, q.response_hls_path, q.response_mp4_path, q.response_poster_path,
               p.username, p.avatar_path, p.role, public.can_delete_quote(q.user_id) as can_delete,
               exists (select 1 from public.quote_likes l where l.quote_id = q.id and l.user_id = ${self}) as has_liked
          from public.quotes q join public.profiles p on p.id = q.user_id
         where q.video_id = ${video}
         order by q.created_at desc, q.id desc
         limit ${FIRST_QUOTES + 1}
      ) q)`,
    /** The quotes the caller can see, counted up to the list's limit (past it the stored counter is shown). */
    visibleQuotes: sql<number>`(select count(*)::int from (select 1 from public.quotes where video_id = ${video} limit ${LIST_LIMIT}) q)`,
    tracks: sql<TrackRow[]>`(
      select coalesce(json_agg(t order by t.label), '[]') from (
        select ${sql.join(TRACK_COLUMNS.map((column) => sql.ref(column)))}
          from public.caption_tracks t where t.video_id = ${video}
      ) t)`,
    /** The transcript: the cues of the English track when there is one, else of the first by label. */
    transcript: sql<{ track_id: string; cues: Array<[number, number, string]> } | null>`(
      select json_build_object('track_id', t.id, 'cues', coalesce(
               (select json_agg(json_build_array(c.start_ms, c.end_ms, c.body) order by c.seq)
                  from public.caption_cues c where c.track_id = t.id), '[]'))
        from public.caption_tracks t
       where t.video_id = ${video}
       order by (t.language = 'en' or t.language like 'en-%') desc, t.label
       limit 1)`,
    captionsOn: sql<boolean>`public.profile_captions_on()`,
    position: sql<ProgressRow | null>`(
      select row_to_json(w) from (
        select video_id, position_seconds, duration_seconds, finished, updated_at
          from public.watch_progress where user_id = ${self} and video_id = ${video}
      ) w)`,
    questions: sql<QuestionRow[]>`(
      select coalesce(json_agg(q order by q.at_seconds), '[]') from (
        select id, at_seconds, question, options, required, multiple from public.checkpoints where video_id = ${video}
      ) q)`,
    results: sql<ResultRow[]>`(select coalesce(json_agg(r), '[]') from public.my_checkpoint_results(${video}) r)`,
    notes: sql<NoteRow[]>`(
      select coalesce(json_agg(n order by n.at_seconds, n.created_at, n.id), '[]') from (
        select n.id, n.video_id, n.at_seconds, n.body, n.created_at, n.updated_at
          from public.video_notes n join public.videos v on v.id = n.video_id
         where n.user_id = ${self} and n.video_id = ${video}
      ) n)`,
    playbackRate: sql<number | null>`public.profile_playback_rate()`,
    /** The course this video is a lesson of: "Lesson 3 of 10", Next lesson (ADR 0048). */
    course: sql<LessonCourseRow | null>`(select row_to_json(x) from (${lessonCourseQuery(video)}) x)`,
    /** A spark's lesson ("Watch the full lesson", ADR 0050)… */
    lessonLink: sql<LessonLinkRow | null>`(select row_to_json(x) from (${lessonLinksQuery(sql`array[${video}]`)}) x limit 1)`,
    /** …or a lesson's sparks ("Sparks from this lesson"), in the lesson's order. */
    lessonSparks: sql<LessonSparkRow[]>`(select coalesce(json_agg(x), '[]') from (${lessonSparksQuery(video)}) x)`,
  } satisfies Record<string, Json<unknown>>
}

/** The page's one statement, each part a column (bench/video-statement.ts EXPLAINs it, and each part alone). */
export function videoPageStatement(videoId: string, me: string): RawBuilder<PartValues> {
  const columns = Object.entries(parts(videoId, me)).map(([name, part]) => sql`${part} as ${sql.ref(name)}`)
  return sql<PartValues>`${preparedAs('video-page')}select ${sql.join(columns)}`
}

/** The parts alone, by name (for the bench). */
export function videoPageParts(videoId: string, me: string): Record<string, RawBuilder<unknown>> {
  return parts(videoId, me)
}

type Parts = ReturnType<typeof parts>
type PartValues = { [K in keyof Parts]: Parts[K] extends RawBuilder<infer T> ? T : never }

interface PageVideoExtras {
  chapters: unknown
  can_delete: boolean
  can_edit_captions: boolean
  has_liked: boolean
  following: boolean
}

type CommentRow = Parameters<typeof toCommentView>[0]
type TrackRow = Parameters<typeof trackView>[0]

export async function getLearnerVideoPage(claims: JwtClaims, id: string, options: { siteUrl: string }) {
  if (!isUuid(id)) throw notFound()
  const statement = videoPageStatement(id, claims.sub)
  const row = await asCaller(claims, async (tx) => (await statement.execute(tx)).rows[0]!)
  const v = row.video
  if (!v) throw notFound()

  const video = toVideoDetail(v, { hasLiked: v.has_liked, isOwner: v.creator_id === claims.sub, canDelete: v.can_delete })
  const tracks = row.tracks.map(trackView)
  const transcriptTrack = row.transcript && tracks.find((track) => track.id === row.transcript!.track_id)
  const liked = new Set(row.quotes.filter((quote) => quote.has_liked).map((quote) => quote.id))
  const comments = row.comments.slice(0, FIRST_COMMENTS).map(toCommentView)
  const quotes = row.quotes.slice(0, FIRST_QUOTES).map((quote) => toQuoteView(quote, liked))
  const questions = row.questions.map(toQuestion)
  const page = videoPageView(
    video,
    {
      comments,
      quotes,
      captions: {
        tracks: tracks.map(pageCaptionTrack),
        transcript:
          transcriptTrack && row.transcript
            ? { trackId: transcriptTrack.id, label: transcriptTrack.label, cues: row.transcript.cues.map(toCue) }
            : null,
        canEdit: v.can_edit_captions === true,
        captionsOn: tracks.length > 0 && row.captionsOn === true,
      },
      following: video.isOwner ? null : v.following,
      chapters: storedChapters(v.chapters),
    },
    options,
  )
  return {
    ...page,
    /** The quotes the caller can see (the stored counter past the list's limit). */
    quoteTotal: row.visibleQuotes < LIST_LIMIT ? row.visibleQuotes : video.quotes,
    /** Comments and quotes past the first page: deferred (null when there are none). */
    more: {
      comments: row.comments.length > FIRST_COMMENTS ? moreComments(claims, id) : null,
      quotes: row.quotes.length > FIRST_QUOTES ? moreQuotes(claims, id) : null,
    },
    resumeAt: resumeMoment(row.position ? toWatchPosition(row.position) : null),
    checkpoints: {
      questions,
      results: questions.length > 0 ? toCheckpointResults(row.results) : {},
      durationSeconds: video.durationSeconds,
    },
    notes: row.notes.map(toNote),
    playbackRate: parsePlaybackRate(row.playbackRate) ?? 1,
    // A spark is nobody's lesson: only a long-form video lists sparks.
    sparkLessons: row.lessonLink
      ? { lesson: toLessonLink(row.lessonLink), sparks: [] }
      : { lesson: null, sparks: row.lessonSparks.map((spark) => toLessonSpark(spark, browserSupabaseUrl())) },
    course: toLessonCourse(row.course),
  }
}

function toCue([startMs, endMs, text]: [number, number, string]): CueView {
  return { startMs, endMs, text }
}

/** The comments after the first page (a read of its own, after the page's). */
async function moreComments(claims: JwtClaims, id: string) {
  const rest = await listComments(claims, id, LIST_LIMIT - FIRST_COMMENTS, FIRST_COMMENTS)
  return rest.map((comment) => pageComment(comment))
}

async function moreQuotes(claims: JwtClaims, id: string) {
  const rest = await listQuotes(claims, id, LIST_LIMIT - FIRST_QUOTES, FIRST_QUOTES)
  return rest.map((quote) => pageQuote(quote))
}
