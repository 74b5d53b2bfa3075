import { Link } from '@remix-run/react'
import type { ReactNode } from 'react'
import { DASHBOARD_ICON_PATHS as icons, PathIcon } from '~/components/icons'
import { Page, PageHeader } from '~/components/ui/page'

/** A learner who lands on /dashboard (it opens after sign-up): where to start, not an error. */
export function LearnerDashboard({ username }: { username: string }) {
  return (
    <Page>
      <PageHeader title={`Welcome to Lumen, ${username}!`} subtitle="Your account is ready. Here is where to start learning." />
      <ul className="grid gap-4 sm:grid-cols-3">
        <NextStep to="/feed" title="Explore the feed" icon={icons.video} tone="bg-brand-50 text-brand-600">
          Long-form lessons from verified educators, sorted by subject.
        </NextStep>
        <NextStep to="/sparks" title="Watch sparks" icon={icons.spark} tone="bg-spark-300/30 text-spark-600">
          Ideas in under a minute. Swipe through them as reels.
        </NextStep>
        <NextStep to="/creators" title="Discover creators" icon={icons.people} tone="bg-emerald-50 text-emerald-600">
          Find educators you like and follow them.
        </NextStep>
      </ul>
      <p className="text-body mt-8">
        You can see your account any time on your{' '}
        <Link to="/profile" className="font-semibold text-brand-700 underline-offset-2 hover:underline">
          profile
        </Link>
        .
      </p>
    </Page>
  )
}

function NextStep({
  to,
  title,
  icon,
  tone,
  children,
}: {
  to: string
  title: string
  icon: string
  tone: string
  children: ReactNode
}) {
  return (
    <li>
      <Link to={to} className="card group flex h-full flex-col gap-3 p-5 transition-shadow hover:shadow-lg">
        <span className={`inline-flex h-11 w-11 items-center justify-center rounded-xl ${tone}`}>
          <PathIcon path={icon} />
        </span>
        <span className="text-heading group-hover:text-brand-700">{title}</span>
        <span className="text-body">{children}</span>
      </Link>
    </li>
  )
}
