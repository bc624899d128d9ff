/**
 * Building blocks of the deterministic simulations (Raft in mesh, consumer groups in groups):
 * seeded randomness, so a failing seed replays exactly, and the event queue behind their fake
 * clocks, ordered by time and then by scheduling order so equal times never race.
 */

/** mulberry32: a small, fast, well-distributed 32-bit PRNG. */
export class Rng {
  private state: number

  constructor(seed: number) {
    this.state = seed >>> 0
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0
    let t = Math.imul(this.state ^ (this.state >>> 15), 1 | this.state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  chance(p: number): boolean {
    return this.next() < p
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list')
    return items[Math.floor(this.next() * items.length)] as T
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items]
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1))
      ;[copy[i], copy[j]] = [copy[j] as T, copy[i] as T]
    }
    return copy
  }

  /** Hex nonce of `length` characters. */
  nonce(length = 16): string {
    let s = ''
    for (let i = 0; i < length; i++) s += Math.floor(this.next() * 16).toString(16)
    return s
  }
}

/** What the queue orders: a due time, and a sequence number given at scheduling. */
export interface QueuedEvent {
  at: number
  seq: number
}

/** A binary min-heap of events by (at, seq). */
export class EventQueue<E extends QueuedEvent> {
  private readonly heap: E[] = []

  get size(): number {
    return this.heap.length
  }

  /** The earliest event, left in the queue. */
  peek(): E | undefined {
    return this.heap[0]
  }

  push(event: E): void {
    const h = this.heap
    h.push(event)
    let i = h.length - 1
    while (i > 0) {
      const p = (i - 1) >> 1
      if (!earlier(h[i]!, h[p]!)) break
      ;[h[i], h[p]] = [h[p]!, h[i]!]
      i = p
    }
  }

  /** Removes and returns the earliest event. */
  pop(): E | undefined {
    const h = this.heap
    const top = h[0]
    const last = h.pop()
    if (h.length === 0 || last === undefined) return top
    h[0] = last
    let i = 0
    for (;;) {
      const l = 2 * i + 1
      const r = l + 1
      let m = i
      if (l < h.length && earlier(h[l]!, h[m]!)) m = l
      if (r < h.length && earlier(h[r]!, h[m]!)) m = r
      if (m === i) return top
      ;[h[i], h[m]] = [h[m]!, h[i]!]
      i = m
    }
  }
}

function earlier(a: QueuedEvent, b: QueuedEvent): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq)
}
