import { createRemixStub } from '@remix-run/testing'
import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { EditorErrorCard } from '../../app/components/status-card'
import { VideoPageError } from '../../app/components/video/video-page-error'

/** The editors' and the video page's error cards: each status gets its own title and way back. */
function renderThrowing(status: number, message: string, Boundary: () => JSX.Element) {
  const Stub = createRemixStub([
    {
      path: '/x',
      Component: () => null,
      ErrorBoundary: Boundary,
      loader: () => {
        throw new Response(message, { status })
      },
    },
  ])
  render(<Stub initialEntries={['/x']} />)
}

const Editor = () => (
  <EditorErrorCard
    titles={{ notFound: 'Course Not Found', forbidden: 'Not your course', other: 'This course cannot be edited now' }}
    back={{ href: '/courses', label: 'Back to courses' }}
  />
)

describe('error cards', () => {
  it.each([
    [404, 'Course Not Found'],
    [403, 'Not your course'],
    [500, 'This course cannot be edited now'],
  ])('an editor answering %i says “%s” with the thrown message and a way back', async (status, title) => {
    renderThrowing(status, 'The reason, as thrown', Editor)
    expect(await screen.findByRole('heading', { name: title })).toBeTruthy()
    expect(screen.getByText('The reason, as thrown')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Back to courses' }).getAttribute('href')).toBe('/courses')
  })

  it('the video page says a missing video is not found, and another failure failed to load', async () => {
    renderThrowing(404, 'x', VideoPageError)
    expect(await screen.findByText("This video doesn't exist, was deleted, or is private.")).toBeTruthy()
    renderThrowing(503, 'x', VideoPageError)
    expect(await screen.findByText(/Failed to load video: error 503/)).toBeTruthy()
  })
})
