import { useEffect, useRef, useState } from 'react'
import { UPLOAD_MESSAGES } from '~/lib/schemas/upload'
import { startResumableUpload, UploadCancelled, UploadError, type ResumableUpload } from './resumable-upload'
import type { UploadPhase } from './upload-progress'

export class UploadTimedOut extends Error {}

export interface ResumableUploadOptions {
  userId: string
  supabase: { url: string; anonKey: string }
  /** The Storage folder under the user's own (the upload page's videos by default). */
  folder?: 'videos' | 'quotes'
  /** Give up (pausing the transfer, so a later visit resumes it) after this long. */
  timeoutMs?: number
}

/**
 * The state machine of a form that sends one file to Storage resumably (tus) and then posts itself with
 * the stored object's name: idle → uploading ⇄ paused → saving → success, or error at any step. Shared by
 * the upload and create-quote forms; the form keeps its own fields and decides what a failure says.
 */
export function useResumableUpload({ userId, supabase, folder, timeoutMs }: ResumableUploadOptions) {
  const uploadRef = useRef<ResumableUpload | null>(null)
  const [phase, setPhase] = useState<UploadPhase>('idle')
  const [progress, setProgress] = useState({ sent: 0, total: 0 })
  const [resumed, setResumed] = useState(false)
  const busy = phase === 'uploading' || phase === 'paused' || phase === 'saving' || phase === 'success'

  // Leaving the page pauses the transfer; it continues on the next visit with the same file.
  useEffect(() => () => uploadRef.current?.pause(), [])

  /**
   * Sends the file. Resolves with the stored object's name, or null when the learner cancelled; rejects
   * (the phase then `error`) with an `UploadError`, an `UploadTimedOut` or anything unexpected.
   */
  async function send(file: File): Promise<string | null> {
    setResumed(false)
    setProgress({ sent: 0, total: file.size })
    setPhase('uploading')
    let timer: number | undefined
    try {
      const upload = await startResumableUpload({
        file,
        userId,
        folder,
        supabaseUrl: supabase.url,
        anonKey: supabase.anonKey,
        onProgress: (sent, total) => setProgress({ sent, total }),
      })
      uploadRef.current = upload
      setResumed(upload.resumed)
      const deadline =
        timeoutMs === undefined
          ? null
          : new Promise<never>((_, reject) => {
              timer = window.setTimeout(() => reject(new UploadTimedOut()), timeoutMs)
            })
      const objectName = await (deadline ? Promise.race([upload.done, deadline]) : upload.done)
      uploadRef.current = null
      return objectName
    } catch (error) {
      if (error instanceof UploadCancelled) return null
      if (error instanceof UploadTimedOut) uploadRef.current?.pause()
      uploadRef.current = null
      setPhase('error')
      throw error
    } finally {
      window.clearTimeout(timer)
    }
  }

  async function cancel() {
    const upload = uploadRef.current
    uploadRef.current = null
    setPhase('idle')
    setProgress({ sent: 0, total: 0 })
    await upload?.cancel()
  }

  return {
    phase,
    busy,
    send,
    saving: () => setPhase('saving'),
    succeeded: () => setPhase('success'),
    failed: () => setPhase('error'),
    /** Whether the progress bar has something to show (a transfer or the server's checks). */
    showsProgress: phase === 'uploading' || phase === 'paused' || phase === 'saving',
    /** The props of `<UploadProgress>`. */
    progressProps: {
      phase,
      sent: progress.sent,
      total: progress.total,
      resumed,
      onPause: () => {
        uploadRef.current?.pause()
        setPhase('paused')
      },
      onResume: () => {
        uploadRef.current?.resume()
        setPhase('uploading')
      },
      onCancel: () => void cancel(),
    },
  }
}

/** What a failed transfer says: the 30-minute limit, Storage's own reason, or the generic message. */
export function uploadFailureMessage(error: unknown): string {
  if (error instanceof UploadTimedOut) return UPLOAD_MESSAGES.timeout
  if (error instanceof UploadError) return error.message
  return UPLOAD_MESSAGES.unexpected
}

/** A file input's chosen file, or null when none was chosen. */
export function fileOf(form: FormData, name: string): File | null {
  const value = form.get(name)
  return value instanceof File && value.size > 0 ? value : null
}
