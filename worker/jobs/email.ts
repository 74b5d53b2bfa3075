import {
  composeDigestEmail,
  composeNotificationEmail,
  describeNotification,
  type ComposedEmail,
  type EmailLinks,
} from '../../mail/notification-email'
import { signUnsubscribeToken, unsubscribeUrl } from '../../mail/unsubscribe-token'
import type { MailTransport } from '../../stack/mail'
import type { EmailOutbox, OutboxEmail } from '../email-outbox'
import type { BackgroundTask, WorkerLog } from '../job-loop'

/**
 * The email job: drains the outbox (worker/email-outbox.ts) through the mail
 * transport — the developer mailbox in embedded mode, SMTP otherwise — and,
 * every `digestEveryMs`, queues the daily digests that are due. An email is
 * composed when it is sent, from the notification as it is then; one whose
 * notification is gone, or whose recipient has no address any more, is
 * dropped. Every email carries its unsubscribe link (a token signed with
 * `secret`). Sending is at least once: a worker that dies after the transport
 * accepted an email but before the row says so sends it again after the lease.
 */
export interface EmailJobDependencies {
  outbox: EmailOutbox
  transport: MailTransport
  /** The site's address for links (SITE_URL, else PUBLIC_URL). */
  siteUrl: string
  /** Signs the unsubscribe links (mail/unsubscribe-token.ts). */
  secret: string
  workerId: string
  leaseMs: number
  log: WorkerLog
}

export interface EmailJob {
  /** Takes one due email and sends it (or drops it); false when none was due. */
  sendOne(): Promise<boolean>
  /** Queues the digests due now (public.queue_notification_digests()); answers how many. */
  queueDigests(period?: string): Promise<number>
}

export function emailJob(deps: EmailJobDependencies): EmailJob {
  const { outbox, transport, log } = deps
  const siteUrl = deps.siteUrl.replace(/\/$/, '')
  /** The links of one recipient's email: each type's unsubscribe page, signed for them. */
  const linksFor = (userId: string): EmailLinks => ({
    siteUrl,
    unsubscribe: (type) => unsubscribeUrl(siteUrl, signUnsubscribeToken(deps.secret, { userId, type })),
  })

  async function compose(email: OutboxEmail): Promise<{ to: string; message: ComposedEmail } | string> {
    const content = await outbox.content(email)
    if (!content.address) return 'the recipient has no address we may write to (deleted or banned)'
    const items = content.rows.flatMap((row) => {
      const item = describeNotification(row)
      return item ? [item] : []
    })
    if (items.length === 0) return 'nothing left to tell: what it was about is gone'
    const userLinks = linksFor(email.recipientId)
    const username = content.username ?? 'there'
    const message =
      email.kind === 'digest'
        ? composeDigestEmail(username, items, userLinks)
        : composeNotificationEmail(username, items[0]!, userLinks)
    return { to: content.address, message }
  }

  async function sendOne(): Promise<boolean> {
    const email = await outbox.claim(deps.workerId, deps.leaseMs)
    if (!email) return false
    const label = `email ${email.id} (${email.kind}, attempt ${email.attempts}/${email.maxAttempts})`
    try {
      const composed = await compose(email)
      if (typeof composed === 'string') {
        await outbox.finish(email, 'dropped', composed)
        log('info', `${label}: dropped, ${composed}`)
        return true
      }
      const sent = await transport.send({ to: composed.to, ...composed.message })
      const recorded = await outbox.finish(email, 'sent')
      log(recorded ? 'info' : 'warn', `${label}: sent (${sent.id})${recorded ? '' : ', but its lease had passed meanwhile'}`)
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      try {
        const { gaveUp, runAfter } = await outbox.fail(email, message)
        log('warn', `${label}: failed: ${message}${gaveUp ? ' — no attempts left' : `; retrying after ${runAfter}`}`)
      } catch (failError) {
        log('error', `${label}: failed (${message}) and could not record it (${String(failError)}); its lease will expire`)
      }
    }
    return true
  }

  return { sendOne, queueDigests: (period) => outbox.queueDigests(period) }
}

/**
 * The worker's background task for email: queues due digests every
 * `digestEveryMs` (default 10 min), sends every due email, then waits
 * `pollMs` (or until woken) and looks again.
 */
export function emailTask(job: EmailJob, options: { pollMs: number; digestEveryMs?: number; log: WorkerLog }): BackgroundTask {
  const digestEveryMs = options.digestEveryMs ?? 10 * 60_000
  return async ({ idle, stopping }) => {
    let nextDigests = Date.now()
    while (!stopping()) {
      try {
        if (Date.now() >= nextDigests) {
          const queued = await job.queueDigests()
          if (queued) options.log('info', `queued ${queued} notification digest${queued === 1 ? '' : 's'}`)
          nextDigests = Date.now() + digestEveryMs
        }
        while (!stopping() && (await job.sendOne()));
      } catch (error) {
        options.log('warn', `email outbox: ${error instanceof Error ? error.message : String(error)}`)
      }
      if (!stopping()) await idle(options.pollMs)
    }
  }
}
