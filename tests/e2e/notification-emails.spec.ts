import type { APIRequestContext } from '@playwright/test'
import { DEMO_ACCOUNTS, DEMO_PASSWORD, expect, expectAccessible, test, type TestAccount } from './support/fixtures'
import { mailboxKey } from './support/stand-in'

/**
 * Notification emails in the browser, with JavaScript on and off: a creator
 * whose application is approved gets one email in the developer mailbox (sent
 * by the server's worker from the outbox); its unsubscribe link, opened without
 * signing in, asks and then stops those emails; Edit Profile shows the change
 * and saves another. Which events queue emails, once each, is checked in
 * tests/integration/notification-emails.test.ts.
 */
interface MailMessage {
  to: string
  subject: string
  text: string
}

/** The demo admin approves the creator's application through the API. */
async function approve(request: APIRequestContext, creator: TestAccount) {
  const login = await request.post('/api/auth/login', { data: { email: DEMO_ACCOUNTS.admin.email, password: DEMO_PASSWORD } })
  const { token } = (await login.json()) as { token: string }
  const headers = { Authorization: `Bearer ${token}` }
  const list = (await (await request.get('/api/admin/creator-applications', { headers })).json()) as {
    _id: string
    user: { _id: string }
  }[]
  const application = list.find((entry) => entry.user._id === creator.id)
  expect(application, 'the new creator’s application').toBeDefined()
  const review = await request.put(`/api/admin/creator-applications/${application!._id}`, { headers, data: { approved: true } })
  expect(review.status()).toBe(200)
}

async function mailTo(request: APIRequestContext, email: string): Promise<MailMessage[]> {
  const response = await request.get(`/mailbox/api/messages?to=${encodeURIComponent(email)}`, {
    headers: { 'X-Mailbox-Key': mailboxKey() },
  })
  return ((await response.json()) as { messages: MailMessage[] }).messages
}

test.describe('notification emails', () => {
  for (const javaScriptEnabled of [true, false]) {
    test.describe(`with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
      test.use({ javaScriptEnabled })

      test('an approved creator gets one email; its link stops those emails without signing in; Edit Profile saves choices', async ({
        page,
        request,
        makeUser,
        signedInAs,
      }) => {
        test.setTimeout(120_000)
        const creator = await makeUser({ role: 'creator' })
        await approve(request, creator)

        // The worker sends it from the outbox within a poll or two.
        await expect.poll(async () => (await mailTo(request, creator.email)).length, { timeout: 30_000 }).toBe(1)
        const [mail] = await mailTo(request, creator.email)
        expect(mail!.subject).toBe('Your creator application was approved. You can upload videos now.')
        const link = /https?:\/\/\S+\/unsubscribe\?token=\S+/.exec(mail!.text)?.[0]
        expect(link, 'the email’s unsubscribe link').toBeDefined()

        // Not signed in: the page asks first (opening the link changes nothing), then the button stops them.
        await page.goto(new URL(link!).pathname + new URL(link!).search)
        await expect(page.getByRole('heading', { name: 'Stop these emails?' })).toBeVisible()
        await expect(page.getByText('Your creator application reviewed')).toBeVisible()
        // axe runs in the page: only where the page runs scripts.
        if (javaScriptEnabled) await expectAccessible(page)
        await page.getByRole('button', { name: 'Stop these emails' }).click()
        await expect(page.getByRole('heading', { name: "You're unsubscribed" })).toBeVisible()
        if (javaScriptEnabled) await expectAccessible(page)

        // A mail provider's one-click unsubscribe (RFC 8058) posts to the link itself, from no page of ours.
        const oneClick = await request.post(link!, {
          headers: { 'Sec-Fetch-Site': 'cross-site' },
          form: { 'List-Unsubscribe': 'One-Click' },
        })
        expect(oneClick.status()).toBe(200)

        // A link someone changed is refused.
        await page.goto(
          `${new URL(link!).pathname}?token=${encodeURIComponent(new URL(link!).searchParams.get('token')!.slice(0, -3))}`,
        )
        await expect(page.getByRole('heading', { name: 'Unsubscribe link not valid' })).toBeVisible()

        // Signed in, Edit Profile shows the type back to the app only, and saves another choice.
        await signedInAs(creator)
        await page.goto('/profile/edit')
        const reviewed = page.getByRole('group', { name: 'Your creator application reviewed' })
        await expect(reviewed.getByRole('radio', { name: 'App only' })).toBeChecked()
        const comments = page.getByRole('group', { name: 'Comments on your videos' })
        await expect(comments.getByRole('radio', { name: 'App only' })).toBeChecked()
        await comments.getByRole('radio', { name: 'Daily digest' }).check()
        await page.getByRole('button', { name: 'Save notification settings' }).click()
        await expect(page.getByText('Notification preferences saved.')).toBeVisible()
        await expect(
          page.getByRole('group', { name: 'Comments on your videos' }).getByRole('radio', { name: 'Daily digest' }),
        ).toBeChecked()
        if (javaScriptEnabled) await expectAccessible(page)

        // Still exactly one email.
        expect(await mailTo(request, creator.email)).toHaveLength(1)
      })
    })
  }
})
