import { responseObjectName } from '~/lib/schemas/quote'
import { UPLOAD_MESSAGES, serverErrorMessage, videoExtension, videoObjectName } from '~/lib/schemas/upload'

/**
 * The video's way to Storage with JavaScript: TUS (tus-js-client) straight
 * to `<SUPABASE_URL>/storage/v1/upload/resumable`, with the settings
 * Supabase documents (6 MiB chunks, data in the creation request, its retry
 * delays). A dropped connection is retried from the last chunk the server
 * has; a reload (or a new tab) with the same file finds the upload in
 * localStorage and continues it — into the same object, whose generated
 * name is kept with the upload's fingerprint.
 *
 * tus-js-client loads only when an upload starts, keeping the page light.
 * The session cookies are HttpOnly: the access token each request carries
 * comes from /auth/token, which refreshes it when it is about to expire.
 */
export interface ResumableUploadOptions {
  file: File
  userId: string
  supabaseUrl: string
  anonKey: string
  /** The folder of `uploads/<uid>/`: `videos` (default, the upload page) or `quotes` (a video response). */
  folder?: 'videos' | 'quotes'
  onProgress(sent: number, total: number): void
}

export interface ResumableUpload {
  /** It continues an upload of the same file found from an earlier visit. */
  resumed: boolean
  /** Resolves with the object's name in bucket `uploads` once every byte is stored. */
  done: Promise<string>
  pause(): void
  resume(): void
  /** Stops and deletes the partial upload on the server (and forgets it here). */
  cancel(): Promise<void>
}

export class UploadError extends Error {}
export class UploadCancelled extends Error {}

export const CHUNK_SIZE = 6 * 1024 * 1024
export const RETRY_DELAYS = [0, 3000, 5000, 10000, 20000]

export async function startResumableUpload(options: ResumableUploadOptions): Promise<ResumableUpload> {
  const { Upload } = await import('tus-js-client')
  const { file, userId, supabaseUrl, anonKey, folder = 'videos' } = options
  const accessToken = accessTokens()
  const endpoint = resumableEndpoint(supabaseUrl, window.location.origin)
  const objectNameFor = folder === 'quotes' ? responseObjectName : videoObjectName
  let objectName = objectNameFor(userId, randomUuid(), videoExtension(file))
  let settle: { resolve(name: string): void; reject(error: Error): void }
  const done = new Promise<string>((resolve, reject) => (settle = { resolve, reject }))
  let cancelled = false

  const upload = new Upload(file, {
    endpoint,
    chunkSize: CHUNK_SIZE,
    retryDelays: RETRY_DELAYS,
    uploadDataDuringCreation: true,
    removeFingerprintOnSuccess: true,
    // One person's upload is never resumed by another account on the same browser.
    // A video response is never resumed into a video's object (nor the other way round).
    fingerprint: async (chosen) =>
      [
        folder === 'quotes' ? 'lumen-quote' : 'lumen-upload',
        userId,
        chosen.name,
        chosen.type,
        chosen.size,
        chosen.lastModified,
        endpoint,
      ].join('-'),
    metadata: {
      bucketName: 'uploads',
      objectName,
      contentType: file.type.startsWith('video/') ? file.type : 'video/mp4',
      cacheControl: '3600',
    },
    headers: { 'x-upsert': 'false' },
    async onBeforeRequest(request) {
      const token = await accessToken()
      if (!token) throw new UploadError(serverErrorMessage(401))
      request.setHeader('authorization', `Bearer ${token}`)
      request.setHeader('apikey', anonKey)
    },
    onProgress: (sent, total) => options.onProgress(sent, total),
    onSuccess: () => settle.resolve(objectName),
    onError(error) {
      if (cancelled) return
      settle.reject(new UploadError(describeTusError(error)))
    },
  })

  const previous = await upload.findPreviousUploads()
  const resumable = previous.find((entry) => typeof entry.metadata?.objectName === 'string' && entry.uploadUrl)
  if (resumable) {
    objectName = resumable.metadata.objectName!
    upload.options.metadata = { ...upload.options.metadata, objectName }
    upload.resumeFromPreviousUpload(resumable)
  }
  upload.start()

  return {
    resumed: Boolean(resumable),
    done,
    pause: () => void upload.abort(),
    resume: () => upload.start(),
    async cancel() {
      cancelled = true
      settle.reject(new UploadCancelled('cancelled'))
      await upload.abort(true).catch(() => undefined)
    },
  }
}

/**
 * Storage's TUS endpoint. `supabaseUrl` is '' when Storage shares the app's
 * origin: the upload then goes to the address the page was opened at
 * (127.0.0.1, localhost, a LAN name, a proxy's), which the page's
 * Content-Security-Policy allows as 'self'. tus-js-client resolves the
 * server's Location against this URL, so it must be absolute.
 */
export function resumableEndpoint(supabaseUrl: string, pageOrigin: string): string {
  return `${(supabaseUrl || pageOrigin).replace(/\/$/, '')}/storage/v1/upload/resumable`
}

/** The visitor's access token, asked of the server once and again a minute before it expires. */
function accessTokens(): () => Promise<string | null> {
  let cached: { token: string; expiresAt: number } | null = null
  return async () => {
    const now = Date.now() / 1000
    if (cached && cached.expiresAt - 60 > now) return cached.token
    const response = await fetch('/auth/token', { credentials: 'same-origin', headers: { Accept: 'application/json' } })
    if (!response.ok) return null
    const body = (await response.json()) as { accessToken?: string; expiresAt?: number | null }
    if (!body.accessToken) return null
    cached = { token: body.accessToken, expiresAt: body.expiresAt ?? now + 300 }
    return cached.token
  }
}

function describeTusError(error: Error): string {
  const detailed = error as Error & { originalResponse?: { getStatus(): number } | null; originalRequest?: unknown }
  if (error instanceof UploadError) return error.message
  const status = detailed.originalResponse?.getStatus()
  if (status === 413) return UPLOAD_MESSAGES.videoTooLarge
  if (status) return serverErrorMessage(status)
  // No answer at all after every retry: the connection is gone.
  if (detailed.originalRequest) return UPLOAD_MESSAGES.network
  return UPLOAD_MESSAGES.unexpected
}

/** crypto.randomUUID exists only on secure origins (https, localhost); a plain-http test box needs the fallback. */
function randomUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  bytes[6] = (bytes[6]! & 0x0f) | 0x40
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
