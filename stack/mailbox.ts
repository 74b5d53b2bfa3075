import { randomUUID } from 'node:crypto'
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { MailTransport } from './mail'

/**
 * Where the stand-in "sends" email: one JSON file a message under
 * DATA_DIR/mailbox, readable at /mailbox in the browser, so a developer can
 * follow a password-reset link without a mail server.
 */
export interface MailMessage {
  id: string
  to: string
  subject: string
  text: string
  html: string
  /** Extra headers (List-Unsubscribe on notification emails). */
  headers?: Record<string, string>
  sentAt: string
}

export class Mailbox implements MailTransport {
  readonly kind = 'mailbox' as const

  constructor(private readonly dir: string) {}

  async send(message: Omit<MailMessage, 'id' | 'sentAt'>): Promise<MailMessage> {
    const stored: MailMessage = { ...message, id: randomUUID(), sentAt: new Date().toISOString() }
    await mkdir(this.dir, { recursive: true })
    // The time prefix keeps the files in sending order.
    await writeFile(path.join(this.dir, `${Date.now()}-${stored.id}.json`), JSON.stringify(stored, null, 2))
    return stored
  }

  /** Newest first, optionally only those to one address. */
  async list(to?: string): Promise<MailMessage[]> {
    let files: string[]
    try {
      files = (await readdir(this.dir)).filter((file) => file.endsWith('.json'))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw error
    }
    const messages = await Promise.all(
      files
        .sort()
        .reverse()
        .map(async (file) => JSON.parse(await readFile(path.join(this.dir, file), 'utf8')) as MailMessage),
    )
    return to ? messages.filter((message) => message.to.toLowerCase() === to.toLowerCase()) : messages
  }

  async get(id: string): Promise<MailMessage | undefined> {
    return (await this.list()).find((message) => message.id === id)
  }
}
