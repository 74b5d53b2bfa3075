import { DomainError } from '../../../app/server/errors.server'

/** What a domain operation refused with: the status its DomainError maps to, and the spec's message. */
export async function refusal(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await promise
  } catch (error) {
    if (error instanceof DomainError) return { status: error.status, message: error.message }
    throw error
  }
  throw new Error('expected a refusal')
}
