import { scaleBand, scaleLinear, scalePoint } from 'd3-scale'
import { area, curveMonotoneX, line } from 'd3-shape'
import { useId, type ReactNode } from 'react'
import { formatDay } from '~/lib/format'
import { valueAxis } from './axis'

/**
 * Charts drawn on the server as SVG (ADR 0015): they work with JavaScript
 * off and print. Scales and shapes come from d3-scale and d3-shape; the
 * markup is ours. Every chart is a `<figure>` whose SVG has an accessible
 * name and description, and a data table alternative in a disclosure. Each
 * point carries a `<title>`, which browsers show as a tooltip.
 */

export interface ChartPoint {
  /** Shown on the axis and in the table (e.g. "Nov 23"). */
  label: string
  value: number
  /** Longer text for the tooltip and the table's row header (e.g. "Monday, November 23"). */
  detail?: string
}

const WIDTH = 640
const HEIGHT = 220
const MARGIN = { top: 12, right: 16, bottom: 28, left: 44 }

/** A line (with a soft area) over ordered points: views per day, the retention curve. */
export function LineChart({
  title,
  description,
  points,
  format = String,
  valueLabel,
  maxValue,
  counts = true,
  testId,
}: {
  title: string
  description: string
  points: ChartPoint[]
  format?: (value: number) => string
  valueLabel: string
  /** A fixed top of the scale (1 for shares); default the data's maximum. */
  maxValue?: number
  /** Whole-number ticks (views, likes); false for measures such as minutes or shares. */
  counts?: boolean
  testId?: string
}) {
  const id = useId()
  const x = scalePoint<number>()
    .domain(points.map((_, i) => i))
    .range([MARGIN.left, WIDTH - MARGIN.right])
    .padding(0.2)
  const axis = valueAxis(
    points.map((p) => p.value),
    { counts, maxValue },
  )
  const y = scaleLinear()
    .domain([0, axis.top])
    .range([HEIGHT - MARGIN.bottom, MARGIN.top])
  const px = (i: number) => x(i) ?? MARGIN.left
  const linePath = line<ChartPoint>()
    .x((_, i) => px(i))
    .y((p) => y(p.value))
    .curve(curveMonotoneX)(points)
  const areaPath = area<ChartPoint>()
    .x((_, i) => px(i))
    .y0(y(0))
    .y1((p) => y(p.value))
    .curve(curveMonotoneX)(points)
  const every = Math.ceil(points.length / 7)
  return (
    <ChartFrame
      id={id}
      title={title}
      description={description}
      points={points}
      format={format}
      valueLabel={valueLabel}
      testId={testId}
    >
      <YAxis ticks={axis.ticks} y={y} format={format} />
      {areaPath ? <path d={areaPath} className="fill-brand-500/10" /> : null}
      {linePath ? <path d={linePath} fill="none" className="stroke-brand-600" strokeWidth={2.5} strokeLinejoin="round" /> : null}
      {points.map((p, i) => (
        <g key={i}>
          <circle
            cx={px(i)}
            cy={y(p.value)}
            r={points.length > 31 ? 2 : 3.5}
            className="fill-white stroke-brand-600"
            strokeWidth={2}
            data-value={p.value}
          >
            <title>{`${p.detail ?? p.label}: ${format(p.value)}`}</title>
          </circle>
          {i % every === 0 || i === points.length - 1 ? (
            <text x={px(i)} y={HEIGHT - 8} textAnchor="middle" className="fill-ink-500 text-[11px]">
              {p.label}
            </text>
          ) : null}
        </g>
      ))}
    </ChartFrame>
  )
}

/** Vertical bars over named items: views per video. */
export function BarChart({
  title,
  description,
  points,
  format = String,
  valueLabel,
  counts = true,
  testId,
}: {
  title: string
  description: string
  points: ChartPoint[]
  format?: (value: number) => string
  valueLabel: string
  /** Whole-number ticks (views, videos); false for measures. */
  counts?: boolean
  testId?: string
}) {
  const id = useId()
  const x = scaleBand<number>()
    .domain(points.map((_, i) => i))
    .range([MARGIN.left, WIDTH - MARGIN.right])
    .padding(0.25)
  const axis = valueAxis(
    points.map((p) => p.value),
    { counts },
  )
  const y = scaleLinear()
    .domain([0, axis.top])
    .range([HEIGHT - MARGIN.bottom, MARGIN.top])
  return (
    <ChartFrame
      id={id}
      title={title}
      description={description}
      points={points}
      format={format}
      valueLabel={valueLabel}
      testId={testId}
    >
      <YAxis ticks={axis.ticks} y={y} format={format} />
      {points.map((p, i) => (
        <g key={i}>
          <rect
            x={x(i)}
            y={y(p.value)}
            width={x.bandwidth()}
            height={Math.max(0, y(0) - y(p.value))}
            rx={4}
            className="fill-brand-500"
            data-value={p.value}
          >
            <title>{`${p.detail ?? p.label}: ${format(p.value)}`}</title>
          </rect>
          <text x={(x(i) ?? 0) + x.bandwidth() / 2} y={HEIGHT - 8} textAnchor="middle" className="fill-ink-500 text-[11px]">
            {p.label.length > 10 ? `${p.label.slice(0, 9)}…` : p.label}
          </text>
        </g>
      ))}
    </ChartFrame>
  )
}

function YAxis({ ticks, y, format }: { ticks: number[]; y: (value: number) => number; format: (value: number) => string }) {
  return (
    <g aria-hidden="true">
      {ticks.map((tick) => (
        <g key={tick}>
          <line
            x1={MARGIN.left}
            x2={WIDTH - MARGIN.right}
            y1={y(tick)}
            y2={y(tick)}
            className="stroke-ink-200"
            strokeDasharray={tick === 0 ? undefined : '3 4'}
          />
          <text x={MARGIN.left - 8} y={y(tick) + 4} textAnchor="end" className="fill-ink-500 text-[11px]">
            {format(tick)}
          </text>
        </g>
      ))}
    </g>
  )
}

function ChartFrame({
  id,
  title,
  description,
  points,
  format,
  valueLabel,
  testId,
  children,
}: {
  id: string
  title: string
  description: string
  points: ChartPoint[]
  format: (value: number) => string
  valueLabel: string
  testId?: string
  children: ReactNode
}) {
  return (
    <figure className="card p-4 sm:p-5" data-testid={testId}>
      <figcaption id={`${id}-title`} className="text-heading">
        {title}
      </figcaption>
      <p id={`${id}-desc`} className="text-caption mt-0.5">
        {description}
      </p>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-desc`}
        className="mt-3 h-auto w-full overflow-visible"
        preserveAspectRatio="xMidYMid meet"
      >
        {children}
      </svg>
      <details className="mt-2">
        <summary className="cursor-pointer rounded text-sm font-semibold text-brand-700">Show data table</summary>
        <div className="mt-2 max-h-72 overflow-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{title}</caption>
            <thead>
              <tr className="text-ink-600">
                <th scope="col" className="py-1 pr-4 font-semibold">
                  {points.length && points[0]!.detail !== undefined ? 'Day' : 'Item'}
                </th>
                <th scope="col" className="py-1 text-right font-semibold">
                  {valueLabel}
                </th>
              </tr>
            </thead>
            <tbody>
              {points.map((p, i) => (
                <tr key={i} className="border-t border-ink-100">
                  <th scope="row" className="py-1 pr-4 font-normal">
                    {p.detail ?? p.label}
                  </th>
                  <td className="py-1 text-right tabular-nums">{format(p.value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  )
}

/** "Nov 23" and "Monday, November 23, 2026" for a YYYY-MM-DD day (a calendar day: formatted in UTC). */
export function dayLabels(date: string): { label: string; detail: string } {
  const { short, long } = formatDay(date)
  return { label: short, detail: long }
}
