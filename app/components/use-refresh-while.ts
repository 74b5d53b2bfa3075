import { useNavigation, useRevalidator } from '@remix-run/react'
import { useEffect, useRef } from 'react'

/**
 * With JavaScript, reloads the page's data every `everyMs` while `active` (an upload still
 * processing), when the tab is visible and nothing else is loading.
 *
 * Never while a navigation or a form submission is under way: a revalidation then restarts the
 * navigation's loaders, and the first answer (which had already taken the one-time flash message,
 * "video deleted successfully") was thrown away for a second one without it.
 */
export function useRefreshWhile(active: boolean, everyMs: number): void {
  const revalidator = useRevalidator()
  const navigation = useNavigation()
  const busy = useRef(false)
  busy.current = revalidator.state !== 'idle' || navigation.state !== 'idle'
  const revalidate = revalidator.revalidate
  useEffect(() => {
    if (!active) return
    const timer = setInterval(() => {
      if (!busy.current && document.visibilityState === 'visible') revalidate()
    }, everyMs)
    return () => clearInterval(timer)
  }, [active, everyMs, revalidate])
}
