import { Form, Link, useLoaderData } from '@remix-run/react'
import { createRemixStub } from '@remix-run/testing'
import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { useEffect, useLayoutEffect } from 'react'
import { describe, expect, it } from 'vitest'
import { CaptionsFilter } from '~/components/captions-filter'
import { CategoryFilter } from '~/components/category-filter'

/**
 * The feed's and sparks' filters (app/components/use-filter-field.ts) are uncontrolled fields that navigate
 * on change. A learner who ticks "Has captions" or picks a category while the page is still loading gets that
 * filter once the page is ready: the box used to be unticked again by the effect that shows the URL's value
 * (a clean-clone e2e run caught it), or the change was never applied.
 */
type Early = 'tick' | 'tick-and-change' | 'category' | null

/**
 * The learner's early change: made before the page's effects run (layout effects run first). Rendered after
 * the filters, its own effect then records the box as their effects left it.
 */
function ChangedBeforeHydration({ early, boxAfterMount }: { early: Early; boxAfterMount: boolean[] }) {
  useLayoutEffect(() => {
    if (early === 'category') {
      const select = document.querySelector('select')!
      select.value = 'natural-sciences-physics'
    } else if (early === 'tick') {
      document.querySelector<HTMLInputElement>('input[type=checkbox]')!.checked = true
    } else if (early === 'tick-and-change') {
      // The tap React replays once it has hydrated: its change event reaches the field's handler.
      document.querySelector<HTMLInputElement>('input[type=checkbox]')!.click()
    }
  }, [early])
  useEffect(() => {
    if (early) boxAfterMount.push(document.querySelector<HTMLInputElement>('input[type=checkbox]')!.checked)
  }, [early, boxAfterMount])
  return null
}

function stub(early: Early) {
  const loads: string[] = []
  const boxAfterMount: boolean[] = []
  const Stub = createRemixStub([
    {
      path: '/feed',
      loader: ({ request }) => {
        const search = new URL(request.url).search
        loads.push(search)
        const params = new URL(request.url).searchParams
        return { search, captions: params.get('captions') === '1', category: params.get('category') ?? '' }
      },
      Component: function Feed() {
        const { search, captions, category } = useLoaderData<{ search: string; captions: boolean; category: string }>()
        return (
          <>
            <Form method="get" action="/feed">
              <CategoryFilter value={category} />
              <CaptionsFilter checked={captions} />
            </Form>
            <ChangedBeforeHydration early={search ? null : early} boxAfterMount={boxAfterMount} />
            <p data-testid="search">{search || '(none)'}</p>
            <Link to="/feed">Clear filters</Link>
          </>
        )
      },
    },
  ])
  render(<Stub initialEntries={['/feed']} />)
  return { loads, boxAfterMount }
}

const box = () => screen.getByRole<HTMLInputElement>('checkbox', { name: 'Has captions' })

describe('the feed filters', () => {
  it.each([
    ['a box ticked while the page loads', 'tick'],
    ['a tap React replays once it has hydrated', 'tick-and-change'],
  ] as const)('%s stays ticked and is applied once', async (_, early) => {
    const { loads, boxAfterMount } = stub(early)
    await waitFor(() => expect(screen.getByTestId('search').textContent).toBe('?captions=1'))
    expect(box().checked).toBe(true)
    // Not unticked while the page it asked for loads.
    expect(boxAfterMount).toEqual([true])
    expect(loads).toEqual(['', '?captions=1'])
  })

  it('a category picked while the page loads is applied', async () => {
    stub('category')
    await waitFor(() => expect(screen.getByTestId('search').textContent).toBe('?category=natural-sciences-physics'))
    expect(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Category' }).value).toBe('natural-sciences-physics')
  })

  it('follows the URL afterwards, and the same filter can be asked for again', async () => {
    const { loads } = stub(null)
    await screen.findByText('(none)')
    fireEvent.click(box())
    await waitFor(() => expect(screen.getByTestId('search').textContent).toBe('?captions=1'))

    fireEvent.click(screen.getByRole('link', { name: 'Clear filters' }))
    await screen.findByText('(none)')
    expect(box().checked).toBe(false)

    fireEvent.click(box())
    await waitFor(() => expect(screen.getByTestId('search').textContent).toBe('?captions=1'))
    expect(box().checked).toBe(true)
    expect(loads).toEqual(['', '?captions=1', '', '?captions=1'])
  })
})
