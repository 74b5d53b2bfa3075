import { Link } from '@remix-run/react'
import type { ReactNode } from 'react'
import { formatShare } from '~/components/dashboard/stat-cards'
import { formatCount } from '~/lib/format'
import { formatMoment, type CheckpointStat } from '~/lib/schemas/checkpoints'

/**
 * The creator's view of a video's checkpoints (ADR 0047): per question, how many
 * learners answered, the share right on their first try, the wrong option chosen most
 * often, and how many stopped watching there. Aggregates only: no learner's answers.
 */
export function CheckpointStatsTable({ videoId, stats }: { videoId: string; stats: CheckpointStat[] }) {
  return (
    <section aria-labelledby="checkpoint-stats-heading" className="card mt-4 p-5 sm:p-6" data-testid="checkpoint-stats">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="checkpoint-stats-heading" className="text-heading">
          Checkpoints
        </h2>
        <Link to={`/video/${videoId}/checkpoints`} className="text-sm font-semibold text-brand-700 hover:underline">
          {stats.length > 0 ? 'Manage checkpoints' : 'Add checkpoints'}
        </Link>
      </div>
      {stats.length === 0 ? (
        <p className="text-body mt-2">
          No checkpoints yet: add questions that pause the video and check what learners understood.
        </p>
      ) : (
        <CheckpointTable caption="Answers to each checkpoint, as totals">
          <tbody className="divide-y divide-ink-100">
            {stats.map((stat) => (
              <CheckpointStatRow key={stat.checkpointId} stat={stat} moment={formatMoment(stat.atSeconds)} />
            ))}
          </tbody>
        </CheckpointTable>
      )}
    </section>
  )
}

/** The table of answers to checkpoints, its column heads above `children` (a row group, or one per video). */
export function CheckpointTable({ caption, children }: { caption: string; children: ReactNode }) {
  return (
    <div className="mt-3 overflow-x-auto">
      <table className="w-full min-w-[36rem] text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="text-caption">
          <tr>
            <th scope="col" className="py-2 pr-3 font-medium">
              Question
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              Learners
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              Right first try
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              Most chosen wrong answer
            </th>
            <th scope="col" className="py-2 font-medium">
              Stopped here
            </th>
          </tr>
        </thead>
        {children}
      </table>
    </div>
  )
}

/** One question's totals; `moment` is where it stands (a spark's is at its end). */
export function CheckpointStatRow({ stat, moment }: { stat: CheckpointStat; moment: string }) {
  return (
    <tr data-checkpoint={stat.checkpointId}>
      <th scope="row" className="py-2 pr-3 font-normal text-ink-900">
        <span className="mr-2 tabular-nums text-ink-600">{moment}</span>
        {stat.question}
      </th>
      <td className="py-2 pr-3 tabular-nums">{stat.learners}</td>
      <td className="py-2 pr-3 tabular-nums" data-testid="first-try-rate">
        {stat.firstTryRate === null ? '—' : formatShare(stat.firstTryRate)}
      </td>
      <td className="py-2 pr-3">
        {stat.topWrongOption ? `${stat.topWrongOption.text} (${formatCount(stat.topWrongOption.count, 'time')})` : '—'}
      </td>
      <td className="py-2 tabular-nums">{stat.stoppedHere}</td>
    </tr>
  )
}
