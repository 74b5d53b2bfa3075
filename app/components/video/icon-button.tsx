import type { ReactNode } from 'react'

/** A round submit button showing only an icon; the label is for screen readers and the tooltip. */
export function IconButton({ label, disabled, children }: { label: string; disabled?: boolean; children: ReactNode }) {
  return (
    <button
      type="submit"
      title={label}
      aria-disabled={disabled || undefined}
      className="inline-flex h-11 w-11 items-center justify-center rounded-full text-ink-500 transition-colors hover:bg-ink-100 hover:text-red-700"
    >
      <span className="sr-only">{label}</span>
      {children}
    </button>
  )
}
