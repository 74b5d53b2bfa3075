import { useEffect, useId, useState } from 'react'
import { ShareIcon } from '~/components/icons'
import { FieldError } from '~/components/ui/field'
import { useHydrated } from '~/components/use-hydrated'
import { shareLink, VIDEO_MESSAGES } from '~/lib/schemas/video'
import type { ShareResult } from '~/lib/video-page'

export function ShareControl({ videoId, share }: { videoId: string; share: ShareResult }) {
  const hydrated = useHydrated()
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string; url?: string } | null>(null)
  const inputId = useId()
  useEffect(() => {
    if (notice?.tone !== 'success') return
    const timer = setTimeout(() => setNotice(null), 3000)
    return () => clearTimeout(timer)
  }, [notice])

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

  const copy = async () => {
    const link = shareLink(window.location.origin, videoId)
    if (!link.ok) {
      setNotice({ tone: 'error', text: link.message })
      return
    }
    try {
      await navigator.clipboard.writeText(link.url)
      setNotice({ tone: 'success', text: VIDEO_MESSAGES.linkCopied })
    } catch {
      // Clipboard refused (permissions, insecure origin): show the link to copy by hand.
      setNotice({ tone: 'error', text: 'Copy this link to share the video:', url: link.url })
    }
  }
  return (
    <div className="relative">
      <button type="button" className="btn-secondary" onClick={copy}>
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
            {notice.url ? (
              <input
                readOnly
                aria-label="Link to this video"
                value={notice.url}
                onFocus={(event) => event.currentTarget.select()}
                className="mt-1.5 block w-full rounded-lg border-0 bg-ink-50 px-2 py-1 text-sm ring-1 ring-inset ring-ink-300"
              />
            ) : null}
          </div>
        ) : null}
      </div>
    </div>
  )
}
