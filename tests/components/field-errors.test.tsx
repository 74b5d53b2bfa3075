import { Outlet } from '@remix-run/react'
import { createRemixStub } from '@remix-run/testing'
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ReactNode } from 'react'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { AddUserForm } from '~/components/admin/users-panel'
import { FeedbackFields } from '~/components/feedback-widget'
import { CreateQuoteForm } from '~/components/quote/create-quote-form'
import { checkWithSchema, FieldChecks, LiveSummary, TextField } from '~/components/ui/field'
import { ADMIN_MESSAGES } from '~/lib/schemas/admin'
import { AUTH_MESSAGES } from '~/lib/schemas/auth'
import { FEEDBACK_MESSAGES } from '~/lib/schemas/feedback'
import { QUOTE_MESSAGES } from '~/lib/schemas/quote'

/**
 * A field's error goes as soon as the field is right (app/components/ui/field.tsx):
 * the shared mechanism on its own, then forms that use it. The upload form's
 * and the report dialog's cases are in their own files.
 */
function renderAt(element: ReactNode) {
  const Stub = createRemixStub([
    {
      id: 'root',
      path: '/',
      Component: () => <Outlet />,
      loader: () => ({ user: { id: 'learner-1' } }),
      children: [{ path: 'here', Component: () => <>{element}</>, action: () => ({ ok: true }) }],
    },
  ])
  render(<Stub initialEntries={['/here']} />)
  return userEvent.setup()
}

function choose(input: HTMLElement, file: File) {
  const list = new DataTransfer()
  list.items.add(file)
  ;(input as HTMLInputElement).files = list.files
  fireEvent.change(input)
}

const schema = z.object({
  name: z.string().trim().min(3, 'At least 3 letters'),
  code: z.string().regex(/^\d{4}$/, 'Four digits'),
})
const values = (form: FormData) => ({ name: form.get('name') ?? '', code: form.get('code') ?? '' })

function SchemaForm({ sent }: { sent: Record<string, string> }) {
  return (
    <FieldChecks check={checkWithSchema(schema, values)}>
      <form noValidate>
        <LiveSummary message={sent.form} names={['name', 'code']} />
        <TextField label="Name" name="name" error={sent.name} />
        <TextField label="Code" name="code" error={sent.code} />
        <TextField label="Nickname" name="nickname" error={sent.nickname} />
      </form>
    </FieldChecks>
  )
}

describe('the shared field errors', () => {
  it('checks a field again with the schema as it changes: a wrong value keeps or updates its message, a right one clears it', async () => {
    const user = renderAt(<SchemaForm sent={{ name: 'Taken', code: 'Four digits', form: 'Please check the 2 highlighted fields.' }} />)
    const name = await screen.findByRole('textbox', { name: 'Name' })
    expect(screen.getByText('Taken')).toBeTruthy()

    await user.type(name, 'ab')
    expect(screen.queryByText('Taken')).toBeNull()
    expect(screen.getByText('At least 3 letters')).toBeTruthy()
    expect(name.getAttribute('aria-invalid')).toBe('true')
    await user.type(name, 'c')
    expect(screen.queryByText('At least 3 letters')).toBeNull()
    expect(name.getAttribute('aria-invalid')).toBeNull()
    // The summary names two fields: it stays until both are right.
    expect(screen.getByText('Please check the 2 highlighted fields.')).toBeTruthy()

    const code = screen.getByRole('textbox', { name: 'Code' })
    await user.type(code, '12')
    expect(screen.getByText('Four digits')).toBeTruthy()
    await user.type(code, '34')
    expect(screen.queryByText('Four digits')).toBeNull()
    expect(screen.queryByText('Please check the 2 highlighted fields.')).toBeNull()
  })

  it('clears on change a field the schema does not know, and shows nothing new on a field that had no error', async () => {
    const user = renderAt(<SchemaForm sent={{ nickname: 'That one is rude' }} />)
    await user.type(await screen.findByRole('textbox', { name: 'Nickname' }), 'x')
    expect(screen.queryByText('That one is rude')).toBeNull()
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'a')
    expect(screen.queryByText('At least 3 letters')).toBeNull()
  })
})

describe('the create-quote form', () => {
  function renderQuote() {
    return renderAt(
      <CreateQuoteForm
        videoId="6f1c1d2e-0000-4000-8000-000000000001"
        userId="learner-1"
        supabase={{ url: 'http://storage.invalid', anonKey: 'anon' }}
        playerRef={{ current: null }}
      />,
    )
  }
  const submit = () => screen.getByRole('button', { name: 'Submit Quote' })

  it('clears the text error when text is typed, and when the type changes to a video response', async () => {
    const user = renderQuote()
    const text = await screen.findByRole('textbox', { name: /Quote text/ })
    await waitFor(() => expect(text.closest('form')!.noValidate).toBe(true))
    await user.click(submit())
    expect(await screen.findByText(QUOTE_MESSAGES.textRequired)).toBeTruthy()
    await user.type(text, '  ')
    expect(screen.getByText(QUOTE_MESSAGES.textRequired)).toBeTruthy()
    await user.type(text, 'A fine point')
    expect(screen.queryByText(QUOTE_MESSAGES.textRequired)).toBeNull()

    await user.clear(text)
    await user.click(submit())
    expect(await screen.findByText(QUOTE_MESSAGES.textRequired)).toBeTruthy()
    await user.click(screen.getByRole('radio', { name: /Video Response/ }))
    expect(screen.queryByText(QUOTE_MESSAGES.textRequired)).toBeNull()
  })

  it('clears the video file’s error once a video is chosen, and the moment’s once it is right', async () => {
    const user = renderQuote()
    const form = (await screen.findByRole('textbox', { name: /Quote text/ })).closest('form')!
    await waitFor(() => expect(form.noValidate).toBe(true))
    await user.click(screen.getByRole('radio', { name: /Video Response/ }))
    await user.type(screen.getByRole('textbox', { name: /Moment/ }), 'soon')
    await user.click(submit())
    expect(await screen.findByText(QUOTE_MESSAGES.videoRequired)).toBeTruthy()
    expect(screen.getByText(QUOTE_MESSAGES.badMoment)).toBeTruthy()

    const video = within(form).getByLabelText(/Video file/)
    choose(video, new File(['%PDF'], 'notes.pdf', { type: 'application/pdf' }))
    expect(await screen.findByText(QUOTE_MESSAGES.videoNotVideo)).toBeTruthy()
    choose(video, new File(['x'.repeat(100)], 'answer.mp4', { type: 'video/mp4' }))
    await waitFor(() => expect(screen.queryByText(QUOTE_MESSAGES.videoNotVideo)).toBeNull())
    expect(screen.queryByText(QUOTE_MESSAGES.videoRequired)).toBeNull()

    const moment = screen.getByRole('textbox', { name: /Moment/ })
    await user.clear(moment)
    await user.type(moment, '12')
    expect(screen.queryByText(QUOTE_MESSAGES.badMoment)).toBeNull()
  })
})

describe('the feedback fields (the panel and the /feedback page)', () => {
  it('clears each answer’s message as soon as it is given, and keeps it for blank text', async () => {
    const user = renderAt(
      <form noValidate>
        <FeedbackFields
          errors={{ liked: FEEDBACK_MESSAGES.liked, usage: FEEDBACK_MESSAGES.usage, recommendations: FEEDBACK_MESSAGES.recommendations }}
        />
      </form>,
    )
    const yes = await screen.findByRole('radio', { name: 'Yes' })
    const group = screen.getByRole('group', { name: /Did you like Lumen/ })
    expect(group.getAttribute('aria-invalid')).toBe('true')
    await user.click(yes)
    expect(screen.queryByText(FEEDBACK_MESSAGES.liked)).toBeNull()
    expect(group.getAttribute('aria-invalid')).toBeNull()

    await user.type(screen.getByRole('textbox', { name: /How do you use/ }), 'Sparks on the bus')
    expect(screen.queryByText(FEEDBACK_MESSAGES.usage)).toBeNull()

    const recommendations = screen.getByRole('textbox', { name: /recommend/ })
    await user.type(recommendations, '   ')
    expect(screen.getByText(FEEDBACK_MESSAGES.recommendations)).toBeTruthy()
    await user.type(recommendations, 'More maths')
    expect(screen.queryByText(FEEDBACK_MESSAGES.recommendations)).toBeNull()
  })
})

describe('admin → Add user', () => {
  it('clears each field’s message once it is right, and the summary once all of them are', async () => {
    const summary = 'Please check the 2 highlighted fields'
    const user = renderAt(
      <AddUserForm
        state={{
          formError: summary,
          fieldErrors: { email: AUTH_MESSAGES.emailInvalid, role: ADMIN_MESSAGES.roleRequired },
          values: { username: 'new.person', email: 'new.person@', role: '' },
        }}
      />,
    )
    const email = await screen.findByRole('textbox', { name: 'Email' })
    expect(screen.getByText(summary)).toBeTruthy()
    await user.type(email, 'example')
    expect(screen.getByText(AUTH_MESSAGES.emailInvalid)).toBeTruthy()
    await user.type(email, '.com')
    expect(screen.queryByText(AUTH_MESSAGES.emailInvalid)).toBeNull()
    expect(screen.getByText(summary)).toBeTruthy()

    await user.selectOptions(screen.getByRole('combobox', { name: 'Role' }), 'user')
    expect(screen.queryByText(ADMIN_MESSAGES.roleRequired)).toBeNull()
    expect(screen.queryByText(summary)).toBeNull()
  })
})
