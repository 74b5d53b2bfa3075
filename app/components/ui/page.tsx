import type { ReactNode } from 'react'

/** The frame of every content page: the same width, gutters and heading rhythm everywhere. */
export function Page({ children, width = 'wide' }: { children: ReactNode; width?: 'narrow' | 'wide' }) {
  return (
    <div className={`mx-auto w-full px-4 pb-28 pt-6 sm:px-6 sm:pt-10 ${width === 'narrow' ? 'max-w-lg' : 'max-w-6xl'}`}>
      {children}
    </div>
  )
}

export function PageHeader({ title, subtitle, actions }: { title: ReactNode; subtitle?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
      <div>
        <h1 className="text-title">{title}</h1>
        {subtitle ? <p className="text-body mt-1">{subtitle}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  )
}
