/**
 * One measured figure of `npm run bench`, for the summary table printed at
 * the end: the figure, its baseline from the same run (when it is judged
 * against one), the ratio, the goal (docs/performance.md) and whether it is met.
 */
export interface Figure {
  /** The bench part it belongs to (a heading in the table). */
  group?: string
  label: string
  value: number
  unit: string
  /** What the figure is compared with, measured in the same run on the same machine. */
  baseline?: { label: string; value: number }
  /** The goal in words, e.g. `≥ 70% of baseline`, `≤ 100 ms`. */
  goal: string
  met: boolean
}

function formatValue(value: number, unit: string): string {
  const digits = unit === 'req/s' || unit === 'ms' || unit === 'KB' || unit === 'MB/s' ? (Math.abs(value) >= 100 ? 0 : 1) : 2
  const text = value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 })
  return unit === '×' ? `${text}×` : unit ? `${text} ${unit}` : text
}

/** The summary table: one row per figure, grouped; `✗` marks a missed goal. */
export function summaryTable(figures: Figure[]): string[] {
  const header = ['figure', 'value', 'baseline', 'ratio', 'goal', '']
  const rows: Array<string[] | string> = []
  let group: string | undefined
  for (const figure of figures) {
    if (figure.group !== group) {
      group = figure.group
      if (group) rows.push(group)
    }
    rows.push([
      figure.label,
      formatValue(figure.value, figure.unit),
      figure.baseline ? `${formatValue(figure.baseline.value, figure.unit)} (${figure.baseline.label})` : '',
      figure.baseline && figure.baseline.value ? `${((figure.value / figure.baseline.value) * 100).toFixed(0)}%` : '',
      figure.goal,
      figure.met ? 'ok' : '✗ MISS',
    ])
  }
  const cells = rows.filter((row): row is string[] => Array.isArray(row))
  const groups = rows.filter((row): row is string => typeof row === 'string').map((row) => `**${row}**`)
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((row) => row[column]!.length), ...(column === 0 ? groups.map((row) => row.length) : [])),
  )
  const line = (row: string[]) =>
    `| ${row.map((cell, column) => (column === 1 || column === 3 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!))).join(' | ')} |`
  const out = [
    line(header),
    `|${widths.map((width, column) => (column === 1 || column === 3 ? `${'-'.repeat(width + 1)}:` : '-'.repeat(width + 2))).join('|')}|`,
  ]
  for (const row of rows) {
    out.push(
      Array.isArray(row)
        ? line(row)
        : line([`**${row}**`, '', '', '', '', ''].map((cell, column) => cell.padEnd(widths[column]!))),
    )
  }
  const missed = figures.filter((figure) => !figure.met).length
  out.push('', `${figures.length} figures, ${missed} missing their goal${missed ? ' (✗)' : ''}.`)
  return out
}
