import { z } from 'zod'
import { POSITION_MAX_SECONDS } from './progress'

/**
 * The creator dashboard (docs/product.md, Screens; Data; Rules and messages; Limits and timers) and the player's progress
 * reports (ADR 0015). Shared by the routes, the services and the player.
 */
export const DASHBOARD_MESSAGES = {
  noUser: 'User information not available. Please log in again.',
  loadFailed: (error: string) => `Failed to load dashboard data: ${error}`,
  notYours: 'You can only see the analytics of your own videos',
  videoNotFound: 'Video not found',
  badReport: 'That progress report could not be read',
  badTimeZone: 'Please choose a valid time zone',
} as const

/** Daily points the Overview offers (docs/product.md, Limits and timers: 7 by default). */
export const DASHBOARD_RANGES = [7, 28, 90] as const
export type DashboardRange = (typeof DASHBOARD_RANGES)[number]
export const DEFAULT_RANGE: DashboardRange = 7

export const DASHBOARD_TABS = ['overview', 'videos', 'engagement'] as const
export type DashboardTab = (typeof DASHBOARD_TABS)[number]

export const VIDEO_SORTS = ['views', 'likes', 'comments', 'watch', 'retention', 'newest'] as const
export type VideoSort = (typeof VIDEO_SORTS)[number]

/** Reads `?tab=&days=&sort=` leniently: anything unknown falls back to the default. */
export function readDashboardQuery(params: URLSearchParams): { tab: DashboardTab; days: DashboardRange; sort: VideoSort } {
  const tab = DASHBOARD_TABS.find((t) => t === params.get('tab')) ?? 'overview'
  const days = DASHBOARD_RANGES.find((d) => String(d) === params.get('days')) ?? DEFAULT_RANGE
  const sort = VIDEO_SORTS.find((s) => s === params.get('sort')) ?? 'views'
  return { tab, days, sort }
}

/** Seconds of playback a report may claim (the player reports every few seconds). */
export const REPORT_MAX_SECONDS = 600

/** One progress report from the player: the server credits it (ADR 0015). */
export const watchReportSchema = z.object({
  session: z.string().uuid(),
  video: z.string().uuid(),
  played: z.coerce.number().finite().min(0).max(REPORT_MAX_SECONDS),
  tenths: z.coerce.number().int().min(0).max(1023).default(0),
  /** Where playback is, in seconds: saved as a signed-in learner's position (resume, ADR 0034). */
  position: z.coerce.number().finite().min(0).max(POSITION_MAX_SECONDS).optional(),
  /** The player's length of the video (used only when the video has none on record). */
  duration: z.coerce.number().finite().positive().max(POSITION_MAX_SECONDS).optional(),
})
export type WatchReport = z.infer<typeof watchReportSchema>

export const timeZoneSchema = z
  .string()
  .trim()
  .min(1, DASHBOARD_MESSAGES.badTimeZone)
  .max(64, DASHBOARD_MESSAGES.badTimeZone)
  .regex(/^[A-Za-z0-9_+\-/]+$/, DASHBOARD_MESSAGES.badTimeZone)
