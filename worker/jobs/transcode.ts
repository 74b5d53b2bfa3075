import { mkdtemp, readFile, rm } from 'node:fs/promises'
import path from 'node:path'
import type { Tx } from '../../db/kysely'
import type { MediaTools } from '../../media/tools'
import { MESSAGES, validateVideoFile } from '../../media/validate-upload'
import type { JobHandler, JobRun } from '../job-loop'
import type { MediaQueue } from '../queue'
import type { PlannedObject, StorageIO } from '../storage-io'
import { loadTarget, markTargetComplete, markTargetFailed, markTargetReady, posterPathFor } from '../targets'
import {
  masterVariantNames,
  mp4NameFor,
  planRenditions,
  splitPhases,
  transcodeVideo,
  type Rendition,
  type TranscodeOptions,
  type TranscodeResult,
} from '../transcode'
import { queueCaptionJob } from './captions'

/**
 * `transcode_video` and `transcode_quote` jobs: the upload downloaded from
 * Storage, judged (ffprobe), transcoded (HLS ladder, MP4, poster), uploaded
 * and published — in two phases when the ladder has more than one rung
 * (ADR 0025).
 */

export interface TranscodeJobDeps {
  queue: MediaQueue
  storage: StorageIO
  tools: MediaTools
  /** Uploads larger than this are refused. */
  maxBytes: number
  /** x264 preset for the ladder. */
  preset?: string
  /** The `mkdtemp` prefix of this job's folder. */
  workDirPrefix(jobId: number): string
  /** Queue the automatic captions of a published video (in the transaction that completes its transcode). */
  queueCaptions: boolean
}

/** Phase 2's ffmpeg runs at this nice value while phase 1's runs at the normal one. */
const PHASE2_NICENESS = 10

export function transcodeJobHandler(deps: TranscodeJobDeps): JobHandler {
  return {
    subject: (job) => (job.videoId ? `video ${job.videoId}` : `quote ${job.quoteId}`),
    run: (run) => transcodeJob(run, deps),
  }
}

/** Phase 2's pass: the rungs `rest`, no poster, the top rung's MP4 when it is among them (ADR 0025). */
function phase2Options(
  rest: Rendition[],
  plan: Rendition[],
  publishedMaster: string | Promise<string>,
  deps: TranscodeJobDeps,
): TranscodeOptions {
  return {
    renditions: rest,
    poster: false,
    // The top rung's MP4 replaces phase 1's; a published top rung has its video.mp4 already
    // (uploaded before the master that lists it).
    mp4: rest.includes(plan.at(-1)!) ? 'video.mp4' : null,
    publishedMaster,
    tools: deps.tools,
    preset: deps.preset,
  }
}

/**
 * The job's work; returns what became of it, throws when it should be tried again.
 *
 * Two phases when the ladder has more than one rung (ADR 0025): phase 1
 * makes one rung (up to 360p) with the poster and an MP4 of it, uploads
 * them, master playlist last, and publishes the video at once (ready,
 * `more_qualities_pending`), the job still running; phase 2 (started with
 * phase 1, its ffmpeg at a lower CPU priority) makes the
 * other rungs in one pass, uploads them, then a master that lists them all
 * (last again), and completes the job with the top rung's MP4. An attempt
 * that finds the video already published (a worker died or stopped in
 * phase 2) does phase 2 only, for the rungs the published master lacks.
 */
async function transcodeJob({ job, signal, note, onDropped }: JobRun, deps: TranscodeJobDeps): Promise<string> {
  const { queue, storage, tools, maxBytes } = deps
  const uploaded: PlannedObject[] = []
  onDropped(() => storage.removeObjects(uploaded))
  const target = await queue.asService((tx) => loadTarget(tx, job))
  if (!target) {
    await queue.complete(job, undefined, 'its video or quote no longer exists')
    return 'nothing to do: its video or quote no longer exists'
  }

  const workDir = await mkdtemp(deps.workDirPrefix(job.id))
  try {
    const source = path.join(workDir, 'source')
    const downloaded = await storage.download(target.sourcePath, source, signal)
    const validation = downloaded
      ? await validateVideoFile(source, { type: target.purpose, maxBytes, tools, signal })
      : { ok: false as const, message: target.purpose === 'quote' ? MESSAGES.quoteTooLarge : MESSAGES.videoTooLarge }
    if (!validation.ok) {
      // The upload itself is wrong: trying again cannot help. Tell the uploader and close the job.
      await queue.complete(job, (tx) => markTargetFailed(tx, job, validation.message), validation.message)
      return `refused: ${validation.message}`
    }
    const probe = validation.probe
    const video = probe.video!
    const plan = planRenditions(video.width, video.height, { bitRate: probe.bitRate, codec: video.codec })
    const describe = (result: TranscodeResult) =>
      result.renditions.map((rendition) => `${rendition.width}x${rendition.height}`).join(', ')
    const finalMp4 = `${target.mediaPrefix}/video.mp4`
    // Once the whole ladder is published, the speech in it is written down by a job of its own
    // (worker/jobs/captions.ts), in the transaction that completes this one.
    const queueCaptions = async (tx: Tx) => {
      if (deps.queueCaptions && target.kind === 'video' && probe.hasAudio) await queueCaptionJob(tx, target.id)
    }

    let masterText: string
    let publishedMp4: string | null
    // Phase 2 of a first attempt: started with phase 1, at a lower CPU priority (below).
    let phase2: Promise<TranscodeResult> | null = null
    if (!target.published) {
      // Phase 1 (the only one for a ladder of one rung).
      const { first, rest } = splitPhases(plan)
      const posterPath = posterPathFor(target)
      // A video keeps the thumbnail its creator chose; a video response always gets a poster of its own.
      const makePoster = target.kind === 'quote' || !target.thumbnailPath || target.thumbnailPath === posterPath
      const top = plan.at(-1)!
      // Phase 2 encodes alongside phase 1 at a lower priority: phase 1's ffmpeg leaves most of a
      // core idle (ffmpeg 5.1 decodes, splits and scales in one thread), which phase 2 takes
      // without slowing it; its master waits for the one phase 1 publishes (ADR 0025).
      const phase1Master = deferred<string>()
      const stopPhase2 = new AbortController()
      if (rest.length) {
        phase2 = transcodeVideo(source, probe, path.join(workDir, 'rest'), {
          ...phase2Options(rest, plan, phase1Master.promise, deps),
          signal: AbortSignal.any([signal, stopPhase2.signal]),
          niceness: PHASE2_NICENESS,
        })
        // Settled below; a failure while phase 1 still runs must not go unhandled meanwhile.
        phase2.catch(() => {})
      }
      try {
        const result = await transcodeVideo(source, probe, path.join(workDir, 'first'), {
          renditions: [first],
          poster: makePoster ? { width: top.width, height: top.height } : false,
          mp4: mp4NameFor(first, plan),
          signal,
          tools,
          preset: deps.preset,
        })
        await storage.uploadResult(target, result, posterPath, signal, uploaded)
        signal.throwIfAborted()
        const media = {
          hlsPath: `${target.mediaPrefix}/${result.master}`,
          mp4Path: `${target.mediaPrefix}/${result.mp4!}`,
          posterPath: result.poster ? posterPath : null,
          durationSeconds: probe.durationSeconds,
          width: video.width,
          height: video.height,
          sizeBytes: probe.sizeBytes,
          morePending: rest.length > 0,
        }
        const files = result.files.length
        if (!rest.length) {
          await queue.complete(job, async (tx) => {
            await markTargetReady(tx, target, media)
            await queueCaptions(tx)
          })
          return `ready: ${describe(result)}, ${files} files, ${probe.durationSeconds.toFixed(1)} s of video`
        }
        await queue.checkpoint(job, (tx) => markTargetReady(tx, target, media))
        note(`playable: ${describe(result)} published, ${files} files; ${rest.length} more renditions coming`)
        masterText = await readFile(path.join(result.dir, result.master), 'utf8')
        publishedMp4 = media.mp4Path
        phase1Master.resolve(masterText)
      } catch (error) {
        // Phase 1 failed or was stopped: phase 2 stops too, and is waited for (its ffmpeg gone, its folder removed).
        stopPhase2.abort()
        phase1Master.reject(error)
        await phase2?.catch(() => {})
        throw error
      }
    } else {
      masterText = await storage.downloadText(target.published.hlsPath, signal)
      publishedMp4 = target.published.mp4Path
    }

    // Phase 2: the rungs the published master does not list yet.
    const listed = new Set(masterVariantNames(masterText))
    const rest = plan.filter((rendition) => !listed.has(rendition.name))
    let outcome = `ready: ${plan.map((rendition) => `${rendition.width}x${rendition.height}`).join(', ')} were published already`
    if (rest.length) {
      const result = await (phase2 ??
        transcodeVideo(source, probe, path.join(workDir, 'rest'), { ...phase2Options(rest, plan, masterText, deps), signal }))
      signal.throwIfAborted()
      await storage.uploadResult(target, result, posterPathFor(target), signal, uploaded)
      outcome = `ready: ${describe(result)} added, ${result.files.length} files, ${probe.durationSeconds.toFixed(1)} s of video`
    }
    signal.throwIfAborted()
    await queue.complete(job, async (tx) => {
      await markTargetComplete(tx, target, { mp4Path: finalMp4 })
      await queueCaptions(tx)
    })
    if (publishedMp4 && publishedMp4 !== finalMp4) {
      // Phase 1's MP4 is no longer named by the row; players that loaded it keep what they have.
      await storage.removeObjects([{ bucket: 'media', name: publishedMp4, file: { path: '', contentType: 'video/mp4', sizeBytes: 0 } }])
    }
    return outcome
  } finally {
    await rm(workDir, { recursive: true, force: true })
  }
}

/** A promise with its settle functions; a rejection nobody awaits is not reported as unhandled. */
function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (reason: unknown) => void
  const promise = new Promise<T>((onResolve, onReject) => {
    resolve = onResolve
    reject = onReject
  })
  promise.catch(() => {})
  return { promise, resolve, reject }
}
