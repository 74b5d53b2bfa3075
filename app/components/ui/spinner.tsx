/** A small busy indicator; the label is read by screen readers. */
export function Spinner({ label = 'Loading', className = 'h-5 w-5' }: { label?: string; className?: string }) {
  return (
    <span role="status" className="inline-flex items-center">
      <svg viewBox="0 0 24 24" className={`animate-spin ${className}`} fill="none" aria-hidden="true">
        <circle cx="12" cy="12" r="10" stroke="currentColor" strokeOpacity="0.25" strokeWidth="3" />
        <path d="M22 12a10 10 0 0 0-10-10" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
      </svg>
      <span className="sr-only">{label}</span>
    </span>
  )
}
