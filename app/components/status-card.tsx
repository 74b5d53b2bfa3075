import { isRouteErrorResponse, Link, useRouteError } from '@remix-run/react'

interface StatusCardProps {
  title: string
  message: string
  action?: { href: string; label: string }
}

/** The one card for not-found, error and empty states, so they all look alike. */
export function StatusCard({ title, message, action }: StatusCardProps) {
  return (
    <div className="flex flex-1 items-center justify-center px-4 py-16">
      <section className="card w-full max-w-md p-8 text-center" aria-labelledby="status-title">
        <h1 id="status-title" className="text-title">
          {title}
        </h1>
        <p className="text-body mt-3">{message}</p>
        {action ? (
          <Link to={action.href} className="btn-primary mt-6">
            {action.label}
          </Link>
        ) : null}
      </section>
    </div>
  )
}

/**
 * A route's ErrorBoundary for pages that edit one thing (a video, its checkpoints, a course):
 * 404, 403 and any other failure each get their title; the thrown message (a string) is shown.
 */
export function EditorErrorCard({
  titles,
  back,
}: {
  titles: { notFound: string; forbidden: string; other: string }
  back: { href: string; label: string }
}) {
  const error = useRouteError()
  const status = isRouteErrorResponse(error) ? error.status : 500
  const message = isRouteErrorResponse(error) && typeof error.data === 'string' ? error.data : 'Please try again in a moment.'
  const title = status === 404 ? titles.notFound : status === 403 ? titles.forbidden : titles.other
  return <StatusCard title={title} message={message} action={back} />
}
