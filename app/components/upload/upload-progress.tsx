import { Spinner } from '~/components/ui/spinner'
import { formatBytes } from '~/lib/format'

export type UploadPhase = 'idle' | 'uploading' | 'paused' | 'saving' | 'success' | 'error'

/**
 * The upload's progress (docs/product.md, States: uploading with percent progress):
 * a real progress bar fed by the bytes Storage has acknowledged, with
 * Pause, Resume and Cancel while the file is on its way, then the server's
 * checks.
 */
export function UploadProgress({
  phase,
  sent,
  total,
  resumed,
  onPause,
  onResume,
  onCancel,
}: {
  phase: UploadPhase
  sent: number
  total: number
  resumed: boolean
  onPause(): void
  onResume(): void
  onCancel(): void
}) {
  const percent = total > 0 ? Math.min(100, Math.floor((sent / total) * 100)) : 0
  const transferring = phase === 'uploading' || phase === 'paused'
  const label =
    phase === 'saving'
      ? 'Checking your video and publishing it…'
      : phase === 'paused'
        ? 'Paused — your upload will continue from here'
        : resumed
          ? 'Continuing your earlier upload'
          : 'Uploading your video'
  return (
    <div className="rounded-xl bg-brand-50/60 p-4 ring-1 ring-inset ring-brand-100" data-testid="upload-progress">
      <div className="flex items-center justify-between gap-3 text-sm">
        <p className="flex items-center gap-2 font-medium text-ink-900" aria-live="polite">
          {phase === 'saving' ? <Spinner label="Working" className="h-4 w-4 text-brand-600" /> : null}
          {label}
        </p>
        <p className="shrink-0 tabular-nums text-ink-600">{phase === 'saving' ? '100%' : `${percent}%`}</p>
      </div>
      <div
        role="progressbar"
        aria-label="Upload progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={phase === 'saving' ? 100 : percent}
        aria-valuetext={`${phase === 'saving' ? 100 : percent}% (${formatBytes(sent)} of ${formatBytes(total)})`}
        className="mt-3 h-2.5 overflow-hidden rounded-full bg-white ring-1 ring-inset ring-brand-100"
      >
        <div
          className={`h-full rounded-full transition-[width] duration-300 ease-out ${phase === 'paused' ? 'bg-ink-400' : 'bg-brand-600'} ${phase === 'saving' ? 'animate-pulse' : ''}`}
          style={{ width: `${phase === 'saving' ? 100 : percent}%` }}
        />
      </div>
      <div className="mt-3 flex flex-wrap items-center justify-between gap-3">
        <p className="text-caption tabular-nums">
          {formatBytes(sent)} of {formatBytes(total)}
        </p>
        {transferring ? (
          <div className="flex gap-2">
            {phase === 'paused' ? (
              <button type="button" className="btn-secondary min-h-10 px-4" onClick={onResume}>
                Resume
              </button>
            ) : (
              <button type="button" className="btn-secondary min-h-10 px-4" onClick={onPause}>
                Pause
              </button>
            )}
            <button type="button" className="btn-ghost min-h-10 px-4" onClick={onCancel}>
              Cancel
            </button>
          </div>
        ) : null}
      </div>
    </div>
  )
}
