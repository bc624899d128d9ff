import type { PartitionLog } from '@tributary/log'

/**
 * One partition replica this peer holds: its log, the epoch it leads in, and the waiters of
 * long-polling fetches, woken when the high watermark moves.
 */
export class HostedPartition {
  private waiters = new Set<() => void>()
  /** Bumped by every `notify()`: a fetch remembers it before reading, so no wake-up is missed. */
  version = 0

  constructor(
    readonly topic: string,
    readonly partition: number,
    readonly topicId: string,
    readonly log: PartitionLog,
    public leaderEpoch: number,
  ) {}

  get name(): string {
    return `${this.topic}-${this.partition}`
  }

  /** Wakes every waiting fetch (new data is readable, or the partition is going away). */
  notify(): void {
    this.version++
    const waiters = this.waiters
    this.waiters = new Set()
    for (const wake of waiters) wake()
  }

  /** Resolves once `notify()` has run since `seenVersion` was read, or when the signal aborts. */
  waitForData(seenVersion: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal.aborted || this.version !== seenVersion) return resolve()
      const wake = (): void => {
        this.waiters.delete(wake)
        signal.removeEventListener('abort', wake)
        resolve()
      }
      this.waiters.add(wake)
      signal.addEventListener('abort', wake, { once: true })
    })
  }
}
