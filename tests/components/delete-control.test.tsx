import { Outlet } from '@remix-run/react'
import { createRemixStub } from '@remix-run/testing'
import { act, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { DeleteControl } from '~/components/ui/delete-control'

/**
 * Where the focus goes after a delete confirmed in the dialog (app/components/ui/confirm-action.tsx):
 * to the list's heading once the row is gone — also when the row leaves a moment after the post's
 * answer (its list reloaded on its own, as the video page's notes are), when the focus had already
 * gone back to the row's button.
 */
let removeRow: () => void = () => {}

function Notes() {
  const [rows, setRows] = useState(['note-1'])
  removeRow = () => setRows([])
  return (
    <main>
      <h2 id="notes-heading" tabIndex={-1}>
        My notes
      </h2>
      <ul>
        {rows.map((id) => (
          <li key={id}>
            <DeleteControl
              noun="note"
              title="Delete your note at 0:09?"
              description="The note is deleted for good."
              fields={{ intent: 'note-delete', noteId: id }}
              fetcherKey={`note-delete-${id}`}
              focusAfterId="notes-heading"
              action="/notes"
            />
          </li>
        ))}
      </ul>
    </main>
  )
}

function renderNotes() {
  const Stub = createRemixStub([
    {
      id: 'root',
      path: '/',
      Component: () => <Outlet />,
      children: [
        { path: 'video', Component: Notes },
        { path: 'notes', action: () => ({ ok: true }) },
      ],
    },
  ])
  render(<Stub initialEntries={['/video']} />)
  return userEvent.setup()
}

describe('a delete confirmed in the dialog', () => {
  it('gives the focus to the list’s heading when the row leaves after the answer, not to the page', async () => {
    const user = renderNotes()
    const trigger = await screen.findByRole('button', { name: 'Delete note' })
    await user.click(trigger)
    const dialog = await screen.findByRole('dialog')
    await user.click(within(dialog).getByRole('button', { name: 'Delete note' }))
    // The answer came while the row was still listed: the focus is back on its button.
    await waitFor(() => expect(document.activeElement).toBe(trigger))
    act(() => removeRow())
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'My notes' })))
  })
})
