import { CorruptRecordError } from '@tributary/wire'
import type { EpochEndOffset, EpochEntry } from './types.js'

/**
 * Where each leader epoch starts in the log (Kafka's LeaderEpochFileCache). Raft uses it to
 * answer "where does epoch E end in your log?" so a diverged follower knows where to truncate;
 * the log uses it to check that every batch it serves carries the epoch its offset belongs to
 * (the batch CRC does not cover the epoch field).
 *
 * Entries are strictly increasing in both epoch and start offset.
 */
export class LeaderEpochCache {
  private entries: EpochEntry[] = []

  static fromJson(json: string | undefined): LeaderEpochCache {
    const cache = new LeaderEpochCache()
    if (json === undefined) return cache
    let parsed: unknown
    try {
      parsed = JSON.parse(json)
    } catch (err) {
      throw new CorruptRecordError('leader-epoch checkpoint is not valid JSON', { cause: err })
    }
    if (!Array.isArray(parsed)) throw new CorruptRecordError('leader-epoch checkpoint is not a list')
    for (const item of parsed) {
      const { epoch, startOffset } = item as EpochEntry
      if (!Number.isSafeInteger(epoch) || !Number.isSafeInteger(startOffset) || epoch < 0 || startOffset < 0) {
        throw new CorruptRecordError('leader-epoch checkpoint has an invalid entry')
      }
      const last = cache.entries.at(-1)
      if (last !== undefined && (epoch <= last.epoch || startOffset < last.startOffset)) {
        throw new CorruptRecordError('leader-epoch checkpoint entries are out of order')
      }
      cache.entries.push({ epoch, startOffset })
    }
    return cache
  }

  toJson(): string {
    return JSON.stringify(this.entries)
  }

  list(): readonly EpochEntry[] {
    return this.entries
  }

  latestEpoch(): number {
    return this.entries.at(-1)?.epoch ?? -1
  }

  /** Records that `epoch` starts at `startOffset`; returns true when the cache changed. */
  assign(epoch: number, startOffset: number): boolean {
    const last = this.entries.at(-1)
    if (last !== undefined && epoch <= last.epoch) return false
    // A new epoch cannot start before the previous one: drop entries it would overlap.
    while (this.entries.length > 0 && this.entries.at(-1)!.startOffset >= startOffset) this.entries.pop()
    this.entries.push({ epoch, startOffset })
    return true
  }

  /**
   * The epoch that batches at `offset` must carry: the entry with the largest start ≤ offset.
   * Offsets before the first entry belong to it too (its start moves up as the log start does,
   * while a segment may still hold older batches below the log start).
   */
  epochForOffset(offset: number): number {
    const entries = this.entries
    if (entries.length === 0) return -1
    let lo = 0
    let hi = entries.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1
      if (entries[mid]!.startOffset <= offset) lo = mid
      else hi = mid - 1
    }
    return entries[lo]!.epoch
  }

  /** KIP-595: the largest epoch ≤ `epoch` and the offset where it ends in a log ending at `logEndOffset`. */
  endOffsetFor(epoch: number, logEndOffset: number): EpochEndOffset {
    const entries = this.entries
    for (let i = entries.length - 1; i >= 0; i--) {
      const entry = entries[i]!
      if (entry.epoch <= epoch) {
        const next = entries[i + 1]
        return { epoch: entry.epoch, endOffset: next === undefined ? logEndOffset : next.startOffset }
      }
    }
    return { epoch: -1, endOffset: -1 }
  }

  /** Forgets epochs that start at or after `offset` (the log was truncated there). */
  truncateFromEnd(offset: number): boolean {
    const before = this.entries.length
    while (this.entries.length > 0 && this.entries.at(-1)!.startOffset >= offset) this.entries.pop()
    return this.entries.length !== before
  }

  /** The log now starts at `offset`: collapse older entries into one that starts there. */
  truncateFromStart(offset: number): boolean {
    let changed = false
    while (this.entries.length > 1 && this.entries[1]!.startOffset <= offset) {
      this.entries.shift()
      changed = true
    }
    const first = this.entries[0]
    if (first !== undefined && first.startOffset < offset) {
      first.startOffset = offset
      changed = true
    }
    return changed
  }

  clear(): void {
    this.entries = []
  }
}
