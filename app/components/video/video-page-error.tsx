import { isRouteErrorResponse, useRouteError } from '@remix-run/react'
import { StatusCard } from '~/components/status-card'
import { VIDEO_MESSAGES } from '~/lib/schemas/video'

/** The video page's ErrorBoundary: not found (hidden, deleted or private), or a failure to load. */
export function VideoPageError() {
  const error = useRouteError()
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <StatusCard
        title={VIDEO_MESSAGES.notFound}
        message="This video doesn't exist, was deleted, or is private."
        action={{ href: '/feed', label: 'Back to Feed' }}
      />
    )
  }
  const status = isRouteErrorResponse(error) ? `error ${error.status}` : 'something went wrong'
  return (
    <StatusCard
      title="Something went wrong"
      message={`Failed to load video: ${status}. Please try again in a moment.`}
      action={{ href: '/feed', label: 'Back to Feed' }}
    />
  )
}
