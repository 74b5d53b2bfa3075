import { act, renderHook } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { UploadError } from '~/components/upload/resumable-upload'
import { uploadFailureMessage, UploadTimedOut, useResumableUpload } from '~/components/upload/use-resumable-upload'
import { UPLOAD_MESSAGES } from '~/lib/schemas/upload'

/**
 * The state machine the upload and create-quote forms share: a transfer that the test settles by hand
 * (the real one is tus's, driven in tests/components/upload-form.test.tsx and end to end).
 */
const transfer = vi.hoisted(() => ({
  started: [] as Array<{
    folder?: string
    settle(name: string): void
    fail(error: Error): void
    paused: number
    cancelled: number
  }>,
}))

vi.mock('~/components/upload/resumable-upload', async (original) => {
  const actual = await original<typeof import('~/components/upload/resumable-upload')>()
  return {
    ...actual,
    startResumableUpload: (options: { folder?: string; file: File; onProgress(sent: number, total: number): void }) => {
      let settle!: (name: string) => void
      let fail!: (error: Error) => void
      const done = new Promise<string>((resolve, reject) => {
        settle = resolve
        fail = reject
      })
      const record = { folder: options.folder, settle, fail, paused: 0, cancelled: 0 }
      transfer.started.push(record)
      return Promise.resolve({
        done,
        resumed: false,
        pause: () => record.paused++,
        resume: () => undefined,
        cancel: () => {
          record.cancelled++
          fail(new actual.UploadCancelled())
          return Promise.resolve()
        },
      })
    },
  }
})

afterEach(() => {
  transfer.started.length = 0
  vi.useRealTimers()
})

const file = new File(['x'.repeat(10)], 'clip.mp4', { type: 'video/mp4' })
const supabase = { url: 'http://localhost', anonKey: 'anon' }

describe('useResumableUpload', () => {
  it('sends to the given folder, reports uploading then the stored name, and saving → success on demand', async () => {
    const { result } = renderHook(() => useResumableUpload({ userId: 'u1', supabase, folder: 'quotes' }))
    let sent!: Promise<string | null>
    act(() => {
      sent = result.current.send(file)
    })
    expect(result.current.phase).toBe('uploading')
    expect(result.current.busy).toBe(true)
    expect(result.current.progressProps.total).toBe(10)
    await act(async () => {
      await Promise.resolve()
      transfer.started[0]!.settle('u1/quotes/clip.mp4')
      expect(await sent).toBe('u1/quotes/clip.mp4')
    })
    expect(transfer.started[0]!.folder).toBe('quotes')
    act(() => result.current.saving())
    expect(result.current.phase).toBe('saving')
    act(() => result.current.succeeded())
    expect(result.current.phase).toBe('success')
  })

  it('gives up after its time limit: the transfer is paused (to resume later) and the error says so', async () => {
    vi.useFakeTimers()
    const { result } = renderHook(() => useResumableUpload({ userId: 'u1', supabase, timeoutMs: 1_000 }))
    let outcome!: Promise<unknown>
    act(() => {
      outcome = result.current.send(file).catch((error: unknown) => error)
    })
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_001)
    })
    const error = await outcome
    expect(error).toBeInstanceOf(UploadTimedOut)
    expect(uploadFailureMessage(error)).toBe(UPLOAD_MESSAGES.timeout)
    expect(transfer.started[0]!.paused).toBe(1)
    expect(result.current.phase).toBe('error')
  })

  it('resolves null and goes back to idle when cancelled; a refusal by Storage says its reason', async () => {
    const { result } = renderHook(() => useResumableUpload({ userId: 'u1', supabase }))
    let sent!: Promise<string | null>
    act(() => {
      sent = result.current.send(file)
    })
    await act(async () => {
      await Promise.resolve()
      result.current.progressProps.onCancel()
      expect(await sent).toBeNull()
    })
    expect(result.current.phase).toBe('idle')
    expect(transfer.started[0]!.cancelled).toBe(1)

    let failed!: Promise<unknown>
    act(() => {
      failed = result.current.send(file).catch((error: unknown) => error)
    })
    await act(async () => {
      await Promise.resolve()
      transfer.started[1]!.fail(new UploadError('The file is too large.'))
      expect(uploadFailureMessage(await failed)).toBe('The file is too large.')
    })
    expect(result.current.phase).toBe('error')
    expect(uploadFailureMessage(new Error('boom'))).toBe(UPLOAD_MESSAGES.unexpected)
  })
})
