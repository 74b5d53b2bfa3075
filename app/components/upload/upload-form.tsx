import { useFetcher, useNavigate } from '@remix-run/react'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { BoltSmallIcon, CaretDownIcon } from '~/components/icons'
import { Alert } from '~/components/ui/alert'
import {
  checkWithSchema,
  FieldChecks,
  FieldError,
  SelectField,
  TextAreaField,
  TextField,
  useLiveError,
} from '~/components/ui/field'
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
  uploadFormValues,
  uploadSchema,
  VISIBILITIES,
  type UploadActionData,
  type UploadErrors,
  type UploadValues,
} from '~/lib/schemas/upload'
import { CaptionsUploadField, ThumbnailField, VideoField } from './media-fields'
import { startResumableUpload, UploadCancelled, UploadError, type ResumableUpload } from './resumable-upload'
import { UploadProgress, type UploadPhase } from './upload-progress'

export interface UploadFormProps {
  categories: { value: string; label: string }[]
  userId: string
  supabase: { url: string; anonKey: string }
  /** The answer to a submission without JavaScript (the action's data). */
  result?: UploadActionData
}

const EMPTY: UploadValues = { title: '', description: '', type: 'video', category: '', visibility: 'public', thoughts: '' }
const ORDER = ['video', 'thumbnail', 'captions', 'title', 'description', 'type', 'category', 'visibility', 'thoughts'] as const

class UploadTimedOut extends Error {}

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
export function UploadForm({ categories, userId, supabase, result }: UploadFormProps) {
  const hydrated = useHydrated()
  const navigate = useNavigate()
  const fetcher = useFetcher<UploadActionData>({ key: 'upload' })
  const formRef = useRef<HTMLFormElement>(null)
  const uploadRef = useRef<ResumableUpload | null>(null)
  const handled = useRef<UploadActionData | undefined>(undefined)

  const refused = result && !result.ok ? result : undefined
  const values = refused?.values ?? EMPTY
  const [errors, setErrors] = useState<UploadErrors>(refused?.errors ?? {})
  const [phase, setPhase] = useState<UploadPhase>('idle')
  const [progress, setProgress] = useState({ sent: 0, total: 0 })
  const [resumed, setResumed] = useState(false)
  const [destination, setDestination] = useState(values.type === 'spark' ? 'spark' : 'video')
  const [duration, setDuration] = useState<number | null>(null)
  const [createdId, setCreatedId] = useState<string | null>(null)
  const [successNote, setSuccessNote] = useState<string | null>(null)
  const busy = phase === 'uploading' || phase === 'paused' || phase === 'saving' || phase === 'success'
  const typeError = useLiveError<HTMLFieldSetElement>(errors.type)

  // The server's answer to the form posted after the video reached Storage.
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data || handled.current === fetcher.data) return
    handled.current = fetcher.data
    const data = fetcher.data
    if (data.ok) {
      setPhase('success')
      if (data.videoId) setCreatedId(data.videoId)
      else setSuccessNote(UPLOAD_MESSAGES.cannotRedirect)
      return
    }
    setPhase('error')
    setErrors(data.errors)
    focusFirstError(formRef.current, data.errors)
  }, [fetcher.state, fetcher.data])

  // docs/product.md, Limits and timers: the product goes to the new video 1.5 s after the success message.
  const navigateRef = useRef(navigate)
  navigateRef.current = navigate
  useEffect(() => {
    if (!createdId) return
    const timer = window.setTimeout(() => navigateRef.current(`/video/${createdId}`), UPLOAD_REDIRECT_MS)
    return () => window.clearTimeout(timer)
  }, [createdId])

  // Leaving the page pauses the transfer; it continues on the next visit with the same file.
  useEffect(() => () => uploadRef.current?.pause(), [])

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
    if (Object.keys(found).length) {
      setErrors(found)
      focusFirstError(formRef.current, found)
      return
    }

    setErrors({})
    setResumed(false)
    setProgress({ sent: 0, total: video!.size })
    setPhase('uploading')
    let timer: number | undefined
    try {
      const upload = await startResumableUpload({
        file: video!,
        userId,
        supabaseUrl: supabase.url,
        anonKey: supabase.anonKey,
        onProgress: (sent, total) => setProgress({ sent, total }),
      })
      uploadRef.current = upload
      setResumed(upload.resumed)
      // docs/product.md, Limits and timers: an upload may take up to 30 minutes.
      const deadline = new Promise<never>((_, reject) => {
        timer = window.setTimeout(() => reject(new UploadTimedOut()), UPLOAD_TIMEOUT_MS)
      })
      const objectName = await Promise.race([upload.done, deadline])
      uploadRef.current = null
      form.delete('video')
      form.set('sourcePath', objectName)
      setPhase('saving')
      fetcher.submit(form, { method: 'post', encType: 'multipart/form-data' })
    } catch (error) {
      if (error instanceof UploadCancelled) return
      if (error instanceof UploadTimedOut) uploadRef.current?.pause()
      uploadRef.current = null
      setPhase('error')
      setErrors({
        form:
          error instanceof UploadTimedOut
            ? UPLOAD_MESSAGES.timeout
            : error instanceof UploadError
              ? error.message
              : UPLOAD_MESSAGES.unexpected,
      })
    } finally {
      window.clearTimeout(timer)
    }
  }

  async function cancel() {
    const upload = uploadRef.current
    uploadRef.current = null
    setPhase('idle')
    setProgress({ sent: 0, total: 0 })
    await upload?.cancel()
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
          <VideoField error={errors.video} disabled={busy} chooseAgain={Boolean(refused?.hadFiles)} onDuration={setDuration} />
          <ThumbnailField error={errors.thumbnail} disabled={busy} chooseAgain={Boolean(refused?.hadFiles)} />
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
            error={errors.description}
            disabled={busy}
            required
          />
          <fieldset
            ref={typeError.ref}
            onChange={typeError.markStale}
            className="flex flex-col gap-2"
            disabled={busy}
            aria-describedby={typeError.error ? 'upload-type-error' : undefined}
          >
            <legend className="mb-1.5 text-sm font-medium text-ink-800">Content destination</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              {DESTINATIONS.map((option) => (
                <label
                  key={option.value}
                  className="flex min-h-11 cursor-pointer items-start gap-3 rounded-xl px-3.5 py-3 ring-1 ring-inset ring-ink-200 has-[:checked]:bg-brand-50 has-[:checked]:ring-2 has-[:checked]:ring-inset has-[:checked]:ring-brand-500"
                >
                  <input
                    type="radio"
                    name="type"
                    value={option.value}
                    checked={destination === option.value}
                    onChange={() => setDestination(option.value)}
                    className="mt-0.5 h-4 w-4 border-ink-300 text-brand-600 focus:ring-brand-600"
                  />
                  <span className="text-sm font-medium text-ink-900">{option.label}</span>
                </label>
              ))}
            </div>
            <p
              className={`flex items-center gap-2 rounded-lg px-3 py-2 text-sm ${destination === 'spark' ? 'bg-spark-300/25 text-ink-900' : 'bg-ink-100 text-ink-600'}`}
              data-testid="spark-notice"
            >
              <BoltSmallIcon />
              {UPLOAD_MESSAGES.sparkNotice}
            </p>
            {sparkWarning}
            {typeError.error ? <FieldError id="upload-type-error">{typeError.error}</FieldError> : null}
          </fieldset>
          <SelectField
            label="Category"
            name="category"
            defaultValue={categories.some((option) => option.value === values.category) ? values.category : categories[0]?.value}
            options={categories}
            error={errors.category}
            disabled={busy}
            required
          />
          <fieldset className="flex flex-col gap-2" disabled={busy}>
            <legend className="mb-1.5 text-sm font-medium text-ink-800">Visibility</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              {VISIBILITIES.map((option) => (
                <label
                  key={option.value}
                  className="flex min-h-11 cursor-pointer items-start gap-3 rounded-xl px-3.5 py-3 ring-1 ring-inset ring-ink-200 has-[:checked]:bg-brand-50 has-[:checked]:ring-2 has-[:checked]:ring-inset has-[:checked]:ring-brand-500"
                >
                  <input
                    type="radio"
                    name="visibility"
                    value={option.value}
                    defaultChecked={(values.visibility || 'public') === option.value}
                    className="mt-0.5 h-4 w-4 border-ink-300 text-brand-600 focus:ring-brand-600"
                  />
                  <span>
                    <span className="block text-sm font-medium text-ink-900">{option.label}</span>
                    <span className="block text-sm text-ink-600">{option.hint}</span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
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

          {phase === 'success' ? <Alert tone="success">{successNote ?? UPLOAD_MESSAGES.success}</Alert> : null}
          {hydrated && phase !== 'idle' && phase !== 'error' && phase !== 'success' ? (
            <UploadProgress
              phase={phase}
              sent={progress.sent}
              total={progress.total}
              resumed={resumed}
              onPause={() => {
                uploadRef.current?.pause()
                setPhase('paused')
              }}
              onResume={() => {
                uploadRef.current?.resume()
                setPhase('uploading')
              }}
              onCancel={() => void cancel()}
            />
          ) : null}
          <button type="submit" className="btn-primary h-12 w-full text-base" aria-disabled={busy || undefined} disabled={busy}>
            {busy ? <Spinner label="Uploading" className="h-4 w-4" /> : null}
            {phase === 'success' ? 'Uploaded' : busy ? 'Uploading…' : 'Upload Video'}
          </button>
          {!hydrated ? (
            <p className="text-caption text-center">Large videos can take a few minutes to send. Keep this page open.</p>
          ) : null}
        </section>
      </form>
    </FieldChecks>
  )
}

function fileOf(form: FormData, name: string): File | null {
  const value = form.get(name)
  return value instanceof File && value.size > 0 ? value : null
}

function focusFirstError(form: HTMLFormElement | null, errors: UploadErrors) {
  const first = ORDER.find((name) => errors[name])
  if (!first || !form) return
  requestAnimationFrame(() => form.querySelector<HTMLElement>(`[name="${first}"]`)?.focus())
}
