import { useFetcher } from '@remix-run/react'
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { Sheet } from '~/components/ui/sheet'
import { Spinner } from '~/components/ui/spinner'
import { useHydrated } from '~/components/use-hydrated'

/** The console's heading that takes the focus when the row a dialog acted on is gone. */
export const ADMIN_PANEL_HEADING_ID = 'admin-panel-title'

/**
 * The product's one way to confirm a destructive action (remove content,
 * delete a user, reject an application, delete a quote) — never the
 * browser's `confirm()`.
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
  action,
  fetcherKey,
  focusAfterId = ADMIN_PANEL_HEADING_ID,
  preventScrollReset,
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
  /** Where the post goes (default the page's own action). */
  action?: string
  /** Shares the fetcher with the row (`useFetcher({ key })`), which shows its pending state and error. */
  fetcherKey?: string
  /** The element (with tabindex -1) that takes the focus when the row acted on is gone. */
  focusAfterId?: string
  preventScrollReset?: boolean
}) {
  const hydrated = useHydrated()
  const fetcher = useFetcher({ key: fetcherKey })
  const [open, setOpen] = useState(false)
  const triggerRef = useRef<HTMLButtonElement>(null)
  const submitted = useRef(false)
  /** The focus went back to the button after a post: the row may still leave the list a moment later. */
  const refocused = useRef(false)

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
      if (trigger && trigger.isConnected) {
        trigger.focus()
        refocused.current = true
      } else document.getElementById(focusAfterId)?.focus()
    })
  }, [fetcher.state, focusAfterId])

  // Unmounted while confirming: the row left the list, so the heading takes the focus. The same when the
  // row leaves just after the focus went back to its button (its list reloaded after the post's answer):
  // the focus went with the button, unless something else has taken it since.
  useEffect(
    () => () => {
      const lost = () => !document.activeElement || document.activeElement === document.body
      if (submitted.current) requestAnimationFrame(() => document.getElementById(focusAfterId)?.focus())
      else if (refocused.current)
        requestAnimationFrame(() => {
          if (lost()) document.getElementById(focusAfterId)?.focus()
        })
    },
    [focusAfterId],
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
        <fetcher.Form method="post" action={action} preventScrollReset={preventScrollReset} className="space-y-4">
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
