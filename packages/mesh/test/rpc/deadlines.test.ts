/** DeadlineQueue: one timer for many equal-length timeouts, settled entries skipped and compacted. */
import { describe, expect, it } from 'vitest'
import { type Deadline, DeadlineQueue } from '../../src/rpc/deadlines.js'
import { waitFor } from '../helpers.js'

interface Entry extends Deadline {
  id: number
}

const entry = (id: number, inMs: number): Entry => ({ id, deadline: performance.now() + inMs, settled: false })

describe('rpc > deadline queue', () => {
  it('expires entries in order, each once, and skips those settled first', async () => {
    const expired: number[] = []
    const queue = new DeadlineQueue<Entry>((e) => expired.push(e.id))
    const entries = [entry(1, 10), entry(2, 20), entry(3, 30), entry(4, 40)]
    for (const e of entries) queue.add(e)
    queue.settle(entries[1]!)
    expect(queue.size).toBe(3)
    await waitFor(() => expired.length === 3)
    expect(expired).toEqual([1, 3, 4])
    expect(queue.size).toBe(0)
    for (const e of entries) expect(e.settled).toBe(true)
    // Settling an entry that already expired changes nothing.
    queue.settle(entries[0]!)
    expect(queue.size).toBe(0)
  })

  it('arms again for entries added after the queue ran empty', async () => {
    const expired: number[] = []
    const queue = new DeadlineQueue<Entry>((e) => expired.push(e.id))
    queue.add(entry(1, 5))
    await waitFor(() => expired.length === 1)
    queue.add(entry(2, 5))
    await waitFor(() => expired.length === 2)
    expect(expired).toEqual([1, 2])
  })

  it('does not fire for an entry settled before its deadline, however many there were', async () => {
    const expired: number[] = []
    const queue = new DeadlineQueue<Entry>((e) => expired.push(e.id))
    for (let id = 0; id < 10_000; id++) {
      const e = entry(id, 20)
      queue.add(e)
      queue.settle(e)
    }
    const last = entry(10_000, 40)
    queue.add(last)
    await waitFor(() => expired.length === 1)
    expect(expired).toEqual([10_000])
  })

  it('stays compact while an old entry is live and later ones settle', () => {
    const queue = new DeadlineQueue<Entry>(() => {})
    const old = entry(0, 60_000)
    queue.add(old)
    for (let id = 1; id <= 100_000; id++) {
      const e = entry(id, 60_000)
      queue.add(e)
      queue.settle(e)
    }
    expect(queue.size).toBe(1)
    expect(queue.held).toBeLessThanOrEqual(2 * 1 + 64)
    queue.clear()
    expect(queue.size).toBe(0)
  })

  it('lets go of entries settled in order at once (they must not outlive their work)', () => {
    const queue = new DeadlineQueue<Entry>(() => {})
    const entries = [entry(1, 60_000), entry(2, 60_000), entry(3, 60_000)]
    for (const e of entries) queue.add(e)
    queue.settle(entries[1]!)
    expect(queue.held).toBe(3)
    queue.settle(entries[0]!)
    expect(queue.held).toBe(1)
    queue.settle(entries[2]!)
    expect(queue.held).toBe(0)
    queue.clear()
  })

  it('expires entries added out of order in deadline order, re-arming for an earlier one', async () => {
    const expired: number[] = []
    const queue = new DeadlineQueue<Entry>((e) => expired.push(e.id))
    const late = entry(1, 60_000)
    queue.add(late)
    queue.add(entry(2, 40))
    queue.add(entry(3, 10))
    const settledEarly = entry(4, 25)
    queue.add(settledEarly)
    queue.add(entry(5, 25))
    queue.settle(settledEarly)
    // The first timer was armed a minute out: only re-arming for the earlier entries gets these expired.
    await waitFor(() => expired.length === 3, { timeoutMs: 5000 })
    expect(expired).toEqual([3, 5, 2])
    expect(queue.size).toBe(1)
    queue.settle(late)
    expect(queue.held).toBe(0)
    queue.clear()
  })

  it('clear() stops the timer: nothing expires after it', async () => {
    const expired: number[] = []
    const queue = new DeadlineQueue<Entry>((e) => expired.push(e.id))
    queue.add(entry(1, 5))
    queue.clear()
    const probe = new DeadlineQueue<Entry>((e) => expired.push(e.id))
    probe.add(entry(2, 30))
    await waitFor(() => expired.length > 0)
    expect(expired).toEqual([2])
  })
})
