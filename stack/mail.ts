import nodemailer from 'nodemailer'
import type { MailMessage } from './mailbox'

/**
 * Where the stand-in's emails (password resets, confirmations) go: the
 * developer mailbox in embedded mode, an SMTP server (`SMTP_URL`) in server
 * mode. One interface, so Auth never knows which.
 */
export type OutgoingMail = Pick<MailMessage, 'to' | 'subject' | 'text' | 'html' | 'headers'>

export interface MailTransport {
  readonly kind: 'mailbox' | 'smtp'
  send(message: OutgoingMail): Promise<{ id: string }>
}

export interface SmtpSettings {
  /** `smtp://user:pass@host:587` or `smtps://…:465` (nodemailer's URL form). */
  url: string
  /** The From header, e.g. `Lumen <no-reply@lumen.example>`. */
  from: string
}

export function smtpTransport(settings: SmtpSettings): MailTransport {
  const transporter = nodemailer.createTransport(settings.url)
  return {
    kind: 'smtp',
    async send(message) {
      const info = await transporter.sendMail({ from: settings.from, ...message })
      return { id: info.messageId }
    },
  }
}
