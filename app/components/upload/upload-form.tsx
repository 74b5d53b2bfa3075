import { useFetcher, useNavigate } from '@remix-run/react'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { BoltSmallIcon, CaretDownIcon } from '~/components/icons'
import { Alert } from '~/components/ui/alert'
import { checkWithSchema, FieldChecks, SelectField, TextAreaField, TextField } from '~/components/ui/field'
import { RadioCards } from '~/components/ui/radio-cards'
import { Spinner } from '~/components/ui/spinner'
import { useHydrated } from '~/components/use-hydrated'
import { formatDuration } from '~/lib/format'
import {
  checkThumbnailFile,
  checkVideoFile,
  DESTINATIONS,
  sparkTooLong,
  sparkTooLongMessage,
  UPLOAD_MESSAGES,
  UPLOAD_REDIRECT_MS,
  UPLOAD_TIMEOUT_MS,
  uploadErrors,
  uploadErrorsOf,
  uploadFormValues,
  uploadSchema,
  VISIBILITIES,
  type UploadActionData,
  type UploadErrors,
  type UploadValues,
} from '~/lib/schemas/upload'
import { sparkLessonErrors, sparkLessonSchema } from '~/lib/schemas/spark-lesson'
import { SparkLessonFields } from '~/components/video/spark-lesson-fields'
import { CaptionsUploadField, ThumbnailField, VideoField } from './media-fields'
import { submitWithUpload, useUploadAnswer } from './submit-with-upload'
import { UploadProgress } from './upload-progress'
import { fileOf, uploadFailureMessage, useResumableUpload } from './use-resumable-upload'

export interface UploadFormProps {
  categories: { value: string; label: string }[]
  userId: string
  supabase: { url: string; anonKey: string }
  /** The creator's long-form videos a spark may lead to (ADR 0050). */
  lessonChoices?: { value: string; label: string }[]
  /** The answer to a submission without JavaScript (the action's data). */
  result?: UploadActionData
}

const EMPTY: UploadValues = { title: '', description: '', type: 'video', category: '', visibility: 'public', thoughts: '' }
const ORDER = [
  'video',
  'thumbnail',
  'captions',
  'title',
  'description',
  'type',
  'lessonId',
  'lessonAt',
  'category',
  'visibility',
  'thoughts',
] as const

/** A field is checked again as it changes: the shared schema, and the files' type and size. */
const checkUploadField = checkWithSchema(uploadSchema, uploadFormValues, {
  video: (form) => checkVideoFile(fileOf(form, 'video')),
  thumbnail: (form) => checkThumbnailFile(fileOf(form, 'thumbnail')),
})

/**
 * The upload form. Without JavaScript it is a plain multipart form that
 * posts the files themselves. With it, the same form is checked here first
 * (the shared schema), the video goes to Storage resumably with a progress
 * bar, and then the form is posted without the video but with the stored
 * object's name; the server checks everything again.
 */
export function UploadForm({ categories, userId, supabase, lessonChoices = [], result }: UploadFormProps) {
  const hydrated = useHydrated()
  const navigate = useNavigate()
  const fetcher = useFetcher<UploadActionData>({ key: 'upload' })
  const formRef = useRef<HTMLFormElement>(null)
  // docs/product.md, Limits and timers: an upload may take up to 30 minutes.
  const upload = useResumableUpload({ userId, supabase, timeoutMs: UPLOAD_TIMEOUT_MS })
  const busy = upload.busy

  const refused = result && !result.ok ? result : undefined
  const values = refused?.values ?? EMPTY
  const [errors, setErrors] = useState<UploadErrors>(refused ? uploadErrorsOf(refused) : {})
  const [destination, setDestination] = useState(values.type === 'spark' ? 'spark' : 'video')
  const [duration, setDuration] = useState<number | null>(null)
  const [createdId, setCreatedId] = useState<string | null>(null)
  const [successNote, setSuccessNote] = useState<string | null>(null)

  // The server's answer to the form posted after the video reached Storage.
  useUploadAnswer({
    fetcher,
    upload,
    formRef,
    order: ORDER,
    errorsOf: uploadErrorsOf,
    setErrors,
    onSaved: (data) => {
      if (data.videoId) setCreatedId(data.videoId)
      else setSuccessNote(UPLOAD_MESSAGES.cannotRedirect)
    },
  })

  // docs/product.md, Limits and timers: the product goes to the new video 1.5 s after the success message.
  const navigateRef = useRef(navigate)
  navigateRef.current = navigate
  useEffect(() => {
    if (!createdId) return
    const timer = window.setTimeout(() => navigateRef.current(`/video/${createdId}`), UPLOAD_REDIRECT_MS)
    return () => window.clearTimeout(timer)
  }, [createdId])

  async function submit(event: FormEvent<HTMLFormElement>) {
    if (!hydrated) return
    event.preventDefault()
    if (busy) return
    const form = new FormData(event.currentTarget)
    const video = fileOf(form, 'video')
    const thumbnail = fileOf(form, 'thumbnail')

    const found: UploadErrors = {}
    const parsed = uploadSchema.safeParse(uploadFormValues(form))
    if (!parsed.success) Object.assign(found, uploadErrors(parsed.error))
    const videoProblem = checkVideoFile(video)
    if (videoProblem) found.video = videoProblem
    else if (destination === 'spark' && sparkTooLong(duration)) found.video = sparkTooLongMessage(duration!)
    const thumbnailProblem = checkThumbnailFile(thumbnail)
    if (thumbnailProblem) found.thumbnail = thumbnailProblem
    if (destination === 'spark') {
      const lesson = sparkLessonSchema.safeParse({ lessonId: form.get('lessonId'), lessonAt: form.get('lessonAt') })
      if (!lesson.success) Object.assign(found, sparkLessonErrors(lesson.error))
    }
    await submitWithUpload({
      form,
      formElement: formRef.current,
      errors: found,
      order: ORDER,
      setErrors,
      file: video,
      fileField: 'video',
      upload,
      fetcher,
      transferFailed: uploadFailureMessage,
    })
  }

  const sparkWarning =
    hydrated && destination === 'spark' && sparkTooLong(duration) ? (
      // Next to the destination choice, before anything is sent (the server refuses it anyway),
      // and still there after a refused submit, with its way out.
      <div role="status" className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-inset ring-amber-200">
        <p className="font-semibold">{UPLOAD_MESSAGES.sparkNotice.replace(/\.$/, '')}</p>
        <p className="mt-0.5">This video is {formatDuration(duration!)} long.</p>
        <button type="button" className="btn-secondary mt-2 min-h-10 px-3" onClick={() => setDestination('video')}>
          Publish to the feed instead
        </button>
      </div>
    ) : null

  return (
    <FieldChecks check={checkUploadField}>
      <form
        ref={formRef}
        method="post"
        encType="multipart/form-data"
        noValidate={hydrated}
        onSubmit={submit}
        aria-busy={busy || undefined}
        className="grid gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] lg:items-start"
      >
        <section aria-labelledby="upload-media-title" className="card flex flex-col gap-6 p-5 sm:p-6">
          <h2 id="upload-media-title" className="text-heading">
            Your video
          </h2>
          <VideoField error={errors.video} disabled={busy} chooseAgain={Boolean(refused?.hadFile)} onDuration={setDuration} />
          <ThumbnailField error={errors.thumbnail} disabled={busy} chooseAgain={Boolean(refused?.hadFile)} />
          <CaptionsUploadField error={errors.captions} disabled={busy} />
        </section>

        <section aria-labelledby="upload-details-title" className="card flex flex-col gap-5 p-5 sm:p-6">
          <h2 id="upload-details-title" className="text-heading">
            Details
          </h2>
          {errors.form ? <Alert tone="error">{errors.form}</Alert> : null}
          <TextField
            label="Title"
            name="title"
            defaultValue={values.title}
            maxLength={200}
            placeholder="What will people learn?"
            error={errors.title}
            disabled={busy}
            required
          />
          <TextAreaField
            label="Description"
            name="description"
            rows={4}
            maxLength={5000}
            defaultValue={values.description}
            placeholder="A few lines on what the video covers and who it is for."
            hint="Lines such as “0:00 Intro” become chapters: at least 3, the first at 0:00, each at least 10 seconds long."
            error={errors.description}
            disabled={busy}
            required
          />
          <RadioCards
            legend="Content destination"
            name="type"
            options={DESTINATIONS}
            checked={destination}
            onChoose={setDestination}
            error={errors.type}
            errorId="upload-type-error"
            disabled={busy}
          >
            <p
              className={`flex items-center gap-2 rounded-lg px-3 py-2 text-sm ${destination === 'spark' ? 'bg-spark-300/25 text-ink-900' : 'bg-ink-100 text-ink-600'}`}
              data-testid="spark-notice"
            >
              <BoltSmallIcon />
              {UPLOAD_MESSAGES.sparkNotice}
            </p>
            {sparkWarning}
          </RadioCards>
          {/* A spark's lesson: with JavaScript only for a spark; without it always (the server refuses it for a video). */}
          {!hydrated || destination === 'spark' ? (
            <SparkLessonFields
              choices={lessonChoices}
              lessonId={values.lessonId ?? ''}
              lessonAt={values.lessonAt ?? ''}
              errors={{ lessonId: errors.lessonId, lessonAt: errors.lessonAt }}
            />
          ) : null}
          <SelectField
            label="Category"
            name="category"
            defaultValue={categories.some((option) => option.value === values.category) ? values.category : categories[0]?.value}
            options={categories}
            error={errors.category}
            disabled={busy}
            required
          />
          <RadioCards
            legend="Visibility"
            name="visibility"
            options={VISIBILITIES}
            defaultChecked={values.visibility || 'public'}
            errorId="upload-visibility-error"
            disabled={busy}
          />
          <details className="group rounded-xl ring-1 ring-inset ring-ink-200 open:bg-ink-50/60" open={Boolean(values.thoughts)}>
            <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between gap-3 px-3.5 py-2 text-sm font-medium text-ink-900">
              <span>
                Add a quote <span className="font-normal text-ink-500">(optional)</span>
              </span>
              <CaretDownIcon className="h-4 w-4 text-ink-500 transition-transform group-open:rotate-180" />
            </summary>
            <div className="px-3.5 pb-3.5">
              <TextAreaField
                label="Your thoughts"
                name="thoughts"
                rows={3}
                maxLength={2000}
                defaultValue={values.thoughts}
                hint="Shown as your first quote on the video."
                error={errors.thoughts}
                disabled={busy}
              />
            </div>
          </details>

          {upload.phase === 'success' ? <Alert tone="success">{successNote ?? UPLOAD_MESSAGES.success}</Alert> : null}
          {hydrated && upload.showsProgress ? <UploadProgress {...upload.progressProps} /> : null}
          <button type="submit" className="btn-primary h-12 w-full text-base" aria-disabled={busy || undefined} disabled={busy}>
            {busy ? <Spinner label="Uploading" className="h-4 w-4" /> : null}
            {upload.phase === 'success' ? 'Uploaded' : busy ? 'Uploading…' : 'Upload Video'}
          </button>
          {!hydrated ? (
            <p className="text-caption text-center">Large videos can take a few minutes to send. Keep this page open.</p>
          ) : null}
        </section>
      </form>
    </FieldChecks>
  )
}
