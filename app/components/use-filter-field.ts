import { useSubmit } from '@remix-run/react'
import { useCallback, useEffect, useRef, type ChangeEvent, type RefObject } from 'react'
import { submitSearchForm } from './search-box'

type FilterField = HTMLInputElement | HTMLSelectElement

const valueOf = (field: FilterField): string | boolean =>
  field instanceof HTMLInputElement && field.type === 'checkbox' ? field.checked : field.value

/**
 * A filter of the feed's and sparks' search form (the category select, "Has captions"): uncontrolled, so a
 * change shows at once and keyboard focus stays, and a change navigates at once (`onChange`). `shown` is what
 * the URL says. Once the page is interactive:
 * - a change made while it was still loading (a tap before hydration, or during it, which React replays) is
 *   applied, as it would have been a moment later; writing the URL's value into the field then would undo it;
 * - afterwards, when the URL changes under the field (a "Clear filters" link, back/forward), the field shows it.
 */
export function useFilterField(ref: RefObject<FilterField>, shown: string | boolean) {
  const submit = useSubmit()
  // What the field last asked for, until the URL moves: a change React replays after the mount effect applied it
  // is not sent twice.
  const asked = useRef<string | null>(null)
  const apply = useCallback(
    (form: HTMLFormElement | null) => {
      if (!form) return
      const params = [...new FormData(form)].map(([name, value]) => `${name}=${String(value)}`).join('&')
      if (params === asked.current) return
      asked.current = params
      submitSearchForm(submit, form)
    },
    [submit],
  )

  const followed = useRef<string | boolean | null>(null)
  useEffect(() => {
    const field = ref.current
    if (!field) return
    const first = followed.current === null
    const moved = followed.current !== shown
    followed.current = shown
    if (first) {
      if (valueOf(field) !== shown) apply(field.form)
    } else if (moved) {
      asked.current = null
      if (typeof shown === 'boolean' && field instanceof HTMLInputElement) field.checked = shown
      else field.value = String(shown)
    }
  }, [ref, shown, apply])

  return (event: ChangeEvent<FilterField>) => apply(event.currentTarget.form)
}
