import { RemixBrowser } from '@remix-run/react'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'

/**
 * Remix's own client entry, with one change: the page's data is decoded
 * before hydration starts, not by hydration's first render.
 *
 * With single fetch, `RemixBrowser` suspends on its first render until the
 * data streamed into the page is decoded. A key press or a tap in that
 * moment makes React 18 hydrate the whole page synchronously; the root
 * suspends again at a non-urgent priority and React throws *Root did not
 * complete* (error #345), leaving the page frozen and unhydrated. A learner
 * pressing ↓ on the reel page while it loaded on a slow phone hit exactly
 * that (docs/decisions/0066-decode-before-hydrating.md).
 *
 * So `RemixBrowser` is asked for its data once here, outside React: before
 * its first hook it starts the decoding and throws the promise it waits on.
 * Hydration starts once that promise settles, when nothing is left to suspend
 * on; a key pressed during hydration is then handled as React intends. If a
 * later Remix throws something else or nothing, hydration simply starts.
 */
function decodePageData(): Promise<unknown> {
  try {
    // A component called as a function: Remix's decoding runs before any hook.
    ;(RemixBrowser as (props: object) => unknown)({})
  } catch (thrown) {
    if (thrown instanceof Promise) return thrown.catch(() => {})
  }
  return Promise.resolve()
}

void decodePageData().then(() => {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    )
  })
})
