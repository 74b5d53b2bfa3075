/**
 * The signed-in visitor as the shell shows them (from the root loader), and
 * their picture: the uploaded avatar, or their initials on a colour picked
 * from their name, so the same person always looks the same.
 */
export type ShellRole = 'user' | 'creator' | 'admin'

/** No email: nothing in the shell shows it, and every page would carry it (ADR 0030, BREACH). */
export interface ShellUser {
  id: string
  username: string
  role: ShellRole
  isVerified: boolean
  avatarUrl: string | null
}

export const ROLE_LABELS: Record<ShellRole, string> = {
  user: 'Learner',
  creator: 'Creator',
  admin: 'Admin',
}

const palettes = [
  'bg-brand-100 text-brand-800',
  'bg-amber-100 text-amber-900',
  'bg-emerald-100 text-emerald-800',
  'bg-sky-100 text-sky-800',
  'bg-rose-100 text-rose-800',
  'bg-violet-100 text-violet-800',
] as const

export function initialsOf(username: string): string {
  const parts = username.split(/[._\-\s]+/).filter(Boolean)
  const letters = parts.length > 1 ? `${parts[0]![0]}${parts[1]![0]}` : username.slice(0, 2)
  return letters.toUpperCase()
}

function paletteFor(username: string): string {
  let hash = 0
  for (const char of username) hash = (hash * 31 + char.charCodeAt(0)) | 0
  return palettes[Math.abs(hash) % palettes.length]!
}

const sizes = {
  sm: 'h-8 w-8 text-xs',
  md: 'h-10 w-10 text-sm',
  lg: 'h-20 w-20 text-2xl',
} as const

/** Decorative next to the name it belongs to; pass `label` where it stands alone. */
export function UserAvatar({
  user,
  size = 'sm',
  label,
}: {
  user: Pick<ShellUser, 'username' | 'avatarUrl'>
  size?: keyof typeof sizes
  label?: string
}) {
  const a11y = label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true as const }
  if (user.avatarUrl) {
    return (
      <img
        src={user.avatarUrl}
        alt={label ?? ''}
        className={`${sizes[size]} shrink-0 rounded-full object-cover ring-2 ring-white`}
      />
    )
  }
  return (
    <span
      {...a11y}
      className={`${sizes[size]} ${paletteFor(user.username)} inline-flex shrink-0 select-none items-center justify-center rounded-full font-bold ring-2 ring-white`}
    >
      {initialsOf(user.username)}
    </span>
  )
}
