import type { PartitionLog } from '@tributary/log'
import type { PartitionRaft } from '../raft/index.js'

/** The key a partition's Raft messages are routed by: topic id (not name) and partition. */
export function raftKey(topicId: string, partition: number): string {
  return `${topicId}:${partition}`
}

/**
 * One partition replica this peer holds: its log, its Raft replica (which decides whether it
 * leads, and moves the high watermark), and the waiters of long-polling fetches, woken when
 * data or the high watermark moves.
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
    readonly raft: PartitionRaft,
  ) {}

  get name(): string {
    return `${this.topic}-${this.partition}`
  }

  get isLeader(): boolean {
    return this.raft.role === 'leader'
  }

  get leaderEpoch(): number {
    return this.raft.epoch
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
