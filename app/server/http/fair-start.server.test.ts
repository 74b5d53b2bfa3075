import type { NextFunction, Request, Response } from 'express'
import { describe, expect, it } from 'vitest'
import { fairStart } from './fair-start.server'

const turn = () => new Promise<void>((resolve) => setImmediate(resolve))

describe('fairStart', () => {
  const arrive = (handler: ReturnType<typeof fairStart>, started: string[], name: string, res = { destroyed: false }) =>
    handler({} as Request, res as Response, (() => started.push(name)) as NextFunction)

  it('starts nothing in the turn a request arrives, then the given number per turn, first come first served', async () => {
    const handler = fairStart(2)
    const started: string[] = []
    for (const name of ['a', 'b', 'c', 'd', 'e']) arrive(handler, started, name)
    expect(started).toEqual([])
    await turn()
    expect(started).toEqual(['a', 'b'])
    await turn()
    expect(started).toEqual(['a', 'b', 'c', 'd'])
    arrive(handler, started, 'f')
    await turn()
    expect(started).toEqual(['a', 'b', 'c', 'd', 'e', 'f'])
    await turn()
    expect(started).toHaveLength(6)
  })

  it('starts one per turn by default', async () => {
    const handler = fairStart()
    const started: string[] = []
    for (const name of ['a', 'b', 'c']) arrive(handler, started, name)
    await turn()
    expect(started).toEqual(['a'])
    await turn()
    await turn()
    expect(started).toEqual(['a', 'b', 'c'])
  })

  it('drops a request whose client went away while it waited, without spending a start on it', async () => {
    const handler = fairStart(1)
    const started: string[] = []
    const gone = { destroyed: false }
    arrive(handler, started, 'a', gone)
    arrive(handler, started, 'b')
    gone.destroyed = true
    await turn()
    expect(started).toEqual(['b'])
  })
})
