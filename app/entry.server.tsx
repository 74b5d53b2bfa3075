import type { EntryContext } from '@remix-run/node'
import { RemixServer } from '@remix-run/react'
import { renderToPipeableStream } from 'react-dom/server'
import { NonceProvider } from '~/components/nonce'
import { getEnv } from '~/server/env.server'
import { contentSecurityPolicy, createNonce } from '~/server/http/csp.server'
import { htmlSink } from '~/server/http/html-sink.server'
import { browserSupabaseUrl } from '~/server/supabase.server'

const ABORT_DELAY = 5_000

/**
 * Remix's Node entry, plus a strict Content-Security-Policy on every page:
 * a fresh nonce per response, given to React (which puts it on Remix's own
 * inline scripts) and named in the header, so no injected script runs.
 *
 * No page suspends (the loaders have their data before rendering starts),
 * so the shell is the whole page: it is rendered into memory and sent as
 * one body with its length, rather than streamed to the socket in the many
 * small writes React makes (a third of the welcome page's server time went
 * to those; see docs/performance.md).
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  const nonce = createNonce()
  // Vite's development server injects inline scripts of its own: the policy applies to production builds.
  if (getEnv().NODE_ENV === 'production') {
    const storage = browserSupabaseUrl()
    responseHeaders.set('Content-Security-Policy', contentSecurityPolicy(nonce, storage ? new URL(storage).origin : ''))
  }

  return new Promise<Response>((resolve, reject) => {
    let rendered = false
    const sink = htmlSink((body) => {
      clearTimeout(timer)
      responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
      responseHeaders.set('Content-Length', String(body.length))
      resolve(new Response(body, { headers: responseHeaders, status: responseStatusCode }))
    })
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onAllReady: () => {
          rendered = true
          pipe(sink)
        },
        onShellError(error: unknown) {
          clearTimeout(timer)
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          // Errors before the page rendered are logged by Remix itself.
          if (rendered) console.error(error)
        },
      },
    )
    const timer = setTimeout(abort, ABORT_DELAY)
  })
}
