import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { isRouteErrorResponse, useLoaderData, useRouteError } from '@remix-run/react'
import { StatusCard } from '~/components/status-card'
import { Page, PageHeader } from '~/components/ui/page'
import { QuoteSideBySide } from '~/components/video/quotes-side-by-side'
import { VIDEO_MESSAGES } from '~/lib/schemas/video'
import { isDomainError } from '~/server/errors.server'
import { jsonWithHeaders } from '~/server/http/responses.server'
import { requireUser } from '~/server/permissions.server'
import { getQuote } from '~/server/quotes.server'

/**
 * /quote/:id — a video response side by side with its original (ADR 0014).
 * Login required, like the video page; row-level security decides
 * who sees the quote ('Quote not found' otherwise). Text quotes and
 * responses not ready yet have nothing to play side by side: to the video.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { claims, headers } = await requireUser(request, context)
  try {
    const quote = await getQuote(claims, params.id ?? '')
    if (quote.response?.status !== 'ready') {
      throw new Response(null, { status: 303, headers: { Location: `/video/${quote.originalVideo.id}#quote-${quote.id}` } })
    }
    return jsonWithHeaders({ quote }, 200, headers)
  } catch (error) {
    if (isDomainError(error)) throw data(error.message, { status: error.status, headers })
    throw error
  }
}

export default function QuotePage() {
  const { quote } = useLoaderData<typeof loader>()
  return (
    <Page>
      <PageHeader
        title="Side by side"
        subtitle={quote.body ? `“${quote.body}”` : `${quote.creator.username}'s response to “${quote.originalVideo.title}”`}
      />
      <QuoteSideBySide quote={quote} />
    </Page>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaderData }) => [
  {
    title: loaderData ? `Response to ${loaderData.quote.originalVideo.title} — Lumen` : `${VIDEO_MESSAGES.quoteNotFound} — Lumen`,
  },
]

export function ErrorBoundary() {
  const error = useRouteError()
  const missing = isRouteErrorResponse(error) && error.status === 404
  return (
    <StatusCard
      title={missing ? VIDEO_MESSAGES.quoteNotFound : 'Something went wrong'}
      message={missing ? 'This quote does not exist, was deleted, or is not ready yet.' : 'Please try again in a moment.'}
      action={{ href: '/feed', label: 'Back to Feed' }}
    />
  )
}
