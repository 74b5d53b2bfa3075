import { Outlet } from '@remix-run/react'
import { createRemixStub } from '@remix-run/testing'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { REPORT_FAILED, REPORT_THANKS, ReportControl, type ReportActionData } from '~/components/report-dialog'
import { REPORT_MESSAGES } from '~/lib/schemas/report'

/**
 * The report dialog (app/components/report-dialog.tsx) as a signed-in learner
 * meets it with JavaScript: found by its roles and labels, driven by keyboard
 * and clicks. The browser-only parts (the no-JS /report page, the backdrop)
 * stay in the e2e suite.
 */
const VIDEO_ID = '6f1c1d2e-0000-4000-8000-000000000001'
const TITLE = 'Why the Sky Is Blue'

function renderReport({
  user = { id: 'learner-1' } as { id: string } | null,
  authorId = 'creator-1',
  answer = (): ReportActionData => ({ ok: true, outcome: 'created', message: REPORT_THANKS }),
} = {}) {
  const posts: FormData[] = []
  const Stub = createRemixStub([
    {
      id: 'root',
      path: '/',
      Component: () => <Outlet />,
      loader: () => ({ user }),
      children: [
        {
          path: 'video/:id',
          Component: () => (
            <main>
              <ReportControl contentType="video" contentId={VIDEO_ID} contentLabel={TITLE} authorId={authorId} variant="button" />
            </main>
          ),
        },
        {
          path: 'report',
          action: async ({ request }) => {
            posts.push(await request.formData())
            return answer()
          },
        },
      ],
    },
  ])
  render(<Stub initialEntries={[`/video/${VIDEO_ID}`]} />)
  return { posts, user: userEvent.setup() }
}

const reportButton = () => screen.findByRole('button', { name: `Report video: ${TITLE}` })

describe('the report dialog', () => {
  it('opens from the report button with focus on the reason, and Cancel closes it and gives focus back', async () => {
    const { user } = renderReport()
    const button = await reportButton()
    expect(button.getAttribute('aria-expanded')).toBe('false')
    await user.click(button)
    expect(button.getAttribute('aria-expanded')).toBe('true')

    const dialog = screen.getByRole('dialog', { name: 'Report video' })
    expect(within(dialog).getByText(`“${TITLE}”`)).toBeTruthy()
    expect(document.activeElement).toBe(within(dialog).getByRole('combobox', { name: /Reason/ }))
    expect(within(dialog).getAllByRole('option').map((option) => option.textContent)).toEqual([
      'Select a reason',
      'Inappropriate content',
      'Copyright violation',
      'Misinformation',
      'Harmful or dangerous',
      'Spam',
      'Other',
    ])

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(button)
  })

  it('asks for a reason before sending anything, on the reason field', async () => {
    const { user, posts } = renderReport()
    await user.click(await reportButton())
    const dialog = screen.getByRole('dialog', { name: 'Report video' })
    await user.click(within(dialog).getByRole('button', { name: 'Submit Report' }))

    expect(within(dialog).getByText(REPORT_MESSAGES.reason)).toBeTruthy()
    const reason = within(dialog).getByRole('combobox', { name: /Reason/ })
    expect(reason.getAttribute('aria-invalid')).toBe('true')
    expect(document.activeElement).toBe(reason)
    expect(posts).toHaveLength(0)
  })

  it('sends the reason and details, thanks the learner, then closes by itself and gives focus back', async () => {
    const { user, posts } = renderReport()
    const button = await reportButton()
    await user.click(button)
    const dialog = screen.getByRole('dialog', { name: 'Report video' })
    await user.selectOptions(within(dialog).getByRole('combobox', { name: /Reason/ }), 'Misinformation')
    await user.type(within(dialog).getByRole('textbox', { name: /Details/ }), 'The numbers are wrong')
    await user.click(within(dialog).getByRole('button', { name: 'Submit Report' }))

    expect(await within(dialog).findByRole('status')).toHaveProperty('textContent', REPORT_THANKS)
    expect(posts).toHaveLength(1)
    expect(Object.fromEntries(posts[0]!)).toEqual({
      surface: 'dialog',
      contentType: 'video',
      contentId: VIDEO_ID,
      reason: 'misinformation',
      details: 'The numbers are wrong',
    })
    // It closes itself a few seconds after the thanks (REPORT_CLOSE_AFTER_MS).
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), { timeout: 6000 })
    expect(document.activeElement).toBe(button)
  })

  it('says so when the report could not be sent, keeping what was entered', async () => {
    const { user } = renderReport({ answer: () => ({ ok: false }) })
    await user.click(await reportButton())
    const dialog = screen.getByRole('dialog', { name: 'Report video' })
    await user.selectOptions(within(dialog).getByRole('combobox', { name: /Reason/ }), 'Spam')
    await user.click(within(dialog).getByRole('button', { name: 'Submit Report' }))

    expect(await within(dialog).findByText(REPORT_FAILED)).toBeTruthy()
    expect(within(dialog).getByRole('button', { name: 'Submit Report' })).toBeTruthy()
  })

  it('shows the server’s field message next to its field', async () => {
    const { user } = renderReport({
      answer: () => ({ ok: false, fieldErrors: { details: REPORT_MESSAGES.unsupported }, values: { reason: 'other', details: 'x' } }),
    })
    await user.click(await reportButton())
    const dialog = screen.getByRole('dialog', { name: 'Report video' })
    await user.selectOptions(within(dialog).getByRole('combobox', { name: /Reason/ }), 'Other')
    await user.click(within(dialog).getByRole('button', { name: 'Submit Report' }))

    expect(await within(dialog).findByText(REPORT_MESSAGES.unsupported)).toBeTruthy()
    expect(within(dialog).getByRole('textbox', { name: /Details/ }).getAttribute('aria-invalid')).toBe('true')
    expect(within(dialog).queryByText(REPORT_FAILED)).toBeNull()
  })

  it('clears each field’s message as soon as the field is right', async () => {
    const { user } = renderReport({
      answer: () => ({ ok: false, fieldErrors: { details: REPORT_MESSAGES.unsupported }, values: { reason: 'other', details: 'x' } }),
    })
    await user.click(await reportButton())
    const dialog = screen.getByRole('dialog', { name: 'Report video' })
    await user.click(within(dialog).getByRole('button', { name: 'Submit Report' }))
    const reason = within(dialog).getByRole('combobox', { name: /Reason/ })
    expect(within(dialog).getByText(REPORT_MESSAGES.reason)).toBeTruthy()
    await user.selectOptions(reason, 'Other')
    expect(within(dialog).queryByText(REPORT_MESSAGES.reason)).toBeNull()
    expect(reason.getAttribute('aria-invalid')).toBeNull()
    // Checked again with the shared schema, not just hidden: no reason is still wrong.
    await user.selectOptions(reason, 'Select a reason')
    expect(within(dialog).getByText(REPORT_MESSAGES.reason)).toBeTruthy()
    await user.selectOptions(reason, 'Other')

    // The server's message on the details goes once they are changed to something it can store.
    await user.click(within(dialog).getByRole('button', { name: 'Submit Report' }))
    expect(await within(dialog).findByText(REPORT_MESSAGES.unsupported)).toBeTruthy()
    const details = within(dialog).getByRole('textbox', { name: /Details/ })
    await user.type(details, ' more')
    expect(within(dialog).queryByText(REPORT_MESSAGES.unsupported)).toBeNull()
    expect(details.getAttribute('aria-invalid')).toBeNull()
  })

  it('offers no report control to visitors', async () => {
    renderReport({ user: null })
    await screen.findByRole('main')
    expect(screen.queryByRole('button', { name: /Report/ })).toBeNull()
    expect(screen.queryByRole('link', { name: /Report/ })).toBeNull()
  })

  it('offers no report control on the viewer’s own content', async () => {
    renderReport({ user: { id: 'creator-1' }, authorId: 'creator-1' })
    await screen.findByRole('main')
    expect(screen.queryByRole('button', { name: /Report/ })).toBeNull()
  })
})
