import type { ReactNode } from 'react'

const tones = {
  success: 'bg-emerald-50 text-emerald-900 ring-emerald-200',
  error: 'bg-red-50 text-red-900 ring-red-200',
  info: 'bg-brand-50 text-brand-900 ring-brand-200',
  warning: 'bg-spark-300/20 text-ink-900 ring-spark-400/50',
} as const

/**
 * A message in the flow of the page. Errors are announced at once
 * (role=alert); the rest politely (role=status).
 */
export function Alert({
  tone,
  title,
  children,
  action,
}: {
  tone: keyof typeof tones
  title?: ReactNode
  children?: ReactNode
  action?: ReactNode
}) {
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={`rounded-xl px-4 py-3 text-sm ring-1 ring-inset ${tones[tone]}`}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          {title ? <p className="font-semibold">{title}</p> : null}
          {children ? <div className={title ? 'mt-1' : ''}>{children}</div> : null}
        </div>
        {action}
      </div>
    </div>
  )
}
