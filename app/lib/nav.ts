/**
 * Where the signed-in shell leads, for each role (docs/product.md, Layout):
 * one table feeds the header's account menu and the bottom bar, so the two
 * cannot drift apart. The differences between them are the spec's own: the
 * menu offers Upload Content to creators and Quote to everyone else; the bar
 * offers Upload to creators and admins.
 */
export type NavRole = 'user' | 'creator' | 'admin'

export type NavKey = 'admin' | 'dashboard' | 'profile' | 'feed' | 'sparks' | 'creators' | 'upload' | 'quote'

export interface NavEntry {
  key: NavKey
  label: string
  to: string
}

const ENTRIES: Record<NavKey, { to: string; menu?: string; bar?: string }> = {
  admin: { to: '/admin', menu: 'Admin Dashboard', bar: 'Admin' },
  dashboard: { to: '/dashboard', menu: 'Dashboard' },
  profile: { to: '/profile', menu: 'Profile', bar: 'Profile' },
  feed: { to: '/feed', bar: 'Feed' },
  sparks: { to: '/sparks', bar: 'Sparks' },
  creators: { to: '/creators', bar: 'Creators' },
  upload: { to: '/upload', menu: 'Upload Content', bar: 'Upload' },
  // Learners (and admins) quote instead: /create-quote without a video offers a search to pick one.
  quote: { to: '/create-quote', menu: 'Quote' },
}

const MENU: Record<NavRole, NavKey[]> = {
  user: ['profile', 'quote'],
  creator: ['dashboard', 'profile', 'upload'],
  admin: ['admin', 'dashboard', 'profile', 'quote'],
}

const BAR: Record<NavRole, NavKey[]> = {
  user: ['profile', 'feed', 'sparks', 'creators'],
  creator: ['profile', 'feed', 'sparks', 'creators', 'upload'],
  admin: ['profile', 'feed', 'sparks', 'creators', 'upload', 'admin'],
}

/** The account menu (Sign Out is added below it) and the bottom bar, in the spec's order. */
export function navEntries(role: NavRole): { menu: NavEntry[]; bar: NavEntry[] } {
  const entry = (place: 'menu' | 'bar') => (key: NavKey) => ({ key, label: ENTRIES[key][place]!, to: ENTRIES[key].to })
  return { menu: MENU[role].map(entry('menu')), bar: BAR[role].map(entry('bar')) }
}
