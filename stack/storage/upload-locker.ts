import type { Lock, Locker, RequestRelease } from '@tus/server'
import { ERRORS } from './errors'

/**
 * One request at a time per resumable upload, in this process: alone in
 * embedded mode (one process on PGlite), and as the first step of
 * PgUploadLocker on a server (pg-upload-locker.ts), whose Postgres advisory
 * locks hold across processes.
 * Like Storage's PgLocker, a request that finds the upload locked asks the
 * holder to let go — a holder whose client vanished (half-open connection)
 * then stops within @tus/server's drain timeout — and waits a little; if the
 * lock is still held it answers 423 Locked, which tus-js-client retries.
 * Waiting is event-driven, not polling.
 */
export class UploadLocker implements Locker {
  private readonly holders = new Map<string, { requestRelease: RequestRelease; released: Promise<void>; release: () => void }>()

  constructor(private readonly waitMs = 5_000) {}

  newLock(id: string): Lock {
    return new UploadLock(id, this)
  }

  /** @internal */
  async acquire(id: string, requestRelease: RequestRelease, signal: AbortSignal): Promise<void> {
    const deadline = Date.now() + this.waitMs
    for (;;) {
      const holder = this.holders.get(id)
      if (!holder) {
        let release = () => {}
        const released = new Promise<void>((resolve) => {
          release = resolve
        })
        this.holders.set(id, { requestRelease, released, release })
        return
      }
      await holder.requestRelease()
      const remaining = deadline - Date.now()
      if (remaining <= 0 || signal.aborted) throw ERRORS.resourceLocked()
      await Promise.race([holder.released, waitFor(remaining, signal)])
    }
  }

  /** @internal */
  release(id: string) {
    const holder = this.holders.get(id)
    this.holders.delete(id)
    holder?.release()
  }
}

class UploadLock implements Lock {
  private held = false

  constructor(
    private readonly id: string,
    private readonly locker: UploadLocker,
  ) {}

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    await this.locker.acquire(this.id, requestRelease, signal)
    this.held = true
  }

  async unlock(): Promise<void> {
    if (!this.held) return
    this.held = false
    this.locker.release(this.id)
  }
}

function waitFor(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done, { once: true })
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
  })
}
