import { Form, Link, useLocation } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { ChevronDownIcon, PathIcon } from '~/components/icons'
import { navEntries, type NavKey } from '~/lib/nav'
import { BrandMark } from './brand-mark'
import { FeedbackWidget } from './feedback-widget'
import { NotificationBell } from './notifications/notification-bell'
import { ROLE_LABELS, UserAvatar, type ShellUser } from './user-avatar'

/**
 * The top bar on every page: the brand, then Login / Sign Up for visitors or
 * the notifications bell and the account menu for signed-in users.
 */
export function SiteHeader({ user, unread = 0 }: { user: ShellUser | null; unread?: number }) {
  return (
    <header className="sticky top-0 z-40 border-b border-ink-200/70 bg-white/85 pt-[env(safe-area-inset-top)] backdrop-blur supports-[backdrop-filter]:bg-white/70">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-3 px-4 sm:px-6">
        <Link to="/" className="flex shrink-0 items-center gap-2 rounded-full text-lg font-extrabold tracking-tight text-ink-900">
          <BrandMark />
          <span>Lumen</span>
        </Link>
        <div className="flex min-w-0 items-center gap-2">
          <FeedbackWidget signedIn={Boolean(user)} aboveBottomBar={false} placement="header" />
          {user ? <NotificationBell unread={unread} /> : null}
          {user ? <AccountMenu user={user} /> : <VisitorNav />}
        </div>
      </div>
    </header>
  )
}

function VisitorNav() {
  return (
    <nav aria-label="Account" className="flex items-center gap-1 sm:gap-2">
      <Link to="/login" className="btn-ghost px-4">
        Login
      </Link>
      <Link to="/signup" className="btn-primary px-4">
        Sign Up
      </Link>
    </nav>
  )
}

/**
 * A disclosure built on <details>/<summary>, so it opens without JavaScript.
 * With JavaScript it also closes on Escape (focus back on its button), on a
 * click or focus outside it, and after each navigation.
 */
function AccountMenu({ user }: { user: ShellUser }) {
  const ref = useRef<HTMLDetailsElement>(null)
  const location = useLocation()

  // Closed after a navigation, not when the page hydrates: a <details> opens before the scripts
  // have run, and a learner who opened it early would see it snap shut.
  const shownAt = useRef(location.key)
  useEffect(() => {
    if (shownAt.current === location.key) return
    shownAt.current = location.key
    if (ref.current) ref.current.open = false
  }, [location.key])

  useEffect(() => {
    const details = ref.current
    if (!details) return
    const close = (restoreFocus: boolean) => {
      if (!details.open) return
      details.open = false
      if (restoreFocus) details.querySelector('summary')?.focus()
    }
    const onPointerDown = (event: PointerEvent) => {
      if (!details.contains(event.target as Node)) close(false)
    }
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && details.open) {
        event.preventDefault()
        close(true)
      }
    }
    const onFocusOut = (event: FocusEvent) => {
      const next = event.relatedTarget as Node | null
      if (next && !details.contains(next)) close(false)
    }
    document.addEventListener('pointerdown', onPointerDown)
    document.addEventListener('keydown', onKeyDown)
    details.addEventListener('focusout', onFocusOut)
    return () => {
      document.removeEventListener('pointerdown', onPointerDown)
      document.removeEventListener('keydown', onKeyDown)
      details.removeEventListener('focusout', onFocusOut)
    }
  }, [])

  return (
    <details ref={ref} className="group relative min-w-0">
      <summary
        className="flex min-h-11 cursor-pointer list-none items-center gap-2 rounded-full py-1 pl-1 pr-2 text-sm font-semibold text-ink-800 ring-1 ring-inset ring-ink-200 transition-colors hover:bg-ink-100 group-open:bg-ink-100 [&::-webkit-details-marker]:hidden"
        data-testid="account-menu"
      >
        <UserAvatar user={user} />
        {/* On phones the bell needs the room: the name is read out, not shown. */}
        <span className="min-w-0 max-w-[9rem] truncate max-sm:sr-only">
          <span className="sr-only">Account menu for </span>
          {user.username}
        </span>
        <ChevronDownIcon className="h-4 w-4 shrink-0 text-ink-500 transition-transform group-open:rotate-180" />
      </summary>
      <div className="absolute right-0 top-full z-50 mt-2 w-64 max-w-[calc(100vw-2rem)] origin-top-right rounded-card bg-white p-2 shadow-card ring-1 ring-ink-200">
        <div className="flex items-center gap-3 border-b border-ink-100 px-3 pb-3 pt-2">
          <UserAvatar user={user} size="md" />
          <div className="min-w-0">
            <p className="truncate text-sm font-semibold text-ink-900">{user.username}</p>
            <p className="truncate text-xs text-ink-500">
              {ROLE_LABELS[user.role]}
              {user.role === 'creator' && !user.isVerified ? ' · pending review' : ''}
            </p>
          </div>
        </div>
        <nav aria-label="Account">
          <ul className="py-1">
            {navEntries(user.role).menu.map((entry) => (
              <li key={entry.label}>
                <Link
                  to={entry.to}
                  className="flex min-h-11 items-center gap-3 rounded-xl px-3 text-sm font-medium text-ink-800 hover:bg-ink-100 focus-visible:ring-offset-0"
                >
                  <PathIcon path={MENU_ICONS[entry.key] ?? ''} className="h-5 w-5 shrink-0 text-ink-500" />
                  {entry.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <Form method="post" action="/logout" className="border-t border-ink-100 pt-1">
          <button
            type="submit"
            className="flex min-h-11 w-full items-center gap-3 rounded-xl px-3 text-left text-sm font-medium text-red-700 hover:bg-red-50 focus-visible:ring-offset-0"
          >
            <PathIcon path={SIGN_OUT_ICON} className="h-5 w-5 shrink-0 text-ink-500" />
            Sign Out
          </button>
        </Form>
      </div>
    </details>
  )
}

const MENU_ICONS: Partial<Record<NavKey, string>> = {
  admin: 'M12 3l7 3v6c0 4.5-3 7.5-7 9-4-1.5-7-4.5-7-9V6l7-3Zm-3 9 2 2 4-4',
  dashboard: 'M4 20V10m6 10V4m6 16v-7m4 7H2',
  profile: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm-7 9a7 7 0 0 1 14 0',
  upload: 'M12 16V4m0 0-4 4m4-4 4 4M4 16v3a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3',
  quote: 'M7 8h4v4c0 2.5-1.5 4-4 4m6-8h4v4c0 2.5-1.5 4-4 4',
}

const SIGN_OUT_ICON = 'M15 12H4m0 0 3-3m-3 3 3 3m5-9V5a1 1 0 0 1 1-1h6a1 1 0 0 1 1 1v14a1 1 0 0 1-1 1h-6a1 1 0 0 1-1-1v-1'
