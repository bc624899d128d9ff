import { withTimeout } from './clock.js'
import type { RaftRequestOptions } from './transport.js'
import type { RaftClock } from './types.js'

/**
 * A replica's outbound requests: each gets its own timeout and signal, and `abortAll` (on stop)
 * cancels every one still in flight. One controller per request, rather than one shared signal
 * with a listener per request, keeps listener counts flat under load.
 */
export class OutboundRequests {
  private readonly inflight = new Set<AbortController>()
  private aborted: Error | undefined

  constructor(
    private readonly clock: RaftClock,
    private readonly partition: string,
  ) {}

  async run<T>(what: string, timeoutMs: number, call: (options: RaftRequestOptions) => Promise<T>): Promise<T> {
    if (this.aborted !== undefined) throw this.aborted
    const controller = new AbortController()
    this.inflight.add(controller)
    try {
      return await withTimeout(this.clock, timeoutMs, controller.signal, `${this.partition} ${what}`, (signal) =>
        call({ signal, timeoutMs }),
      )
    } finally {
      this.inflight.delete(controller)
    }
  }

  abortAll(reason: Error): void {
    this.aborted = reason
    for (const controller of this.inflight) controller.abort(reason)
  }
}
