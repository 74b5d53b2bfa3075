import { useState } from 'react'

/**
 * A fetcher's answer, in the first render that shows the fetcher idle with it, and `undefined` in
 * every other render: the caller takes it there, updating its own state while rendering.
 *
 * Not in an effect keyed on the fetcher's state and data: Remix's router updates reach React in
 * transitions, and when such a render is interrupted (a key press, a playing clip) React 18 can
 * keep the new dependencies from the render it threw away, so the effect never runs for the render
 * it commits (an open React issue: "useEffect does not run after changed dependencies due to
 * startTransition"). The reel viewer met it on a busy machine: the next clips had come, the fetcher
 * showed them idle, and the viewer stayed at its last clip. A render, unlike an effect, always sees
 * what it commits.
 */
export function useFetcherAnswer<T>(fetcher: { state: string; data: T | undefined }): T | undefined {
  const [taken, setTaken] = useState<T | undefined>(undefined)
  const answer = fetcher.state === 'idle' ? fetcher.data : undefined
  if (answer === undefined || answer === taken) return undefined
  setTaken(answer)
  return answer
}
