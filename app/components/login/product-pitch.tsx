import { BrandMark } from '~/components/brand-mark'

/** The sign-in screen describes Lumen as a reels-style learning product (docs/product.md, Audience). */
export function ProductPitch() {
  return (
    <section
      aria-label="About Lumen"
      className="relative isolate overflow-hidden rounded-card bg-ink-950 px-5 py-6 text-white sm:px-8 sm:py-10 lg:order-first"
    >
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-[radial-gradient(30rem_18rem_at_10%_-10%,theme(colors.brand.700/.6),transparent),radial-gradient(24rem_16rem_at_100%_120%,theme(colors.spark.500/.3),transparent)]"
      />
      <div className="flex items-center gap-3">
        <BrandMark className="h-10 w-10" />
        <p className="text-sm font-semibold uppercase tracking-wider text-brand-200">Reels for learning</p>
      </div>
      <p className="mt-4 text-2xl font-bold tracking-tight sm:text-3xl">Scroll less. Learn more.</p>
      <p className="mt-3 text-ink-300">
        Lumen turns your scrolling into learning: swipe through sparks, lessons under a minute, and go deeper with long-form
        videos from verified educators.
      </p>
      <ul className="mt-5 hidden gap-2 text-sm text-ink-200 sm:grid">
        <li className="flex items-center gap-2">
          <span className="h-1.5 w-1.5 rounded-full bg-spark-400" aria-hidden="true" />
          Full-screen, vertical sparks you swipe like reels
        </li>
        <li className="flex items-center gap-2">
          <span className="h-1.5 w-1.5 rounded-full bg-spark-400" aria-hidden="true" />
          Like, quote and follow the creators you learn from
        </li>
      </ul>
    </section>
  )
}
