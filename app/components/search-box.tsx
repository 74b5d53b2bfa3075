import { Form, useNavigation, useSubmit, type SubmitFunction } from '@remix-run/react'
import { useEffect, useId, useRef, type ReactNode } from 'react'
import { SearchIcon } from '~/components/icons'
import { Spinner } from './ui/spinner'
import { useHydrated } from './use-hydrated'

/**
 * The search of the feed and sparks: a GET form (`?search=…`, plus whatever
 * filters sit inside it, e.g. the category select), so it works without
 * JavaScript through its button. With JavaScript, typing navigates after a
 * pause (debounced), replacing the history entry instead of adding one per
 * keystroke; empty fields are left out of the URL.
 */
export const SEARCH_DEBOUNCE_MS = 300

export function SearchBox({
  action,
  value,
  placeholder = 'Search by video name...',
  label = 'Search',
  children,
}: {
  /** The page the form loads, e.g. "/feed". */
  action: string
  /** The current search (from the URL). */
  value: string
  placeholder?: string
  label?: string
  /** More fields of the same form (filters). */
  children?: ReactNode
}) {
  const id = useId()
  const submit = useSubmit()
  const navigation = useNavigation()
  const hydrated = useHydrated()
  const inputRef = useRef<HTMLInputElement>(null)
  const timer = useRef<ReturnType<typeof setTimeout>>()
  const searching = navigation.state === 'loading' && navigation.location.pathname === action && navigation.location.search.includes('search=')

  // The URL changed under the field (a "Clear filters" link, back/forward): show what it says now.
  useEffect(() => {
    const input = inputRef.current
    if (input && document.activeElement !== input) input.value = value
  }, [value])

  useEffect(() => () => clearTimeout(timer.current), [])

  return (
    <Form
      method="get"
      action={action}
      role="search"
      className="flex flex-col gap-3 sm:flex-row sm:items-center"
      onSubmit={(event) => {
        event.preventDefault()
        clearTimeout(timer.current)
        submitSearchForm(submit, event.currentTarget)
      }}
    >
      <div className="relative flex-1">
        <label htmlFor={id} className="sr-only">
          {label}
        </label>
        <SearchIcon className="pointer-events-none absolute left-4 top-1/2 h-5 w-5 -translate-y-1/2 text-ink-400" />
        <input
          ref={inputRef}
          id={id}
          type="search"
          name="search"
          defaultValue={value}
          placeholder={placeholder}
          maxLength={200}
          autoComplete="off"
          enterKeyHint="search"
          className="block min-h-11 w-full rounded-full border-0 bg-white py-2.5 pl-11 pr-10 text-base text-ink-900 shadow-sm ring-1 ring-inset ring-ink-200 placeholder:text-ink-400 focus:ring-2 focus:ring-inset focus:ring-brand-600 sm:text-sm"
          onChange={(event) => {
            const form = event.currentTarget.form
            clearTimeout(timer.current)
            timer.current = setTimeout(() => {
              if (form) submitSearchForm(submit, form)
            }, SEARCH_DEBOUNCE_MS)
          }}
        />
        {searching ? (
          <span className="absolute right-4 top-1/2 -translate-y-1/2 text-brand-600">
            <Spinner label="Searching" className="h-4 w-4" />
          </span>
        ) : null}
      </div>
      {children}
      {/* With JavaScript the search runs as you type (and on Enter): the button stays only for implicit submission. */}
      <button type="submit" className={hydrated ? 'sr-only' : 'btn-primary'} tabIndex={hydrated ? -1 : undefined}>
        Search
      </button>
    </Form>
  )
}

/** Navigates to the form's GET URL without its empty fields, replacing the current history entry. */
export function submitSearchForm(submit: SubmitFunction, form: HTMLFormElement) {
  const params = new URLSearchParams()
  for (const [name, value] of new FormData(form)) {
    if (typeof value === 'string' && value.trim() !== '') params.append(name, value)
  }
  submit(params, { method: 'get', action: form.getAttribute('action') ?? undefined, replace: true, preventScrollReset: true })
}
