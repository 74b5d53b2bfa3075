import { describe, expect, it } from 'vitest'
import { FEEDBACK_MESSAGES, FEEDBACK_TEXT_MAX, feedbackSchema, feedbackValues, parseFeedback } from './feedback'

function form(fields: Record<string, string | string[]>): FormData {
  const data = new FormData()
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) data.append(name, item)
  }
  return data
}

const complete = { liked: 'yes', usage: 'I watch sparks on the bus.', recommendations: 'More chemistry, please.' }

describe('feedback schema', () => {
  it('accepts a complete answer and turns yes/no into a boolean', () => {
    expect(parseFeedback(form(complete))).toEqual({
      success: true,
      data: { liked: true, usage: 'I watch sparks on the bus.', recommendations: 'More chemistry, please.' },
    })
    const no = parseFeedback(form({ ...complete, liked: 'no' }))
    expect(no.success && no.data.liked).toBe(false)
  })

  it('requires every field, each with its own message', () => {
    expect(parseFeedback(form({}))).toEqual({
      success: false,
      errors: {
        liked: FEEDBACK_MESSAGES.liked,
        usage: FEEDBACK_MESSAGES.usage,
        recommendations: FEEDBACK_MESSAGES.recommendations,
      },
    })
  })

  it('treats text that is only whitespace as missing and trims the rest', () => {
    const result = parseFeedback(form({ ...complete, usage: '   \n ', recommendations: '  Subtitles  ' }))
    expect(result).toEqual({ success: false, errors: { usage: FEEDBACK_MESSAGES.usage } })
    const trimmed = feedbackSchema.parse({ ...complete, recommendations: '  Subtitles  ' })
    expect(trimmed.recommendations).toBe('Subtitles')
  })

  it('refuses an answer other than yes or no', () => {
    expect(parseFeedback(form({ ...complete, liked: 'maybe' }))).toEqual({
      success: false,
      errors: { liked: FEEDBACK_MESSAGES.liked },
    })
  })

  it('refuses text longer than the database allows, and a NUL byte', () => {
    const long = parseFeedback(form({ ...complete, usage: 'a'.repeat(FEEDBACK_TEXT_MAX + 1) }))
    expect(long).toEqual({ success: false, errors: { usage: FEEDBACK_MESSAGES.tooLong } })
    expect(parseFeedback(form({ ...complete, usage: 'a'.repeat(FEEDBACK_TEXT_MAX) })).success).toBe(true)
    const nul = parseFeedback(form({ ...complete, recommendations: 'nul\u0000byte' }))
    expect(nul).toEqual({ success: false, errors: { recommendations: FEEDBACK_MESSAGES.unsupported } })
  })

  it('reads only the first value of a repeated field', () => {
    const result = parseFeedback(form({ ...complete, liked: ['no', 'yes'] }))
    expect(result.success && result.data.liked).toBe(false)
  })

  it('refuses a file where text belongs', () => {
    const data = form({ liked: 'yes', recommendations: 'ok' })
    data.append('usage', new Blob(['x']), 'usage.txt')
    expect(parseFeedback(data)).toEqual({ success: false, errors: { usage: FEEDBACK_MESSAGES.usage } })
  })

  it('keeps what was typed, as text, to show the form again', () => {
    expect(feedbackValues(form({ usage: 'typed' }))).toEqual({ liked: '', usage: 'typed', recommendations: '' })
  })
})
