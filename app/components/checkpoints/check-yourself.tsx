import { Form, Link } from '@remix-run/react'
import { formatMoment, type CheckpointQuestion, type CheckpointResult } from '~/lib/schemas/checkpoints'
import { CheckpointOptions } from './checkpoint-options'

/**
 * "Check yourself" (ADR 0047): the video's checkpoints after the player as one plain
 * form, so they can be answered without JavaScript. It posts to /video/:id/check,
 * which records the answers and comes back here; each question the learner answered
 * then says whether their last answer was right, with the explanation (their own
 * results: nobody else's, and no key before answering).
 */
export function CheckYourself({
  videoId,
  questions,
  results,
}: {
  videoId: string
  questions: CheckpointQuestion[]
  results: Record<string, CheckpointResult>
}) {
  if (questions.length === 0) return null
  const answered = questions.filter((question) => results[question.id])
  const right = answered.filter((question) => results[question.id]?.lastCorrect).length
  return (
    <section id="check-yourself" aria-labelledby="check-yourself-heading" className="card mt-6 p-5 sm:p-6">
      <h2 id="check-yourself-heading" className="text-heading">
        Check yourself
      </h2>
      <p className="text-body mt-1">
        {answered.length > 0
          ? `Your answers: ${right} of ${questions.length} right.`
          : `${questions.length === 1 ? 'One question' : `${questions.length} questions`} about this video.`}
      </p>
      <Form method="post" action={`/video/${videoId}/check`} className="mt-4 flex flex-col gap-5">
        {questions.map((question, number) => {
          const result = results[question.id]
          return (
            <fieldset key={question.id} data-checkpoint={question.id}>
              <legend className="text-base font-semibold text-ink-900">
                <span className="mr-2 text-sm font-medium tabular-nums text-ink-600">
                  {number + 1}. ({formatMoment(question.atSeconds)})
                </span>
                {question.question}
              </legend>
              <p className="text-caption mt-1">{question.multiple ? 'Choose all that apply.' : 'Choose one.'}</p>
              <CheckpointOptions question={question} className="mt-2" chosen={result?.lastChosen ?? []} />
              {result ? (
                <div
                  className={`mt-2 rounded-xl px-3 py-2 text-sm ring-1 ring-inset ${result.lastCorrect ? 'bg-emerald-50 text-emerald-900 ring-emerald-200' : 'bg-red-50 text-red-900 ring-red-200'}`}
                  data-testid="checkpoint-result"
                >
                  <p className="font-semibold">{result.lastCorrect ? 'Right' : 'Not right'}</p>
                  {result.explanation ? <p className="mt-1">{result.explanation}</p> : null}
                </div>
              ) : null}
            </fieldset>
          )
        })}
        <div>
          <button type="submit" className="btn-primary">
            Check answers
          </button>
        </div>
      </Form>
    </section>
  )
}

/** Under the video, for its creator (or an admin): the way to its checkpoints. */
export function ManageCheckpointsLink({ videoId, count }: { videoId: string; count: number }) {
  return (
    <p className="mt-3 text-sm">
      <Link to={`/video/${videoId}/checkpoints`} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
        {count > 0 ? 'Manage checkpoints' : 'Add checkpoints'}
      </Link>
    </p>
  )
}
