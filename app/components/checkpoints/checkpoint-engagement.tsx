import { Link } from '@remix-run/react'
import { formatMoment, type VideoCheckpointStats } from '~/lib/schemas/checkpoints'
import { CheckpointStatRow, CheckpointTable } from './checkpoint-stats'

/**
 * The dashboard's Engagement tab, "Checkpoints" (ADR 0049): per question of each of the
 * creator's videos and sparks, the share of learners right on their first try, the wrong
 * option chosen most often, and how many stopped watching there — the insights page's
 * aggregates, across videos. One table, a row group per video whose header links to the
 * video's insights page. Aggregates only: no learner's answers.
 */
export function CheckpointEngagement({ videos }: { videos: VideoCheckpointStats[] }) {
  return (
    <section
      aria-labelledby="engagement-checkpoints-heading"
      className="card mt-4 p-5 sm:p-6"
      data-testid="engagement-checkpoints"
    >
      <h2 id="engagement-checkpoints-heading" className="text-heading">
        Checkpoints
      </h2>
      {videos.length === 0 ? (
        <p className="text-body mt-2">
          None of your videos has checkpoints yet. Add questions from a video&rsquo;s page (Add checkpoints) to see here how
          learners answer them.
        </p>
      ) : (
        <CheckpointTable caption="Answers to the checkpoints of your videos, as totals">
          {videos.map((video) => (
            <tbody key={video.videoId} className="divide-y divide-ink-100" data-video={video.videoId}>
              <tr>
                <th scope="colgroup" colSpan={5} className="pb-1 pt-4 text-base font-semibold text-ink-900">
                  <Link to={`/dashboard/videos/${video.videoId}`} className="hover:underline">
                    {video.title}
                  </Link>
                  {video.type === 'spark' ? <span className="text-caption ml-2 font-normal">Spark</span> : null}
                </th>
              </tr>
              {video.stats.map((stat) => (
                <CheckpointStatRow
                  key={stat.checkpointId}
                  stat={stat}
                  moment={video.type === 'spark' ? 'End' : formatMoment(stat.atSeconds)}
                />
              ))}
            </tbody>
          ))}
        </CheckpointTable>
      )}
    </section>
  )
}
