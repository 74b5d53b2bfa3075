import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { formatNumber } from '~/lib/format'
import { BarChart, LineChart } from './charts'

/** The value axis's labels: the SVG's <text> elements that are numbers. */
function tickLabels(html: string): string[] {
  return [...html.matchAll(/<text[^>]*text-anchor="end"[^>]*>([^<]*)<\/text>/g)].map((match) => match[1]!)
}

const days = (values: number[]) => values.map((value, i) => ({ label: `Nov ${i + 1}`, detail: `Day ${i + 1}`, value }))

describe('chart axes', () => {
  it('counts get whole-number ticks, 0–1 when every value is 0 or 1', () => {
    for (const values of [
      [0, 0, 0],
      [0, 1, 0],
      [1, 1, 1],
      [2, 3, 1],
    ]) {
      const line = renderToStaticMarkup(
        <LineChart title="Views" description="d" points={days(values)} valueLabel="Views" format={formatNumber} />,
      )
      const bars = renderToStaticMarkup(<BarChart title="Views" description="d" points={days(values)} valueLabel="Views" />)
      for (const labels of [tickLabels(line), tickLabels(bars)]) {
        expect(labels.length).toBeGreaterThanOrEqual(2)
        expect(labels.every((label) => /^\d+$/.test(label)), labels.join(' ')).toBe(true)
      }
    }
    expect(tickLabels(renderToStaticMarkup(<LineChart title="V" description="d" points={days([0, 1])} valueLabel="V" />))).toEqual([
      '0',
      '1',
    ])
  })

  it('measures keep their fractions', () => {
    const html = renderToStaticMarkup(
      <LineChart title="Minutes" description="d" points={days([0.1, 0.3])} valueLabel="Minutes" counts={false} />,
    )
    expect(tickLabels(html)).toContain('0.1')
  })
})
