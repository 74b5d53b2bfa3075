import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData, type ShouldRevalidateFunction } from '@remix-run/react'
import { TabLinks } from '~/components/creators/creator-header'
import { FollowingList } from '~/components/profile/following-list'
import { ProgressPanel } from '~/components/checkpoints/progress-panel'
import { HistoryPanel } from '~/components/profile/history-list'
import { LearningPanel } from '~/components/courses/my-learning'
import { MyQuotesPanel, type MyQuotesActionData } from '~/components/profile/my-quotes'
import { MyReports } from '~/components/profile/my-reports'
import { NotesPanel } from '~/components/notes/notes-tab'
import { ProfileCard } from '~/components/profile/profile-card'
import { StatusCard } from '~/components/status-card'
import { Page } from '~/components/ui/page'
import { VerificationRequiredPanel } from '~/components/verification-required-panel'
import { cardPage } from '~/components/video-card'
import { EmptyState, PagedVideoGrid } from '~/components/video-grid'
import { PROFILE_TABS, profileTab, profileTabHref, type ProfileTab } from '~/lib/profile-tabs'
import { CREATOR_MESSAGES } from '~/lib/schemas/creators'
import { NOTE_MESSAGES } from '~/lib/schemas/notes'
import { PROGRESS_MESSAGES } from '~/lib/schemas/progress'
import { QUOTE_MESSAGES } from '~/lib/schemas/quote'
import { field } from '~/lib/schemas/video'
import { isDomainError } from '~/server/errors.server'
import { FEED_PAGE_SIZE } from '~/server/feed/lists.server'
import { listLikedVideos } from '~/server/feed/people.server'
import { listFollowing } from '~/server/follows.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { jsonWithHeaders, loadFailure } from '~/server/http/responses.server'
import { requireUser } from '~/server/permissions.server'
import { listMyNotes } from '~/server/notes.server'
import { getOwnProfile } from '~/server/profiles.server'
import { clearHistory, listHistory, removeFromHistory } from '~/server/progress.server'
import { myCheckpointProgress } from '~/server/checkpoints.server'
import { listMyLearning } from '~/server/course-progress.server'
import { LEARNING_MESSAGES } from '~/lib/course-learning'
import { deleteQuote, listMyQuotes } from '~/server/quotes.server'
import { listMyReports } from '~/server/reports.server'
import type { SignedInSession } from '~/server/session.server'
import type { ShellHandle } from '~/root'

/**
 * /profile?tab=profile|liked|following|quotes|reports|history|notes — the signed-in user's own
 * profile (opened after sign-in; spec: Profile). Each tab is a URL, so it
 * works without JavaScript; see app/lib/profile-tabs.ts for adding one.
 */
const TAB_DATA = {
  profile: async ({ claims }: SignedInSession) => ({ profile: await getOwnProfile(claims) }),
  liked: async ({ claims }: SignedInSession, url: URL) => ({
    page: cardPage(await listLikedVideos(claims, { cursor: url.searchParams.get('cursor'), limit: FEED_PAGE_SIZE })),
  }),
  following: async ({ claims }: SignedInSession, url: URL) => ({
    following: await listFollowing(claims, { cursor: url.searchParams.get('cursor') }),
    cursor: url.searchParams.get('cursor'),
  }),
  quotes: async ({ claims }: SignedInSession) => ({ quotes: await listMyQuotes(claims) }),
  reports: async ({ claims }: SignedInSession) => ({ reports: await listMyReports(claims) }),
  history: async ({ claims }: SignedInSession, url: URL) => ({
    history: await listHistory(claims, { cursor: url.searchParams.get('cursor'), limit: FEED_PAGE_SIZE }),
  }),
  notes: async ({ claims }: SignedInSession) => ({ notes: await listMyNotes(claims) }),
  progress: async ({ claims }: SignedInSession) => ({ progress: await myCheckpointProgress(claims) }),
  learning: async ({ claims }: SignedInSession) => ({ learning: await listMyLearning(claims) }),
} satisfies Record<ProfileTab, (session: SignedInSession, url: URL) => Promise<object>>

const LOAD_FAILURES: Record<ProfileTab, string> = {
  profile: 'Failed to load your profile',
  liked: CREATOR_MESSAGES.likedFailed,
  following: CREATOR_MESSAGES.followingFailed,
  quotes: QUOTE_MESSAGES.loadQuotesFailed,
  reports: CREATOR_MESSAGES.reportsFailed,
  history: PROGRESS_MESSAGES.historyFailed,
  notes: NOTE_MESSAGES.loadFailed,
  progress: 'Failed to load your progress',
  learning: LEARNING_MESSAGES.learningFailed,
}

/** The Profile tab's card, or the Upload redirect's panel, says where the review stands: no banner over it. */
export const handle: ShellHandle = {
  showsVerification: (data) => {
    const loaded = data as { verificationRequired?: boolean; data?: { tab?: string } | null } | undefined
    return Boolean(loaded?.verificationRequired || loaded?.data?.tab === 'profile')
  },
}

type TabData = { [K in ProfileTab]: { tab: K } & Awaited<ReturnType<(typeof TAB_DATA)[K]>> }[ProfileTab]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await requireUser(request, context)
  const { user, headers } = session
  const url = new URL(request.url)
  const tab = profileTab(url.searchParams.get('tab'))
  // Upload sends unverified creators here with ?verification=required (docs/product.md, Upload).
  const verificationRequired = url.searchParams.get('verification') === 'required' && user.role === 'creator' && !user.isVerified
  try {
    const data = { tab, ...(await TAB_DATA[tab](session, url)) } as TabData
    return jsonWithHeaders({ verificationRequired, failed: null, data }, 200, headers)
  } catch (error) {
    console.warn(`[profile] could not load the ${tab} tab:`, error instanceof Error ? error.message : error)
    const failure = loadFailure(error)
    return jsonWithHeaders(
      { verificationRequired, failed: { tab, message: LOAD_FAILURES[tab] }, data: null },
      failure.status,
      headers,
      failure.headers,
    )
  }
}

/**
 * My Quotes' delete (`intent=delete-quote`): scripted posts get data back,
 * plain ones go back to the tab with a flash. Refusals keep the spec's
 * words ('You can only delete your own quotes', 'Quote not found'); anything
 * else is 'Failed to delete quote'.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { claims, headers } = await requireUser(request, context)
  const form = await request.formData()
  const scripted = form.get('js') === '1'
  const intent = field(form, 'intent')
  if (intent === 'history-remove' || intent === 'history-clear') return historyAction(claims, form, headers)
  const back = '/profile?tab=quotes#my-quotes'
  const reply = (body: MyQuotesActionData, status: number) => jsonWithHeaders<MyQuotesActionData>(body, status, headers)
  if (intent !== 'delete-quote') return reply({ ok: false, intent: 'delete-quote', formError: QUOTE_MESSAGES.deleteFailed }, 400)
  try {
    const message = await deleteQuote(claims, field(form, 'quoteId') ?? '')
    return scripted
      ? reply({ ok: true, intent: 'delete-quote', message }, 200)
      : redirectWithFlash(back, { kind: 'success', message }, headers)
  } catch (error) {
    const status = isDomainError(error) ? error.status : 500
    const message = isDomainError(error) ? error.message : QUOTE_MESSAGES.deleteFailed
    if (!isDomainError(error)) console.warn('[profile] could not delete a quote:', error instanceof Error ? error.message : error)
    return scripted
      ? reply({ ok: false, intent: 'delete-quote', formError: message }, status)
      : redirectWithFlash(back, { kind: 'error', message }, headers)
  }
}

/**
 * History's Remove (`intent=history-remove`, `videoId`) and Clear history
 * (`intent=history-clear`, `confirm=yes`): plain posts, back to the tab with
 * a flash (ADR 0034).
 */
async function historyAction(claims: SignedInSession['claims'], form: FormData, headers: Headers) {
  const back = '/profile?tab=history'
  try {
    if (field(form, 'intent') === 'history-clear') {
      if (field(form, 'confirm') !== 'yes') {
        return redirectWithFlash(back, { kind: 'error', message: PROGRESS_MESSAGES.confirmClear }, headers)
      }
      return redirectWithFlash(back, { kind: 'success', message: await clearHistory(claims) }, headers)
    }
    const message = await removeFromHistory(claims, field(form, 'videoId') ?? '')
    return redirectWithFlash(back, { kind: 'success', message }, headers)
  } catch (error) {
    if (!isDomainError(error))
      console.warn('[profile] could not change the history:', error instanceof Error ? error.message : error)
    const message = isDomainError(error) ? error.message : PROGRESS_MESSAGES.removeFailed
    return redirectWithFlash(back, { kind: 'error', message }, headers)
  }
}

/** Reporting or liking elsewhere does not change this page; follows (the Following tab) do. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction, defaultShouldRevalidate }) =>
  formAction?.startsWith('/report') ? false : defaultShouldRevalidate

export default function Profile() {
  const { verificationRequired, failed, data } = useLoaderData<typeof loader>()
  const current = data?.tab ?? failed?.tab ?? 'profile'
  return (
    // One width for every tab (no jump between them); the tab bar wraps its labels on phones.
    <Page>
      <h1 className="sr-only">Your profile</h1>
      {verificationRequired ? (
        <div className="mb-6">
          <VerificationRequiredPanel />
        </div>
      ) : null}
      <div className="flex flex-col gap-6">
        <TabLinks label="Profile sections" tabs={PROFILE_TABS} current={current} href={profileTabHref} />
        {failed ? (
          <EmptyState
            title={failed.message}
            message="Please try again in a moment."
            action={{ href: profileTabHref(failed.tab), label: 'Try again' }}
            tone="error"
          />
        ) : data ? (
          <div className={current === 'liked' ? undefined : 'w-full max-w-2xl'}>
            <ProfilePanel data={data as TabData} verificationRequired={verificationRequired} />
          </div>
        ) : null}
      </div>
    </Page>
  )
}

function ProfilePanel({ data, verificationRequired }: { data: TabData; verificationRequired: boolean }) {
  switch (data.tab) {
    case 'profile':
      // Sent from Upload, the panel above is the one verification message (with Refresh Status).
      return <ProfileCard profile={data.profile} showVerification={!verificationRequired} />
    case 'liked':
      return data.page.items.length === 0 ? (
        <EmptyState
          title="No liked videos yet"
          message="Videos you like are kept here."
          action={{ href: '/feed', label: 'Browse the feed' }}
        />
      ) : (
        <PagedVideoGrid
          first={data.page}
          variant="video"
          noun="videos"
          failedMessage={CREATOR_MESSAGES.likedFailed}
          pageHref={(next) => `/profile?tab=liked&cursor=${encodeURIComponent(next)}`}
        />
      )
    case 'following':
      return <FollowingList page={data.following} cursor={data.cursor} />
    case 'quotes':
      return <MyQuotesPanel quotes={data.quotes} error={null} />
    case 'reports':
      return <MyReports reports={data.reports} />
    case 'history':
      return <HistoryPanel items={data.history.items} nextCursor={data.history.nextCursor} />
    case 'notes':
      return <NotesPanel groups={data.notes} />
    case 'progress':
      return <ProgressPanel items={data.progress} />
    case 'learning':
      return <LearningPanel courses={data.learning} />
  }
}

export const meta: MetaFunction = () => [{ title: 'Your profile — Lumen' }]

export function ErrorBoundary() {
  return (
    <StatusCard
      title="Profile unavailable"
      message="We could not load your profile. Please try again in a moment."
      action={{ href: '/profile', label: 'Try again' }}
    />
  )
}
