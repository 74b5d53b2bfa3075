import { Link } from '@remix-run/react'
import type { ShellRole } from '~/components/user-avatar'

/** A creator's or admin's name links to their page; a learner's is plain text. */
export function PersonName({ person }: { person: { id: string; username: string; role: ShellRole } }) {
  const className = 'font-semibold text-ink-900'
  return person.role === 'user' ? (
    <span className={className}>{person.username}</span>
  ) : (
    <Link to={`/creator/${person.id}`} className={`${className} hover:text-brand-700`}>
      {person.username}
    </Link>
  )
}
