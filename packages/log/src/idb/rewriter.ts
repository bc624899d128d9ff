import { KafkaStorageError } from '@tributary/wire'
import type { AbortOptions, SegmentInfo, SegmentRewriter, StoredBatch } from '../types.js'
import { type ExtentStore, summarize } from './extents.js'
import { type BatchRow, type ExtentRow, offsetRangeInclusive, type SegmentRow, toRows, toSegmentRow } from './schema.js'

/** The object stores a rewrite step touches, inside one readwrite transaction. */
export interface RewriteStores {
  batches: { delete(query: IDBKeyRange): Promise<void>; put(row: BatchRow): Promise<unknown> }
  extents: ExtentStore & { delete(query: IDBKeyRange): Promise<void>; put(row: ExtentRow): Promise<unknown> }
  segments: { put(row: SegmentRow): Promise<unknown> }
}

/** What the rewriter needs from its store. */
export interface RewriteTarget {
  readonly partitionKey: string
  readonly label: string
  /** Runs `body` in one readwrite transaction over batches, extents and segments. */
  transact<T>(
    what: string,
    writingBytes: number,
    options: AbortOptions,
    body: (stores: RewriteStores) => Promise<T>,
  ): Promise<T>
  /** The store's current info of a segment, and where the next one starts. */
  segment(baseOffset: number): { info: SegmentInfo; end: number }
  /** Records a segment info that was just committed. */
  updated(info: SegmentInfo): void
}

/**
 * Compaction's rewrite of one closed segment, applied in place one batch at a time: no
 * transaction is held across the engine's awaits (IndexedDB would auto-commit it), and no
 * second copy of the segment is written.
 *
 * Why a reader always sees a valid log in between:
 * - each `append` replaces exactly the stored batches whose offsets the new batch spans
 *   (checked: they must tile [baseOffset, lastOffset] exactly), and the segment's size, in one
 *   transaction. Compaction keeps base and last offsets and the leader epoch (placeholder runs
 *   never span epochs), so the segment stays offset-contiguous with the epochs the cache
 *   expects — what the read path verifies;
 * - a read is its own transaction, which IndexedDB orders wholly before or after each
 *   replacement, so every batch it sees is either the old or the new version, never a mix;
 * - both versions are a correct log: compaction drops only records superseded by a later
 *   record with the same key (or expired tombstones), which Kafka lets a consumer see or not.
 * A crash half way leaves a partly compacted segment, equally valid; the cleaner offset is
 * saved only after the engine's commit, so the next run redoes the segment, and batches that
 * come back unchanged (same offsets, size and CRC) are not written again.
 */
export class IdbSegmentRewriter implements SegmentRewriter {
  private finished = false

  constructor(
    private readonly target: RewriteTarget,
    private readonly segmentBase: number,
    private readonly options: AbortOptions,
  ) {}

  async append(batch: StoredBatch): Promise<void> {
    this.ensureActive()
    const { partitionKey: pk, label } = this.target
    const { end } = this.target.segment(this.segmentBase)
    if (batch.baseOffset < this.segmentBase || batch.lastOffset >= end) {
      throw new KafkaStorageError(
        `${label}: compacted batch [${batch.baseOffset}, ${batch.lastOffset}] lies outside segment ${this.segmentBase}`,
      )
    }
    const rows = toRows(pk, this.segmentBase, batch)
    const what = `${label}: compaction of segment ${this.segmentBase} at offset ${batch.baseOffset}`
    const info = await this.target.transact(what, rows.extent.n, this.options, async (stores) => {
      const range = offsetRangeInclusive(pk, batch.baseOffset, batch.lastOffset)
      const old = await stores.extents.getAll(range)
      const first = old[0]
      const last = old.at(-1)
      if (first === undefined || last === undefined || first.b !== batch.baseOffset || last.l !== batch.lastOffset) {
        throw new KafkaStorageError(
          `${label}: compacted batch [${batch.baseOffset}, ${batch.lastOffset}] does not replace whole stored batches`,
        )
      }
      if (old.length === 1 && sameBatch(first, rows.extent)) return undefined
      const current = this.target.segment(this.segmentBase).info
      const removed = old.reduce((sum, row) => sum + row.n, 0)
      const next: SegmentInfo = {
        ...current,
        sizeBytes: current.sizeBytes - removed + rows.extent.n,
        maxTimestamp: Math.max(current.maxTimestamp, rows.extent.t),
      }
      await Promise.all([stores.batches.delete(range), stores.extents.delete(range)])
      await Promise.all([
        stores.batches.put(rows.batch),
        stores.extents.put(rows.extent),
        stores.segments.put(toSegmentRow(pk, next)),
      ])
      return next
    })
    if (info !== undefined) this.target.updated(info)
  }

  /** The replacement is already in place; recompute the segment's info exactly from its extents. */
  async commit(): Promise<SegmentInfo> {
    this.ensureActive()
    this.finished = true
    const { partitionKey: pk, label } = this.target
    const what = `${label}: committing compaction of segment ${this.segmentBase}`
    const info = await this.target.transact(what, 0, this.options, async (stores) => {
      const { info: current, end } = this.target.segment(this.segmentBase)
      const summary = await summarize(stores.extents, pk, this.segmentBase, end)
      const next: SegmentInfo = { ...current, sizeBytes: summary.sizeBytes, maxTimestamp: summary.maxTimestamp }
      await stores.segments.put(toSegmentRow(pk, next))
      return next
    })
    this.target.updated(info)
    return { ...info }
  }

  /** Batches already replaced stay: each is a valid compacted version (see the class comment). */
  async abort(): Promise<void> {
    this.finished = true
  }

  private ensureActive(): void {
    if (this.finished)
      throw new KafkaStorageError(`${this.target.label}: rewrite of segment ${this.segmentBase} already finished`)
  }
}

/**
 * Same offsets, size, timestamp and CRC: the compacted batch is the stored one. A CRC32C
 * collision between equal-size versions would only keep the old batch: less compacted, valid.
 */
function sameBatch(stored: ExtentRow, incoming: ExtentRow): boolean {
  return stored.l === incoming.l && stored.n === incoming.n && stored.t === incoming.t && stored.c === incoming.c
}
