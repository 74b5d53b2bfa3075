import { z } from 'zod'
import { AUTH_MESSAGES } from './auth'

/**
 * The admin console's messages (docs/product.md, Rules and messages, Admin) and the inputs of its
 * forms, shared by the console, its services and the tests.
 */
export const ADMIN_MESSAGES = {
  loadApplicationsFailed: 'Failed to load pending creator applications',
  loadReportsFailed: 'Failed to load reported content',
  loadUsersFailed: 'Failed to load users',
  loadFeedbackFailed: 'Failed to load feedback',
  reviewFailed: 'Failed to review creator',
  addUserFailed: 'Failed to add user',
  deleteUserFailed: 'Failed to delete user',
  fixFailed: 'Failed to fix portfolios',
  decideFailed: 'Failed to update the report',
  roleFailed: 'Failed to change the role',
  noPortfolio: 'No portfolio available for this creator.',
  forbidden: 'Only admins can open the admin console.',
  fillRequired: AUTH_MESSAGES.fillRequired,
  roleRequired: 'Role is required',
  applicationNotFound: 'This application was already reviewed or does not exist',
  notesTooLong: 'Review notes can be at most 2,000 characters',
  approved: 'Creator approved. They can upload now.',
  categoryApproved: 'Category approved. The creator can publish in it now.',
  categoryRejected: 'Category request rejected.',
  categoryNotFound: 'This category request was already reviewed or does not exist',
  rejected: 'Application rejected.',
  reportNotFound: 'There is no open report for this content',
  reviewed: 'Reports marked as reviewed.',
  dismissed: 'Reports dismissed.',
  removed: 'Content removed.',
  userAdded: 'User added. They can sign in now.',
  userDeleted: 'User deleted.',
  userNotFound: 'User not found',
  cannotDeleteSelf: 'You cannot delete your own account (Current User).',
  cannotChangeOwnRole: 'You cannot change your own role.',
  roleChanged: 'Role updated. It takes effect on their next request.',
  emailTaken: 'A user with this email already exists',
  usernameTaken: AUTH_MESSAGES.usernameTaken,
  unknownAction: 'Unknown action',
} as const

export function fixedMessage(fixedCount: number): string {
  return fixedCount === 1 ? 'Fixed 1 portfolio issue.' : `Fixed ${fixedCount} portfolio issues.`
}

export const ADMIN_TABS = ['creators', 'reports', 'users', 'feedback'] as const
export type AdminTab = (typeof ADMIN_TABS)[number]
export const ADMIN_TAB_LABELS: Record<AdminTab, string> = {
  creators: 'Pending Creators',
  reports: 'Reports',
  users: 'User Management',
  feedback: 'Feedback',
}

export function adminTab(value: string | null): AdminTab {
  return (ADMIN_TABS as readonly string[]).includes(value ?? '') ? (value as AdminTab) : 'creators'
}

/** A tab's page title. */
export function adminTitle(tab: AdminTab): string {
  return `${ADMIN_TAB_LABELS[tab]} · Admin Dashboard — Lumen`
}

/** Where a tab lives: Pending Creators at /admin itself, the others at /admin/<tab> (a route each). */
export function adminTabPath(tab: AdminTab): string {
  return tab === 'creators' ? '/admin' : `/admin/${tab}`
}

export const USER_ROLES = ['user', 'creator', 'admin'] as const
export type UserRole = (typeof USER_ROLES)[number]
export const ROLE_LABELS: Record<UserRole, string> = { user: 'Learner', creator: 'Creator', admin: 'Admin' }

export const REPORT_DECISIONS = ['reviewed', 'dismissed', 'removed'] as const
export type ReportDecision = (typeof REPORT_DECISIONS)[number]
export const REPORT_STATUSES = ['pending', 'reviewed', 'dismissed', 'removed'] as const
export type ReportStatus = (typeof REPORT_STATUSES)[number]

export const ADMIN_INTENTS = [
  'review',
  'review-category',
  'decide-report',
  'add-user',
  'delete-user',
  'change-role',
  'fix-portfolios',
] as const
export type AdminIntent = (typeof ADMIN_INTENTS)[number]
export const adminIntentSchema = z.enum(ADMIN_INTENTS)

/** What each tab says when it cannot load (docs/product.md, Rules and messages). */
export const ADMIN_LOAD_FAILURES: Record<AdminTab, string> = {
  creators: ADMIN_MESSAGES.loadApplicationsFailed,
  reports: ADMIN_MESSAGES.loadReportsFailed,
  users: ADMIN_MESSAGES.loadUsersFailed,
  feedback: ADMIN_MESSAGES.loadFeedbackFailed,
}

/** The reports filter from the URL: a status, 'all', or pending by default. */
export function reportStatus(value: string | null): ReportStatus | 'all' {
  return (REPORT_STATUSES as readonly string[]).includes(value ?? '')
    ? (value as ReportStatus)
    : value === 'all'
      ? 'all'
      : 'pending'
}

/** What each console action says when it fails unexpectedly. */
export const ADMIN_ACTION_FAILURES: Record<AdminIntent, string> = {
  review: ADMIN_MESSAGES.reviewFailed,
  'review-category': ADMIN_MESSAGES.reviewFailed,
  'decide-report': ADMIN_MESSAGES.decideFailed,
  'add-user': ADMIN_MESSAGES.addUserFailed,
  'delete-user': ADMIN_MESSAGES.deleteUserFailed,
  'change-role': ADMIN_MESSAGES.roleFailed,
  'fix-portfolios': ADMIN_MESSAGES.fixFailed,
}

const text = (value: FormDataEntryValue | null) => (typeof value === 'string' ? value : '')

export const reviewSchema = z.object({
  applicationId: z.string().uuid(ADMIN_MESSAGES.applicationNotFound),
  approved: z.enum(['true', 'false']).transform((value) => value === 'true'),
  reviewNotes: z
    .string()
    .trim()
    .max(2000, ADMIN_MESSAGES.notesTooLong)
    .refine((value) => !value.includes('\u0000'), ADMIN_MESSAGES.notesTooLong)
    .transform((value) => value || null),
})
export type ReviewInput = z.output<typeof reviewSchema>

export const reviewCategorySchema = z.object({
  creatorId: z.string().uuid(ADMIN_MESSAGES.categoryNotFound),
  categoryId: z
    .string()
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, ADMIN_MESSAGES.categoryNotFound)
    .max(100, ADMIN_MESSAGES.categoryNotFound),
  approved: z.enum(['true', 'false']).transform((value) => value === 'true'),
})
export type ReviewCategoryInput = z.output<typeof reviewCategorySchema>

export const decideReportSchema = z.object({
  contentType: z.enum(['video', 'quote', 'comment']),
  contentId: z.string().uuid(ADMIN_MESSAGES.reportNotFound),
  status: z.enum(REPORT_DECISIONS),
})
export type DecideReportInput = z.output<typeof decideReportSchema>

/** Admin add user (docs/product.md, Rules and messages): username, email, password and role, all required. */
export const addUserSchema = z.object({
  username: z
    .string()
    .trim()
    .min(1, AUTH_MESSAGES.usernameRequired)
    .regex(/^[A-Za-z0-9._-]{3,30}$/, AUTH_MESSAGES.usernameFormat),
  email: z
    .string()
    .trim()
    .min(1, AUTH_MESSAGES.emailRequired)
    .email(AUTH_MESSAGES.emailInvalid)
    .max(254, AUTH_MESSAGES.emailInvalid),
  password: z
    .string()
    .min(1, AUTH_MESSAGES.passwordRequired)
    .min(6, AUTH_MESSAGES.passwordTooShort)
    .max(72, AUTH_MESSAGES.passwordTooLong),
  role: z.enum(USER_ROLES, { errorMap: () => ({ message: ADMIN_MESSAGES.roleRequired }) }),
})
export type AddUserInput = z.output<typeof addUserSchema>

export function addUserValues(form: FormData) {
  return { username: text(form.get('username')), email: text(form.get('email')), role: text(form.get('role')) }
}

export const changeRoleSchema = z.object({
  userId: z.string().uuid(ADMIN_MESSAGES.userNotFound),
  role: z.enum(USER_ROLES, { errorMap: () => ({ message: ADMIN_MESSAGES.roleRequired }) }),
})

/** The first value of each named field, as text (a repeated field cannot smuggle an array in). */
export function formFields<K extends string>(form: FormData, names: readonly K[]): Record<K, string> {
  return Object.fromEntries(names.map((name) => [name, text(form.get(name))])) as Record<K, string>
}
