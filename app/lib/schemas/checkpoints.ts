import { z } from 'zod'

/**
 * Checkpoints: questions inside a video (ADR 0047). The one schema for a new
 * checkpoint (the authoring page, the server and the API use it; Postgres checks
 * the same rules again), the answer's schema, and the words the pages show.
 */
export const CHECKPOINT_MESSAGES = {
  videoNotFound: 'Video not found',
  notFound: 'Checkpoint not found',
  notYourVideo: 'You can only add checkpoints to your own videos',
  notProcessed: 'Checkpoints can be added once the video has been processed',
  questionRequired: 'Please enter a question',
  questionTooLong: 'Please keep the question under 500 characters',
  optionsCount: 'Please give between 2 and 5 options',
  optionTooLong: 'Please keep each option under 200 characters',
  correctRequired: 'Please mark at least one option as correct',
  explanationTooLong: 'Please keep the explanation under 1000 characters',
  momentInvalid: 'Please enter a moment inside the video, such as 0:08 or 1:30',
  momentTaken: 'There is already a checkpoint at that moment',
  tooMany: 'A video can have at most 20 checkpoints',
  sparkOnlyOne: 'A spark can end with only one question',
  chooseOption: 'Please choose an answer',
  added: 'Checkpoint added',
  deleted: 'Checkpoint deleted',
  answerFailed: 'Could not check your answer. Please try again.',
} as const

export const CHECKPOINTS_PER_VIDEO = 20
export const QUESTION_MAX = 500
export const OPTION_MAX = 200
export const EXPLANATION_MAX = 1000
export const OPTIONS_MIN = 2
export const OPTIONS_MAX = 5

/** `0:08`, `1:30`, `1:02:03` or plain seconds (`8`, `8.5`) → seconds; null when it is none of these. */
export function parseMomentText(raw: string): number | null {
  const text = raw.trim()
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text)
  const match = /^(?:(\d+):)?(\d{1,2}):(\d{2})(\.\d+)?$/.exec(text)
  if (!match) return null
  const [, hours = '0', minutes = '0', seconds = '0', fraction = ''] = match
  if (Number(seconds) > 59 || (match[1] !== undefined && Number(minutes) > 59)) return null
  return Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds) + (fraction ? Number(fraction) : 0)
}

/** 8 → `0:08`, 90 → `1:30`, 3723 → `1:02:03` (whole seconds). */
export function formatMoment(seconds: number): string {
  const whole = Math.floor(seconds)
  const h = Math.floor(whole / 3600)
  const m = Math.floor((whole % 3600) / 60)
  const s = String(whole % 60).padStart(2, '0')
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`
}

const optionText = z.string().trim().max(OPTION_MAX, CHECKPOINT_MESSAGES.optionTooLong)

/**
 * A new checkpoint. `at` is a moment (`0:08`) or seconds; `options` are the
 * non-empty option texts in order (empty ones are dropped, so a form with five
 * option boxes can leave some blank); `correct` the indexes (from 0) of the
 * correct ones among the options as given.
 */
export const checkpointSchema = z
  .object({
    at: z.union([z.number(), z.string()]).transform((value, ctx) => {
      const seconds = typeof value === 'number' ? value : parseMomentText(value)
      if (seconds === null || !Number.isFinite(seconds) || seconds <= 0) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: CHECKPOINT_MESSAGES.momentInvalid })
        return z.NEVER
      }
      return Math.round(seconds * 1000) / 1000
    }),
    question: z
      .string()
      .trim()
      .min(1, CHECKPOINT_MESSAGES.questionRequired)
      .max(QUESTION_MAX, CHECKPOINT_MESSAGES.questionTooLong),
    options: z.array(optionText).max(OPTIONS_MAX, CHECKPOINT_MESSAGES.optionsCount),
    correct: z
      .array(
        z.coerce
          .number()
          .int()
          .min(0)
          .max(OPTIONS_MAX - 1),
      )
      .max(OPTIONS_MAX),
    explanation: z.string().trim().max(EXPLANATION_MAX, CHECKPOINT_MESSAGES.explanationTooLong).default(''),
    required: z.boolean().default(false),
  })
  .transform((input, ctx) => {
    // Blank option boxes are dropped; the correct marks follow their options.
    const kept = input.options.map((text, index) => ({ text, index })).filter((option) => option.text !== '')
    if (kept.length < OPTIONS_MIN || kept.length > OPTIONS_MAX) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['options'], message: CHECKPOINT_MESSAGES.optionsCount })
      return z.NEVER
    }
    const correct = kept.flatMap((option, position) => (input.correct.includes(option.index) ? [position] : []))
    if (correct.length === 0) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['correct'], message: CHECKPOINT_MESSAGES.correctRequired })
      return z.NEVER
    }
    return {
      at: input.at,
      question: input.question,
      options: kept.map((option) => option.text),
      correct,
      explanation: input.explanation,
      required: input.required,
    }
  })

export type CheckpointInput = z.output<typeof checkpointSchema>

/** The options a learner chose: 1–5 distinct indexes. */
export const answerSchema = z
  .array(
    z.coerce
      .number()
      .int()
      .min(0)
      .max(OPTIONS_MAX - 1),
  )
  .min(1, CHECKPOINT_MESSAGES.chooseOption)
  .max(OPTIONS_MAX, CHECKPOINT_MESSAGES.chooseOption)
  .refine((chosen) => new Set(chosen).size === chosen.length, CHECKPOINT_MESSAGES.chooseOption)

/** A question as a learner gets it: no answer key. */
export interface CheckpointQuestion {
  id: string
  atSeconds: number
  question: string
  options: string[]
  required: boolean
  /** More than one option is correct (checkboxes rather than radio buttons); says nothing of which. */
  multiple: boolean
}

/** A question with its key, for the video's creator (or an admin). */
export interface CheckpointWithKey extends CheckpointQuestion {
  correct: number[]
  explanation: string
}

/** The scored answer: right or not, and the explanation. */
export interface CheckpointAnswer {
  checkpointId: string
  correct: boolean
  explanation: string
}

/** A learner's own result on one checkpoint (only checkpoints they answered). */
export interface CheckpointResult {
  checkpointId: string
  attempts: number
  lastChosen: number[]
  lastCorrect: boolean
  everCorrect: boolean
  explanation: string
  answeredAt: string
}

/** Aggregates for the creator: never one learner's answers. */
export interface CheckpointStat {
  checkpointId: string
  atSeconds: number
  question: string
  options: string[]
  required: boolean
  learners: number
  firstTryCorrect: number
  /** firstTryCorrect / learners, or null when nobody answered yet. */
  firstTryRate: number | null
  topWrongOption: { index: number; text: string; count: number } | null
  stoppedHere: number
}

/**
 * The question a spark ends with (ADR 0049), as the reel viewer gets it: no key, and
 * whether the caller has answered it right already (then it does not stop the clip again).
 */
export interface SparkQuestion {
  question: CheckpointQuestion
  answeredRight: boolean
}

/** One video with checkpoints the learner answered (their Progress): how many questions, answered, right. */
export interface ProgressItem {
  videoId: string
  title: string
  questions: number
  answered: number
  right: number
  lastAnsweredAt: string
}

/** The checkpoint aggregates of one of the creator's videos, for the dashboard's Engagement tab (ADR 0049). */
export interface VideoCheckpointStats {
  videoId: string
  title: string
  type: 'video' | 'spark'
  stats: CheckpointStat[]
}
