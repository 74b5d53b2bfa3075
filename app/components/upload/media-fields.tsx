import { useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { OutlineIcon } from '~/components/icons'
import { FieldError, fileInputClass, useLiveError } from '~/components/ui/field'
import { formatBytes, formatDuration } from '~/lib/format'
import { THUMBNAIL_ACCEPT, VIDEO_ACCEPT } from '~/lib/schemas/upload'

interface Preview {
  name: string
  size: number
  url: string
}

/** One object URL per chosen file, released when the choice changes or the field goes away. */
function usePreview() {
  const [preview, setPreview] = useState<Preview | null>(null)
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview.url)), [preview])
  const choose = (file: File | undefined) =>
    setPreview(file ? { name: file.name, size: file.size, url: URL.createObjectURL(file) } : null)
  return [preview, choose] as const
}

/**
 * The video file. With JavaScript the chosen file shows its first frame,
 * length and size (read by a `<video>` element, nothing is sent yet); the
 * length goes up so the page can warn about sparks of a minute or more.
 */
export function VideoField({
  error,
  warning,
  disabled,
  chooseAgain,
  required = true,
  onDuration,
}: {
  error?: string | null
  warning?: ReactNode
  disabled?: boolean
  chooseAgain?: boolean
  /** Default true; a quote's response video is needed only for a Video Response. */
  required?: boolean
  onDuration(seconds: number | null): void
}) {
  const [preview, choose] = usePreview()
  const [duration, setDuration] = useState<number | null>(null)
  const videoRef = useRef<HTMLVideoElement>(null)
  return (
    <FilePicker
      name="video"
      label="Video file"
      accept={VIDEO_ACCEPT}
      hint={
        <>
          MP4, MOV, WebM or MKV, up to 100MB.
          {chooseAgain ? <span className="block font-medium text-ink-700">Please choose your video again.</span> : null}
        </>
      }
      error={error}
      disabled={disabled}
      required={required}
      icon={
        <path d="M4 6.5A2.5 2.5 0 0 1 6.5 4h7A2.5 2.5 0 0 1 16 6.5v11a2.5 2.5 0 0 1-2.5 2.5h-7A2.5 2.5 0 0 1 4 17.5v-11ZM16 10l4-2.5v9L16 14" />
      }
      onChange={(file) => {
        choose(file)
        setDuration(null)
        onDuration(null)
      }}
    >
      {preview ? (
        <figure className="overflow-hidden rounded-xl bg-ink-900 ring-1 ring-ink-200" data-testid="video-preview">
          <video
            ref={videoRef}
            src={preview.url}
            preload="metadata"
            muted
            playsInline
            aria-label={`Preview of ${preview.name}`}
            className="aspect-video w-full object-contain"
            onLoadedMetadata={(event) => {
              const seconds = Number.isFinite(event.currentTarget.duration) ? event.currentTarget.duration : null
              setDuration(seconds)
              onDuration(seconds)
              // Seek a hair in so the browser paints the first frame instead of black.
              event.currentTarget.currentTime = Math.min(0.1, (seconds ?? 0) / 2)
            }}
            onError={() => {
              setDuration(null)
              onDuration(null)
            }}
          />
          <figcaption className="flex items-center justify-between gap-3 bg-white px-3 py-2 text-sm">
            <span className="min-w-0 truncate font-medium text-ink-900">{preview.name}</span>
            <span className="shrink-0 text-ink-500">
              {duration !== null ? `${formatDuration(duration)} · ` : ''}
              {formatBytes(preview.size)}
            </span>
          </figcaption>
        </figure>
      ) : null}
      {warning}
    </FilePicker>
  )
}

/** The thumbnail image, with a preview as it will look on a card. */
export function ThumbnailField({
  error,
  disabled,
  chooseAgain,
}: {
  error?: string | null
  disabled?: boolean
  chooseAgain?: boolean
}) {
  const [preview, choose] = usePreview()
  return (
    <FilePicker
      name="thumbnail"
      label="Thumbnail"
      accept={THUMBNAIL_ACCEPT}
      hint={
        <>
          JPEG, PNG, WebP or GIF, up to 5MB. A 16:9 picture looks best.
          {chooseAgain ? <span className="block font-medium text-ink-700">Please choose your thumbnail again.</span> : null}
        </>
      }
      error={error}
      disabled={disabled}
      icon={
        <path d="M4 6.5A2.5 2.5 0 0 1 6.5 4h11A2.5 2.5 0 0 1 20 6.5v11a2.5 2.5 0 0 1-2.5 2.5h-11A2.5 2.5 0 0 1 4 17.5v-11ZM4 16l4.5-4.5 3.5 3.5 2.5-2.5L20 18M15 9h.01" />
      }
      onChange={choose}
    >
      {preview ? (
        <figure className="overflow-hidden rounded-xl ring-1 ring-ink-200" data-testid="thumbnail-preview">
          <img src={preview.url} alt="Preview of your thumbnail" className="aspect-video w-full bg-ink-100 object-cover" />
          <figcaption className="flex items-center justify-between gap-3 bg-white px-3 py-2 text-sm">
            <span className="min-w-0 truncate font-medium text-ink-900">{preview.name}</span>
            <span className="shrink-0 text-ink-500">{formatBytes(preview.size)}</span>
          </figcaption>
        </figure>
      ) : null}
    </FilePicker>
  )
}

/** A labelled native file input (it works without JavaScript), its hint, error and preview. */
function FilePicker({
  name,
  label,
  accept,
  hint,
  error: sentError,
  disabled,
  required = true,
  icon,
  onChange,
  children,
}: {
  name: string
  label: string
  accept: string
  hint: ReactNode
  error?: string | null
  disabled?: boolean
  required?: boolean
  icon: ReactNode
  onChange(file: File | undefined): void
  children?: ReactNode
}) {
  const { error, ref, markStale } = useLiveError(sentError)
  const id = useId()
  const hintId = `${id}-hint`
  const errorId = error ? `${id}-error` : undefined
  return (
    <div ref={ref} onInput={markStale} onChange={markStale} className="flex flex-col gap-2">
      <label htmlFor={id} className="flex items-center gap-2 text-sm font-medium text-ink-800">
        <OutlineIcon className="h-5 w-5 text-brand-600" strokeWidth="1.75">
          {icon}
        </OutlineIcon>
        {label}
      </label>
      <input
        id={id}
        name={name}
        type="file"
        accept={accept}
        required={required}
        disabled={disabled}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ')}
        aria-invalid={error ? true : undefined}
        onChange={(event) => onChange(event.currentTarget.files?.[0])}
        className={fileInputClass}
      />
      <p id={hintId} className="text-caption">
        {hint}
      </p>
      {error ? <FieldError id={errorId}>{error}</FieldError> : null}
      {children}
    </div>
  )
}

/**
 * Optional captions with the upload (ADR 0019): a WebVTT or SRT file and its language.
 * The server reads the file by its content (the captions page's parser and messages);
 * a refused file refuses the upload, so no video is made without the captions it came with.
 */
export function CaptionsUploadField({
  error,
  disabled,
  language,
}: {
  error?: string | null
  disabled?: boolean
  language?: string
}) {
  const id = useId()
  return (
    <FilePicker
      name="captions"
      label="Captions (optional)"
      required={false}
      accept=".vtt,.srt,text/vtt,application/x-subrip"
      hint="A WebVTT (.vtt) or SubRip (.srt) file under 1 MB. You can add more languages later."
      error={error}
      disabled={disabled}
      icon={
        <path d="M4 6.5A2.5 2.5 0 0 1 6.5 4h11A2.5 2.5 0 0 1 20 6.5v11a2.5 2.5 0 0 1-2.5 2.5h-11A2.5 2.5 0 0 1 4 17.5v-11ZM7 12h4M13 12h4M7 15.5h7" />
      }
      onChange={() => undefined}
    >
      <div className="flex items-center gap-3">
        <label htmlFor={id} className="text-sm font-medium text-ink-800">
          Caption language
        </label>
        <input
          id={id}
          name="captionsLanguage"
          defaultValue={language || 'en'}
          maxLength={35}
          disabled={disabled}
          autoComplete="off"
          className="block min-h-11 w-28 rounded-lg border-0 px-3 text-sm text-ink-900 ring-1 ring-inset ring-ink-200 focus:ring-2 focus:ring-inset focus:ring-brand-600"
        />
      </div>
    </FilePicker>
  )
}
