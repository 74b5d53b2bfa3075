import { redirect } from '@remix-run/node'
import { LIMITS } from '~/lib/catalog'
import { COURSE_MESSAGES } from '~/lib/schemas/courses'
import { canMakeCourses } from '../courses.server'
import { requireUser } from '../permissions.server'
import type { SignedInSession } from '../session.server'
import type { LumenLoadContext } from '../supabase.server'
import { redirectWithFlash } from './flash.server'
import { receiveMultipart, type ReceivedFile } from './multipart.server'

/**
 * The course pages' guard and form (ADR 0048). Only verified creators make courses; others
 * are sent away as the upload page sends them: a creator still waiting for verification to
 * their profile's Account Verification Required panel, anyone else to the feed with a note.
 */
export async function requireCourseAuthor(
  request: Request,
  context: Partial<LumenLoadContext> | undefined,
  options: { verify?: boolean } = {},
): Promise<SignedInSession> {
  const session = await requireUser(request, context, options)
  if (await canMakeCourses(session.claims)) return session
  if (session.user.role === 'creator') throw redirect('/profile?verification=required', { headers: session.headers })
  throw await redirectWithFlash('/feed', { kind: 'info', message: COURSE_MESSAGES.notCreator }, session.headers)
}

export interface ReceivedCourseForm {
  form: FormData
  cover: ReceivedFile | null
  dispose(): Promise<void>
}

/** The course form: multipart with an optional cover (up to 5 MB), or a plain urlencoded post. */
export async function receiveCourseForm(request: Request): Promise<ReceivedCourseForm> {
  if (!(request.headers.get('Content-Type') ?? '').startsWith('multipart/form-data')) {
    return { form: await request.formData(), cover: null, dispose: async () => {} }
  }
  const received = await receiveMultipart(request, {
    files: { cover: LIMITS.thumbnailBytes },
    abandonBytes: 4 * LIMITS.thumbnailBytes,
    tooLargeMessage: 'Cover image is too large. Maximum size is 5MB',
    formName: 'course form',
    maxTextFieldBytes: 64 * 1024,
    maxTextFields: 600,
  })
  return { form: received.form, cover: received.files.cover ?? null, dispose: received.dispose }
}

/** A text field of a form ('' when absent). */
export function formText(form: FormData, name: string): string {
  const value = form.get(name)
  return typeof value === 'string' ? value : ''
}
