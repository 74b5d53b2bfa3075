import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from '@remix-run/react'
import type { ReactNode } from 'react'
import { BottomBar } from '~/components/bottom-bar'
import { FeedbackWidget } from '~/components/feedback-widget'
import { useNonce } from '~/components/nonce'
import { FlashToast, useShownToast, type ToastMessage } from '~/components/flash-toast'
import { useUnreadCount } from '~/components/notifications/notification-bell'
import { SiteHeader } from '~/components/site-header'
import { StatusCard } from '~/components/status-card'
import type { ShellUser } from '~/components/user-avatar'
import { VerificationBanner } from '~/components/verification-banner'
import { avatarUrl } from '~/lib/media-urls'
import { readFlash } from '~/server/http/flash.server'
import { jsonWithHeaders } from '~/server/http/responses.server'
import { unreadCount } from '~/server/notifications.server'
import { getSession } from '~/server/session.server'
import { browserSupabaseUrl } from '~/server/supabase.server'
import stylesheet from '~/tailwind.css?url'
import interLatin from '@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url'

/**
 * Who is signed in (rights read from the database on every request), their
 * unread notifications (one indexed count) and the pending flash message. The session's refreshed or cleared cookies and the
 * flash cookie's removal go out with the page.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await getSession(request, context)
  const { flash, headers: flashHeaders } = await readFlash(request)
  const user: ShellUser | null = session.user
    ? {
        id: session.user.id,
        username: session.user.username,
        role: session.user.role,
        isVerified: session.user.isVerified,
        avatarUrl: avatarUrl(browserSupabaseUrl(), session.user.avatarPath),
      }
    : null
  const unread = user ? await unreadCount(session.claims) : 0
  const toast: ToastMessage | null = flash ? { ...flash, id: crypto.randomUUID() } : null
  return jsonWithHeaders({ user, unread, flash: toast }, 200, session.headers, flashHeaders)
}

/**
 * What a route tells the shell: `immersive` when it fills the whole screen (the reel viewer);
 * `showsVerification` when, given its loader data, the page itself says where an unverified
 * creator's review stands (the profile card, Edit Profile, the Upload redirect's panel) — the
 * pending banner then stays away, so the message shows once (docs/product.md, Rules and messages).
 */
export interface ShellHandle {
  immersive?: boolean
  showsVerification?: (data: unknown) => boolean
}

/**
 * The shell around every page and every error: header, flash toast, the
 * verification-pending banner, the bottom bar and the Feedback button. When
 * the root loader itself failed, the shell shows as for a visitor. An
 * immersive route gets the screen to itself (and its own way back); only
 * flash messages still show over it.
 */
export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>('root')
  const nonce = useNonce()
  const matches = useMatches()
  const immersive = matches.some((match) => (match.handle as ShellHandle | undefined)?.immersive)
  const pageShowsVerification = matches.some((match) =>
    (match.handle as ShellHandle | undefined)?.showsVerification?.(match.data),
  )
  const user = data?.user ?? null
  const toast = useShownToast(data?.flash ?? null, useLocation().key)
  const unread = useUnreadCount(data?.unread ?? 0, Boolean(user))
  const chrome = !immersive
  const pendingCreator = user?.role === 'creator' && !user.isVerified && !pageShowsVerification
  return (
    <html lang="en" className="h-full">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="theme-color" content="#312e81" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-full flex-col font-sans">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded-full focus:bg-white focus:px-4 focus:py-2 focus:shadow-card"
        >
          Skip to content
        </a>
        {chrome ? <SiteHeader user={user} unread={unread} /> : null}
        {chrome && pendingCreator ? <VerificationBanner /> : null}
        {toast ? <FlashToast key={toast.id} toast={toast} /> : null}
        <main
          id="main"
          className={`flex flex-1 flex-col ${
            // Room at the end of every page for what is fixed over it: the bottom bar, and from
            // `sm` up the floating Feedback button (above the bar up to `lg`, beside it after).
            chrome && user ? 'pb-[calc(4.5rem+env(safe-area-inset-bottom))] sm:pb-32 lg:pb-20' : chrome ? 'sm:pb-20' : ''
          }`}
        >
          {children}
        </main>
        {chrome && user ? <BottomBar user={user} unread={unread} /> : null}
        {chrome ? <FeedbackWidget signedIn={Boolean(user)} aboveBottomBar={Boolean(user)} /> : null}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  )
}

export default function App() {
  return <Outlet />
}

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  // Fetched alongside the stylesheet instead of after it: every page's text is set in it (ADR 0030).
  { rel: 'preload', href: interLatin, as: 'font', type: 'font/woff2', crossOrigin: 'anonymous' },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
]

export const meta: MetaFunction = () => [
  { title: 'Lumen — learn something in a minute' },
  {
    name: 'description',
    content: 'Lumen is an educational video platform: long-form lessons and sparks, short clips under a minute.',
  },
]

export function ErrorBoundary() {
  const error = useRouteError()
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <StatusCard
        title="Page not found"
        message="We couldn't find that page. It may have moved, or the link may be mistyped."
        action={{ href: '/', label: 'Back to Lumen' }}
      />
    )
  }
  const status = isRouteErrorResponse(error) ? error.status : 500
  return (
    <StatusCard
      title="Something went wrong"
      message={`The page could not be shown (error ${status}). Please try again in a moment.`}
      action={{ href: '/', label: 'Back to Lumen' }}
    />
  )
}
