import { cleanup, configure } from '@testing-library/react'
import { afterEach } from 'vitest'

// findBy…/waitFor wait on their condition up to 10 s (not the default 1 s): on a machine shared with
// other suites a render after a fetcher's answer can take longer than a second.
configure({ asyncUtilTimeout: 10_000 })

/**
 * Component tests (Vitest project `components`): each test's render is removed
 * afterwards (Testing Library does so by itself only with Vitest's globals on).
 */
afterEach(() => {
  cleanup()
  localStorage.clear()
})

// React Router v6's notes about v7's defaults (Remix's test stub leaves its flags off) are not findings.
const warn = console.warn
console.warn = (...args: unknown[]) => {
  if (typeof args[0] === 'string' && args[0].includes('React Router Future Flag Warning')) return
  warn(...args)
}

/**
 * No network: what a component fetches outside Remix's test stub (a caption
 * track, a poster) is answered 404 here, as by an empty server, and noted.
 */
export const fetchedOutsideRemix: string[] = []
const happyDOM = (window as unknown as { happyDOM?: { settings: { fetch: { interceptor: unknown } } } }).happyDOM
if (happyDOM) {
  happyDOM.settings.fetch.interceptor = {
    async beforeAsyncRequest({ request, window }: { request: Request; window: typeof globalThis }) {
      fetchedOutsideRemix.push(request.url)
      return new window.Response('', { status: 404 })
    },
  }
}
