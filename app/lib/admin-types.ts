/**
 * The shapes the admin console renders, made by the admin domain modules in
 * app/server (applications, reports, users, feedback, audit): plain data.
 */
import type { ReportDecision, ReportStatus, UserRole } from './schemas/admin'
import type { ReportContentType } from './schemas/report'

export interface PendingApplication {
  id: string
  creatorId: string
  username: string
  email: string | null
  bio: string
  concentration: string | null
  fieldOfInterest: string | null
  categories: { id: string; name: string; status: 'pending' | 'approved' | 'rejected' }[]
  appliedAt: string
  hasPortfolio: boolean
  portfolioType: 'video' | 'image' | 'document' | null
}

/** A verified creator's new category requests (pending creator_categories rows). */
export interface CategoryRequest {
  creatorId: string
  username: string
  email: string | null
  categories: { id: string; name: string; requestedAt: string }[]
}

export interface ReportedContent {
  /** null when the content is gone (removed, or deleted by its owner). */
  label: string | null
  author: string | null
  thumbnailUrl: string | null
  /** Where the content is shown, when it still exists. */
  href: string | null
}

export interface ReportGroup {
  contentType: ReportContentType
  contentId: string
  status: ReportStatus
  pendingCount: number
  count: number
  reports: { id: string; reason: string; details: string; reporter: string | null; status: ReportStatus; createdAt: string }[]
  content: ReportedContent
  lastReportedAt: string
}

export interface AdminUser {
  id: string
  username: string
  email: string
  role: UserRole
  isVerified: boolean
  createdAt: string
  videoCount: number
  isCurrentUser: boolean
}

export interface UsersPage {
  users: AdminUser[]
  /** The cursor of the next page (older users), when there is one. */
  next: string | null
}

export interface AuditEntry {
  id: string
  actor: string | null
  action: string
  targetType: string
  targetLabel: string | null
  details: Record<string, unknown>
  createdAt: string
}

export interface FeedbackItem {
  id: string
  username: string | null
  liked: boolean
  usage: string
  recommendations: string
  createdAt: string
}

export interface FeedbackPage {
  entries: FeedbackItem[]
  next: string | null
}

export type { ReportDecision }
