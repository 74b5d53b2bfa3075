import { resumeMoment } from '~/lib/schemas/progress'
import { getVideoCheckpoints } from './checkpoints.server'
import { getLessonCourse } from './course-progress.server'
import type { JwtClaims } from './db.server'
import { listVideoNotes } from './notes.server'
import { getPlaybackRate } from './playback.server'
import { getWatchPosition } from './progress.server'
import { getVideoPage } from './videos.server'

/**
 * Everything the video page shows a signed-in learner, read side by side: the video with its comments,
 * quotes and captions, where the learner stopped ("Resume from …", ADR 0034), the checkpoints with the
 * learner's own results (ADR 0047), their private notes (ADR 0044) and their playback speed (ADR 0043).
 */
export async function getLearnerVideoPage(claims: JwtClaims, id: string, options: { siteUrl: string }) {
  const [page, position, checkpoints, notes, playbackRate, course] = await Promise.all([
    getVideoPage(claims, id, options),
    getWatchPosition(claims, id),
    getVideoCheckpoints(claims, id),
    listVideoNotes(claims, id),
    getPlaybackRate(claims),
    getLessonCourse(claims, id), // the course this video is a lesson of (ADR 0048): "Lesson 3 of 10", Next lesson
  ])
  return { ...page, resumeAt: resumeMoment(position), checkpoints, notes, playbackRate, course }
}
