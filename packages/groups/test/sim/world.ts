/**
 * The deterministic world the group simulation runs in: a fake clock with an event queue (time,
 * then scheduling order) and an in-memory network that drops, delays, duplicates and reorders
 * (through random delays and occasional long detours). Every message crosses it as bytes.
 */
import { EventQueue, type Rng } from '@tributary/test-utils/simulation'

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
  private readonly queue = new EventQueue<SimEvent>()

  now(): number {
    return this.time
  }

  at(time: number, fn: () => void): TimerHandle {
    const event: SimEvent = { at: Math.max(time, this.time), seq: this.seq++, fn, cancelled: false }
    this.queue.push(event)
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
      const top = this.queue.peek()
      if (top === undefined || top.at > until) {
        this.time = Math.max(this.time, Math.min(until, top?.at ?? until))
        return false
      }
      this.queue.pop()
      if (top.cancelled) continue
      this.time = top.at
      top.fn()
      return true
    }
  }
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
