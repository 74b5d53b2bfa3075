import { Link } from '@remix-run/react'
import { BrandMark } from './brand-mark'

export function SiteHeader() {
  return (
    <header className="sticky top-0 z-40 border-b border-ink-200/70 bg-white/85 backdrop-blur supports-[backdrop-filter]:bg-white/70">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4 sm:px-6">
        <Link to="/" className="flex items-center gap-2 rounded-full text-lg font-extrabold tracking-tight text-ink-900">
          <BrandMark />
          <span>Lumen</span>
        </Link>
      </div>
    </header>
  )
}
