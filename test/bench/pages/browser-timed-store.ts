/**
 * The browser benchmark's outbox store: the SDK's own IndexedDB store with a clock around each
 * step, so a slow drain says where its time went (reading queued rows, the seal transaction,
 * removing acknowledged batches).
 */
import { IdbOutboxStore, type OutboxChange } from '@tributary/client'

/** Time spent in each IndexedDB step of the outbox during a drain: where a slow drain goes. */
export interface StoreTimes {
  /** Reading unsealed records (a cursor over the queued rows). */
  unsealedMs: number
  /** The seal transaction: queued rows deleted, batches written. */
  sealCommitMs: number
  /** Transactions removing acknowledged batches. */
  ackCommitMs: number
  batchesMs: number
}

/** The IndexedDB outbox store, timing each call (the store is the outbox's own; only clocks are added). */
export class TimedOutboxStore extends IdbOutboxStore {
  times: StoreTimes = { unsealedMs: 0, sealCommitMs: 0, ackCommitMs: 0, batchesMs: 0 }
  /** Told of each step as it ends: what, when it began (performance.now()), how long. */
  onStep: ((what: string, startedAt: number, ms: number) => void) | undefined

  override async unsealed(maxRecords: number, maxBytes: number) {
    const started = performance.now()
    try {
      return await super.unsealed(maxRecords, maxBytes)
    } finally {
      this.times.unsealedMs += performance.now() - started
      this.onStep?.('unsealed read', started, performance.now() - started)
    }
  }

  override async commit(change: OutboxChange) {
    const started = performance.now()
    try {
      return await super.commit(change)
    } finally {
      const ms = performance.now() - started
      if ((change.putBatches?.length ?? 0) > 0) this.times.sealCommitMs += ms
      else this.times.ackCommitMs += ms
      this.onStep?.((change.putBatches?.length ?? 0) > 0 ? 'seal commit' : 'commit', started, ms)
    }
  }

  override async batches(limit: number) {
    const started = performance.now()
    try {
      return await super.batches(limit)
    } finally {
      this.times.batchesMs += performance.now() - started
      this.onStep?.('batches read', started, performance.now() - started)
    }
  }
}
