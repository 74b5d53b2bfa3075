import { render, screen } from '@testing-library/react'
import { StrictMode, useState } from 'react'
import { describe, expect, it } from 'vitest'
import { useFetcherAnswer } from '~/components/use-fetcher-answer'

/**
 * useFetcherAnswer (app/components/use-fetcher-answer.ts): each answer a fetcher brings is given
 * once, in the first render that shows the fetcher idle with it — not while it loads, not again
 * when the component renders for another reason, and a new answer again (StrictMode's double
 * renders included).
 */
interface Fetcher {
  state: 'idle' | 'loading'
  data: { page: string } | undefined
}

function Taker({ fetcher }: { fetcher: Fetcher }) {
  const [taken, setTaken] = useState<string[]>([])
  const answer = useFetcherAnswer(fetcher)
  if (answer) setTaken([...taken, answer.page])
  return <p data-testid="taken">{taken.join(',')}</p>
}

describe('useFetcherAnswer', () => {
  it('gives each answer once, when the fetcher is idle with it', () => {
    const first = { page: 'first' }
    const second = { page: 'second' }
    const states: Fetcher[] = [
      { state: 'idle', data: undefined },
      { state: 'loading', data: undefined },
      { state: 'idle', data: first },
      { state: 'idle', data: first },
      // Loading again: the last answer is still the fetcher's data, and is not given again.
      { state: 'loading', data: first },
      { state: 'idle', data: second },
      { state: 'idle', data: second },
    ]
    const expected = ['', '', 'first', 'first', 'first', 'first,second', 'first,second']
    const { rerender } = render(
      <StrictMode>
        <Taker fetcher={states[0]!} />
      </StrictMode>,
    )
    states.forEach((fetcher, index) => {
      rerender(
        <StrictMode>
          <Taker fetcher={fetcher} />
        </StrictMode>,
      )
      expect(screen.getByTestId('taken').textContent, `after state ${index}`).toBe(expected[index])
    })
  })
})
