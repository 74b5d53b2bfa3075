/**
 * Formatters for what pages show: counts, durations, sizes, dates, excerpts.
 * A fixed locale (and zone for dates), so the server's HTML and the
 * browser's render agree.
 */

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' })
const compactFormat = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 })
// One formatter each, made once: `toLocaleString(locale)` builds a new one per call (~0.1–0.7 ms on the server).
const numberFormat = new Intl.NumberFormat('en-US')
const shortDayFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })
const longDayFormat = new Intl.DateTimeFormat('en-US', {
  weekday: 'long',
  month: 'long',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
})

/** "2024-03-05T…" → "Mar 5, 2024". */
export function formatDate(iso: string): string {
  return dateFormat.format(new Date(iso))
}

const pluralRules = new Intl.PluralRules('en-US')

/** The noun for `count` by the language's plural rules: "view" for 1, "views" for 0, 2 or 1.5. */
export function pluralNoun(count: number, noun: string, plural = `${noun}s`): string {
  return pluralRules.select(count) === 'one' ? noun : plural
}

/** 1 → "1 like", 1200 → "1,200 likes", 0 → "0 likes" (`plural` for nouns without an -s plural). */
export function formatCount(count: number, noun: string, plural?: string): string {
  return `${numberFormat.format(count)} ${pluralNoun(count, noun, plural)}`
}

/** 1234 → "1,234". */
export function formatNumber(value: number): string {
  return numberFormat.format(value)
}

/** A calendar day "2026-03-05" → { short: "Mar 5", long: "Thursday, March 5, 2026" }. */
export function formatDay(date: string): { short: string; long: string } {
  const day = new Date(`${date}T00:00:00Z`)
  return { short: shortDayFormat.format(day), long: longDayFormat.format(day) }
}

/** 1234 → "1.2K", 2500000 → "2.5M". */
export function formatCompact(value: number): string {
  return compactFormat.format(value)
}

/** 75 → "1:15", 3725 → "1:02:05". */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds))
  const h = Math.floor(total / 3600)
  const m = Math.floor((total % 3600) / 60)
  const s = total % 60
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m)
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`
}

/** 512 → "512 B", 1536 → "1.5 KB", 5 MiB → "5.0 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}

/** At most `max` characters of `text`, cut at the limit (docs/product.md, Rules and messages: card description 80). */
export function truncate(text: string, max: number): string {
  const trimmed = text.trim()
  return trimmed.length > max ? `${trimmed.slice(0, max).trimEnd()}…` : trimmed
}

/** A short label for a long text (a report dialog's subject): at most 60 characters. */
export function excerpt(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}…` : text
}
