import type { CheckedAppend } from './batch-validation.js'
import type { LogConfig } from './config.js'
import type { SerialQueue } from './lock.js'
import type { AppendResult, LeaderAppendOptions } from './types.js'

/** A leader append as called: its batches, already being checked (see Log.appendAsLeader). */
export interface LeaderAppendRequest {
  bytes: Uint8Array
  epoch: number
  options: LeaderAppendOptions
  /** `bytes` checked against `checkedWith`, the log's config when the append was called. */
  checked: Promise<CheckedAppend>
  checkedWith: LogConfig
}

/** A leader append waiting for the writer; bounded by callers' own in-flight limits (the RPC layer's). */
export interface PendingLeaderAppend extends LeaderAppendRequest {
  resolve: (result: AppendResult) => void
  reject: (err: unknown) => void
  /** The barrier when it was called: it may only share a write with appends of the same barrier. */
  barrier: number
}

/** Largest group one write carries; later appends wait for the next. */
export const GROUP_COMMIT_MAX_BYTES = 8 * 1024 * 1024

/**
 * Group commit for leader appends. Appends that queue up while the log's writer is busy are
 * handed to `commit` together, so they can be written with one store append (one writev on
 * files) — where the time goes when batches arrive faster than the disk round trip.
 *
 * Order is kept with a barrier: every other change to the log raises it (`mutate`), and an
 * append only ever joins a group of appends called under the same barrier, so an append is
 * never written ahead of a truncation (or anything else) requested before it.
 */
export class GroupCommitQueue {
  private readonly pending: PendingLeaderAppend[] = []
  private barrier = 0

  constructor(
    private readonly writes: SerialQueue,
    private readonly commit: (group: PendingLeaderAppend[]) => Promise<void>,
    private readonly onUnexpected: (err: unknown) => void,
  ) {}

  append(request: LeaderAppendRequest): Promise<AppendResult> {
    return new Promise<AppendResult>((resolve, reject) => {
      const startsGroup = this.pending.length === 0 || this.pending.at(-1)!.barrier !== this.barrier
      // Fields named one by one, not `{ ...request, … }`: on Node 20 (V8 11.3) an object made by spreading
      // survives the young-generation collections it meets and keeps what it points to alive with it —
      // in the peer bench's latency phase (--trace-gc-nvp, heap sampling) these entries, with the
      // promise and closures they hold, were the largest share of what each scavenge copied and
      // promoted. A literal dies young, like the append it stands for.
      this.pending.push({
        bytes: request.bytes,
        epoch: request.epoch,
        options: request.options,
        checked: request.checked,
        checkedWith: request.checkedWith,
        resolve,
        reject,
        barrier: this.barrier,
      })
      if (startsGroup) this.schedule(this.barrier)
    })
  }

  /** Queues any other change of the log behind the appends called before it. */
  mutate<T>(fn: () => Promise<T>): Promise<T> {
    this.barrier++
    return this.writes.run(fn)
  }

  /** A writer turn for the appends called under `barrier` (and only those). */
  private schedule(barrier: number): void {
    this.writes.run(() => this.drain(barrier)).catch(this.onUnexpected)
  }

  private async drain(barrier: number): Promise<void> {
    while (this.pending[0]?.barrier === barrier) {
      const group: PendingLeaderAppend[] = []
      let bytes = 0
      while (this.pending[0]?.barrier === barrier) {
        const next = this.pending[0]
        if (group.length > 0 && bytes + next.bytes.length > GROUP_COMMIT_MAX_BYTES) break
        group.push(this.pending.shift()!)
        bytes += next.bytes.length
      }
      await this.commit(group)
    }
  }
}
