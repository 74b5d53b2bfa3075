import { useEffect, useState } from 'react'

/**
 * False on the server and during hydration, true once React runs in the
 * browser: the switch from the no-JS version of a control (a link, a plain
 * form) to its enhanced one (a button that opens a panel).
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  return hydrated
}
