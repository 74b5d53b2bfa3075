import '@fontsource-variable/inter'
import type { LinksFunction, MetaFunction } from '@remix-run/node'
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteError,
} from '@remix-run/react'
import type { ReactNode } from 'react'
import { SiteHeader } from '~/components/site-header'
import { StatusCard } from '~/components/status-card'
import stylesheet from '~/tailwind.css?url'

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
]

export const meta: MetaFunction = () => [
  { title: 'Lumen — learn something in a minute' },
  {
    name: 'description',
    content: 'Lumen is an educational video platform: long-form lessons and sparks, short clips under a minute.',
  },
]

export function Layout({ children }: { children: ReactNode }) {
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
        <SiteHeader />
        <main id="main" className="flex flex-1 flex-col">
          {children}
        </main>
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  )
}

export default function App() {
  return <Outlet />
}

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
