import { useRef } from 'react'
import { useFilterField } from './use-filter-field'

/**
 * "Has captions" (ADR 0019): a checkbox in the feed's and sparks' search form
 * (`captions=1`). Without JavaScript the form's Search button applies it; with
 * JavaScript a change navigates at once, like the category filter.
 */
export const HAS_CAPTIONS_LABEL = 'Has captions'

export function CaptionsFilter({ checked }: { checked: boolean }) {
  const inputRef = useRef<HTMLInputElement>(null)
  const onChange = useFilterField(inputRef, checked)

  return (
    <label className="inline-flex min-h-11 shrink-0 cursor-pointer items-center gap-2 rounded-full bg-white px-4 text-sm font-medium text-ink-900 shadow-sm ring-1 ring-inset ring-ink-200 has-[:focus-visible]:shadow-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-inset has-[:focus-visible]:ring-brand-600">
      <input
        ref={inputRef}
        type="checkbox"
        name="captions"
        value="1"
        defaultChecked={checked}
        onChange={onChange}
        className="h-4 w-4 rounded border-ink-300 text-brand-600 focus:ring-brand-600"
      />
      {HAS_CAPTIONS_LABEL}
    </label>
  )
}
