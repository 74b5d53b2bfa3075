import { TrashIcon } from '~/components/icons'
import { ConfirmAction } from '~/components/ui/confirm-action'

/**
 * The trash button of an item in a list (a comment, a quote) that deletes it
 * after the product's confirmation: `ConfirmAction`'s dialog with JavaScript;
 * without it, a disclosure whose plain form asks the same question. `fields`
 * are the post's hidden fields; the focus goes to `focusAfterId` (the list's
 * heading, with tabindex -1) once the item is gone.
 */
export function DeleteControl({
  noun,
  title,
  description,
  fields,
  fetcherKey,
  focusAfterId,
  action,
}: {
  /** What is deleted, as in "Delete comment". */
  noun: string
  title: string
  description: string
  fields: Record<string, string>
  fetcherKey: string
  focusAfterId: string
  /** Where the post goes (default the page's own action). */
  action?: string
}) {
  return (
    <ConfirmAction
      label={
        <>
          <TrashIcon />
          <span className="sr-only">Delete {noun}</span>
        </>
      }
      triggerClassName="inline-flex h-11 w-11 items-center justify-center rounded-full text-ink-500 transition-colors hover:bg-ink-100 hover:text-red-700"
      title={title}
      description={description}
      fields={{ ...fields, js: '1' }}
      fetcherKey={fetcherKey}
      focusAfterId={focusAfterId}
      action={action}
      preventScrollReset
      confirmLabel={`Delete ${noun}`}
      pendingLabel="Deleting…"
      fallback={
        <details>
          <summary className="inline-flex min-h-11 cursor-pointer list-none items-center rounded-full px-3 text-sm font-semibold text-red-700 hover:bg-red-50 [&::-webkit-details-marker]:hidden">
            Delete
          </summary>
          <form method="post" action={action} className="mt-2 flex flex-col gap-2">
            <p className="text-sm text-ink-800">{title}</p>
            {Object.entries(fields).map(([name, value]) => (
              <input key={name} type="hidden" name={name} value={value} />
            ))}
            <button type="submit" className="btn bg-red-600 text-white hover:bg-red-700">
              Delete {noun}
            </button>
          </form>
        </details>
      }
    />
  )
}
