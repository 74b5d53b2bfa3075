import { Spinner } from '~/components/ui/spinner'
import { useRefreshWhile } from '~/components/use-refresh-while'

const STATUS_LABELS: Record<string, string> = {
  uploading: 'Uploading',
  processing: 'Processing',
  ready: 'Ready',
  failed: 'Processing failed',
}

/** Shown instead of the player until the worker is done; re-checks every few seconds with JS. */
export function ProcessingPanel({
  status,
  statusMessage,
  posterUrl,
}: {
  status: string
  statusMessage: string | null
  posterUrl: string | null
}) {
  const failed = status === 'failed'
  useRefreshWhile(!failed, 4000)

  return (
    <div
      className="relative flex aspect-video w-full flex-col items-center justify-center gap-2 overflow-hidden rounded-card bg-ink-900 p-6 text-center text-white"
      data-testid="processing-panel"
    >
      {posterUrl ? <img src={posterUrl} alt="" className="absolute inset-0 h-full w-full object-cover opacity-20" /> : null}
      <div className="relative flex flex-col items-center gap-2" role="status">
        {failed ? (
          <>
            <p className="text-heading">This video could not be processed.</p>
            {statusMessage ? <p className="max-w-md text-sm text-ink-200">{statusMessage}</p> : null}
          </>
        ) : (
          <>
            <Spinner label="Preparing video" className="h-8 w-8" />
            <p className="text-heading">We’re preparing this video…</p>
            <p className="text-sm text-ink-300">
              Status: {STATUS_LABELS[status] ?? status}. It will start here as soon as it is ready.
            </p>
          </>
        )}
      </div>
      {failed ? null : (
        // eslint-disable-next-line jsx-a11y/anchor-is-valid -- an empty href reloads this page: the re-check that works without JavaScript
        <a href="" className="relative mt-2 text-sm font-semibold text-white underline underline-offset-4">
          Check again
        </a>
      )}
    </div>
  )
}
