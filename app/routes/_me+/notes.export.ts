import type { LoaderFunctionArgs } from '@remix-run/node'
import { siteUrlFor } from '~/server/env.server'
import { isDomainError } from '~/server/errors.server'
import { mergeHeaders } from '~/server/http/responses.server'
import { exportNotes, markdownDownloadHeaders } from '~/server/notes.server'
import { requireUser } from '~/server/permissions.server'

/**
 * /notes/export?videoId= — the signed-in learner's notes as a Markdown file
 * (every video's, or one video's), a plain link's download from the Notes
 * panel and the profile's Notes tab. GET /api/notes/export is its twin.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { claims, headers } = await requireUser(request, context)
  const url = new URL(request.url)
  try {
    const file = await exportNotes(claims, { videoId: url.searchParams.get('videoId'), siteUrl: siteUrlFor(request.url) })
    return new Response(file.markdown, { headers: mergeHeaders(headers, markdownDownloadHeaders(file.fileName)) })
  } catch (error) {
    if (isDomainError(error)) {
      return new Response(error.message, {
        status: error.status,
        headers: mergeHeaders(headers, { 'Content-Type': 'text/plain; charset=utf-8' }),
      })
    }
    throw error
  }
}
