/** The Lumen mark: a play triangle inside a spark of light. Decorative. */
export function BrandMark({ className = 'h-8 w-8' }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="lumen-mark" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#818cf8" />
          <stop offset="1" stopColor="#4338ca" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="9" fill="url(#lumen-mark)" />
      <path d="M13 10.5v11l9-5.5-9-5.5Z" fill="#fff" />
      <circle cx="24.5" cy="7.5" r="2.5" fill="#fbbf24" />
    </svg>
  )
}
