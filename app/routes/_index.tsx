import type { MetaFunction } from '@remix-run/node'
import { Link } from '@remix-run/react'
import { ArrowRightIcon, PathIcon } from '~/components/icons'

export const meta: MetaFunction = () => [
  { title: 'Lumen — learn something in a minute' },
  {
    name: 'description',
    content: 'Short sparks and long-form lessons from verified educators. Watch, like, quote and follow.',
  },
]

const highlights = [
  {
    title: 'Sparks',
    body: 'Clips under a minute in a full-screen reel. Swipe up for the next idea.',
    icon: 'M13 2 4 14h7l-1 8 9-12h-7l1-8Z',
  },
  {
    title: 'Lessons',
    body: 'Long-form videos when you want to go deep, sorted by the subject you love.',
    icon: 'M4 5h16v11H4zM8 20h8M12 16v4',
  },
  {
    title: 'Verified creators',
    body: 'Every creator is reviewed by our team before they publish, so you learn from people who know.',
    icon: 'm9 12 2 2 4-4M12 3l7 3v6c0 4.5-3 7.5-7 9-4-1.5-7-4.5-7-9V6l7-3Z',
  },
]

export default function Welcome() {
  return (
    <>
      <section className="relative isolate overflow-hidden bg-ink-950 text-white">
        <div
          aria-hidden="true"
          className="absolute inset-0 -z-10 bg-[radial-gradient(60rem_30rem_at_20%_-10%,theme(colors.brand.700/.55),transparent),radial-gradient(40rem_24rem_at_90%_110%,theme(colors.spark.500/.25),transparent)]"
        />
        <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 py-16 sm:px-6 sm:py-24 lg:grid-cols-[1.2fr_1fr]">
          <div>
            <p className="inline-flex items-center gap-2 rounded-full bg-white/10 px-3 py-1 text-sm font-medium text-brand-100 ring-1 ring-inset ring-white/15">
              <span className="h-2 w-2 rounded-full bg-spark-400" aria-hidden="true" />
              Reels for curious minds
            </p>
            <h1 className="text-display mt-6 text-balance">Learn something new in the next minute.</h1>
            <p className="mt-5 max-w-xl text-lg text-ink-300">
              Lumen is where educators share what they know: bite-sized sparks you can swipe through and
              long-form lessons when you want the whole story.
            </p>
            <div className="mt-8 flex flex-wrap gap-3">
              <Link to="/feed" className="btn-primary h-12 px-7 text-base">
                Explore Content
                <ArrowRightIcon />
              </Link>
            </div>
          </div>
          <PhonePreview />
        </div>
      </section>

      <section aria-labelledby="why-lumen" className="mx-auto w-full max-w-6xl px-4 py-16 sm:px-6">
        <h2 id="why-lumen" className="text-title text-center">
          Made for the way you learn
        </h2>
        <ul className="mt-10 grid gap-5 sm:grid-cols-3">
          {highlights.map((item) => (
            <li key={item.title} className="card p-6">
              <span className="inline-flex h-11 w-11 items-center justify-center rounded-xl bg-brand-50 text-brand-600">
                <PathIcon path={item.icon} className="h-6 w-6" strokeWidth="2" />
              </span>
              <h3 className="text-heading mt-4">{item.title}</h3>
              <p className="text-body mt-2">{item.body}</p>
            </li>
          ))}
        </ul>
      </section>
    </>
  )
}

/** A decorative phone frame hinting at the reel viewer. */
function PhonePreview() {
  return (
    <div aria-hidden="true" className="mx-auto hidden w-64 sm:block">
      <div className="rounded-[2.5rem] bg-ink-800 p-3 shadow-2xl ring-1 ring-white/10">
        <div className="relative aspect-[9/19] overflow-hidden rounded-[2rem] bg-gradient-to-b from-brand-600 via-brand-800 to-ink-950">
          <div className="absolute inset-x-0 top-1/3 mx-auto h-24 w-24 rounded-full bg-spark-400/30 blur-2xl" />
          <div className="absolute left-1/2 top-1/3 flex h-14 w-14 -translate-x-1/2 items-center justify-center rounded-full bg-white/20 backdrop-blur">
            <div className="ml-1 h-0 w-0 border-y-[10px] border-l-[16px] border-y-transparent border-l-white" />
          </div>
          <div className="absolute inset-x-4 bottom-6 space-y-2">
            <div className="h-3 w-3/4 rounded-full bg-white/80" />
            <div className="h-2.5 w-1/2 rounded-full bg-white/50" />
            <div className="mt-4 h-1 w-full rounded-full bg-white/20">
              <div className="h-1 w-2/5 rounded-full bg-spark-400" />
            </div>
          </div>
        </div>
      </div>
    </div>
  )
}
