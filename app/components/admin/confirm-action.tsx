import { useFetcher } from '@remix-run/react'
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { Sheet } from '~/components/ui/sheet'
import { Spinner } from '~/components/ui/spinner'
import { useHydrated } from '~/components/use-hydrated'

/** The console's heading that takes the focus when the row a dialog acted on is gone. */
export const ADMIN_PANEL_HEADING_ID = 'admin-panel-title'

/**
 * A destructive console action that asks first (remove content, delete a
 * user, reject an application).
 *
 * - Without JavaScript it renders `fallback`: a link (or a GET submit) to the
 *   page's confirmation state (`?confirm=<id>`), whose plain form does the rest.
 * - With JavaScript it is a button opening a modal `<dialog>` (the `Sheet`:
 *   labelled by its title, focus trapped, Escape and Cancel close it and give
 *   the focus back to the button). Confirming posts the same fields through a
 *   fetcher; the action's redirect reloads the console's data in place, the
 *   flash says what happened, and the focus goes to the panel heading when the
 *   row it acted on has left the list (back to the button otherwise).
 */
export function ConfirmAction({
  label,
  triggerClassName,
  fallback,
  title,
  description,
  fields,
  extra,
  confirmName,
  confirmValue,
  confirmLabel,
  pendingLabel,
}: {
  /** The trigger's content (keep it the same as the fallback's, so it reads the same either way). */
  label: ReactNode
  triggerClassName: string
  fallback: ReactNode
  title: string
  description: ReactNode
  /** Hidden fields of the post (intent, tab, ids). */
  fields: Record<string, string>
  /** More form controls inside the dialog (e.g. review notes). */
  extra?: ReactNode
  confirmName?: string
  confirmValue?: string
  confirmLabel: string
  pendingLabel: string
}) {
  const hydrated = useHydrated()
  const fetcher = useFetcher()
  const [open, setOpen] = useState(false)
  const triggerRef = useRef<HTMLButtonElement>(null)
  const submitted = useRef(false)

  useEffect(() => {
    if (fetcher.state !== 'idle') {
      submitted.current = true
      return
    }
    if (!submitted.current) return
    submitted.current = false
    setOpen(false)
    // The row may be gone with its button: then the panel heading takes the focus.
    requestAnimationFrame(() => {
      const trigger = triggerRef.current
      if (trigger && trigger.isConnected) trigger.focus()
      else document.getElementById(ADMIN_PANEL_HEADING_ID)?.focus()
    })
  }, [fetcher.state])

  // Unmounted while confirming: the row left the list, so the heading takes the focus.
  useEffect(
    () => () => {
      if (submitted.current) requestAnimationFrame(() => document.getElementById(ADMIN_PANEL_HEADING_ID)?.focus())
    },
    [],
  )

  if (!hydrated) return <>{fallback}</>

  const close = () => {
    setOpen(false)
    requestAnimationFrame(() => triggerRef.current?.focus())
  }
  const busy = fetcher.state !== 'idle'
  return (
    <>
      <button ref={triggerRef} type="button" aria-haspopup="dialog" className={triggerClassName} onClick={() => setOpen(true)}>
        {label}
      </button>
      <Sheet open={open} onClose={close} title={title} closeLabel="Cancel">
        <fetcher.Form method="post" className="space-y-4">
          {Object.entries(fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <div className="text-body">{description}</div>
          {extra}
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={close}>
              Cancel
            </button>
            <button
              type="submit"
              name={confirmName}
              value={confirmValue}
              aria-disabled={busy || undefined}
              onClick={(event) => {
                if (busy) event.preventDefault()
              }}
              className="btn bg-red-600 text-white hover:bg-red-700"
            >
              {busy ? <Spinner label={pendingLabel} className="h-4 w-4" /> : null}
              {busy ? pendingLabel : confirmLabel}
            </button>
          </div>
        </fetcher.Form>
      </Sheet>
    </>
  )
}
