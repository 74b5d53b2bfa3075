import { NavLink } from '@remix-run/react'
import { OutlineIcon } from '~/components/icons'
import { navEntries, type NavKey } from '~/lib/nav'
import { UnreadBadge } from './notifications/notification-bell'
import type { ShellUser } from './user-avatar'

/**
 * The main navigation for signed-in users (docs/product.md, Layout): a tab bar
 * fixed to the bottom of a phone (clear of the home indicator), a floating
 * pill on wider screens. NavLink marks the current section with
 * aria-current="page". On phones the Profile entry carries the unread
 * notifications count (the header's bell has it everywhere).
 */
export function BottomBar({ user, unread = 0 }: { user: ShellUser; unread?: number }) {
  const entries = navEntries(user.role).bar
  return (
    <nav
      aria-label="Main"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-ink-200/80 bg-white/95 pb-[env(safe-area-inset-bottom)] backdrop-blur sm:inset-x-auto sm:bottom-4 sm:left-1/2 sm:-translate-x-1/2 sm:rounded-full sm:border sm:px-2 sm:pb-0 sm:shadow-card"
    >
      <ul className="mx-auto flex max-w-lg items-stretch justify-around sm:max-w-none sm:gap-1">
        {entries.map((entry) => (
          <li key={entry.to} className="flex-1 sm:flex-none">
            <NavLink
              to={entry.to}
              className={({ isActive }) =>
                `flex min-h-14 flex-col items-center justify-center gap-0.5 px-1 text-[0.6875rem] font-semibold transition-colors focus-visible:ring-offset-0 sm:min-h-12 sm:flex-row sm:gap-2 sm:rounded-full sm:px-4 sm:text-sm ${
                  isActive ? 'text-brand-700 sm:bg-brand-50' : 'text-ink-600 hover:text-ink-900 sm:hover:bg-ink-100'
                }`
              }
            >
              {({ isActive }) => (
                <>
                  <span className="relative">
                    <OutlineIcon className="h-6 w-6 sm:h-5 sm:w-5" fill={isActive ? 'currentColor' : 'none'} fillOpacity={isActive ? 0.15 : undefined}>
                      <path d={BAR_ICONS[entry.key]} />
                    </OutlineIcon>
                    {entry.key === 'profile' ? <UnreadBadge count={unread} className="-right-2.5 -top-1.5 sm:hidden" /> : null}
                  </span>
                  <span>{entry.label}</span>
                  {entry.key === 'profile' && unread > 0 ? (
                    <span className="sr-only sm:hidden">{` (${unread} unread notifications)`}</span>
                  ) : null}
                </>
              )}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  )
}

const BAR_ICONS: Partial<Record<NavKey, string>> = {
  profile: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm-7 9a7 7 0 0 1 14 0',
  feed: 'M4 5a1 1 0 0 1 1-1h14a1 1 0 0 1 1 1v9a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V5Zm6 3v4l3.5-2L10 8Zm-6 11h16',
  sparks: 'M13 2 4 14h7l-1 8 9-12h-7l1-8Z',
  creators: 'M9 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7Zm-6 9a6 6 0 0 1 12 0m1-9a3 3 0 1 0 0-6m2 15h3a5 5 0 0 0-4-5',
  upload: 'M12 16V4m0 0-4 4m4-4 4 4M4 16v3a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3',
  admin: 'M12 3l7 3v6c0 4.5-3 7.5-7 9-4-1.5-7-4.5-7-9V6l7-3Zm-3 9 2 2 4-4',
}
