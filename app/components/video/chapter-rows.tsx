import { useRef, useState } from 'react'
import { FieldError } from '~/components/ui/field'
import { useHydrated } from '~/components/use-hydrated'
import { CHAPTER_RULES, type ChapterErrors, type ChapterRow } from '~/lib/schemas/chapters'

/**
 * The edit page's chapters (ADR 0042): rows of a start time ("1:05") and a title, posted
 * as `chapterStart` / `chapterTitle` pairs in order; empty rows are ignored. Without
 * JavaScript the form has a few empty rows to fill in (save to get more); with it, rows are
 * added and removed in place. A broken rule is shown on its row (`chapters.<i>.start|title`)
 * or above the rows (`chapters`).
 */

const EMPTY_ROWS = 3

interface KeyedRow extends ChapterRow {
  key: number
  /** The server's verdict on this row as sent (it stays with the row when others are removed). */
  startError?: string
  titleError?: string
}

export function ChapterRows({ rows, errors }: { rows: readonly ChapterRow[]; errors: ChapterErrors }) {
  const hydrated = useHydrated()
  const nextKey = useRef(0)
  const keyed = (row: ChapterRow, index = -1): KeyedRow => ({
    ...row,
    key: nextKey.current++,
    startError: errors[`chapters.${index}.start`],
    titleError: errors[`chapters.${index}.title`],
  })
  const blanks = Math.max(EMPTY_ROWS, CHAPTER_RULES.min - rows.length)
  const [list, setList] = useState<KeyedRow[]>(() =>
    rows.concat(Array.from({ length: blanks }, () => ({ start: '', title: '' }))).map((row, index) => keyed(row, index)),
  )
  const [announce, setAnnounce] = useState('')
  const listRef = useRef<HTMLOListElement>(null)

  const add = () => {
    setList((before) => [...before, keyed({ start: '', title: '' })])
    setAnnounce(`Row ${list.length + 1} added`)
    requestAnimationFrame(() => {
      const inputs = listRef.current?.querySelectorAll<HTMLInputElement>('input[name="chapterStart"]')
      inputs?.[inputs.length - 1]?.focus()
    })
  }
  const remove = (key: number, index: number) => {
    setList((before) => before.filter((row) => row.key !== key))
    setAnnounce(`Row ${index + 1} removed`)
  }

  return (
    <fieldset className="flex flex-col gap-3" aria-describedby="chapters-hint">
      <legend className="text-sm font-medium text-ink-800">Chapters</legend>
      <p id="chapters-hint" className="text-caption -mt-1">
        Leave every row empty for none, or give at least {CHAPTER_RULES.min}: the first at 0:00, each at least{' '}
        {CHAPTER_RULES.minSeconds} seconds long. Times look like 1:05 or 1:02:03.
      </p>
      {errors.chapters ? <FieldError id="chapters-error">{errors.chapters}</FieldError> : null}
      <ol ref={listRef} className="flex flex-col gap-3">
        {list.map((row, index) => {
          const { startError, titleError } = row
          const errorId = startError || titleError ? `chapter-${row.key}-error` : undefined
          return (
            <li key={row.key} className="flex flex-col gap-1" data-chapter-row={index}>
              <div className="flex items-center gap-2">
                <input
                  name="chapterStart"
                  defaultValue={row.start}
                  inputMode="numeric"
                  autoComplete="off"
                  placeholder={index === 0 ? '0:00' : '1:05'}
                  aria-label={`Chapter ${index + 1} start`}
                  aria-invalid={Boolean(startError) || undefined}
                  aria-describedby={errorId}
                  className="block w-24 shrink-0 rounded-xl border-0 bg-white px-3 py-2.5 font-mono text-base text-ink-900 shadow-sm ring-1 ring-inset ring-ink-300 placeholder:text-ink-400 focus:ring-2 focus:ring-inset focus:ring-brand-600 aria-[invalid=true]:ring-red-500"
                />
                <input
                  name="chapterTitle"
                  defaultValue={row.title}
                  maxLength={CHAPTER_RULES.titleMax}
                  autoComplete="off"
                  placeholder={index === 0 ? 'Intro' : 'Chapter title'}
                  aria-label={`Chapter ${index + 1} title`}
                  aria-invalid={Boolean(titleError) || undefined}
                  aria-describedby={errorId}
                  className="block min-w-0 flex-1 rounded-xl border-0 bg-white px-3.5 py-2.5 text-base text-ink-900 shadow-sm ring-1 ring-inset ring-ink-300 placeholder:text-ink-400 focus:ring-2 focus:ring-inset focus:ring-brand-600 aria-[invalid=true]:ring-red-500"
                />
                {hydrated ? (
                  <button
                    type="button"
                    onClick={() => remove(row.key, index)}
                    className="min-h-11 shrink-0 rounded-full px-3 text-sm font-semibold text-red-700 hover:bg-red-50"
                    aria-label={`Remove chapter ${index + 1}`}
                  >
                    Remove
                  </button>
                ) : null}
              </div>
              {errorId ? <FieldError id={errorId}>{startError ?? titleError}</FieldError> : null}
            </li>
          )
        })}
      </ol>
      {hydrated ? (
        <div>
          <button type="button" onClick={add} className="btn-secondary" disabled={list.length >= CHAPTER_RULES.max}>
            Add chapter
          </button>
        </div>
      ) : (
        <p className="text-caption">Need more rows? Save, and more empty rows appear.</p>
      )}
      <p className="sr-only" aria-live="polite">
        {announce}
      </p>
    </fieldset>
  )
}
