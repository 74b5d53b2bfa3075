import { describe, expect, it } from 'vitest'
import {
  lessonHref,
  momentPastEndMessage,
  reelClipHref,
  SPARK_LESSON_MESSAGES,
  sparkLessonErrors,
  sparkLessonMomentError,
  sparkLessonSchema,
} from './spark-lesson'

const LESSON = '3f1c2a7e-9b1d-4c55-8f0e-0d6f3b2a1c9e'

function parse(input: { lessonId?: unknown; lessonAt?: unknown }) {
  const parsed = sparkLessonSchema.safeParse(input)
  return parsed.success
    ? { ok: true as const, value: parsed.data }
    : { ok: false as const, errors: sparkLessonErrors(parsed.error) }
}

describe('sparkLessonSchema', () => {
  it.each([
    ['3:12', 192],
    ['1:02:03', 3723],
    ['192', 192],
    [' 0:07 ', 7],
    [192, 192],
    ['', null],
    [null, null],
    [undefined, null],
  ])('reads the moment %j as %j seconds', (lessonAt, seconds) => {
    expect(parse({ lessonId: LESSON, lessonAt })).toEqual({ ok: true, value: { lessonId: LESSON, lessonAtSeconds: seconds } })
  })

  it.each(['3:75', 'abc', '-5', '1.5', '3:12:00:00', 1.5, -1, 90_000, true])('refuses the moment %j', (lessonAt) => {
    expect(parse({ lessonId: LESSON, lessonAt })).toEqual({ ok: false, errors: { lessonAt: SPARK_LESSON_MESSAGES.badMoment } })
  })

  it('reads a blank lesson as none (removing the link)', () => {
    expect(parse({ lessonId: '  ', lessonAt: '' })).toEqual({ ok: true, value: { lessonId: null, lessonAtSeconds: null } })
    expect(parse({ lessonId: null })).toEqual({ ok: true, value: { lessonId: null, lessonAtSeconds: null } })
  })

  it('refuses a lesson that is not an id, and a moment without a lesson', () => {
    expect(parse({ lessonId: 'not-a-uuid' })).toEqual({ ok: false, errors: { lessonId: SPARK_LESSON_MESSAGES.badLesson } })
    expect(parse({ lessonId: 42 })).toEqual({ ok: false, errors: { lessonId: SPARK_LESSON_MESSAGES.badLesson } })
    expect(parse({ lessonId: '', lessonAt: '3:12' })).toEqual({
      ok: false,
      errors: { lessonAt: SPARK_LESSON_MESSAGES.momentWithoutLesson },
    })
  })
})

describe('the moment within the lesson', () => {
  it('fits before the end, not at or past it; anything fits an unmeasured lesson', () => {
    expect(sparkLessonMomentError(299, 300)).toBeNull()
    expect(sparkLessonMomentError(300, 300)).toBe(momentPastEndMessage(300))
    expect(momentPastEndMessage(300.4)).toBe('The moment must be within the lesson, which is 5:00 long')
    expect(sparkLessonMomentError(9999, null)).toBeNull()
    expect(sparkLessonMomentError(null, 10)).toBeNull()
  })
})

describe('links', () => {
  it('opens the lesson at the moment, and the reel viewer at a clip', () => {
    expect(lessonHref(LESSON, 192)).toBe(`/video/${LESSON}?t=192`)
    expect(lessonHref(LESSON, null)).toBe(`/video/${LESSON}`)
    expect(reelClipHref(LESSON)).toBe(`/sparks-reels?start=${LESSON}#reel-${LESSON}`)
  })
})
