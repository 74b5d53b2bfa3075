import { describe, expect, it } from 'vitest'
import {
  checkThumbnailFile,
  checkVideoFile,
  isOwnVideoObjectName,
  sparkTooLong,
  sparkTooLongMessage,
  UPLOAD_MESSAGES,
  uploadErrors,
  uploadFormValues,
  uploadSchema,
  videoExtension,
  videoObjectName,
} from './upload'

const valid = {
  title: '  How lenses bend light ',
  description: 'Refraction and focal points.',
  type: 'video',
  category: 'natural-sciences-physics',
  visibility: 'public',
  thoughts: '',
}

function errorsOf(input: Record<string, unknown>) {
  const parsed = uploadSchema.safeParse(input)
  return parsed.success ? {} : uploadErrors(parsed.error)
}

describe('upload form schema', () => {
  it('trims the title and keeps the rest', () => {
    expect(uploadSchema.parse(valid)).toEqual({
      title: 'How lenses bend light',
      description: 'Refraction and focal points.',
      type: 'video',
      category: 'natural-sciences-physics',
      visibility: true,
      thoughts: null,
    })
  })

  it('asks for a title when it is empty or only spaces: Please enter a title', () => {
    expect(errorsOf({ ...valid, title: '   ' }).title).toBe(UPLOAD_MESSAGES.titleRequired)
    expect(errorsOf({ ...valid, title: undefined }).title).toBe(UPLOAD_MESSAGES.titleRequired)
  })

  it('requires a description and a destination, as the form does', () => {
    expect(errorsOf({ ...valid, description: ' ' }).description).toBe(UPLOAD_MESSAGES.descriptionRequired)
    expect(errorsOf({ ...valid, type: 'reel' }).type).toBe(UPLOAD_MESSAGES.destinationRequired)
  })

  it('defaults a missing category to other and refuses one outside the fixed list', () => {
    expect(uploadSchema.parse({ ...valid, category: '' }).category).toBe('other')
    expect(errorsOf({ ...valid, category: 'astrology' }).category).toBe(UPLOAD_MESSAGES.categoryRequired)
  })

  it('reads private only when asked; keeps optional thoughts', () => {
    expect(uploadSchema.parse({ ...valid, visibility: 'private' }).visibility).toBe(false)
    expect(uploadSchema.parse({ ...valid, visibility: undefined }).visibility).toBe(true)
    expect(uploadSchema.parse({ ...valid, thoughts: ' Great one ' }).thoughts).toBe('Great one')
  })

  it('refuses over-long text and NUL bytes with a message, never a database error', () => {
    expect(errorsOf({ ...valid, title: 'x'.repeat(201) }).title).toBe(UPLOAD_MESSAGES.titleTooLong)
    expect(errorsOf({ ...valid, description: 'x'.repeat(5001) }).description).toBe(UPLOAD_MESSAGES.descriptionTooLong)
    expect(errorsOf({ ...valid, thoughts: 'x'.repeat(2001) }).thoughts).toBe(UPLOAD_MESSAGES.thoughtsTooLong)
    expect(errorsOf({ ...valid, title: 'a\u0000b' }).title).toBe(UPLOAD_MESSAGES.unsupported)
  })

  it('reads the text fields of a submitted form', () => {
    const form = new FormData()
    form.set('title', 'T')
    form.set('video', new Blob(['x']), 'x.mp4')
    expect(uploadFormValues(form)).toEqual({
      title: 'T',
      description: '',
      type: '',
      category: '',
      visibility: '',
      thoughts: '',
      lessonId: '',
      lessonAt: '',
    })
  })
})

describe('file checks in the browser', () => {
  it('video: required, at most 100MB, a video type', () => {
    expect(checkVideoFile(null)).toBe(UPLOAD_MESSAGES.videoRequired)
    expect(checkVideoFile({ name: 'a.mp4', size: 0, type: 'video/mp4' })).toBe(UPLOAD_MESSAGES.videoRequired)
    expect(checkVideoFile({ name: 'a.mp4', size: 104_857_601, type: 'video/mp4' })).toBe(UPLOAD_MESSAGES.videoTooLarge)
    expect(checkVideoFile({ name: 'a.mp4', size: 104_857_600, type: 'video/mp4' })).toBeNull()
    expect(checkVideoFile({ name: 'a.txt', size: 10, type: 'text/plain' })).toBe(UPLOAD_MESSAGES.videoNotVideo)
  })

  it('thumbnail: required, at most 5MB, a bitmap (never SVG)', () => {
    expect(checkThumbnailFile(null)).toBe(UPLOAD_MESSAGES.thumbnailRequired)
    expect(checkThumbnailFile({ name: 't.jpg', size: 5_242_881, type: 'image/jpeg' })).toBe(UPLOAD_MESSAGES.thumbnailTooLarge)
    expect(checkThumbnailFile({ name: 't.svg', size: 100, type: 'image/svg+xml' })).toBe(UPLOAD_MESSAGES.thumbnailNotImage)
    expect(checkThumbnailFile({ name: 't.png', size: 100, type: 'image/png' })).toBeNull()
  })

  it('warns about sparks of a minute or more with the server’s words', () => {
    expect(sparkTooLong(59.9)).toBe(false)
    expect(sparkTooLong(60)).toBe(true)
    expect(sparkTooLong(null)).toBe(false)
    expect(sparkTooLongMessage(72.4)).toBe('Sparks must be under 60 seconds. This video is 72 seconds long.')
  })
})

describe('object names', () => {
  const user = '0b0e3a4c-1111-4222-8333-444455556666'
  const id = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee'

  it('are generated: the user folder, a random id and a known extension, never the file name', () => {
    expect(videoObjectName(user, id, videoExtension({ name: 'My Holiday.MOV', type: 'video/quicktime' }))).toBe(
      `${user}/videos/${id}.mov`,
    )
    expect(videoExtension({ name: '../../etc/passwd', type: '' })).toBe('mp4')
    expect(videoExtension({ name: 'clip', type: 'video/webm' })).toBe('webm')
  })

  it('are accepted back only from the same user, in the generated shape', () => {
    expect(isOwnVideoObjectName(`${user}/videos/${id}.mp4`, user)).toBe(true)
    expect(isOwnVideoObjectName(`${user}/videos/${id}.mp4`, id)).toBe(false)
    expect(isOwnVideoObjectName(`${user}/videos/holiday.mp4`, user)).toBe(false)
    expect(isOwnVideoObjectName(`${user}/videos/../${id}.mp4`, user)).toBe(false)
    expect(isOwnVideoObjectName(`${user}/quotes/${id}.mp4`, user)).toBe(false)
    expect(isOwnVideoObjectName(`${user}/videos/${id}.exe`, user)).toBe(false)
  })
})
