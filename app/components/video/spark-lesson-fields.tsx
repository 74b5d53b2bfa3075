import { SelectField, TextField } from '~/components/ui/field'

/**
 * A spark's lesson (ADR 0050), in the upload form's spark branch and on the edit page:
 * which of the creator's long-form videos it leads to, and from which moment. Plain
 * fields (`lessonId`, `lessonAt`), so it works without JavaScript; the server checks both.
 */
export function SparkLessonFields({
  choices,
  lessonId,
  lessonAt,
  errors,
}: {
  choices: { value: string; label: string }[]
  lessonId: string
  lessonAt: string
  errors: { lessonId?: string; lessonAt?: string }
}) {
  return (
    <fieldset className="flex flex-col gap-4 rounded-xl p-4 ring-1 ring-inset ring-ink-200" data-spark-lesson-fields>
      <legend className="px-1 text-sm font-semibold text-ink-900">Lead to a lesson (optional)</legend>
      <p className="text-caption">
        For a spark: its viewers get a “Watch the full lesson” link to one of your long-form videos, from the moment you choose.
      </p>
      {choices.length ? (
        <>
          <SelectField
            label="Lesson"
            name="lessonId"
            defaultValue={lessonId}
            options={choices}
            placeholder="No lesson"
            error={errors.lessonId}
          />
          <TextField
            label="From (optional)"
            name="lessonAt"
            defaultValue={lessonAt}
            inputMode="numeric"
            autoComplete="off"
            placeholder="3:12"
            hint="A moment in the lesson, such as 3:12 or 1:02:03; empty for its start."
            error={errors.lessonAt}
          />
        </>
      ) : (
        <p className="text-sm text-ink-700">Upload a long-form video first: a spark can lead to one of your lessons.</p>
      )}
    </fieldset>
  )
}
