import { z } from 'zod'
import { issueErrors } from '~/lib/forms'
import { CATEGORY_IDS, DEFAULT_CATEGORY } from '~/lib/catalog'

/**
 * Courses (ADR 0048): the one schema of a course's fields, shared by the course form
 * (/courses/new, /course/:id/edit) and POST/PUT /api/courses; the lesson list's rules.
 * The limits follow `public.courses` and `public.course_lessons`, which check them again.
 */
export const COURSE_MESSAGES = {
  titleRequired: 'Please enter a title',
  titleTooLong: 'Please keep the title under 200 characters',
  descriptionTooLong: 'Please keep the description under 5,000 characters',
  categoryRequired: 'Please choose a category',
  categoryNotAllowed: 'You cannot publish in this category yet. Please choose one of your approved categories.',
  unsupported: 'Please remove unsupported characters',
  notFound: 'Course not found',
  notYourCourse: 'You can only change your own courses',
  notCreator: 'Only verified creators can make courses.',
  signIn: 'Please sign in to make a course',
  lessonsInvalid: 'Please send the lessons as a list of your own public videos and sparks',
  lessonsTooMany: 'A course has at most 200 lessons',
  lessonTwice: 'A video can be in a course only once',
  lessonNotYours: 'A course’s lessons are your own public videos and sparks',
  lessonMissing: 'That lesson is not in this course',
  sectionTooLong: 'Please keep the section title under 120 characters',
  orderMismatch: 'The lessons changed meanwhile. Please reload the page and try again.',
  noLessons: 'Add at least one lesson before publishing',
  adminOnlyUnpublish: 'Admins may only unpublish a course',
  created: 'Course created. Now add its lessons.',
  saved: 'Course saved',
  published: 'Course published',
  unpublished: 'Course unpublished',
  deleted: 'Course deleted',
  lessonAdded: 'Lesson added',
  lessonRemoved: 'Lesson removed',
  lessonMoved: 'Lesson moved',
  orderSaved: 'Order saved',
  sectionsSaved: 'Section headings saved',
} as const

export const COURSE_TITLE_MAX = 200
export const COURSE_DESCRIPTION_MAX = 5000
export const SECTION_TITLE_MAX = 120
export const COURSE_LESSONS_MAX = 200

// Postgres text cannot hold a NUL byte: refuse it with a clear message instead of a 500.
const noNul = (value: string) => !value.includes('\u0000')

/** A course's own fields. The description may be empty; the category defaults to 'Other'. */
export const courseInputSchema = z.object({
  title: z
    .string({ required_error: COURSE_MESSAGES.titleRequired, invalid_type_error: COURSE_MESSAGES.titleRequired })
    .trim()
    .min(1, COURSE_MESSAGES.titleRequired)
    .max(COURSE_TITLE_MAX, COURSE_MESSAGES.titleTooLong)
    .refine(noNul, COURSE_MESSAGES.unsupported),
  description: z
    .string({ invalid_type_error: COURSE_MESSAGES.descriptionTooLong })
    .trim()
    .max(COURSE_DESCRIPTION_MAX, COURSE_MESSAGES.descriptionTooLong)
    .refine(noNul, COURSE_MESSAGES.unsupported)
    .optional()
    .transform((value) => value ?? ''),
  category: z
    .string({ invalid_type_error: COURSE_MESSAGES.categoryRequired })
    .trim()
    .optional()
    .transform((value) => value || DEFAULT_CATEGORY)
    .pipe(z.enum(CATEGORY_IDS, { errorMap: () => ({ message: COURSE_MESSAGES.categoryRequired }) })),
})

export type CourseInput = z.output<typeof courseInputSchema>
export type CourseErrors = Partial<Record<'title' | 'description' | 'category' | 'cover' | 'lessons' | 'form', string>>

/** A section title as typed: blank means none. */
export const sectionTitleSchema = z
  .string({ invalid_type_error: COURSE_MESSAGES.sectionTooLong })
  .trim()
  .max(SECTION_TITLE_MAX, COURSE_MESSAGES.sectionTooLong)
  .refine(noNul, COURSE_MESSAGES.unsupported)
  .nullish()
  .transform((value) => value || null)

/** One lesson of a list: a video id and an optional section heading. */
export const lessonInputSchema = z.object({
  videoId: z.string({ required_error: COURSE_MESSAGES.lessonsInvalid }).uuid(COURSE_MESSAGES.lessonNotYours),
  sectionTitle: sectionTitleSchema,
})

/** A whole lesson list, in order: each video once, at most COURSE_LESSONS_MAX. */
export const lessonListSchema = z
  .array(lessonInputSchema, { invalid_type_error: COURSE_MESSAGES.lessonsInvalid })
  .max(COURSE_LESSONS_MAX, COURSE_MESSAGES.lessonsTooMany)
  .refine((lessons) => new Set(lessons.map((lesson) => lesson.videoId)).size === lessons.length, COURSE_MESSAGES.lessonTwice)

export type LessonInput = z.output<typeof lessonInputSchema>

/** The first message for each field. */
export function courseErrors(error: z.ZodError): CourseErrors {
  return issueErrors(error) as CourseErrors
}
