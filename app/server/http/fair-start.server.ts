import type { RequestHandler } from 'express'

/**
 * Starts at most `perTurn` requests per turn of the event loop, in the order
 * they arrived, so that a busy server still takes in new connections.
 *
 * Why: since libuv 1.45 (Node 20) a listening socket accepts one connection
 * per turn of the event loop (libuv PR #3696). Under load, a turn handles
 * every request that is ready on the open connections, so it grows with the
 * number of busy connections, and the k-th new connection waits for k turns:
 * when 50 clients connect at once to a busy server, the last of them waited
 * ~3 s for its first answer while the others were answered every ~250 ms
 * (docs/performance.md, "New connections under load"). Holding each new
 * request for a turn and starting a bounded number per turn keeps every turn
 * short, so accepting keeps pace, and makes the wait first come, first
 * served for old and new connections alike. Nothing is held once started:
 * a long upload or a media stream costs no slot, and throughput is unchanged
 * (the same work, in a fairer order).
 */
export function fairStart(perTurn = 1): RequestHandler {
  const waiting: Array<() => boolean> = []
  let scheduled = false
  const turn = () => {
    scheduled = false
    for (let started = 0; started < perTurn && waiting.length;) {
      if (waiting.shift()!()) started++
    }
    if (waiting.length) schedule()
  }
  const schedule = () => {
    scheduled = true
    setImmediate(turn)
  }
  return (_req, res, next) => {
    waiting.push(() => {
      // A client that went away while waiting costs nothing more.
      if (res.destroyed) return false
      next()
      return true
    })
    if (!scheduled) schedule()
  }
}
