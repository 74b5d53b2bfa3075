/**
 * application-reviewed — emails a creator the outcome of their creator
 * application once an admin has reviewed it, called with the admin's own access
 * token: POST { "applicationId": "<uuid>" }. The app itself no longer calls it:
 * the review's notification email comes from the outbox the worker drains
 * (docs/decisions/0046-notification-emails.md); this stays the example of an
 * edge function (docs/decisions/0007-edge-functions-stand-in.md).
 *
 * Nothing in the body is trusted but the id. Who calls comes from Auth
 * (GET /auth/v1/user); whether they are an admin and what was decided come
 * from the database read as the caller through PostgREST, so row-level
 * security and `profiles.role` decide, as everywhere else in Lumen; the
 * creator's address comes from the Auth admin API (service role: emails are
 * not readable otherwise). The email goes out through an HTTP send API in
 * Resend's shape at MAIL_API_URL — the stand-in's mailbox in development, a
 * provider in production.
 *
 * Plain fetch, no imports: nothing to download when it boots.
 *
 * Answers: 200 { sent: true, messageId }, 401 not signed in, 403 not an admin,
 * 400 bad body, 404 no such application, 409 not reviewed yet, 502 mail failed.
 */

interface Application {
  creator_id: string
  status: 'pending' | 'approved' | 'rejected'
  review_notes: string | null
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const corsHeaders = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
}

function setting(name: string): string {
  const value = Deno.env.get(name)
  if (!value) throw new Error(`${name} is not set`)
  return value
}

const supabaseUrl = setting('SUPABASE_URL')
const anonKey = setting('SUPABASE_ANON_KEY')
const serviceRoleKey = setting('SUPABASE_SERVICE_ROLE_KEY')

function reply(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...corsHeaders, 'Content-Type': 'application/json' },
  })
}

/** One row through PostgREST as the caller, or undefined when RLS shows none. */
async function readOne<T>(authorization: string, path: string): Promise<T | undefined> {
  const response = await fetch(`${supabaseUrl}/rest/v1/${path}`, {
    headers: { apikey: anonKey, Authorization: authorization, Accept: 'application/vnd.pgrst.object+json' },
  })
  if (response.status === 406) return undefined
  if (!response.ok) throw new Error(`GET /rest/v1/${path} answered ${response.status}: ${await response.text()}`)
  return (await response.json()) as T
}

async function callerId(authorization: string): Promise<string | undefined> {
  const response = await fetch(`${supabaseUrl}/auth/v1/user`, {
    headers: { apikey: anonKey, Authorization: authorization },
  })
  if (!response.ok) return undefined
  return ((await response.json()) as { id?: string }).id
}

async function creatorEmail(creatorId: string): Promise<string | undefined> {
  const response = await fetch(`${supabaseUrl}/auth/v1/admin/users/${creatorId}`, {
    headers: { apikey: serviceRoleKey, Authorization: `Bearer ${serviceRoleKey}` },
  })
  if (!response.ok) return undefined
  return ((await response.json()) as { email?: string }).email || undefined
}

async function readApplicationId(request: Request): Promise<string | undefined> {
  const body: unknown = await request.json().catch(() => undefined)
  const id = (body as { applicationId?: unknown } | undefined)?.applicationId
  return typeof id === 'string' && UUID.test(id) ? id : undefined
}

function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
}

function composeEmail(username: string, application: Application, profileUrl: string) {
  const approved = application.status === 'approved'
  const subject = approved
    ? 'Your Lumen creator application was approved'
    : 'Your Lumen creator application was not approved'
  const outcome = approved
    ? 'Good news: an admin approved your creator application. You can now upload videos and sparks.'
    : 'An admin reviewed your creator application and did not approve it this time.'
  const notes = application.review_notes?.trim()
  const text = [
    `Hi ${username},`,
    '',
    outcome,
    ...(notes ? ['', "The reviewer's notes:", notes] : []),
    '',
    `Your profile: ${profileUrl}`,
    '',
    '— Lumen',
  ].join('\n')
  const html = `<p>Hi ${escapeHtml(username)},</p>
<p>${escapeHtml(outcome)}</p>
${notes ? `<p>The reviewer's notes:</p>\n<blockquote style="white-space: pre-wrap">${escapeHtml(notes)}</blockquote>` : ''}
<p><a href="${escapeHtml(profileUrl)}">Open your profile</a></p>
<p>— Lumen</p>`
  return { subject, text, html }
}

async function sendEmail(to: string, email: { subject: string; text: string; html: string }): Promise<string> {
  const response = await fetch(setting('MAIL_API_URL'), {
    method: 'POST',
    headers: { Authorization: `Bearer ${setting('MAIL_API_KEY')}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ from: Deno.env.get('MAIL_FROM') || 'Lumen <no-reply@lumen.local>', to, ...email }),
  })
  if (!response.ok) throw new Error(`the mail API answered ${response.status}: ${await response.text()}`)
  return ((await response.json()) as { id: string }).id
}

Deno.serve(async (request) => {
  if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: corsHeaders })
  if (request.method !== 'POST') return reply(405, { error: 'Use POST' })

  const authorization = request.headers.get('Authorization') ?? ''
  const userId = await callerId(authorization)
  if (!userId) return reply(401, { error: 'Sign in as an admin to notify creators' })
  const caller = await readOne<{ role: string }>(authorization, `profiles?select=role&id=eq.${userId}`)
  if (caller?.role !== 'admin') return reply(403, { error: 'Only admins notify creators about their applications' })

  const applicationId = await readApplicationId(request)
  if (!applicationId) return reply(400, { error: 'The body must be JSON: { "applicationId": "<uuid>" }' })
  const application = await readOne<Application>(
    authorization,
    `creator_applications?select=creator_id,status,review_notes&id=eq.${applicationId}`,
  )
  if (!application) return reply(404, { error: 'Application not found' })
  if (application.status === 'pending') return reply(409, { error: 'The application has not been reviewed yet' })

  const [creator, to] = await Promise.all([
    readOne<{ username: string }>(authorization, `profiles?select=username&id=eq.${application.creator_id}`),
    creatorEmail(application.creator_id),
  ])
  if (!creator || !to) return reply(404, { error: 'The creator has no account any more' })

  const profileUrl = `${setting('SITE_URL').replace(/\/$/, '')}/profile`
  try {
    const messageId = await sendEmail(to, composeEmail(creator.username, application, profileUrl))
    return reply(200, { sent: true, messageId })
  } catch (error) {
    console.error('application-reviewed: sending failed:', error)
    return reply(502, { error: 'The email could not be sent; try again later' })
  }
})
