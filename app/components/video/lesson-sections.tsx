import { Suspense, type ComponentProps } from 'react'
import { VideoCaptions } from '~/components/captions/video-captions'
import { CheckYourself, ManageCheckpointsLink } from '~/components/checkpoints/check-yourself'
import { VideoNotes } from '~/components/notes/video-notes'
import { ChapterList } from './chapter-list'
import { SparkLessons } from './spark-lessons'

interface LessonSectionsProps {
  videoId: string
  /** The video plays here (ready, or an external one): its Check yourself questions are offered. */
  playable: boolean
  /** The owner's link to the checkpoint editor (not for an external video). */
  canManageCheckpoints: boolean
  startAt: number | null
  moment: number | null
  sparkLessons: ComponentProps<typeof SparkLessons>
  chapters: ComponentProps<typeof ChapterList>['chapters']
  captions: ComponentProps<typeof VideoCaptions>['captions']
  checkpoints: Pick<ComponentProps<typeof CheckYourself>, 'questions' | 'results'>
  notes: ComponentProps<typeof VideoNotes>['notes']
}

/**
 * The video page's sections under its details: Watch the full lesson (or the lesson's sparks),
 * chapters, captions and transcript, Check yourself, notes. The server renders them with the page;
 * each sits in a Suspense boundary of its own, so React hydrates it after the player and the details,
 * in tasks of its own, instead of in one long task with the whole page (ADR 0057).
 */
export function LessonSections({
  videoId,
  playable,
  canManageCheckpoints,
  startAt,
  moment,
  sparkLessons,
  chapters,
  captions,
  checkpoints,
  notes,
}: LessonSectionsProps) {
  return (
    <>
      <Suspense>
        <SparkLessons lesson={sparkLessons.lesson} sparks={sparkLessons.sparks} />
        <ChapterList videoId={videoId} chapters={chapters} startAt={startAt} />
      </Suspense>
      <Suspense>
        <VideoCaptions videoId={videoId} captions={captions} chapters={chapters} />
      </Suspense>
      <Suspense>
        {canManageCheckpoints ? <ManageCheckpointsLink videoId={videoId} count={checkpoints.questions.length} /> : null}
        {playable ? <CheckYourself videoId={videoId} questions={checkpoints.questions} results={checkpoints.results} /> : null}
      </Suspense>
      <Suspense>
        <VideoNotes videoId={videoId} notes={notes} moment={moment === null ? null : Math.floor(moment)} />
      </Suspense>
    </>
  )
}
