import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { data } from '@remix-run/node'
import { isRouteErrorResponse, useRouteError } from '@remix-run/react'
import { StatusCard } from '~/components/status-card'
import { ADMIN_MESSAGES } from '~/lib/schemas/admin'
import { portfolioUrl } from '~/server/applications.server'
import { isDomainError } from '~/server/errors.server'
import { redirectWithHeaders } from '~/server/http/responses.server'
import { requireAdmin } from '~/server/permissions.server'

/**
 * /admin/portfolio/:userId — a creator's portfolio, for admins (docs/product.md: Admin,
 * "Portfolios open at a server path in a new tab"). Postgres says whether the
 * caller is an admin; only then is a signed URL of the private object made
 * (60 seconds, inline for images, PDFs and videos, a download otherwise) and
 * the browser sent there. No portfolio: 'No portfolio available for this creator.'
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { claims, headers } = await requireAdmin(request, context)
  try {
    const url = await portfolioUrl(claims, params.userId ?? '')
    return redirectWithHeaders(url, headers, { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' })
  } catch (error) {
    if (isDomainError(error)) throw data(error.message, { status: error.status, headers })
    throw error
  }
}

export const meta: MetaFunction = () => [{ title: 'Portfolio — Lumen' }]

export default function Portfolio() {
  return null
}

export function ErrorBoundary() {
  const error = useRouteError()
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <StatusCard
        title="No portfolio"
        message={ADMIN_MESSAGES.noPortfolio}
        action={{ href: '/admin', label: 'Back to Admin Dashboard' }}
      />
    )
  }
  if (isRouteErrorResponse(error) && error.status === 403) {
    return (
      <StatusCard title="Access denied" message={ADMIN_MESSAGES.forbidden} action={{ href: '/feed', label: 'Back to Feed' }} />
    )
  }
  return (
    <StatusCard
      title="Something went wrong"
      message="The portfolio could not be opened. Please try again in a moment."
      action={{ href: '/admin', label: 'Back to Admin Dashboard' }}
    />
  )
}
