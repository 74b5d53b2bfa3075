import type { CheckpointQuestion } from '~/lib/schemas/checkpoints'

/**
 * A checkpoint's options, one radio (or checkbox, when several are right) per option: the player's
 * dialog and the Check yourself page's. `chosen`: the options ticked at first (the last answer).
 */
export function CheckpointOptions({
  question,
  className,
  chosen,
  required,
}: {
  question: Pick<CheckpointQuestion, 'id' | 'options' | 'multiple'>
  className: string
  chosen?: readonly number[]
  required?: boolean
}) {
  return (
    <div className={`${className} flex flex-col gap-2`}>
      {question.options.map((option, index) => (
        <label
          key={index}
          className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl px-3 py-2 ring-1 ring-inset ring-ink-200 has-[:checked]:bg-brand-50 has-[:checked]:ring-brand-300"
        >
          <input
            type={question.multiple ? 'checkbox' : 'radio'}
            name={`answer-${question.id}`}
            value={String(index)}
            defaultChecked={chosen?.includes(index)}
            required={required}
            className="h-4 w-4 border-ink-300 text-brand-600 focus:ring-brand-600"
          />
          <span className="text-sm text-ink-800">{option}</span>
        </label>
      ))}
    </div>
  )
}
