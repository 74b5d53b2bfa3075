import { PassThrough } from 'node:stream'
import type { EntryContext } from '@remix-run/node'
import { createReadableStreamFromReadable } from '@remix-run/node'
import { RemixServer } from '@remix-run/react'
import { isbot } from 'isbot'
import { renderToPipeableStream } from 'react-dom/server'
import { NonceProvider } from '~/components/nonce'
import { getEnv } from '~/server/env.server'
import { contentSecurityPolicy, createNonce } from '~/server/http/csp.server'
import { browserSupabaseUrl } from '~/server/supabase.server'

const ABORT_DELAY = 5_000

/**
 * Remix's Node entry, plus a strict Content-Security-Policy on every page:
 * a fresh nonce per response, given to React (which puts it on Remix's own
 * inline scripts) and named in the header, so no injected script runs.
 * Bots get the whole page at once; browsers a stream.
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
  const waitForAll = isbot(request.headers.get('user-agent') ?? '') || remixContext.isSpaMode

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false
    const ready = () => {
      shellRendered = true
      const body = new PassThrough()
      responseHeaders.set('Content-Type', 'text/html')
      resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }))
      pipe(body)
    }
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        ...(waitForAll ? { onAllReady: ready } : { onShellReady: ready }),
        onShellError: reject,
        onError(error: unknown) {
          responseStatusCode = 500
          // Errors before the shell rendered are logged by Remix itself.
          if (shellRendered) console.error(error)
        },
      },
    )
    setTimeout(abort, ABORT_DELAY)
  })
}
