import type { RaftClock, TimerHandle } from './types.js'

/**
 * A replica's one timer, armed for its current state's deadline (election, fetch timeout, the
 * leader's next check). An earlier timer re-evaluates when it fires, so only an earlier deadline
 * needs a new one.
 */
export class DeadlineTimer {
  private timer: TimerHandle | undefined
  private at = Number.POSITIVE_INFINITY

  constructor(
    private readonly clock: RaftClock,
    private readonly fire: () => void,
  ) {}

  arm(at: number): void {
    if (this.timer !== undefined && this.at <= at) return
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer)
    this.at = at
    this.timer = this.clock.setTimeout(
      () => {
        this.timer = undefined
        this.at = Number.POSITIVE_INFINITY
        this.fire()
      },
      Math.max(0, at - this.clock.now()),
    )
  }

  cancel(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer)
    this.timer = undefined
    this.at = Number.POSITIVE_INFINITY
  }
}
