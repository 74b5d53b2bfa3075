import { useFetcher } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { VIDEO_MESSAGES } from '~/lib/schemas/video'

/**
 * Tells a creator their video already plays while the media worker adds the
 * other qualities (ADR 0025). Server-rendered, so it shows without
 * JavaScript until the page is loaded again after the ladder is complete.
 * With JavaScript it asks the page's loader every few seconds through a
 * fetcher — never revalidating the page itself, which would restart the
 * player when the MP4 changes — and goes away once nothing more is coming.
 */
export function MoreQualitiesNote({ videoId }: { videoId: string }) {
  const fetcher = useFetcher<{ video?: { moreQualitiesPending?: boolean } }>()
  const latest = useRef(fetcher)
  latest.current = fetcher
  const done = fetcher.data?.video?.moreQualitiesPending === false
  useEffect(() => {
    if (done) return
    const timer = setInterval(() => {
      const current = latest.current
      if (current.state === 'idle' && document.visibilityState === 'visible') current.load(`/video/${videoId}`)
    }, 5000)
    return () => clearInterval(timer)
  }, [done, videoId])
  if (done) return null
  return (
    <p
      role="status"
      className="mt-3 flex items-center gap-2 rounded-xl bg-sky-50 px-3 py-2 text-sm font-medium text-sky-800 ring-1 ring-inset ring-sky-200"
      data-testid="more-qualities"
    >
      <span aria-hidden="true" className="h-2 w-2 shrink-0 animate-pulse rounded-full bg-sky-500" />
      {VIDEO_MESSAGES.moreQualitiesComing}
    </p>
  )
}
