/**
 * Request timeouts served by one timer, armed for the earliest deadline. Entries are kept sorted by
 * deadline; a stream's requests mostly arrive in deadline order (one timeout length, started in
 * turn), so adding is usually an append, and an earlier deadline is inserted in its place.
 *
 * Why not a timer each: a process sending or answering thousands of requests a second set and
 * cleared a `setTimeout` per request (a Timeout object, its closure, a priority-queue insert and
 * remove), with an abort listener and a race promise beside it. In the latency phase of
 * `npm run bench -- peer` those were about an eighth of what the peer allocated per produce (heap
 * sampling), and young-generation collections — each a 3–6 ms pause on this 2-core VM — overlapped
 * more than half of the produces that took over 5 ms.
 *
 * An entry whose work finished is marked `settled`: it is let go at once when it is the earliest
 * (the usual case), else skipped when it reaches the front; the queue compacts itself when
 * settled entries outnumber live ones, so its length stays within a small multiple of the live
 * entries.
 */
import { systemClock } from '../raft/clock.js'
import { DeadlineTimer } from '../raft/deadline-timer.js'
import type { RaftClock } from '../raft/types.js'

/** The platform's unref'd timers against a monotonic `now` (deadlines are `performance.now()` times). */
const monotonicClock: RaftClock = { ...systemClock, now: () => performance.now() }

export interface Deadline {
  /** `performance.now()` time at which the entry expires. */
  readonly deadline: number
  /** Set by the owner once the work is done: the entry will never expire. */
  settled: boolean
}

/** Settled entries tolerated before the queue compacts, beyond twice the live ones. */
const COMPACT_SLACK = 64

export class DeadlineQueue<T extends Deadline> {
  readonly #onExpired: (entry: T) => void
  /** Slots before #head are cleared (undefined), so passed entries are not kept alive. */
  #entries: Array<T | undefined> = []
  /** Index of the first entry not yet expired or skipped. */
  #head = 0
  #live = 0
  /** Armed for the earliest deadline queued (or an earlier one that passed meanwhile: it re-arms on firing). */
  readonly #timer = new DeadlineTimer(monotonicClock, () => this.#fire())

  constructor(onExpired: (entry: T) => void) {
    this.#onExpired = onExpired
  }

  /** Entries added and not yet settled or expired. */
  get size(): number {
    return this.#live
  }

  /** Entries held, settled ones not yet dropped included: at most 2 × size + 64 after any settle. */
  get held(): number {
    return this.#entries.length - this.#head
  }

  /** Adds an entry in deadline order. */
  add(entry: T): void {
    const entries = this.#entries
    const last = entries[entries.length - 1]
    if (last === undefined || last.deadline <= entry.deadline) {
      entries.push(entry)
    } else {
      // Binary search over the queued part for the first later deadline (settled entries keep their place).
      let lo = this.#head
      let hi = entries.length
      while (lo < hi) {
        const mid = (lo + hi) >>> 1
        if (entries[mid]!.deadline <= entry.deadline) lo = mid + 1
        else hi = mid
      }
      entries.splice(lo, 0, entry)
    }
    this.#live++
    if (entry.deadline !== Number.POSITIVE_INFINITY) this.#timer.arm(entry.deadline)
  }

  /** Marks the entry done: it will not expire. Call at most once per entry, before it expired. */
  settle(entry: T): void {
    if (entry.settled) return
    entry.settled = true
    this.#live--
    this.#dropSettledHead()
    const queued = this.#entries.length - this.#head
    if (queued > 2 * this.#live + COMPACT_SLACK) this.#compact()
  }

  /** Passes the settled entries at the front (usually all of them: work tends to finish in order). */
  #dropSettledHead(): void {
    // Amortised O(1): each entry is passed once.
    while (this.#head < this.#entries.length && this.#entries[this.#head]!.settled) {
      this.#entries[this.#head++] = undefined
    }
    if (this.#head === this.#entries.length) {
      this.#entries.length = 0
      this.#head = 0
    }
  }

  /** Forgets every entry (the owner ended them all) and stops the timer. */
  clear(): void {
    this.#entries = []
    this.#head = 0
    this.#live = 0
    this.#timer.cancel()
  }

  #compact(): void {
    this.#entries = this.#entries.slice(this.#head).filter((e) => e !== undefined && !e.settled)
    this.#head = 0
  }

  #fire(): void {
    const now = monotonicClock.now()
    // Bounded by the entries queued now: each iteration removes one from the front.
    while (this.#head < this.#entries.length) {
      const entry = this.#entries[this.#head]!
      if (!entry.settled && entry.deadline > now) break
      this.#entries[this.#head++] = undefined
      if (entry.settled) continue
      entry.settled = true
      this.#live--
      this.#onExpired(entry)
    }
    if (this.#head >= this.#entries.length) {
      this.#entries = []
      this.#head = 0
      return
    }
    if (this.#head > COMPACT_SLACK && this.#head * 2 > this.#entries.length) this.#compact()
    const next = this.#entries[this.#head]!.deadline
    if (next !== Number.POSITIVE_INFINITY) this.#timer.arm(next)
  }
}
