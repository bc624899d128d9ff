import { RequestTimedOutError } from '@tributary/wire'
import { describe, expect, it } from 'vitest'
import { OutboundRequests } from '../../src/raft/outbound.js'
import { advance } from './helpers.js'
import { SimClock } from './sim-network.js'

/** A call that never settles and ignores its signal: only the request's own timeout can end it. */
const hang = (): Promise<never> => new Promise(() => {})

describe('raft > outbound requests', () => {
  it('passes the call its signal and timeout, and settles with its answer', async () => {
    const outbound = new OutboundRequests(new SimClock(), 'p-0')
    let seen: { signal: AbortSignal; timeoutMs: number } | undefined
    const answer = await outbound.run('fetch', 80, async (options) => {
      seen = options
      return 'answer'
    })
    expect(answer).toBe('answer')
    expect(seen?.timeoutMs).toBe(80)
    expect(seen?.signal.aborted).toBe(false)
  })

  it('passes the call’s own error on', async () => {
    const outbound = new OutboundRequests(new SimClock(), 'p-0')
    await expect(outbound.run('vote', 80, () => Promise.reject(new Error('refused')))).rejects.toThrow('refused')
  })

  it('times out on the clock with a RequestTimedOutError naming the request, though the call ignores its signal', async () => {
    const clock = new SimClock()
    const outbound = new OutboundRequests(clock, 'p-0')
    let signal: AbortSignal | undefined
    const result = outbound.run('fetch', 80, (options) => {
      signal = options.signal
      return hang()
    })
    const settled = result.then(
      () => 'resolved',
      (err: unknown) => err,
    )
    await advance(clock, 79)
    expect(signal?.aborted).toBe(false)
    await advance(clock, 1)
    const err = await settled
    expect(err).toBeInstanceOf(RequestTimedOutError)
    expect((err as Error).message).toBe('p-0 fetch timed out after 80 ms')
    expect(signal?.aborted).toBe(true)
  })

  it('abortAll fails every request in flight with its reason and refuses new ones', async () => {
    const outbound = new OutboundRequests(new SimClock(), 'p-0')
    const first = outbound.run('fetch', 80, hang)
    const second = outbound.run('vote', 80, hang)
    const reason = new Error('replica stopped')
    outbound.abortAll(reason)
    await expect(first).rejects.toBe(reason)
    await expect(second).rejects.toBe(reason)
    await expect(outbound.run('fetch', 80, async () => 'late')).rejects.toBe(reason)
  })

  it('a timer that fires after the answer changes nothing', async () => {
    const clock = new SimClock()
    const outbound = new OutboundRequests(clock, 'p-0')
    let signal: AbortSignal | undefined
    await outbound.run('fetch', 80, async (options) => {
      signal = options.signal
      return 1
    })
    await advance(clock, 200)
    expect(signal?.aborted).toBe(false)
  })
})
