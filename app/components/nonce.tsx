import { createContext, useContext } from 'react'

/**
 * The per-response script nonce (Content-Security-Policy: script-src 'nonce-…').
 * The server provides it while rendering; in the browser it is '' — browsers
 * hide nonce attributes from the page, and hydration does not need them.
 */
const NonceContext = createContext('')

export const NonceProvider = NonceContext.Provider

export function useNonce(): string {
  return useContext(NonceContext)
}
