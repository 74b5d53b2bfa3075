import { useId } from 'react'
import { Checkbox, FieldError, useLiveError } from '~/components/ui/field'
import { CREATOR_CATEGORIES, shortCategoryName } from '~/lib/catalog'

/**
 * The content categories a creator asks to publish in (docs/product.md, Screens; Rules and messages: at
 * least one). An admin approves them together with the application.
 */
export function CategoryChecklist({ defaultChecked, error: sentError }: { defaultChecked: readonly string[]; error?: string | null }) {
  // 'Please select at least one category' goes as soon as one is ticked.
  const { error, ref, markStale } = useLiveError(sentError)
  const id = useId()
  const hintId = `${id}-hint`
  const errorId = error ? `${id}-error` : undefined
  return (
    <fieldset
      aria-describedby={[hintId, errorId].filter(Boolean).join(' ')}
      onChange={(event) => {
        if (event.currentTarget.querySelector('input[name="categories"]:checked')) markStale()
      }}
      className="flex flex-col gap-3"
    >
      <legend className="text-sm font-semibold text-ink-900">Content categories</legend>
      <p id={hintId} className="-mt-1 text-caption">
        What will you teach? Uploads use these once an admin approves them.
      </p>
      <div ref={ref} className="grid gap-2 sm:grid-cols-2">
        {CREATOR_CATEGORIES.map((category) => (
          <Checkbox
            key={category.id}
            name="categories"
            value={category.id}
            defaultChecked={defaultChecked.includes(category.id)}
            label={shortCategoryName(category.id)}
          />
        ))}
      </div>
      {error ? <FieldError id={errorId}>{error}</FieldError> : null}
    </fieldset>
  )
}
