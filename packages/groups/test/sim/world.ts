/**
 * The deterministic world the group simulation runs in: a fake clock with an event queue (time,
 * then scheduling order) and an in-memory network that drops, delays, duplicates and reorders
 * (through random delays and occasional long detours). Every message crosses it as bytes.
 */
import type { Rng } from '../rng.ts'

interface SimEvent {
  at: number
  seq: number
  fn: () => void
  cancelled: boolean
}

export type TimerHandle = SimEvent

export class SimClock {
  private time = 0
  private seq = 0
  private readonly heap: SimEvent[] = []

  now(): number {
    return this.time
  }

  at(time: number, fn: () => void): TimerHandle {
    const event: SimEvent = { at: Math.max(time, this.time), seq: this.seq++, fn, cancelled: false }
    this.push(event)
    return event
  }

  after(ms: number, fn: () => void): TimerHandle {
    return this.at(this.time + Math.max(0, ms), fn)
  }

  cancel(handle: TimerHandle | undefined): void {
    if (handle !== undefined) handle.cancelled = true
  }

  /** Runs the next live event due by `until`; false when there is none. */
  step(until: number): boolean {
    for (;;) {
      const top = this.heap[0]
      if (top === undefined || top.at > until) {
        this.time = Math.max(this.time, Math.min(until, top?.at ?? until))
        return false
      }
      this.pop()
      if (top.cancelled) continue
      this.time = top.at
      top.fn()
      return true
    }
  }

  private push(e: SimEvent): void {
    const h = this.heap
    h.push(e)
    let i = h.length - 1
    while (i > 0) {
      const p = (i - 1) >> 1
      if (!earlier(h[i]!, h[p]!)) break
      ;[h[i], h[p]] = [h[p]!, h[i]!]
      i = p
    }
  }

  private pop(): void {
    const h = this.heap
    const last = h.pop()!
    if (h.length === 0) return
    h[0] = last
    let i = 0
    for (;;) {
      const l = 2 * i + 1
      const r = l + 1
      let m = i
      if (l < h.length && earlier(h[l]!, h[m]!)) m = l
      if (r < h.length && earlier(h[r]!, h[m]!)) m = r
      if (m === i) return
      ;[h[i], h[m]] = [h[m]!, h[i]!]
      i = m
    }
  }
}

function earlier(a: SimEvent, b: SimEvent): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq)
}

export interface NetworkConditions {
  dropRate: number
  duplicateRate: number
  minDelayMs: number
  maxDelayMs: number
  /** Chance of a long detour, which reorders a message behind later ones. */
  slowRate: number
  slowDelayMs: [number, number]
}

export const CALM: NetworkConditions = {
  dropRate: 0,
  duplicateRate: 0,
  minDelayMs: 1,
  maxDelayMs: 5,
  slowRate: 0,
  slowDelayMs: [0, 0],
}

export class SimNetwork {
  conditions: NetworkConditions = CALM
  sent = 0
  dropped = 0
  duplicated = 0

  constructor(
    private readonly clock: SimClock,
    private readonly rng: Rng,
  ) {}

  /** Delivers `bytes` to `deliver` later, maybe twice, maybe never. */
  send(bytes: Uint8Array, deliver: (bytes: Uint8Array) => void): void {
    this.sent++
    const c = this.conditions
    if (this.rng.chance(c.dropRate)) {
      this.dropped++
      return
    }
    const copies = this.rng.chance(c.duplicateRate) ? 2 : 1
    if (copies === 2) this.duplicated++
    for (let i = 0; i < copies; i++) {
      let delay = this.rng.int(c.minDelayMs, c.maxDelayMs)
      if (this.rng.chance(c.slowRate)) delay += this.rng.int(c.slowDelayMs[0], c.slowDelayMs[1])
      // Each copy gets its own buffer, as separate network messages would.
      const copy = new Uint8Array(bytes)
      this.clock.after(delay, () => deliver(copy))
    }
  }
}
