/**
 * The value axis of a chart. Counts (views, likes, uploads) get whole-number
 * ticks only — never "0.2 views" — and a scale of at least 0–1 when every
 * value is 0; measures (minutes, shares) keep d3's nice fractional ticks.
 */
import { scaleLinear } from 'd3-scale'

export interface ValueAxis {
  /** The top of the scale (the bottom is 0). */
  top: number
  ticks: number[]
}

const TICKS = 4

/** Whole-number ticks from 0 to at least `max`, about four of them, on a 1–2–5 step. */
export function countAxis(max: number): ValueAxis {
  const ceiling = Math.max(1, Math.ceil(max))
  const raw = ceiling / TICKS
  const power = 10 ** Math.floor(Math.log10(raw))
  const step = Math.max(1, [1, 2, 5, 10].map((k) => k * power).find((candidate) => candidate >= raw) ?? 10 * power)
  const top = Math.ceil(ceiling / step) * step
  const ticks: number[] = []
  for (let tick = 0; tick <= top; tick += step) ticks.push(tick)
  return { top, ticks }
}

/** d3's nice ticks for a measure from 0 to `max` (or a fixed top such as 1 for shares). */
export function measureAxis(max: number): ValueAxis {
  const scale = scaleLinear()
    .domain([0, max > 0 ? max : 1])
    .nice(TICKS)
  return { top: scale.domain()[1]!, ticks: scale.ticks(TICKS) }
}

export function valueAxis(values: number[], { counts, maxValue }: { counts: boolean; maxValue?: number }): ValueAxis {
  const max = maxValue ?? Math.max(0, ...values)
  return counts ? countAxis(max) : measureAxis(max)
}
