import { Form, useFetcher, useLocation } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { useHydrated } from '~/components/use-hydrated'
import type { FollowState } from '~/lib/creator-types'
import type { FormFailure } from '~/lib/forms'
import { CREATOR_MESSAGES } from '~/lib/schemas/creators'

type FollowAnswer = ({ ok: true } & FollowState) | (FormFailure & { formError: string })

/**
 * Follow / Following (or Unfollow) for one creator, posting to /follow.
 * Without JavaScript a plain form post that comes back to this page; with
 * JavaScript a fetcher that flips at once (optimistic), then takes the
 * server's state and follower count, or goes back to the last confirmed
 * state with 'Failed to update follow status'. Signed out it is a plain
 * form too: /follow sends the visitor to /login and back here.
 * After a change the page's loaders run again, so counts shown elsewhere
 * on the page (a creator page's followers) are the server's.
 */
export function FollowButton({
  creatorId,
  username,
  isFollowing,
  signedIn,
  variant = 'card',
}: {
  creatorId: string
  username: string
  isFollowing: boolean
  signedIn: boolean
  /** 'card': Follow / Following; 'page': Follow / Unfollow; 'list': Unfollow only. */
  variant?: 'card' | 'page' | 'list'
}) {
  const hydrated = useHydrated()
  const location = useLocation()
  const here = `${location.pathname}${location.search}`
  const fetcher = useFetcher<FollowAnswer>({ key: `follow-${creatorId}` })
  const [confirmed, setConfirmed] = useState(isFollowing)
  useEffect(() => setConfirmed(isFollowing), [isFollowing])
  const answer = fetcher.state === 'idle' ? fetcher.data : undefined
  useEffect(() => {
    if (answer?.ok) setConfirmed(answer.isFollowing)
  }, [answer])
  const pending = fetcher.formData?.get('follow')
  const shown = typeof pending === 'string' ? pending === 'true' : confirmed
  const error = answer && !answer.ok ? (answer.formError ?? CREATOR_MESSAGES.followFailed) : null

  const label = shown ? (variant === 'card' ? 'Following' : 'Unfollow') : 'Follow'
  const button = (
    <button
      type="submit"
      aria-pressed={variant === 'list' ? undefined : shown}
      aria-label={`${label} ${username}`}
      data-testid="follow-button"
      className={`btn min-h-10 px-4 text-sm ${
        shown
          ? 'bg-white text-ink-900 ring-1 ring-inset ring-ink-200 hover:bg-ink-100'
          : 'bg-brand-600 text-white hover:bg-brand-700'
      }`}
    >
      {label}
    </button>
  )
  const fields = (
    <>
      <input type="hidden" name="creatorId" value={creatorId} />
      <input type="hidden" name="follow" value={String(!shown)} />
      <input type="hidden" name="redirectTo" value={here} />
    </>
  )
  if (!signedIn) {
    return (
      <Form method="post" action="/follow">
        {fields}
        {button}
      </Form>
    )
  }
  return (
    <fetcher.Form method="post" action="/follow" preventScrollReset className="relative">
      {fields}
      {hydrated ? <input type="hidden" name="js" value="1" /> : null}
      {button}
      {error ? (
        <p
          role="alert"
          className="absolute right-0 top-full z-10 mt-1 whitespace-nowrap rounded-lg bg-red-50 px-2 py-1 text-xs font-medium text-red-800 ring-1 ring-red-200"
        >
          {error}
        </p>
      ) : null}
    </fetcher.Form>
  )
}
