import { useId } from 'react'
import { FieldError, fileInputClass, SelectField, TextAreaField, TextField, Checkbox } from '~/components/ui/field'
import type { CourseErrors } from '~/lib/schemas/courses'
import { COURSE_DESCRIPTION_MAX, COURSE_TITLE_MAX } from '~/lib/schemas/courses'

export interface CourseFieldValues {
  title: string
  description: string
  category: string
}

/**
 * A course's own fields (the new-course and edit forms): title, description, category and
 * a cover image (checked by its content on the server, like a video's thumbnail). The form
 * around them is multipart.
 */
export function CourseFields({
  values,
  errors,
  categories,
  coverUrl,
}: {
  values: CourseFieldValues
  errors: CourseErrors
  categories: { value: string; label: string }[]
  /** The current cover (the edit form): shown, with "Remove the cover". */
  coverUrl?: string | null
}) {
  const coverId = useId()
  return (
    <>
      <TextField label="Title" name="title" defaultValue={values.title} maxLength={COURSE_TITLE_MAX} error={errors.title} required />
      <TextAreaField
        label="Description"
        name="description"
        hint="What learners will be able to do after it, and for whom it is."
        rows={5}
        maxLength={COURSE_DESCRIPTION_MAX}
        defaultValue={values.description}
        error={errors.description}
      />
      <SelectField label="Category" name="category" defaultValue={values.category} options={categories} error={errors.category} required />
      <div className="flex flex-col gap-1.5">
        <label htmlFor={coverId} className="text-sm font-medium text-ink-800">
          Cover image <span className="font-normal text-ink-500">(optional)</span>
        </label>
        {coverUrl ? (
          <img src={coverUrl} alt="The current cover" className="aspect-video w-full max-w-xs rounded-xl object-cover ring-1 ring-ink-200" />
        ) : null}
        <input
          id={coverId}
          name="cover"
          type="file"
          accept="image/jpeg,image/png,image/webp,image/gif"
          aria-describedby={errors.cover ? `${coverId}-hint ${coverId}-error` : `${coverId}-hint`}
          aria-invalid={errors.cover ? true : undefined}
          className={fileInputClass}
        />
        <p id={`${coverId}-hint`} className="text-caption">
          JPEG, PNG, WebP or GIF, up to 5MB, 16:9 looks best. Without one, the first lesson’s thumbnail is shown.
        </p>
        {errors.cover ? <FieldError id={`${coverId}-error`}>{errors.cover}</FieldError> : null}
        {coverUrl ? <Checkbox name="removeCover" value="1" label="Remove the cover" /> : null}
      </div>
    </>
  )
}
