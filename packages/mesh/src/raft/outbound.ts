import { RequestTimedOutError } from '@tributary/wire'
import type { RaftRequestOptions } from './transport.js'
import type { RaftClock } from './types.js'

/**
 * A replica's outbound requests: each gets its own timeout and signal, and `abortAll` (on stop)
 * cancels every one still in flight. One controller per request, rather than one shared signal
 * with a listener per request, keeps listener counts flat under load; and only one (the timeout
 * aborts the same controller), because a follower sends a fetch per replicated batch and every
 * extra controller, timer and listener is paid on each of them.
 */
export class OutboundRequests {
  private readonly inflight = new Set<AbortController>()
  private aborted: Error | undefined

  constructor(
    private readonly clock: RaftClock,
    private readonly partition: string,
  ) {}

  /**
   * Runs `call` with a signal that aborts on `abortAll` or after `timeoutMs` on the clock (as a
   * RequestTimedOutError), and settles as soon as it aborts even if `call` ignores the signal.
   */
  async run<T>(what: string, timeoutMs: number, call: (options: RaftRequestOptions) => Promise<T>): Promise<T> {
    if (this.aborted !== undefined) throw this.aborted
    const controller = new AbortController()
    const { signal } = controller
    this.inflight.add(controller)
    const timer = this.clock.setTimeout(() => {
      controller.abort(new RequestTimedOutError(`${this.partition} ${what} timed out after ${timeoutMs} ms`))
    }, timeoutMs)
    try {
      return await new Promise<T>((resolve, reject) => {
        const onAbort = (): void => reject(signal.reason)
        signal.addEventListener('abort', onAbort, { once: true })
        call({ signal, timeoutMs }).then(
          (value) => {
            signal.removeEventListener('abort', onAbort)
            resolve(value)
          },
          (err: unknown) => {
            signal.removeEventListener('abort', onAbort)
            // A call that failed because of the abort reports the abort's reason (the timeout).
            reject(signal.aborted ? signal.reason : err)
          },
        )
      })
    } finally {
      this.clock.clearTimeout(timer)
      this.inflight.delete(controller)
    }
  }

  abortAll(reason: Error): void {
    this.aborted = reason
    for (const controller of this.inflight) controller.abort(reason)
  }
}
