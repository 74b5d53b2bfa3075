import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi'
import { z } from 'zod'
import { QUESTION_MAX, type CheckpointAnswer, type CheckpointQuestion, type CheckpointStat } from '~/lib/schemas/checkpoints'
import type { Endpoint } from './openapi.server'

extendZodWithOpenApi(z)

/**
 * The checkpoints calls of the /api (their rows in the OpenAPI table come from
 * here), through the same domain functions as the pages
 * (app/server/checkpoints.server.ts). No answer key is ever in an answer
 * before the caller has answered: see ADR 0047.
 */
const id = z.string().uuid().openapi({ description: 'A uuid' })

export const CheckpointSchema = z
  .object({
    _id: id,
    at: z.number().openapi({ description: 'Seconds into the video where it pauses' }),
    question: z.string().max(QUESTION_MAX),
    options: z.array(z.string()).min(2).max(5).openapi({ description: 'Answers name them by index, from 0' }),
    required: z.boolean().openapi({ description: 'The player does not pass it until answered right' }),
    multiple: z.boolean().openapi({ description: 'More than one option is correct (choose all that apply)' }),
  })
  .openapi('Checkpoint', { description: 'A question in a video, without its answer key' })

export const AttemptBody = z
  .object({
    chosen: z
      .array(z.number().int().min(0).max(4))
      .min(1)
      .max(5)
      .openapi({ description: 'The indexes of the options you choose' }),
  })
  .openapi('CheckpointAttemptBody')

export const AttemptResultSchema = z
  .object({ checkpoint: id, correct: z.boolean(), explanation: z.string() })
  .openapi('CheckpointAttemptResult', { description: 'Whether your answer was right, and the explanation' })

export const CheckpointStatSchema = z
  .object({
    _id: id,
    at: z.number(),
    question: z.string(),
    learners: z.number().int().openapi({ description: 'Learners who answered' }),
    firstTryCorrect: z.number().int().openapi({ description: 'Learners right on their first try' }),
    firstTryRate: z.number().nullable().openapi({ description: 'firstTryCorrect / learners (null before any answer)' }),
    topWrongOption: z
      .object({ index: z.number().int(), text: z.string(), count: z.number().int() })
      .nullable()
      .openapi({ description: 'The wrong option chosen most often' }),
    stoppedHere: z.number().int().openapi({ description: 'Learners whose last position is at this checkpoint (within 2 s)' }),
  })
  .openapi('CheckpointStat', { description: 'Aggregates only: never one learner’s answers' })

export const CHECKPOINT_ENDPOINTS: Endpoint[] = [
  {
    method: 'get',
    path: '/videos/{id}/checkpoints',
    tag: 'Checkpoints',
    access: 'optional',
    summary: 'The questions of a video, in time order, without their answer keys',
    ok: { status: 200, schema: z.object({ checkpoints: z.array(CheckpointSchema) }), description: 'Questions and options' },
    errors: [401, 404],
  },
  {
    method: 'post',
    path: '/checkpoints/{id}/attempts',
    tag: 'Checkpoints',
    access: 'bearer',
    summary: 'Answer a checkpoint: it is scored and recorded (only you see your answers)',
    body: AttemptBody,
    ok: { status: 200, schema: AttemptResultSchema, description: 'Right or not, and the explanation' },
    errors: [400, 401, 404],
  },
  {
    method: 'get',
    path: '/videos/{id}/checkpoints/stats',
    tag: 'Checkpoints',
    access: 'bearer',
    summary:
      'Per checkpoint of your video (or any, for an admin): first-try right, the most chosen wrong option, who stopped there',
    ok: { status: 200, schema: z.object({ stats: z.array(CheckpointStatSchema) }), description: 'Aggregates per checkpoint' },
    errors: [401, 403, 404],
  },
]

export function checkpointShape(question: CheckpointQuestion): z.infer<typeof CheckpointSchema> {
  return {
    _id: question.id,
    at: question.atSeconds,
    question: question.question,
    options: question.options,
    required: question.required,
    multiple: question.multiple,
  }
}

export function attemptShape(answer: CheckpointAnswer): z.infer<typeof AttemptResultSchema> {
  return { checkpoint: answer.checkpointId, correct: answer.correct, explanation: answer.explanation }
}

export function checkpointStatShape(stat: CheckpointStat): z.infer<typeof CheckpointStatSchema> {
  return {
    _id: stat.checkpointId,
    at: stat.atSeconds,
    question: stat.question,
    learners: stat.learners,
    firstTryCorrect: stat.firstTryCorrect,
    firstTryRate: stat.firstTryRate,
    topWrongOption: stat.topWrongOption,
    stoppedHere: stat.stoppedHere,
  }
}
