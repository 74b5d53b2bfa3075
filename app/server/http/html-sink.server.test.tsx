import { renderToPipeableStream } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { htmlSink } from './html-sink.server'

/** A page whose curly quotes land on React's 2 KB buffer boundaries at one offset or another. */
function page(lead: number) {
  return (
    <html lang="en">
      <body>
        <p>{'a'.repeat(lead)}</p>
        {Array.from({ length: 30 }, (_, index) => (
          <p key={index} aria-label={`Remove “${'b'.repeat(90 + index)}” from history`}>{`“${'c'.repeat(100 + index)}”`}</p>
        ))}
      </body>
    </html>
  )
}

function render(lead: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const { pipe } = renderToPipeableStream(page(lead), {
      onAllReady: () => pipe(htmlSink(resolve)),
      onShellError: reject,
    })
  })
}

describe('htmlSink', () => {
  it('keeps the NULs React 18 pads a 2 KB piece with out of the page, and every character whole', async () => {
    for (let lead = 300; lead < 340; lead++) {
      const html = await render(lead)
      expect(html.includes(0), `a NUL with a lead of ${lead}`).toBe(false)
      const text = html.toString('utf8')
      expect(text).not.toContain('\uFFFD')
      expect(text.match(/“/g)).toHaveLength(60)
      expect(text.match(/”/g)).toHaveLength(60)
    }
  })
})
