import { describe, expect, it } from 'vitest'
import {
  AUTH_MESSAGES,
  emailOnlySchema,
  fieldErrors,
  fileSuitsPortfolioType,
  resetPasswordSchema,
  signinSchema,
  signupEcho,
  signupFormValues,
  signupSchema,
  type PortfolioFileInfo,
} from './auth'

const learner = {
  role: 'user',
  username: 'ada_learns',
  email: 'Ada@Example.com',
  password: 'Sunny-Lesson-42',
  confirmPassword: 'Sunny-Lesson-42',
  fieldOfInterest: 'Physics',
}

const png: PortfolioFileInfo = { name: 'work.png', size: 2048, type: 'image/png' }
const creator = {
  ...learner,
  role: 'creator',
  concentration: 'Data Science',
  bio: 'I teach statistics.',
  categories: ['natural-sciences-physics', 'media'],
  portfolioType: 'image',
  portfolio: png,
}

function errorsOf(input: Record<string, unknown>) {
  const parsed = signupSchema.safeParse(input)
  return parsed.success ? {} : fieldErrors(parsed.error)
}

describe('signupSchema (sign-up rules)', () => {
  it('accepts a learner and normalises what it keeps', () => {
    const parsed = signupSchema.parse({ ...learner, bio: 'ignored for learners', categories: ['media'] })
    expect(parsed).toEqual({
      role: 'user',
      username: 'ada_learns',
      email: 'ada@example.com',
      password: 'Sunny-Lesson-42',
      fieldOfInterest: 'Physics',
      concentration: null,
      bio: '',
      categories: [],
      portfolioType: null,
      portfolio: null,
    })
  })

  it('accepts a creator with a portfolio and at least one category', () => {
    const parsed = signupSchema.parse({ ...creator, categories: ['media', 'media', 'not-a-category'] })
    expect(parsed).toMatchObject({ role: 'creator', concentration: 'Data Science', categories: ['media'], portfolioType: 'image', portfolio: png })
  })

  it.each([
    ['username', AUTH_MESSAGES.usernameRequired, 'Username is required'],
    ['email', AUTH_MESSAGES.emailRequired, 'Email is required'],
    ['password', AUTH_MESSAGES.passwordRequired, 'Password is required'],
  ])('a missing %s says %j', (field, message, spec) => {
    expect(message).toBe(spec)
    expect(errorsOf({ ...learner, [field]: '' })[field]).toBe(spec)
    expect(errorsOf({ ...learner, [field]: '   ' })[field]).toBe(field === 'password' ? AUTH_MESSAGES.passwordTooShort : spec)
  })

  it('an empty form names each missing field', () => {
    expect(errorsOf({ role: 'user', username: '', email: '', password: '', confirmPassword: '' })).toEqual({
      username: 'Username is required',
      email: 'Email is required',
      password: 'Password is required',
    })
  })

  it('a confirmation that differs says "Passwords do not match"', () => {
    expect(errorsOf({ ...learner, confirmPassword: 'Sunny-Lesson-43' })).toEqual({ confirmPassword: 'Passwords do not match' })
    expect(errorsOf({ ...learner, confirmPassword: '' })).toEqual({ confirmPassword: 'Passwords do not match' })
  })

  it('a creator without categories says "Please select at least one category"', () => {
    expect(errorsOf({ ...creator, categories: [] })).toEqual({ categories: 'Please select at least one category' })
    // 'Other' is the upload default, not a category a creator applies for.
    expect(errorsOf({ ...creator, categories: ['other'] })).toEqual({ categories: 'Please select at least one category' })
  })

  it('a creator must choose a portfolio file', () => {
    expect(errorsOf({ ...creator, portfolio: null })).toEqual({ portfolio: 'Please select a portfolio file' })
    expect(errorsOf({ ...creator, portfolio: { ...png, size: 0 } })).toEqual({ portfolio: 'Please select a portfolio file' })
  })

  it('keeps to the portfolio hints: video up to 50MB, image up to 5MB, documents PDF, DOC, DOCX', () => {
    const video = { name: 'demo.mp4', type: 'video/mp4', size: 50 * 1024 * 1024 }
    expect(errorsOf({ ...creator, portfolioType: 'video', portfolio: video })).toEqual({})
    expect(errorsOf({ ...creator, portfolioType: 'video', portfolio: { ...video, size: video.size + 1 } })).toEqual({
      portfolio: 'Demo video is too large. Maximum size is 50MB',
    })
    expect(errorsOf({ ...creator, portfolio: { ...png, size: 5 * 1024 * 1024 } })).toEqual({})
    expect(errorsOf({ ...creator, portfolio: { ...png, size: 5 * 1024 * 1024 + 1 } })).toEqual({
      portfolio: 'Portfolio image is too large. Maximum size is 5MB',
    })
    expect(errorsOf({ ...creator, portfolioType: 'document', portfolio: png })).toEqual({
      portfolio: 'Please choose a PDF, DOC or DOCX file for a Document/CV',
    })
    expect(errorsOf({ ...creator, portfolioType: 'video', portfolio: png })).toEqual({
      portfolio: 'Please choose a video file for a Demo Video',
    })
    expect(errorsOf({ ...creator, portfolioType: 'slides' })).toEqual({ portfolioType: 'Please choose a portfolio type' })
  })

  it('does not ask learners for creator fields', () => {
    expect(errorsOf({ ...learner, categories: [], portfolio: null, portfolioType: '' })).toEqual({})
  })

  it('refuses usernames the database would have to rewrite, and lists outside the spec’s', () => {
    expect(errorsOf({ ...learner, username: 'ab' }).username).toBe(AUTH_MESSAGES.usernameFormat)
    expect(errorsOf({ ...learner, username: 'has space' }).username).toBe(AUTH_MESSAGES.usernameFormat)
    expect(errorsOf({ ...learner, username: 'x'.repeat(31) }).username).toBe(AUTH_MESSAGES.usernameFormat)
    expect(errorsOf({ ...learner, fieldOfInterest: 'Astrology' }).fieldOfInterest).toBe(AUTH_MESSAGES.fieldOfInterest)
    expect(errorsOf({ ...creator, concentration: 'Knitting' }).concentration).toBe(AUTH_MESSAGES.concentration)
    expect(errorsOf({ ...creator, bio: 'b'.repeat(501) }).bio).toBe(AUTH_MESSAGES.bioTooLong)
    expect(errorsOf({ ...creator, bio: 'null\u0000byte' }).bio).toBe(AUTH_MESSAGES.bioUnreadable)
  })

  it('checks the email and the Auth password length before Auth does', () => {
    expect(errorsOf({ ...learner, email: 'not-an-email' }).email).toBe('Please enter a valid email address')
    expect(errorsOf({ ...learner, password: 'Ab1!', confirmPassword: 'Ab1!' }).password).toBe(
      'Password should be at least 6 characters',
    )
    const long = 'A1!' + 'a'.repeat(70)
    expect(errorsOf({ ...learner, password: long, confirmPassword: long }).password).toBe('Password can be at most 72 characters')
  })

  it('the password strength is advisory: a weak password of 6+ characters passes', () => {
    expect(errorsOf({ ...learner, password: 'aaaaaa', confirmPassword: 'aaaaaa' })).toEqual({})
  })
})

describe('signupFormValues and signupEcho', () => {
  it('read the form by field name and send back everything but the passwords', () => {
    const form = new FormData()
    for (const [name, value] of Object.entries({ ...learner, bio: 'Hi', portfolioType: 'image' })) form.append(name, value)
    form.append('categories', 'media')
    form.append('categories', 'arts-creativity')
    const values = signupFormValues(form, png)
    expect(values).toMatchObject({ username: 'ada_learns', categories: ['media', 'arts-creativity'], portfolio: png })
    const echo = signupEcho(values)
    expect(echo).not.toHaveProperty('password')
    expect(echo).not.toHaveProperty('confirmPassword')
    expect(JSON.stringify(echo)).not.toContain(learner.password)
  })
})

describe('fileSuitsPortfolioType', () => {
  it('judges by MIME type when known and by extension otherwise', () => {
    expect(fileSuitsPortfolioType({ name: 'cv.docx', size: 1, type: '' }, 'document')).toBe(true)
    expect(fileSuitsPortfolioType({ name: 'cv.pdf', size: 1, type: 'text/html' }, 'document')).toBe(false)
    expect(fileSuitsPortfolioType({ name: 'clip.webm', size: 1, type: '' }, 'video')).toBe(true)
    expect(fileSuitsPortfolioType({ name: 'drawing.svg', size: 1, type: 'image/svg+xml' }, 'image')).toBe(false)
  })
})

describe('signinSchema', () => {
  it('asks for both fields', () => {
    const parsed = signinSchema.safeParse({ email: '', password: '' })
    expect(parsed.success ? {} : fieldErrors(parsed.error)).toEqual({ email: 'Email is required', password: 'Password is required' })
  })
})

describe('emailOnlySchema (the reset form)', () => {
  it('an empty email says "Please enter your email address"', () => {
    const parsed = emailOnlySchema.safeParse({ email: '  ' })
    expect(parsed.success ? {} : fieldErrors(parsed.error)).toEqual({ email: 'Please enter your email address' })
  })

  it('a malformed email asks for a valid one; a good one is trimmed', () => {
    const bad = emailOnlySchema.safeParse({ email: 'nobody@' })
    expect(bad.success ? {} : fieldErrors(bad.error)).toEqual({ email: 'Please enter a valid email address' })
    expect(emailOnlySchema.parse({ email: ' ada@example.com ' })).toEqual({ email: 'ada@example.com' })
  })
})

describe('resetPasswordSchema', () => {
  it('asks for a password and a matching confirmation', () => {
    const empty = resetPasswordSchema.safeParse({ password: '', confirmPassword: '' })
    expect(empty.success ? {} : fieldErrors(empty.error)).toEqual({ password: 'Password is required' })
    const differ = resetPasswordSchema.safeParse({ password: 'Brand-New-1', confirmPassword: 'Brand-New-2' })
    expect(differ.success ? {} : fieldErrors(differ.error)).toEqual({ confirmPassword: 'Passwords do not match' })
    expect(resetPasswordSchema.safeParse({ password: 'Brand-New-1', confirmPassword: 'Brand-New-1' }).success).toBe(true)
  })
})
