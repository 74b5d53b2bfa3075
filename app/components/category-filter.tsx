import { useId, useRef } from 'react'
import { ChevronDownIcon } from '~/components/icons'
import { CATEGORIES } from '~/lib/catalog'
import { useFilterField } from './use-filter-field'

/**
 * The category filter of the feed and sparks (docs/product.md: 'All Categories' plus the
 * fixed list; 'Other' too, the default category of an upload). A plain
 * `<select name="category">` inside a GET form: without JavaScript the form's
 * button applies it; with JavaScript a change navigates at once.
 */
export const ALL_CATEGORIES_LABEL = 'All Categories'

export function CategoryFilter({ value, name = 'category' }: { value: string; name?: string }) {
  const id = useId()
  const selectRef = useRef<HTMLSelectElement>(null)
  const onChange = useFilterField(selectRef, value)
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
