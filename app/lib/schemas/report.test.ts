import { describe, expect, it } from 'vitest'
import { parseReport, parseReportTarget, REPORT_MESSAGES } from './report'

const id = '3f4362bf-0804-4deb-bae4-2d3229125137'

function form(fields: [string, string][]): FormData {
  const data = new FormData()
  for (const [name, value] of fields) data.append(name, value)
  return data
}

describe('the report form', () => {
  it('asks for a reason with the spec’s message when there is none or it is not one of the six', () => {
    for (const reason of [null, '', 'inappropriate content', 'INAPPROPRIATE']) {
      const fields: [string, string][] = [['contentType', 'video'], ['contentId', id]]
      if (reason !== null) fields.push(['reason', reason])
      expect(parseReport(form(fields))).toEqual({ success: false, errors: { reason: REPORT_MESSAGES.reason } })
    }
  })

  it('accepts each of the six reasons, trims the details and defaults them to empty', () => {
    for (const reason of ['inappropriate', 'copyright', 'misinformation', 'harmful', 'spam', 'other']) {
      const parsed = parseReport(form([['contentType', 'quote'], ['contentId', id], ['reason', reason]]))
      expect(parsed).toEqual({ success: true, data: { contentType: 'quote', contentId: id, reason, details: '' } })
    }
    const withDetails = parseReport(form([['contentType', 'comment'], ['contentId', id], ['reason', 'spam'], ['details', '  buy now  ']]))
    expect(withDetails.success && withDetails.data.details).toBe('buy now')
  })

  it('refuses long or NUL-carrying details and unknown content, and takes only the first of repeated fields', () => {
    const base: [string, string][] = [['contentType', 'video'], ['contentId', id], ['reason', 'spam']]
    expect(parseReport(form([...base, ['details', 'x'.repeat(2001)]])).success).toBe(false)
    expect(parseReport(form([...base, ['details', 'a\u0000b']])).success).toBe(false)
    expect(parseReport(form([['contentType', 'user'], ['contentId', id], ['reason', 'spam']]))).toEqual({
      success: false,
      errors: { contentType: REPORT_MESSAGES.content },
    })
    const repeated = parseReport(form([...base, ['reason', 'other'], ['contentId', 'not-a-uuid']]))
    expect(repeated.success && repeated.data.reason).toBe('spam')
  })

  it('reads a report page’s target from its query string', () => {
    expect(parseReportTarget(new URLSearchParams({ contentType: 'video', contentId: id }))).toEqual({ contentType: 'video', contentId: id })
    expect(parseReportTarget(new URLSearchParams({ contentType: 'video', contentId: "1' OR 1=1" }))).toBeNull()
    expect(parseReportTarget(new URLSearchParams())).toBeNull()
  })
})
