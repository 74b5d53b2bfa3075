import { Form } from '@remix-run/react'
import { useEffect, useId, useRef, useState } from 'react'
import { TrashIcon } from '~/components/icons'
import { Checkbox, FieldError } from '~/components/ui/field'
import { useHydrated } from '~/components/use-hydrated'

/**
 * Owner or admin only. With JS: a button opening a confirmation dialog.
 * Without: a disclosure whose form needs the box 'Yes, delete this video'
 * ticked (the server insists on it either way).
 */
export function DeleteVideoControl({ title, error }: { title: string; error: string | null }) {
  const hydrated = useHydrated()
  const dialogRef = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const [open, setOpen] = useState(false)
  useEffect(() => {
    const dialog = dialogRef.current
    if (!dialog) return
    if (open && !dialog.open) dialog.showModal()
    if (!open && dialog.open) dialog.close()
  }, [open])
  const danger = 'btn bg-white text-red-700 ring-1 ring-inset ring-red-200 hover:bg-red-50'

  if (!hydrated) {
    return (
      <details className="open:basis-full" open={Boolean(error)}>
        <summary className={`${danger} cursor-pointer list-none [&::-webkit-details-marker]:hidden`}>
          <TrashIcon />
          Delete
        </summary>
        <Form method="post" className="card mt-2 flex max-w-sm flex-col gap-3 p-4">
          <input type="hidden" name="intent" value="delete" />
          <p className="text-sm text-ink-800">
            Deleting removes the video, its comments and quotes for everyone. This cannot be undone.
          </p>
          <Checkbox name="confirm" value="yes" label="Yes, delete this video" />
          {error ? <FieldError>{error}</FieldError> : null}
          <button type="submit" className="btn bg-red-600 text-white hover:bg-red-700">
            Delete video
          </button>
        </Form>
      </details>
    )
  }

  return (
    <>
      <button type="button" className={danger} aria-haspopup="dialog" onClick={() => setOpen(true)}>
        <TrashIcon />
        Delete
      </button>
      {error ? (
        <p role="alert" className="basis-full text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
      {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions -- a click on the backdrop closes, as Escape does for keyboards (onCancel) */}
      <dialog
        ref={dialogRef}
        aria-labelledby={titleId}
        onCancel={(event) => {
          event.preventDefault()
          setOpen(false)
        }}
        onClose={() => setOpen(false)}
        onClick={(event) => {
          if (event.target === dialogRef.current) setOpen(false)
        }}
        className="m-0 mt-auto w-full max-w-none rounded-t-2xl bg-white p-0 text-ink-900 shadow-2xl backdrop:bg-ink-950/50 sm:m-auto sm:w-[26rem] sm:rounded-card"
      >
        {open ? (
          <Form
            method="post"
            className="flex flex-col gap-4 p-5 pb-[calc(1.25rem+env(safe-area-inset-bottom))] sm:p-6"
            onSubmit={() => setOpen(false)}
          >
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="confirm" value="yes" />
            <h2 id={titleId} className="text-heading">
              Delete this video?
            </h2>
            <p className="text-body">
              “<span className="font-semibold">{title}</span>” will be removed for everyone, with its comments and quotes. This
              cannot be undone.
            </p>
            <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
              {/* eslint-disable-next-line jsx-a11y/no-autofocus -- a modal dialog focuses its safe choice when it opens */}
              <button type="button" className="btn-secondary" autoFocus onClick={() => setOpen(false)}>
                Cancel
              </button>
              <button type="submit" className="btn bg-red-600 text-white hover:bg-red-700">
                Delete video
              </button>
            </div>
          </Form>
        ) : null}
      </dialog>
    </>
  )
}
