import { Link } from '@remix-run/react'
import { PathIcon } from '~/components/icons'

const choices = [
  {
    answer: 'yes',
    label: 'YES',
    title: 'I create content',
    body: 'Share lessons and sparks. An admin reviews your portfolio before you publish.',
    icon: 'M15 10.5 20 7v10l-5-3.5M4 7h11v10H4z',
  },
  {
    answer: 'no',
    label: 'NO',
    title: 'I’m here to learn',
    body: 'Watch, like, quote and follow the creators you love.',
    icon: 'M12 6.5C10 5 7 4.5 4 5v13c3-.5 6 0 8 1.5m0-13c2-1.5 5-2 8-1.5v13c-3-.5-6 0-8 1.5m0-13v13',
  },
] as const

/**
 * The wizard's first step (docs/product.md, States: unanswered → yes/no). Plain links that
 * put the answer in the URL, so the wizard works without JavaScript.
 */
export function RoleQuestion() {
  return (
    <section aria-labelledby="role-question" className="card p-6 sm:p-8">
      <h2 id="role-question" className="text-heading text-center">
        Are you a Content Creator?
      </h2>
      <ul className="mt-6 grid gap-3 sm:grid-cols-2">
        {choices.map((choice) => (
          <li key={choice.answer}>
            <Link
              to={`/signup?creator=${choice.answer}`}
              className="group flex h-full flex-col gap-3 rounded-card p-5 ring-1 ring-inset ring-ink-200 transition hover:bg-brand-50 hover:ring-brand-300"
            >
              <span className="flex items-center justify-between">
                <span className="inline-flex min-h-11 min-w-16 items-center justify-center rounded-full bg-brand-600 px-5 text-base font-bold tracking-wide text-white group-hover:bg-brand-700">
                  {choice.label}
                </span>
                <PathIcon path={choice.icon} className="h-7 w-7 text-brand-500" strokeWidth="1.75" />
              </span>
              <span className="font-semibold text-ink-900">{choice.title}</span>
              <span className="text-sm text-ink-600">{choice.body}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  )
}
