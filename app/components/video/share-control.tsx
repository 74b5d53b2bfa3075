import { useId } from 'react'
import { ShareIcon } from '~/components/icons'
import { FieldError } from '~/components/ui/field'
import { useHydrated } from '~/components/use-hydrated'
import { shareLink } from '~/lib/schemas/video'
import type { ShareResult } from '~/lib/video-page'
import { ManualCopyLink, useCopyLink } from './use-copy-link'

export function ShareControl({ videoId, share }: { videoId: string; share: ShareResult }) {
  const hydrated = useHydrated()
  const { notice, copy } = useCopyLink('video')
  const inputId = useId()

  if (!hydrated) {
    // Without JS: the link in a read-only field, to select and copy.
    return (
      <details className="group relative">
        <summary className="btn-secondary cursor-pointer list-none [&::-webkit-details-marker]:hidden">
          <ShareIcon />
          Share
        </summary>
        <div className="card absolute left-0 z-20 mt-2 w-[min(22rem,calc(100vw-2rem))] p-4">
          {share.ok ? (
            <>
              <label htmlFor={inputId} className="text-sm font-medium text-ink-800">
                Link to this video
              </label>
              <input
                id={inputId}
                readOnly
                value={share.url}
                className="mt-1.5 block w-full rounded-xl border-0 bg-ink-50 px-3 py-2 text-sm text-ink-900 ring-1 ring-inset ring-ink-300"
              />
              <p className="text-caption mt-1.5">Select the link and copy it.</p>
            </>
          ) : (
            <FieldError>{share.message}</FieldError>
          )}
        </div>
      </details>
    )
  }

  return (
    <div className="relative">
      <button type="button" className="btn-secondary" onClick={() => copy(shareLink(window.location.origin, videoId))}>
        <ShareIcon />
        Share
      </button>
      <div aria-live="polite" className="absolute left-0 top-full z-20 mt-1">
        {notice ? (
          <div
            role={notice.tone === 'error' ? 'alert' : 'status'}
            className={`w-max max-w-[min(22rem,calc(100vw-2rem))] rounded-lg px-3 py-1.5 text-sm font-medium shadow-card ring-1 ${notice.tone === 'success' ? 'bg-emerald-50 text-emerald-900 ring-emerald-200' : 'bg-white text-ink-900 ring-ink-200'}`}
          >
            {notice.text}
            {notice.url ? <ManualCopyLink url={notice.url} label="Link to this video" /> : null}
          </div>
        ) : null}
      </div>
    </div>
  )
}
