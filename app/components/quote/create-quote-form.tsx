import { Link, useFetcher, useNavigate } from '@remix-run/react'
import { useRef, useState, type FormEvent, type RefObject } from 'react'
import { Alert } from '~/components/ui/alert'
import { checkWithSchema, FieldChecks, TextAreaField, TextField } from '~/components/ui/field'
import { RadioCards } from '~/components/ui/radio-cards'
import { Spinner } from '~/components/ui/spinner'
import { VideoField } from '~/components/upload/media-fields'
import { submitWithUpload, useUploadAnswer } from '~/components/upload/submit-with-upload'
import { UploadProgress } from '~/components/upload/upload-progress'
import { fileOf, uploadFailureMessage, useResumableUpload } from '~/components/upload/use-resumable-upload'
import { useHydrated } from '~/components/use-hydrated'
import { formatDuration } from '~/lib/format'
import {
  checkResponseFile,
  createFailedMessage,
  QUOTE_MESSAGES,
  QUOTE_TEXT_MAX,
  QUOTE_TYPES,
  quoteErrors,
  quoteFormValues,
  quoteSchema,
  type QuoteActionData,
  type QuoteErrors,
  type QuoteType,
  type QuoteValues,
} from '~/lib/schemas/quote'

export interface CreateQuoteFormProps {
  videoId: string
  userId: string
  supabase: { url: string; anonKey: string }
  /** The original's player, to read the moment from (null when it cannot play). */
  playerRef: RefObject<HTMLVideoElement | null>
  /** The answer to a submission without JavaScript (the action's data). */
  result?: QuoteActionData
}

const ORDER = ['type', 'text', 'video', 'moment'] as const

/**
 * The create-quote form (docs/product.md: Create quote). Without JavaScript a plain
 * multipart form: the radio, the text, the response video and the moment
 * post together. With it the form is checked here first (the shared
 * schema), a video response goes to Storage resumably (tus, the upload
 * page's path) with a progress bar, then the form posts with the stored
 * object's name; the server checks everything again either way.
 */
/** A field is checked again as it changes: the shared schema, and the response video's type and size. */
const checkQuoteField = checkWithSchema(quoteSchema, quoteFormValues, {
  video: (form) => checkResponseFile(fileOf(form, 'video')),
})

export function CreateQuoteForm({ videoId, userId, supabase, playerRef, result }: CreateQuoteFormProps) {
  const hydrated = useHydrated()
  const navigate = useNavigate()
  const fetcher = useFetcher<QuoteActionData>({ key: 'create-quote' })
  const formRef = useRef<HTMLFormElement>(null)
  const upload = useResumableUpload({ userId, supabase, folder: 'quotes' })
  const busy = upload.busy

  const refused = result && !result.ok ? result : undefined
  const values: QuoteValues = refused?.values ?? { videoId, type: 'text', text: '', moment: '' }
  const [type, setType] = useState<QuoteType>(values.type === 'video' ? 'video' : 'text')
  const [errors, setErrors] = useState<QuoteErrors>(refusedErrors(refused))
  // A video response needs no text: 'Please enter…' goes when the type changes to it.
  function chooseType(next: QuoteType) {
    setType(next)
    if (next === 'video' && errors.text === QUOTE_MESSAGES.textRequired) setErrors((before) => ({ ...before, text: undefined }))
  }
  const [moment, setMoment] = useState(values.moment)

  useUploadAnswer({
    fetcher,
    upload,
    formRef,
    order: ORDER,
    errorsOf: refusedErrors,
    setErrors,
    onSaved: (data) => navigate(`/video/${data.videoId}#quote-${data.quoteId}`),
  })

  async function submit(event: FormEvent<HTMLFormElement>) {
    if (!hydrated) return
    event.preventDefault()
    if (busy) return
    const form = new FormData(event.currentTarget)
    const video = fileOf(form, 'video')
    const found: QuoteErrors = {}
    const parsed = quoteSchema.safeParse(quoteFormValues(form))
    if (!parsed.success) Object.assign(found, quoteErrors(parsed.error))
    if (type === 'video') {
      const problem = checkResponseFile(video)
      if (problem) found.video = problem
    }
    form.set('js', '1')
    await submitWithUpload({
      form,
      formElement: formRef.current,
      errors: found,
      order: ORDER,
      setErrors,
      file: type === 'video' ? video : null,
      fileField: 'video',
      upload,
      fetcher,
      transferFailed: (error) => createFailedMessage(uploadFailureMessage(error)),
    })
  }

  function takeCurrentMoment() {
    const player = playerRef.current
    if (player && Number.isFinite(player.currentTime)) setMoment(String(Math.floor(player.currentTime)))
  }

  return (
    <FieldChecks check={checkQuoteField}>
      <form
        ref={formRef}
        method="post"
        encType="multipart/form-data"
        noValidate={hydrated}
        onSubmit={submit}
        aria-busy={busy || undefined}
        className="card flex flex-col gap-5 p-5 sm:p-6"
        aria-labelledby="quote-form-title"
      >
        <h2 id="quote-form-title" className="text-heading">
          Your quote
        </h2>
        <input type="hidden" name="videoId" value={videoId} />
        {errors.form ? <Alert tone="error">{errors.form}</Alert> : null}
        {errors.videoId ? <Alert tone="error">{errors.videoId}</Alert> : null}

        <RadioCards
          legend="Quote type"
          name="type"
          options={QUOTE_TYPES}
          checked={type}
          onChoose={chooseType}
          error={errors.type}
          errorId="quote-type-error"
          disabled={busy}
        />

        <TextAreaField
          label="Quote text"
          name="text"
          rows={4}
          maxLength={QUOTE_TEXT_MAX}
          defaultValue={values.text}
          placeholder="What does this video make you think?"
          hint={
            hydrated && type === 'video'
              ? 'Optional for a video response.'
              : 'Needed for a text comment; optional with a video response.'
          }
          error={errors.text}
          disabled={busy}
        />

        {!hydrated || type === 'video' ? (
          <div className="flex flex-col gap-2">
            {!hydrated ? <p className="text-caption">For a Video Response, choose your video:</p> : null}
            <VideoField
              error={errors.video}
              disabled={busy}
              required={false}
              chooseAgain={Boolean(refused?.hadFile)}
              onDuration={() => undefined}
            />
          </div>
        ) : null}

        <div className="flex flex-col gap-2">
          <TextField
            label="Moment in the original (seconds, optional)"
            name="moment"
            inputMode="decimal"
            value={moment}
            onChange={(event) => setMoment(event.currentTarget.value)}
            hint={
              moment && Number.isFinite(Number(moment))
                ? `View Original will open the video at ${formatDuration(Number(moment))}.`
                : 'Leave empty to quote the whole video.'
            }
            error={errors.moment}
            disabled={busy}
          />
          {hydrated ? (
            <button type="button" className="btn-secondary self-start" onClick={takeCurrentMoment} disabled={busy}>
              Use the player&apos;s current time
            </button>
          ) : null}
        </div>

        {hydrated && upload.showsProgress && type === 'video' ? <UploadProgress {...upload.progressProps} /> : null}

        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Link to={`/video/${videoId}`} className="btn-secondary">
            Cancel
          </Link>
          <button type="submit" className="btn-primary" aria-disabled={busy || undefined} disabled={busy}>
            {busy ? <Spinner label="Submitting" className="h-4 w-4" /> : null}
            Submit Quote
          </button>
        </div>
      </form>
    </FieldChecks>
  )
}

/** Field errors, or the form's error as 'Failed to create quote: …' when no field is at fault. */
function refusedErrors(refused: Extract<QuoteActionData, { ok: false }> | undefined): QuoteErrors {
  if (!refused) return {}
  if (refused.fieldErrors && Object.keys(refused.fieldErrors).length) return refused.fieldErrors
  return { form: refused.formError.startsWith('Failed to create quote') ? refused.formError : createFailedMessage(refused.formError) }
}
