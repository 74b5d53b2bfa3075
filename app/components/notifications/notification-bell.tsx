import { Link, useFetcher } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { OutlineIcon } from '~/components/icons'
import { badgeText, unreadLabel } from '~/lib/notifications'

/** How often a visible tab asks for the count again, and the least time between two asks. */
export const UNREAD_REFRESH_MS = 60_000

/**
 * The unread count the shell shows: the root loader's (so it is there without
 * JavaScript, and fresh after every navigation or form post), refreshed with
 * JavaScript from /notifications/count when the tab regains focus and every
 * minute while it is visible — never more than once a minute.
 */
export function useUnreadCount(fromLoader: number, signedIn: boolean): number {
  const fetcher = useFetcher<{ unread: number }>({ key: 'notification-count' })
  const [count, setCount] = useState(fromLoader)
  const lastAsked = useRef(Date.now())
  const load = useRef(fetcher.load)
  load.current = fetcher.load

  useEffect(() => {
    setCount(fromLoader)
    lastAsked.current = Date.now()
  }, [fromLoader])

  useEffect(() => {
    if (fetcher.state === 'idle' && typeof fetcher.data?.unread === 'number') setCount(fetcher.data.unread)
  }, [fetcher.state, fetcher.data])

  useEffect(() => {
    if (!signedIn) return
    const refresh = () => {
      if (document.visibilityState !== 'visible') return
      if (Date.now() - lastAsked.current < UNREAD_REFRESH_MS) return
      lastAsked.current = Date.now()
      load.current('/notifications/count')
    }
    const timer = window.setInterval(refresh, UNREAD_REFRESH_MS)
    window.addEventListener('focus', refresh)
    document.addEventListener('visibilitychange', refresh)
    return () => {
      window.clearInterval(timer)
      window.removeEventListener('focus', refresh)
      document.removeEventListener('visibilitychange', refresh)
    }
  }, [signedIn])

  return count
}

export const BELL_PATH = 'M6 9a6 6 0 1 1 12 0c0 4.5 1.5 6.5 2.5 7.5h-17C4.5 15.5 6 13.5 6 9Zm4 10.5a2 2 0 0 0 4 0'

/** The red count over an icon; nothing at 0. Decorative: the control's name carries the number. */
export function UnreadBadge({ count, className = '' }: { count: number; className?: string }) {
  if (count <= 0) return null
  return (
    <span
      aria-hidden="true"
      data-testid="unread-badge"
      className={`pointer-events-none absolute min-w-[1.125rem] rounded-full bg-red-600 px-1 text-center text-[0.6875rem] font-bold leading-[1.125rem] text-white ring-2 ring-white ${className}`}
    >
      {badgeText(count)}
    </span>
  )
}

/** The header's bell: a link to /notifications named with the unread count. */
export function NotificationBell({ unread }: { unread: number }) {
  return (
    <Link
      to="/notifications"
      aria-label={unreadLabel(unread)}
      data-testid="notification-bell"
      className="relative inline-flex h-11 w-11 items-center justify-center rounded-full text-ink-700 ring-1 ring-inset ring-ink-200 transition-colors hover:bg-ink-100 hover:text-ink-900"
    >
      <OutlineIcon className="h-5 w-5">
        <path d={BELL_PATH} />
      </OutlineIcon>
      <UnreadBadge count={unread} className="-right-1 -top-1" />
    </Link>
  )
}
