import { useEffect, useId, useRef, type ReactNode } from 'react'
import { CloseIcon } from '~/components/icons'

/**
 * The one modal of the visual system: a native `<dialog>` shown with
 * `showModal()` (focus trapped, Escape closes, the page behind inert), a
 * bottom sheet on phones and a card from `sm` up. Its body mounts only while
 * open, so every opening starts fresh (new form, new fetcher).
 */
export function Sheet({
  open,
  onClose,
  title,
  subtitle,
  closeLabel = 'Close',
  initialFocus,
  placement = 'center',
  children,
}: {
  open: boolean
  onClose: () => void
  title: ReactNode
  subtitle?: ReactNode
  closeLabel?: string
  /** A selector inside the body to focus on opening (showModal alone would focus the Close button). */
  initialFocus?: string
  /** From `sm` up: centred, or in the bottom-right corner beside a floating button. */
  placement?: 'center' | 'corner'
  children: ReactNode
}) {
  const dialogRef = useRef<HTMLDialogElement>(null)
  const titleId = useId()

  useEffect(() => {
    const dialog = dialogRef.current
    if (!dialog) return
    if (open && !dialog.open) {
      dialog.showModal()
      if (initialFocus) dialog.querySelector<HTMLElement>(initialFocus)?.focus()
    }
    if (!open && dialog.open) dialog.close()
  }, [open, initialFocus])

  const position =
    placement === 'corner' ? 'sm:mb-6 sm:ml-auto sm:mr-6 sm:w-[26rem]' : 'sm:m-auto sm:w-[28rem]'
  return (
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions -- a click on the backdrop closes, as Escape does for keyboards (onCancel)
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault()
        onClose()
      }}
      onClose={() => {
        if (open) onClose()
      }}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself.
        if (event.target === dialogRef.current) onClose()
      }}
      className={`m-0 mt-auto max-h-[calc(100dvh-1rem)] w-full max-w-none overflow-y-auto rounded-t-2xl bg-white p-0 text-left text-ink-900 shadow-2xl backdrop:bg-ink-950/50 sm:rounded-card ${position}`}
    >
      {open ? (
        <div className="p-5 pb-[calc(1.25rem+env(safe-area-inset-bottom))] sm:p-6">
          <div className="mb-4 flex items-start justify-between gap-4">
            <div className="min-w-0">
              <h2 id={titleId} className="text-heading">
                {title}
              </h2>
              {subtitle ? <p className="text-caption mt-0.5 truncate">{subtitle}</p> : null}
            </div>
            <button
              type="button"
              onClick={onClose}
              className="-mr-2 -mt-1 inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-full text-ink-500 hover:bg-ink-100 hover:text-ink-900"
            >
              <span className="sr-only">{closeLabel}</span>
              <CloseIcon className="h-5 w-5" />
            </button>
          </div>
          {children}
        </div>
      ) : null}
    </dialog>
  )
}
