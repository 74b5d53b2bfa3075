import { Link, Outlet } from '@remix-run/react'
import { createRemixStub } from '@remix-run/testing'
import { fireEvent, render, screen } from '@testing-library/react'
import { useLayoutEffect } from 'react'
import { describe, expect, it } from 'vitest'
import { SiteHeader } from '~/components/site-header'
import type { ShellUser } from '~/components/user-avatar'

/**
 * The header's account menu (app/components/site-header.tsx) is a <details>: it opens before the
 * page's scripts have run. It closes after each navigation — not when the page hydrates: a
 * learner on a slow phone who opened it early saw it snap shut (a clean-clone e2e run caught it).
 */
const user: ShellUser = { id: 'u1', username: 'leo.learns', role: 'user', isVerified: false, avatarUrl: null }

/** The learner's early click: the menu is open before the page's effects run (layout effects run first). */
function OpenedBeforeHydration() {
  useLayoutEffect(() => {
    const details = document.querySelector('details')
    if (details) details.open = true
  }, [])
  return null
}

// The header in a layout route, as in the app's shell: it stays mounted across navigations.
const Stub = createRemixStub([
  {
    path: '/',
    Component: () => (
      <>
        <SiteHeader user={user} />
        <Outlet />
      </>
    ),
    children: [
      {
        index: true,
        Component: () => (
          <>
            <OpenedBeforeHydration />
            <Link to="/history">History page</Link>
          </>
        ),
      },
      { path: 'history', Component: () => <h1>History</h1> },
    ],
  },
])

describe('the account menu', () => {
  it('opened before the page hydrated, stays open; a navigation then closes it', async () => {
    const { container } = render(<Stub />)
    await screen.findByTestId('account-menu')
    const details = container.querySelector('details')!
    expect(details.open).toBe(true)

    // A click alone (no pointer press outside the menu, no focus moving out: each closes it too).
    fireEvent.click(screen.getByRole('link', { name: 'History page' }))
    await screen.findByRole('heading', { name: 'History' })
    expect(container.querySelector('details')).toBe(details)
    expect(details.open).toBe(false)
  })
})
