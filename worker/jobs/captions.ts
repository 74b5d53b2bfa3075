import { mkdtemp, rm } from 'node:fs/promises'
import path from 'node:path'
import { sql } from 'kysely'
import { writeTrack } from '../../db/caption-tracks'
import type { Tx } from '../../db/kysely'
import { safeInputArgs } from '../../media/safe-input'
import { MIN_WORD_CONFIDENCE, recogniseSpeech, wordsToCues, type SpeechEngine } from '../../media/speech'
import { detectVoiceActivity, withinSpeech } from '../../media/voice-activity'
import { runMediaTool, type MediaTools } from '../../media/tools'
import type { JobHandler } from '../job-loop'
import type { MediaJob, MediaQueue } from '../queue'
import type { StorageIO } from '../storage-io'

/**
 * Automatic captions (ADRs 0022 and 0037): a `caption_video` job, queued when a video's
 * transcode job finishes (so the video is already published and playing), turns the speech
 * in its upload into an English track marked `automatic`. The creator sees it on the captions
 * page marked "Automatic", and can download, correct and replace it, or delete it.
 *
 * A creator's own track always wins: none is made when the video already has a track in the
 * engine's language, and the check and the write hold the same lock as a creator's upload
 * (`limit_caption_tracks`), so one that arrives meanwhile is never overwritten. Audio without
 * speech (tones, silence, noise, a held chord) makes no track: a voice-activity check
 * (media/voice-activity.ts) runs before the recogniser, and words below MIN_WORD_CONFIDENCE are dropped.
 */

/** Job folders share the transcode jobs' prefix, so the sweep of dead workers' folders finds them. */
export interface CaptionJobDeps {
  queue: MediaQueue
  speech: SpeechEngine
  tools: MediaTools
  /** The worker's folder prefix for this job, e.g. `<tmp>/lumen-media-<pid>-job<id>-`. */
  workDirPrefix: string
  /** Streams bucket `uploads`' object to `file`; false when it is larger than any upload may be. */
  download(objectName: string, file: string, signal: AbortSignal): Promise<boolean>
}

/**
 * The `caption_video` job kind. Without a recogniser (none installed, or `AUTO_CAPTIONS=off`)
 * the jobs that were queued before are closed with nothing to do.
 */
export function captionJobHandler(deps: {
  queue: MediaQueue
  speech: SpeechEngine | null
  tools: MediaTools
  storage: Pick<StorageIO, 'download'>
  /** The `mkdtemp` prefix of a job's folder. */
  workDirPrefix(jobId: number): string
}): JobHandler {
  return {
    subject: (job) => `captions of video ${job.videoId}`,
    async run({ job, signal }) {
      const { queue, speech } = deps
      if (!speech) {
        await queue.complete(job, undefined, 'automatic captions are off on this worker')
        return 'nothing to do: automatic captions are off on this worker'
      }
      return runCaptionJob(job, signal, {
        queue,
        speech,
        tools: deps.tools,
        workDirPrefix: deps.workDirPrefix(job.id),
        download: deps.storage.download,
      })
    },
  }
}

/** Queues the automatic captions of a video whose audio has been published (in the transcode job's transaction). */
export async function queueCaptionJob(tx: Tx, videoId: string): Promise<void> {
  const job = await tx
    .insertInto('media_jobs')
    .values({ kind: 'caption_video', video_id: videoId })
    .onConflict((conflict) => conflict.doNothing())
    .returning('id')
    .executeTakeFirst()
  if (job) await sql`select pg_notify('media_jobs', ${String(job.id)})`.execute(tx)
}

/** Works one `caption_video` job; returns what became of it, throws when it should be tried again. */
export async function runCaptionJob(job: MediaJob, signal: AbortSignal, deps: CaptionJobDeps): Promise<string> {
  const { queue, speech } = deps
  const video = await queue.asService((tx) =>
    tx
      .selectFrom('videos')
      .select(['source_path', 'status', 'duration_seconds'])
      .where('id', '=', job.videoId!)
      .executeTakeFirst(),
  )
  const skip = async (why: string) => {
    await queue.complete(job, undefined, why)
    return `nothing to do: ${why}`
  }
  if (!video?.source_path) return await skip('its video no longer exists')
  if (video.status !== 'ready') return await skip(`its video is ${video.status}`)
  if (await queue.asService((tx) => hasTrack(tx, job.videoId!, speech.language))) {
    return await skip(`it already has ${speech.language} captions`)
  }

  const workDir = await mkdtemp(deps.workDirPrefix)
  try {
    const source = path.join(workDir, 'source')
    if (!(await deps.download(video.source_path, source, signal))) return await skip('its upload is larger than the limit')
    const wav = path.join(workDir, 'speech.wav')
    const seconds = Number(video.duration_seconds ?? 0)
    const timeoutMs = 5 * 60_000 + 2 * seconds * 1000
    // 16 kHz mono 16-bit PCM: what the recogniser's model was trained on.
    await runMediaTool(
      deps.tools.ffmpeg.path,
      [
        '-hide_banner',
        '-nostdin',
        '-v',
        'error',
        '-y',
        ...safeInputArgs(source),
        '-map',
        '0:a:0',
        '-vn',
        '-ac',
        '1',
        '-ar',
        '16000',
        '-c:a',
        'pcm_s16le',
        '-f',
        'wav',
        wav,
      ],
      { signal, timeoutMs },
    )
    const started = Date.now()
    // The recogniser hears words in anything (a steady tone comes back as "ah"): only audio
    // with speech in it is recognised, and only the confident words said during it are kept.
    const activity = await detectVoiceActivity(wav)
    if (!activity.hasSpeech) return await skip(`no speech found in ${seconds.toFixed(1)} s of audio (voice activity)`)
    const words = withinSpeech(await recogniseSpeech(speech, wav, { signal, timeoutMs }), activity.segments)
    const cues = wordsToCues(words.filter((word) => word.confidence >= MIN_WORD_CONFIDENCE))
    const took = ((Date.now() - started) / 1000).toFixed(1)
    if (!cues.length) return await skip(`no speech found in ${seconds.toFixed(1)} s of audio (${took} s)`)

    signal.throwIfAborted()
    let written = false
    await queue.complete(job, async (tx) => {
      // The lock a creator's upload takes (limit_caption_tracks): theirs waits for ours, or ours sees theirs.
      await sql`select pg_advisory_xact_lock(hashtext('caption_tracks'), hashtext(${job.videoId}))`.execute(tx)
      if (await hasTrack(tx, job.videoId!, speech.language)) return
      await writeTrack(tx, { videoId: job.videoId!, language: speech.language, label: speech.label, source: 'automatic', cues })
      written = true
    })
    return written
      ? `captions: ${cues.length} cues from ${seconds.toFixed(1)} s of audio in ${took} s`
      : `nothing to do: ${speech.language} captions were added meanwhile`
  } finally {
    await rm(workDir, { recursive: true, force: true })
  }
}

async function hasTrack(tx: Tx, videoId: string, language: string): Promise<boolean> {
  const track = await tx
    .selectFrom('caption_tracks')
    .select('id')
    .where('video_id', '=', videoId)
    .where('language', '=', language)
    .executeTakeFirst()
  return Boolean(track)
}
