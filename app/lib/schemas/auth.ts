import { z } from 'zod'
import { CONCENTRATIONS, CREATOR_CATEGORIES, FIELDS_OF_INTEREST, LIMITS } from '~/lib/catalog'

/**
 * The account forms' rules, shared by the browser (checks before submitting)
 * and the server (the same checks again, then Auth's). Messages are the
 * spec's own (docs/product.md, Rules and messages) where it has one, plain sentences otherwise.
 */
export const AUTH_MESSAGES = {
  usernameRequired: 'Username is required',
  usernameFormat: 'Usernames are 3–30 letters, numbers, dots, dashes or underscores',
  usernameTaken: 'That username is taken. Please choose another one.',
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Password should be at least 6 characters',
  passwordTooLong: 'Password can be at most 72 characters',
  passwordsDiffer: 'Passwords do not match',
  fillRequired: 'Please fill in all required fields',
  fieldOfInterest: 'Please choose a field of interest from the list',
  concentration: 'Please choose a concentration from the list',
  bioTooLong: 'Bio can be at most 500 characters',
  bioUnreadable: 'Bio contains a character that cannot be saved',
  categoryRequired: 'Please select at least one category',
  portfolioType: 'Please choose a portfolio type',
  portfolioRequired: 'Please select a portfolio file',
  signupFailed: 'An error occurred during signup. Please try again.',
  accountExists: 'An account with this email already exists. Sign in instead?',
  loginFailed: 'Failed to login. Please check your credentials.',
  tooManyAttempts: 'Too many attempts from your connection. Please wait a few minutes and try again.',
  resetEmailRequired: 'Please enter your email address',
  resetSent: 'Password reset instructions have been sent to your email',
  resetFailed: 'Error sending reset email. Please try again.',
  emailNotRegistered: 'This email is not registered. Please sign up first.',
  emailRegistered: 'Good news: this email has a Lumen account. Sign in with your password.',
  passwordUpdated: 'Your password has been updated.',
  accountSuspended: 'This account has been suspended. Please contact support.',
  signupDisabled: 'New accounts cannot be created right now. Please try again later.',
  tooManyChecks: 'Too many checks from your connection. Please wait a few minutes and try again.',
  tooManyResetEmails: 'Too many reset emails have been sent. Please try again in a while.',
  samePassword: 'Your new password must be different from your old one.',
  resetLinkExpired: 'Your reset link has expired. Please request a new one.',
  passwordUpdateFailed: 'Your password could not be updated. Please try again.',
  portfolioFarTooLarge: 'The portfolio file is far too large',
} as const

// Bcrypt (and so Auth) reads at most 72 bytes of a password.
const MAX_PASSWORD_LENGTH = 72
const MIN_PASSWORD_LENGTH = 6
export const USERNAME_PATTERN = /^[A-Za-z0-9._-]{3,30}$/

/** The portfolio a creator submits with their application (docs/product.md: Sign-up; the hints in Rules and messages). */
export const PORTFOLIO_TYPES = [
  {
    value: 'video',
    label: 'Demo Video',
    maxBytes: LIMITS.portfolioVideoBytes,
    tooLarge: 'Demo video is too large. Maximum size is 50MB',
    wrongType: 'Please choose a video file for a Demo Video',
    accept: 'video/*',
    mimes: (mime: string) => mime.startsWith('video/'),
    extensions: ['mp4', 'm4v', 'mov', 'webm', 'mkv', 'avi', 'mpeg', 'mpg', 'ogv', '3gp'],
  },
  {
    value: 'image',
    label: 'Portfolio Image',
    maxBytes: LIMITS.portfolioImageBytes,
    tooLarge: 'Portfolio image is too large. Maximum size is 5MB',
    wrongType: 'Please choose a JPEG, PNG, WebP, GIF or AVIF image for a Portfolio Image',
    accept: 'image/jpeg,image/png,image/webp,image/gif,image/avif',
    mimes: (mime: string) => ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'].includes(mime),
    extensions: ['jpg', 'jpeg', 'png', 'webp', 'gif', 'avif'],
  },
  {
    value: 'document',
    label: 'Document/CV',
    // The portfolios bucket's own limit.
    maxBytes: 52_428_800,
    tooLarge: 'Document is too large. Maximum size is 50MB',
    wrongType: 'Please choose a PDF, DOC or DOCX file for a Document/CV',
    accept: '.pdf,.doc,.docx,application/pdf,application/msword,application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    mimes: (mime: string) =>
      [
        'application/pdf',
        'application/msword',
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      ].includes(mime),
    extensions: ['pdf', 'doc', 'docx'],
  },
] as const

/** The largest portfolio of any type; a bigger file is counted but not kept. */
export const PORTFOLIO_MAX_BYTES = Math.max(...PORTFOLIO_TYPES.map((type) => type.maxBytes))

export type PortfolioType = (typeof PORTFOLIO_TYPES)[number]['value']
export const PORTFOLIO_TYPE_VALUES = PORTFOLIO_TYPES.map((type) => type.value) as [PortfolioType, ...PortfolioType[]]
export const PORTFOLIO_HINT = 'Video up to 50MB · Image up to 5MB · Documents: PDF, DOC, DOCX'
/** What a file input accepts before a type is chosen (and always without JavaScript). */
export const PORTFOLIO_ACCEPT_ANY = PORTFOLIO_TYPES.map((type) => type.accept).join(',')

export function portfolioType(value: string) {
  return PORTFOLIO_TYPES.find((type) => type.value === value)
}

/**
 * What is known of the chosen file: in the browser its name, size and the
 * type the browser guessed; on the server the type read from its content.
 */
export interface PortfolioFileInfo {
  name: string
  size: number
  /** A MIME type; '' when unknown (then the extension decides). */
  type: string
}

/** Whether the file suits the chosen portfolio type: by its MIME type when known, else its extension. */
export function fileSuitsPortfolioType(file: PortfolioFileInfo, type: PortfolioType): boolean {
  const rules = portfolioType(type)
  if (!rules) return false
  if (file.type) return rules.mimes(file.type)
  const extension = file.name.toLowerCase().split('.').pop() ?? ''
  return (rules.extensions as readonly string[]).includes(extension)
}

const email = (required: string) =>
  z.string().trim().min(1, required).max(254, AUTH_MESSAGES.emailInvalid).email(AUTH_MESSAGES.emailInvalid)

const newPassword = z
  .string()
  .min(1, AUTH_MESSAGES.passwordRequired)
  .min(MIN_PASSWORD_LENGTH, AUTH_MESSAGES.passwordTooShort)
  .max(MAX_PASSWORD_LENGTH, AUTH_MESSAGES.passwordTooLong)

/** An optional choice from a fixed list: '' (nothing chosen) becomes null. */
const optionalChoice = <T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z
    .string()
    .optional()
    .refine((value) => !value || (values as readonly string[]).includes(value), message)
    .transform((value) => (value ? (value as T[number]) : null))

/** A profile's bio, at sign-up and on the profile's edit page: at most 500 characters, none the database cannot store. */
export const bioField = z
  .string()
  .trim()
  .max(500, AUTH_MESSAGES.bioTooLong)
  .refine((value) => !value.includes('\u0000'), AUTH_MESSAGES.bioUnreadable)
  .default('')

const creatorCategoryIds = CREATOR_CATEGORIES.map((category) => category.id) as [string, ...string[]]

/**
 * Sign-up's rules. The form requires a creator's portfolio with the
 * application; the JSON API (`POST /api/auth/signup`, docs/product.md, The JSON API: the portfolio
 * is not in the body) takes it later, through the profile.
 */
export const makeSignupSchema = (options: { portfolio: 'required' | 'later' }) =>
  z
  .object({
    role: z.enum(['user', 'creator']),
    username: z
      .string()
      .trim()
      .min(1, AUTH_MESSAGES.usernameRequired)
      .refine((value) => !value || USERNAME_PATTERN.test(value), AUTH_MESSAGES.usernameFormat),
    email: email(AUTH_MESSAGES.emailRequired),
    password: newPassword,
    confirmPassword: z.string(),
    fieldOfInterest: optionalChoice(FIELDS_OF_INTEREST, AUTH_MESSAGES.fieldOfInterest),
    concentration: optionalChoice(CONCENTRATIONS, AUTH_MESSAGES.concentration),
    bio: bioField,
    categories: z.array(z.string()).default([]),
    portfolioType: z.string().default(''),
    portfolio: z.custom<PortfolioFileInfo>().nullable().default(null),
  })
  .superRefine((value, ctx) => {
    if (value.password && value.confirmPassword !== value.password) {
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: AUTH_MESSAGES.passwordsDiffer })
    }
    if (value.role !== 'creator') return
    const chosen = value.categories.filter((id) => creatorCategoryIds.includes(id))
    if (chosen.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['categories'], message: AUTH_MESSAGES.categoryRequired })
    }
    if (options.portfolio === 'later' && !value.portfolioType && !value.portfolio) return
    const rules = portfolioType(value.portfolioType)
    if (!rules) {
      ctx.addIssue({ code: 'custom', path: ['portfolioType'], message: AUTH_MESSAGES.portfolioType })
      return
    }
    const file = value.portfolio
    if (!file || file.size === 0) {
      ctx.addIssue({ code: 'custom', path: ['portfolio'], message: AUTH_MESSAGES.portfolioRequired })
    } else if (!fileSuitsPortfolioType(file, rules.value)) {
      ctx.addIssue({ code: 'custom', path: ['portfolio'], message: rules.wrongType })
    } else if (file.size > rules.maxBytes) {
      ctx.addIssue({ code: 'custom', path: ['portfolio'], message: rules.tooLarge })
    }
  })
  .transform((value) => {
    const creator = value.role === 'creator'
    return {
      role: value.role,
      username: value.username,
      email: value.email.toLowerCase(),
      password: value.password,
      fieldOfInterest: value.fieldOfInterest,
      concentration: creator ? value.concentration : null,
      bio: creator ? value.bio : '',
      categories: creator ? [...new Set(value.categories.filter((id) => creatorCategoryIds.includes(id)))] : [],
      portfolioType: creator && value.portfolioType ? (value.portfolioType as PortfolioType) : null,
      portfolio: creator ? value.portfolio : null,
    }
  })

export const signupSchema = makeSignupSchema({ portfolio: 'required' })

export type SignupInput = z.output<typeof signupSchema>

/** The sign-up form's fields as the schema reads them; the file is described separately. */
export function signupFormValues(form: FormData, portfolio: PortfolioFileInfo | null) {
  const text = (name: string) => {
    const value = form.get(name)
    return typeof value === 'string' ? value : ''
  }
  return {
    role: text('role'),
    username: text('username'),
    email: text('email'),
    password: text('password'),
    confirmPassword: text('confirmPassword'),
    fieldOfInterest: text('fieldOfInterest'),
    concentration: text('concentration'),
    bio: text('bio'),
    categories: form.getAll('categories').filter((value): value is string => typeof value === 'string'),
    portfolioType: text('portfolioType'),
    portfolio,
  }
}

/** What a failed sign-up sends back to refill the form: everything but the passwords and the file. */
export function signupEcho(values: ReturnType<typeof signupFormValues>) {
  return {
    username: values.username,
    email: values.email,
    fieldOfInterest: values.fieldOfInterest,
    concentration: values.concentration,
    bio: values.bio,
    categories: values.categories,
    portfolioType: values.portfolioType,
  }
}

export type SignupEcho = ReturnType<typeof signupEcho>

export const signinSchema = z.object({
  email: email(AUTH_MESSAGES.emailRequired),
  password: z.string().min(1, AUTH_MESSAGES.passwordRequired).max(1024, AUTH_MESSAGES.passwordTooLong),
  redirectTo: z.string().optional(),
})

/** The reset form and 'Check if account exists' both need just an email. */
export const emailOnlySchema = z.object({
  email: email(AUTH_MESSAGES.resetEmailRequired),
})

export const resetPasswordSchema = z
  .object({
    password: newPassword,
    confirmPassword: z.string(),
  })
  .superRefine((value, ctx) => {
    if (value.password && value.confirmPassword !== value.password) {
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: AUTH_MESSAGES.passwordsDiffer })
    }
  })

export type { FieldErrors } from '~/lib/forms'

/** The first message for each field, keyed by its name. */
export { issueErrors as fieldErrors } from '~/lib/forms'
