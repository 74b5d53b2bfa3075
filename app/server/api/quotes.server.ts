import { FORMS, receiveForm } from '../http/forms.server'
import { createQuote, getQuote } from '../quotes.server'
import type { ApiCaller } from './caller.server'
import { withFieldNames } from './route.server'
import { quoteShape } from './shapes.server'

/** The quote form's fields as the domain names them → the API's names (docs/product.md, The JSON API). */
const FIELDS: Record<string, string> = { videoId: 'originalVideoId', type: 'quoteType', video: 'videoFile' }

/**
 * POST /quotes/upload-cloudinary: the create-quote page's createQuote (every
 * check, the same messages, nothing left behind on a refusal) with section
 * 7's field names — `originalVideoId`, `quoteType` ('text', the default, or
 * 'video'), `text`, an optional `moment`, and `videoFile` for a video
 * response (streamed to a temporary file, checked by its content).
 */
export async function createQuoteThroughApi(caller: ApiCaller, request: Request) {
  const received = await receiveForm(request, FORMS.apiQuote)
  try {
    const text = (name: string) => {
      const value = received.form.get(name)
      return typeof value === 'string' ? value : ''
    }
    const values = {
      videoId: text('originalVideoId'),
      type: text('quoteType') || 'text',
      text: text('text'),
      moment: text('moment'),
    }
    const created = await withFieldNames(FIELDS, () =>
      createQuote(caller, { values, sourcePath: null, video: received.files.videoFile ?? null }),
    )
    return quoteShape(await getQuote(caller.claims, created.quoteId))
  } finally {
    await received.dispose()
  }
}
