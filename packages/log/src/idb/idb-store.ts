import { KafkaStorageError } from '@tributary/wire'
import { type Logger, silentLogger } from '../logger.js'
import type { AbortOptions, LogStore, SegmentInfo, SegmentRewriter, StoredBatch, StoreOpenResult } from '../types.js'
import { connect, type TributaryDb } from './connection.js'
import type { IdbConnectionClosedError } from './errors.js'
import { lockPartition, type PartitionLock } from './partition-lock.js'
import { firstBatchAtOrAfter, readChunk } from './reads.js'
import { loadPartition } from './recovery.js'
import { IdbSegmentRewriter, type RewriteStores, type RewriteTarget } from './rewriter.js'
import {
  BATCHES,
  DEFAULT_DB_NAME,
  EXTENTS,
  META,
  META_CLEAN_SHUTDOWN,
  META_FLUSH,
  metaRange,
  offsetRange,
  partitionRange,
  SEGMENTS,
  toRows,
  toSegmentRow,
} from './schema.js'
import { inTransaction, type Store, type Tx, type TxOptions } from './transaction.js'
import { truncateSegment } from './truncation.js'

export interface IdbStoreOptions {
  /** Key of this partition's rows; many partitions share one database. */
  partitionKey: string
  /** Default `tributary`. */
  dbName?: string
  logger?: Logger
  /**
   * Durability of appends. `relaxed` (default) commits once Chromium has the data: it survives
   * a tab or browser crash, and `flush()` (a strict commit) makes it survive power loss.
   * `strict` syncs every append, for logs that must not lose an acknowledged write even to an
   * OS crash between flushes, at the cost of a sync per append.
   */
  appendDurability?: 'relaxed' | 'strict'
  /** How long `open` waits for other tabs holding an older database version. Default 10 s. */
  blockedTimeoutMs?: number
}

/**
 * A partition log's segments in IndexedDB (layout in `schema.ts`). Every call that changes data
 * is one transaction that also rewrites the affected `SegmentInfo`, so a crash, a quota error
 * or an abort leaves the state before or after the call, never half of it.
 *
 * Durability: appends, rolls, deletes and non-durable checkpoints are relaxed commits;
 * `flush`, durable checkpoints (`writeMeta` with `durable`), truncation and the clean-shutdown
 * marker are strict. Commits apply in order, so a strict commit also covers the relaxed ones
 * before it — which is what `flush` relies on.
 */
export class IdbStore implements LogStore {
  readonly kind = 'idb' as const
  readonly dbName: string
  readonly partitionKey: string
  readonly label: string
  private readonly logger: Logger
  private readonly appendDurability: 'relaxed' | 'strict'
  private readonly blockedTimeoutMs: number
  private db: TributaryDb | undefined
  private lock: PartitionLock | undefined
  private lost: IdbConnectionClosedError | undefined
  /** This partition's `segments` rows in offset order (the last is active); as small as the engine's own list. */
  private segments: SegmentInfo[] = []
  /** Whether relaxed commits happened since the last strict one. */
  private unsynced = false

  constructor(options: IdbStoreOptions) {
    this.partitionKey = options.partitionKey
    this.dbName = options.dbName ?? DEFAULT_DB_NAME
    this.label = `${options.partitionKey} (IndexedDB '${this.dbName}')`
    this.logger = options.logger ?? silentLogger
    this.appendDurability = options.appendDurability ?? 'relaxed'
    this.blockedTimeoutMs = options.blockedTimeoutMs ?? 10_000
  }

  async open(_nowMs: number, options: AbortOptions = {}): Promise<StoreOpenResult> {
    if (this.db !== undefined) throw new KafkaStorageError(`${this.label}: already open`)
    const lock = await this.takeLock()
    let db: TributaryDb | undefined
    try {
      this.lost = undefined
      db = await connect(this.dbName, {
        signal: options.signal,
        logger: this.logger,
        blockedTimeoutMs: this.blockedTimeoutMs,
        onLost: (err) => this.onLost(err),
      })
      const loaded = await inTransaction(
        db,
        [BATCHES, EXTENTS, SEGMENTS, META],
        'readwrite',
        { ...options, what: `${this.label}: open` },
        (tx) =>
          loadPartition(
            {
              batches: tx.objectStore(BATCHES),
              extents: tx.objectStore(EXTENTS),
              segments: tx.objectStore(SEGMENTS),
              meta: tx.objectStore(META),
            },
            this.partitionKey,
            this.logger,
          ),
      )
      this.db = db
      this.lock = lock
      this.segments = loaded.segments
      this.unsynced = true
      return { segments: this.segments.map((s) => ({ ...s })), meta: loaded.meta, cleanShutdown: loaded.cleanShutdown }
    } catch (err) {
      db?.close()
      await lock.release()
      throw err
    }
  }

  async append(batches: readonly StoredBatch[], options: AbortOptions = {}): Promise<SegmentInfo> {
    const active = this.active()
    const last = batches.at(-1)
    if (last === undefined) return { ...active }
    const rows = batches.map((batch) => toRows(this.partitionKey, active.baseOffset, batch))
    let bytes = 0
    let maxTimestamp = active.maxTimestamp
    for (const { extent } of rows) {
      bytes += extent.n
      maxTimestamp = Math.max(maxTimestamp, extent.t)
    }
    const next: SegmentInfo = {
      ...active,
      nextOffset: last.lastOffset + 1,
      sizeBytes: active.sizeBytes + bytes,
      maxTimestamp,
    }
    const what = `${this.label}: append of ${batches.length} batch${batches.length === 1 ? '' : 'es'} at offset ${batches[0]!.baseOffset}`
    const durability = this.appendDurability
    await this.run(
      [BATCHES, EXTENTS, SEGMENTS],
      'readwrite',
      { ...options, what, writingBytes: bytes, durability },
      async (tx) => {
        const batchStore = tx.objectStore(BATCHES)
        const extentStore = tx.objectStore(EXTENTS)
        // `add`, not `put`: a row already at that offset is a bug to surface, not data to overwrite.
        await Promise.all([
          ...rows.map((r) => batchStore.add(r.batch)),
          ...rows.map((r) => extentStore.add(r.extent)),
          tx.objectStore(SEGMENTS).put(toSegmentRow(this.partitionKey, next)),
        ])
      },
    )
    this.unsynced = durability === 'relaxed'
    this.updated(next)
    return { ...next }
  }

  async roll(baseOffset: number, nowMs: number, options: AbortOptions = {}): Promise<SegmentInfo> {
    this.connection()
    const active = this.segments.at(-1)
    if (active !== undefined && baseOffset < active.nextOffset) {
      throw new KafkaStorageError(
        `${this.label}: cannot start a segment at ${baseOffset}, below the log end ${active.nextOffset}`,
      )
    }
    const info: SegmentInfo = { baseOffset, nextOffset: baseOffset, sizeBytes: 0, maxTimestamp: -1, createdAtMs: nowMs }
    await this.run(
      [SEGMENTS],
      'readwrite',
      { ...options, what: `${this.label}: roll at ${baseOffset}` },
      async (tx) => {
        await tx.objectStore(SEGMENTS).put(toSegmentRow(this.partitionKey, info))
      },
    )
    this.unsynced = true
    this.segments.push(info)
    return { ...info }
  }

  async read(segmentBase: number, offset: number, maxBytes: number, options: AbortOptions = {}): Promise<Uint8Array> {
    const { end } = this.segment(segmentBase)
    const request = { partitionKey: this.partitionKey, segmentBase, segmentEnd: end, offset, maxBytes }
    const what = `${this.label}: read at ${offset}`
    return this.run([BATCHES, EXTENTS], 'readonly', { ...options, what }, (tx) =>
      readChunk({ batches: tx.objectStore(BATCHES), extents: tx.objectStore(EXTENTS) }, request),
    )
  }

  async timeLookup(segmentBase: number, timestamp: number, options: AbortOptions = {}): Promise<number> {
    const { info, end } = this.segment(segmentBase)
    const what = `${this.label}: time lookup in segment ${segmentBase}`
    // Past the end when no batch qualifies: the engine's forward scan then stops at once.
    return this.run([EXTENTS], 'readonly', { ...options, what }, (tx) =>
      firstBatchAtOrAfter(
        tx.objectStore(EXTENTS),
        this.partitionKey,
        { segmentBase, segmentEnd: end },
        timestamp,
        info.nextOffset,
      ),
    )
  }

  async truncate(segmentBase: number, offset: number, options: AbortOptions = {}): Promise<SegmentInfo> {
    const { info, end } = this.segment(segmentBase)
    // Strict: a truncation lost to a crash would bring back a diverged tail after the replication layer moved on.
    const txOptions: TxOptions = { ...options, what: `${this.label}: truncate at ${offset}`, durability: 'strict' }
    const next = await this.run([BATCHES, EXTENTS, SEGMENTS], 'readwrite', txOptions, (tx) =>
      truncateSegment(
        { batches: tx.objectStore(BATCHES), extents: tx.objectStore(EXTENTS), segments: tx.objectStore(SEGMENTS) },
        this.partitionKey,
        info,
        end,
        offset,
      ),
    )
    this.unsynced = false
    this.segments = [...this.segments.filter((s) => s.baseOffset < segmentBase), next]
    return { ...next }
  }

  async deleteSegments(baseOffsets: readonly number[], options: AbortOptions = {}): Promise<void> {
    this.connection()
    const doomed = this.segments
      .filter((s) => baseOffsets.includes(s.baseOffset))
      .map((s) => ({ base: s.baseOffset, end: this.segment(s.baseOffset).end }))
    if (doomed.length === 0) return
    // Relaxed: the engine checkpoints the log start durably first, and removes what is below it at open.
    const what = `${this.label}: delete of ${doomed.length} segment${doomed.length === 1 ? '' : 's'}`
    await this.run([BATCHES, EXTENTS, SEGMENTS], 'readwrite', { ...options, what }, async (tx) => {
      const pending: Promise<unknown>[] = []
      for (const { base, end } of doomed) {
        const rows = offsetRange(this.partitionKey, base, end)
        pending.push(tx.objectStore(BATCHES).delete(rows), tx.objectStore(EXTENTS).delete(rows))
        pending.push(tx.objectStore(SEGMENTS).delete([this.partitionKey, base]))
      }
      await Promise.all(pending)
    })
    this.unsynced = true
    const gone = new Set(doomed.map((d) => d.base))
    this.segments = this.segments.filter((s) => !gone.has(s.baseOffset))
  }

  async rewriteSegment(segmentBase: number, options: AbortOptions = {}): Promise<SegmentRewriter> {
    this.segment(segmentBase)
    const target: RewriteTarget = {
      partitionKey: this.partitionKey,
      label: this.label,
      transact: (what, writingBytes, txOptions, body) => this.transact(what, writingBytes, txOptions, body),
      segment: (base) => this.segment(base),
      updated: (info) => this.updated(info),
    }
    return new IdbSegmentRewriter(target, segmentBase, options)
  }

  async writeMeta(entries: Record<string, string>, options: AbortOptions & { durable?: boolean } = {}): Promise<void> {
    const durability = options.durable === true ? 'strict' : 'relaxed'
    const what = `${this.label}: checkpoint of ${Object.keys(entries).join(', ')}`
    await this.run([META], 'readwrite', { ...options, what, durability }, async (tx) => {
      const meta = tx.objectStore(META)
      await Promise.all(Object.entries(entries).map(([k, v]) => meta.put({ p: this.partitionKey, k, v })))
    })
    this.unsynced = durability === 'relaxed'
  }

  async flush(options: AbortOptions = {}): Promise<void> {
    this.connection()
    if (!this.unsynced) return
    // A strict commit whose only change is a delete: commits apply in order, so it covers every
    // relaxed one before it, and a delete asks Chromium for no quota, so flush works when full.
    await this.run(
      [META],
      'readwrite',
      { ...options, what: `${this.label}: flush`, durability: 'strict' },
      async (tx) => {
        await tx.objectStore(META).delete([this.partitionKey, META_FLUSH])
      },
    )
    this.unsynced = false
  }

  async close(clean: boolean): Promise<void> {
    const db = this.db
    if (db === undefined) {
      await this.releaseLock()
      return
    }
    try {
      if (clean && this.lost === undefined) {
        await this.run([META], 'readwrite', { what: `${this.label}: close`, durability: 'strict' }, async (tx) => {
          await tx.objectStore(META).put({ p: this.partitionKey, k: META_CLEAN_SHUTDOWN, v: '1' })
        })
      }
    } catch (err) {
      // Without the marker the next open just reads as unclean (a cheap check here): still close.
      this.logger.warn({ partitionKey: this.partitionKey, err }, 'could not record a clean shutdown')
    } finally {
      db.close()
      this.db = undefined
      this.segments = []
      await this.releaseLock()
    }
  }

  async destroy(): Promise<void> {
    const lock = this.lock ?? (await this.takeLock())
    this.lock = lock
    try {
      const db =
        this.db ??
        (await connect(this.dbName, { logger: this.logger, blockedTimeoutMs: this.blockedTimeoutMs, onLost: () => {} }))
      this.db = db
      this.lost = undefined
      const pk = this.partitionKey
      await this.run(
        [BATCHES, EXTENTS, SEGMENTS, META],
        'readwrite',
        { what: `${this.label}: destroy`, durability: 'strict' },
        async (tx) => {
          await Promise.all([
            tx.objectStore(BATCHES).delete(partitionRange(pk)),
            tx.objectStore(EXTENTS).delete(partitionRange(pk)),
            tx.objectStore(SEGMENTS).delete(partitionRange(pk)),
            tx.objectStore(META).delete(metaRange(pk)),
          ])
        },
      )
    } finally {
      this.db?.close()
      this.db = undefined
      this.segments = []
      await this.releaseLock()
    }
  }

  /** One readwrite transaction over the stores a rewrite step touches. */
  private transact<T>(
    what: string,
    writingBytes: number,
    options: AbortOptions,
    body: (stores: RewriteStores) => Promise<T>,
  ): Promise<T> {
    return this.run([BATCHES, EXTENTS, SEGMENTS], 'readwrite', { ...options, what, writingBytes }, async (tx) => {
      const result = await body({
        batches: tx.objectStore(BATCHES),
        extents: tx.objectStore(EXTENTS),
        segments: tx.objectStore(SEGMENTS),
      })
      this.unsynced = true
      return result
    })
  }

  /** A segment's info and where the next segment starts (Infinity for the active one). */
  private segment(baseOffset: number): { info: SegmentInfo; end: number } {
    this.connection()
    const index = this.segments.findIndex((s) => s.baseOffset === baseOffset)
    if (index < 0) throw new KafkaStorageError(`${this.label}: no segment at offset ${baseOffset}`)
    return { info: this.segments[index]!, end: this.segments[index + 1]?.baseOffset ?? Infinity }
  }

  /** Records a committed segment info. */
  private updated(info: SegmentInfo): void {
    const index = this.segments.findIndex((s) => s.baseOffset === info.baseOffset)
    if (index >= 0) this.segments[index] = info
  }

  private active(): SegmentInfo {
    this.connection()
    const active = this.segments.at(-1)
    if (active === undefined) throw new KafkaStorageError(`${this.label}: no active segment`)
    return active
  }

  private connection(): TributaryDb {
    if (this.lost !== undefined) throw this.lost
    if (this.db === undefined) throw new KafkaStorageError(`${this.label}: store is not open`)
    return this.db
  }

  private async run<S extends Store[], M extends IDBTransactionMode, T>(
    stores: S,
    mode: M,
    options: TxOptions,
    body: (tx: Tx<S, M>) => Promise<T>,
  ): Promise<T> {
    const db = this.connection()
    try {
      return await inTransaction(db, stores, mode, options, body)
    } catch (err) {
      // A versionchange closes the connection under in-flight calls: say why, not "InvalidStateError".
      if (this.lost !== undefined) throw this.lost
      throw err
    }
  }

  private async takeLock(): Promise<PartitionLock> {
    const lock = await lockPartition(this.dbName, this.partitionKey)
    if (lock === undefined) {
      throw new KafkaStorageError(
        `${this.label}: the partition is open in another tab or log; close it there first (one writer per partition)`,
      )
    }
    return lock
  }

  private async releaseLock(): Promise<void> {
    const lock = this.lock
    this.lock = undefined
    await lock?.release()
  }

  private onLost(err: IdbConnectionClosedError): void {
    this.lost = err
    this.db = undefined
    // Let a reopen take the partition: this store cannot write any more.
    void this.releaseLock()
    this.logger.warn({ partitionKey: this.partitionKey, err }, 'IndexedDB connection closed under an open log')
  }
}
