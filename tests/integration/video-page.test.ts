import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getVideoPageCaptions, saveCaptionTrack } from '../../app/server/captions.server'
import { getChapters, saveChapters } from '../../app/server/chapters.server'
import { addCheckpoint, answerCheckpoint, getVideoCheckpoints } from '../../app/server/checkpoints.server'
import { addComment, listComments } from '../../app/server/comments.server'
import type { JwtClaims } from '../../app/server/db.server'
import { isFollowing, setFollow } from '../../app/server/follows.server'
import { likeQuote, likeVideo } from '../../app/server/likes.server'
import { addNote, listVideoNotes } from '../../app/server/notes.server'
import { getPlaybackRate, setPlaybackRate } from '../../app/server/playback.server'
import { getWatchPosition, saveWatchPosition } from '../../app/server/progress.server'
import { listQuotes } from '../../app/server/quotes.server'
import { FIRST_COMMENTS, FIRST_QUOTES, getLearnerVideoPage } from '../../app/server/video-page.server'
import { getLessonCourse } from '../../app/server/course-progress.server'
import { videoLessonPanel } from '../../app/server/spark-lessons.server'
import { getVideo, videoPageView } from '../../app/server/videos.server'
import { resumeMoment } from '../../app/lib/schemas/progress'
import { openVideoFixture, type Person, type VideoFixture } from './support/video-fixture'

/**
 * The video page's one statement (ADR 0054) against the separate domain reads it replaced, for
 * the learner, another learner, the creator and an admin, on a video with more comments and
 * quotes than the first page, two caption tracks, chapters, checkpoints with answers, notes, a
 * saved position, a playback speed, a follow and likes: the same page, field for field, and
 * the rest of the comments and quotes as deferred data. Hidden and unknown videos are 404.
 */

const SITE = { siteUrl: 'http://lumen.test' }
const VTT = (text: string) => `WEBVTT\n\n00:00.500 --> 00:02.000\n${text}\n\n00:02.000 --> 00:04.000\nSecond cue\n`

/** The page as the separate reads made it before the one statement. */
async function separately(claims: JwtClaims, id: string) {
  const video = (await getVideo(claims, id))!
  const [comments, quotes, captions, following, { chapters }, position, checkpoints, notes, playbackRate] = await Promise.all([
    listComments(claims, id),
    listQuotes(claims, id),
    getVideoPageCaptions(claims, id),
    video.isOwner ? null : isFollowing(claims, video.creator.id),
    getChapters(claims, id),
    getWatchPosition(claims, id),
    getVideoCheckpoints(claims, id),
    listVideoNotes(claims, id),
    getPlaybackRate(claims),
  ])
  const page = videoPageView(video, { comments, quotes, captions, following, chapters }, SITE)
  return { page, resumeAt: resumeMoment(position), checkpoints, notes, playbackRate, visibleQuotes: quotes.length }
}

describe('the video page in one statement', () => {
  let fixture: VideoFixture
  let creator: Person
  let learner: Person
  let other: Person
  let admin: Person
  let video: string
  let privateVideo: string
  let spark: string | undefined

  beforeAll(async () => {
    fixture = await openVideoFixture('postgres')
    ;[creator, learner, other, admin] = await Promise.all([
      fixture.makeUser('creator'),
      fixture.makeUser('user'),
      fixture.makeUser('user'),
      fixture.makeUser('admin'),
    ])
    video = await fixture.makeVideo(creator)
    privateVideo = await fixture.makeVideo(creator, { isPublic: false })
    const pool = fixture.running.database.pool
    await pool.query('update public.videos set duration_seconds = 300 where id = $1', [video])
    for (let n = 0; n < FIRST_COMMENTS + 5; n++) await addComment(n % 2 ? learner.claims : other.claims, video, `Comment ${n}`)
    await pool.query(
      `insert into public.quotes (video_id, user_id, type, body, created_at)
       select $1, case when g % 2 = 0 then $2::uuid else $3::uuid end, 'text', 'Quote ' || g, now() - make_interval(secs => g)
         from generate_series(1, $4::int) g`,
      [video, learner.id, other.id, FIRST_QUOTES + 3],
    )
    const { rows } = await pool.query<{ id: string }>(
      'select id from public.quotes where video_id = $1 order by created_at desc, id desc',
      [video],
    )
    await likeQuote(learner.claims, rows[1]!.id, true)
    await likeQuote(learner.claims, rows.at(-1)!.id, true)
    await likeVideo(learner.claims, video, true)
    await setFollow(learner.claims, creator.id, true)
    for (const [language, label] of <Array<[string, string]>>[
      ['fr', 'Français'],
      ['en', 'English'],
    ])
      await saveCaptionTrack(creator.claims, {
        videoId: video,
        language,
        label,
        file: { bytes: new TextEncoder().encode(VTT(label)), name: 'captions.vtt' },
      })
    await saveChapters(creator.claims, video, [
      { start: 0, title: 'Start' },
      { start: 60, title: 'Middle' },
      { start: 120, title: 'End' },
    ])
    const question = await addCheckpoint(creator.claims, video, {
      at: 20,
      question: 'Why?',
      options: ['Because', 'Why not'],
      correct: [0],
    })
    await answerCheckpoint(learner.claims, question.id, [1])
    await addNote(learner.claims, video, { at: 90, text: 'Later' })
    await addNote(learner.claims, video, { at: 12, text: 'Earlier' })
    await saveWatchPosition(learner.claims, video, { position: 42 })
    await setPlaybackRate(learner.claims, 1.5)
    // The video is lesson 1 of 2 of a published course, and two sparks lead to it (one from 0:45).
    const second = await fixture.makeVideo(creator)
    const { rows: course } = await pool.query<{ id: string }>(
      `insert into public.courses (creator_id, title, is_published) values ($1, 'Optics', true) returning id`,
      [creator.id],
    )
    for (const [position, lesson] of [video, second].entries())
      await pool.query('insert into public.course_lessons (course_id, video_id, position) values ($1, $2, $3)', [
        course[0]!.id,
        lesson,
        position + 1,
      ])
    for (const at of [45, null]) {
      const id = await fixture.makeVideo(creator)
      await pool.query(`update public.videos set type = 'spark' where id = $1`, [id])
      await pool.query('update public.videos set lesson_id = $2, lesson_at_seconds = $3 where id = $1', [id, video, at])
      spark ??= id
    }
  })

  afterAll(async () => {
    await fixture?.close()
  })

  it('is the page the separate reads made, for the learner, another learner, the creator and an admin', async () => {
    // Twice round: the statement is prepared on its connection (ADR 0063), and past its fifth run Postgres may plan it
    // once for every caller; each must still see their own page.
    for (const person of [learner, other, creator, admin, learner, other, creator, admin]) {
      const page = await getLearnerVideoPage(person.claims, video, SITE)
      expect(page.course).toMatchObject({ number: 1, total: 2, next: { href: expect.any(String) } })
      expect(page.sparkLessons.sparks).toHaveLength(2)
      const expected = await separately(person.claims, video)
      const { more, quoteTotal, resumeAt, checkpoints, notes, playbackRate, comments, quotes, course, sparkLessons, ...rest } =
        page
      const { comments: allComments, quotes: allQuotes, ...expectedRest } = expected.page
      expect(rest).toEqual(expectedRest)
      // The course and the sparks, parts of the statement, are what their own functions give.
      expect(course).toEqual(await getLessonCourse(person.claims, video))
      expect(sparkLessons).toEqual(await videoLessonPanel(person.claims, video))
      expect(comments).toEqual(allComments.slice(0, FIRST_COMMENTS))
      expect(quotes).toEqual(allQuotes.slice(0, FIRST_QUOTES))
      expect(await more.comments).toEqual(allComments.slice(FIRST_COMMENTS))
      expect(await more.quotes).toEqual(allQuotes.slice(FIRST_QUOTES))
      expect(quoteTotal).toBe(expected.visibleQuotes)
      expect({ resumeAt, checkpoints, notes, playbackRate }).toEqual({
        resumeAt: expected.resumeAt,
        checkpoints: expected.checkpoints,
        notes: expected.notes,
        playbackRate: expected.playbackRate,
      })
    }
  })

  it("a spark's page leads to its lesson from its moment, as the spark panel's own read does", async () => {
    for (const person of [learner, creator]) {
      const page = await getLearnerVideoPage(person.claims, spark!, SITE)
      expect(page.sparkLessons).toEqual({ lesson: expect.objectContaining({ id: video, at: 45 }), sparks: [] })
      expect(page.sparkLessons).toEqual(await videoLessonPanel(person.claims, spark!))
      expect(page.course).toBeNull()
    }
  })

  it('carries what each caller sees of their own: likes, follow, position, answers, notes, speed', async () => {
    const mine = await getLearnerVideoPage(learner.claims, video, SITE)
    expect(mine.video.hasLiked).toBe(true)
    expect(mine.follow).toEqual({ isFollowing: true })
    expect(mine.resumeAt).toBe(42)
    expect(mine.playbackRate).toBe(1.5)
    expect(mine.notes.map((note) => note.body)).toEqual(['Earlier', 'Later'])
    expect(Object.values(mine.checkpoints.results)).toHaveLength(1)
    expect(mine.captions.transcript?.label).toBe('English')
    expect(mine.captions.tracks.map((track) => track.label)).toEqual(['English', 'Français'])
    expect(mine.chapters).toHaveLength(3)
    expect(mine.comments).toHaveLength(FIRST_COMMENTS)
    expect(await mine.more.comments).toHaveLength(5)
    expect([...mine.quotes, ...((await mine.more.quotes) ?? [])].filter((quote) => quote.hasLiked)).toHaveLength(2)

    const theirs = await getLearnerVideoPage(other.claims, video, SITE)
    expect(theirs.video.hasLiked).toBe(false)
    expect(theirs.follow).toEqual({ isFollowing: false })
    expect(theirs.resumeAt).toBeNull()
    expect(theirs.notes).toEqual([])
    expect(theirs.checkpoints.results).toEqual({})
    expect(theirs.captions.canEdit).toBe(false)

    const owner = await getLearnerVideoPage(creator.claims, video, SITE)
    expect(owner.follow).toBeNull()
    expect(owner.video.canDelete).toBe(true)
    expect(owner.captions.canEdit).toBe(true)
    expect(owner.comments.every((comment) => comment.canDelete)).toBe(true)
  })

  it('has nothing deferred when everything fits the first page', async () => {
    const small = await fixture.makeVideo(creator)
    await addComment(learner.claims, small, 'Only one')
    const page = await getLearnerVideoPage(learner.claims, small, SITE)
    expect(page.comments.map((comment) => comment.body)).toEqual(['Only one'])
    expect(page.more).toEqual({ comments: null, quotes: null })
    expect(page.quoteTotal).toBe(0)
    expect(page.captions).toEqual({ tracks: [], transcript: null, canEdit: false, captionsOn: false })
  })

  it('is 404 for a hidden video, an unknown id and a malformed one', async () => {
    for (const id of [privateVideo, randomUUID(), 'not-a-uuid']) {
      await expect(getLearnerVideoPage(learner.claims, id, SITE)).rejects.toMatchObject({ code: 'not_found' })
    }
    expect((await getLearnerVideoPage(creator.claims, privateVideo, SITE)).video.id).toBe(privateVideo)
    expect((await getLearnerVideoPage(admin.claims, privateVideo, SITE)).video.id).toBe(privateVideo)
  })
})
