/**
 * The tabs of /profile, in the spec's order (Profile, Liked Videos,
 * Following, My Quotes) plus My Reports, History (ADR 0034), Notes (ADR 0044), Progress (ADR 0047) and My learning (ADR 0048), each at `/profile?tab=<id>` so it
 * works and can be linked without JavaScript. Adding a tab: one entry here,
 * its data in the route's `TAB_DATA`, and its panel in `ProfilePanel`.
 */
export const PROFILE_TABS = [
  { id: 'profile', label: 'Profile' },
  { id: 'liked', label: 'Liked Videos' },
  { id: 'following', label: 'Following' },
  { id: 'quotes', label: 'My Quotes' },
  { id: 'reports', label: 'My Reports' },
  { id: 'history', label: 'History' },
  { id: 'notes', label: 'Notes' },
  { id: 'progress', label: 'Progress' },
  { id: 'learning', label: 'My learning' },
] as const

export type ProfileTab = (typeof PROFILE_TABS)[number]['id']

export function profileTab(value: string | null | undefined): ProfileTab {
  return PROFILE_TABS.find((tab) => tab.id === value)?.id ?? 'profile'
}

export function profileTabHref(tab: ProfileTab): string {
  return tab === 'profile' ? '/profile' : `/profile?tab=${tab}`
}
