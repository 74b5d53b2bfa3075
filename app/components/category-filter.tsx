import { useSubmit } from '@remix-run/react'
import { useEffect, useId, useRef, type ChangeEvent } from 'react'
import { ChevronDownIcon } from '~/components/icons'
import { CATEGORIES } from '~/lib/catalog'
import { submitSearchForm } from './search-box'

/**
 * The category filter of the feed and sparks (docs/product.md: 'All Categories' plus the
 * fixed list; 'Other' too, the default category of an upload). A plain
 * `<select name="category">` inside a GET form: without JavaScript the form's
 * button applies it; with JavaScript a change navigates at once.
 */
export const ALL_CATEGORIES_LABEL = 'All Categories'

export function CategoryFilter({ value, name = 'category' }: { value: string; name?: string }) {
  const id = useId()
  const submit = useSubmit()
  const selectRef = useRef<HTMLSelectElement>(null)

  // The URL changed under the select (a "Clear filters" link, back/forward): show what it says now,
  // without remounting it (keyboard focus stays where it is).
  useEffect(() => {
    if (selectRef.current) selectRef.current.value = value
  }, [value])

  const onChange = (event: ChangeEvent<HTMLSelectElement>) => {
    const form = event.currentTarget.form
    if (form) submitSearchForm(submit, form)
  }
  return (
    <div className="relative sm:w-64">
      <label htmlFor={id} className="sr-only">
        Category
      </label>
      <select
        id={id}
        name={name}
        ref={selectRef}
        defaultValue={value}
        onChange={onChange}
        className="block min-h-11 w-full appearance-none rounded-full border-0 bg-white py-2.5 pl-4 pr-10 text-sm font-medium text-ink-900 shadow-sm ring-1 ring-inset ring-ink-200 focus:ring-2 focus:ring-inset focus:ring-brand-600"
      >
        <option value="">{ALL_CATEGORIES_LABEL}</option>
        {CATEGORIES.map((category) => (
          <option key={category.id} value={category.id}>
            {category.name}
          </option>
        ))}
      </select>
      <ChevronDownIcon className="pointer-events-none absolute right-3.5 top-1/2 h-4 w-4 -translate-y-1/2 text-ink-500" />
    </div>
  )
}
