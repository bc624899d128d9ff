import { NotEnoughReplicasError, RequestTimedOutError, type TributaryError } from '@tributary/wire'
import type { RaftClock, TimerHandle } from './types.js'

interface Waiter {
  offset: number
  epoch: number
  resolve: () => void
  reject: (err: unknown) => void
  timer: TimerHandle
  signal: AbortSignal | undefined
  onAbort: () => void
}

/**
 * `acks=all` writes waiting for the high watermark to pass them, bounded in number. A waiter
 * belongs to the epoch its write was appended in: it succeeds only while that epoch's leader
 * still leads (a later leader's high watermark says nothing about this write), and fails with
 * the leader's loss, its own timeout, or its signal.
 */
export class CommitWaiters {
  private waiters: Waiter[] = []

  constructor(
    private readonly clock: RaftClock,
    private readonly maxPending: number,
    private readonly partition: string,
  ) {}

  get size(): number {
    return this.waiters.length
  }

  wait(offset: number, epoch: number, timeoutMs: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason)
      if (this.waiters.length >= this.maxPending) {
        return reject(
          new NotEnoughReplicasError(
            `${this.partition}: ${this.maxPending} writes already wait for replication; retry later`,
          ),
        )
      }
      const waiter: Waiter = {
        offset,
        epoch,
        resolve,
        reject,
        signal,
        timer: undefined,
        onAbort: () => this.settle(waiter, signal?.reason),
      }
      waiter.timer = this.clock.setTimeout(
        () =>
          this.settle(
            waiter,
            new RequestTimedOutError(
              `${this.partition}: offset ${offset} was not replicated to a majority within ${timeoutMs} ms`,
            ),
          ),
        timeoutMs,
      )
      signal?.addEventListener('abort', waiter.onAbort, { once: true })
      this.waiters.push(waiter)
    })
  }

  /** The leader of `epoch` moved its high watermark: writes below it are committed. */
  commitBelow(highWatermark: number, epoch: number): void {
    const done: Waiter[] = []
    const keep: Waiter[] = []
    for (const waiter of this.waiters) {
      ;(waiter.epoch === epoch && waiter.offset < highWatermark ? done : keep).push(waiter)
    }
    if (done.length === 0) return
    this.waiters = keep
    for (const waiter of done) this.finish(waiter)
  }

  /** Leadership was lost (or the replica stopped): nothing pending can be confirmed any more. */
  failAll(err: TributaryError): void {
    const all = this.waiters
    this.waiters = []
    for (const waiter of all) this.finish(waiter, err)
  }

  private settle(waiter: Waiter, err?: unknown): void {
    const index = this.waiters.indexOf(waiter)
    if (index < 0) return
    this.waiters.splice(index, 1)
    this.finish(waiter, err)
  }

  private finish(waiter: Waiter, err?: unknown): void {
    this.clock.clearTimeout(waiter.timer)
    waiter.signal?.removeEventListener('abort', waiter.onAbort)
    if (err === undefined) waiter.resolve()
    else waiter.reject(err)
  }
}
