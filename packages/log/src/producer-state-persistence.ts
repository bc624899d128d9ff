import type { Logger } from './logger.js'
import { encodeProducerSnapshot } from './producer-snapshot.js'
import type { ProducerStateManager } from './producer-state.js'
import { loadProducerState, META_PRODUCERS } from './producer-state-loader.js'
import type { AbortOptions, LogStore, SegmentInfo } from './types.js'

/**
 * Producer state is snapshotted after this many appended bytes (or a segment's worth, if
 * smaller), bounding what an open after a crash replays; Kafka snapshots at every roll.
 */
const SNAPSHOT_INTERVAL_BYTES = 64 * 1024 * 1024

export interface ProducerStatePersistenceOptions {
  name: string
  store: LogStore
  producers: ProducerStateManager
  logger: Logger
  clock: () => number
  logEndOffset: () => number
}

/**
 * When the log stores its producer state, and what it must do so a snapshot stays true. The
 * invariant: the log below the stored snapshot's offset holds what the snapshot saw, minus
 * batches retention or compaction removed (the snapshot keeps those producers), and is durable.
 * So a snapshot is taken — always after a flush, always durably — every interval of appends,
 * before retention moves the log start past it, before compaction cleans past it, and at once
 * when truncation cuts below it. The log engine calls these hooks inside its own serialization.
 *
 * The interval's snapshot is made off the append path when the store can sync its appended
 * data alongside appends (`syncAppended`): the state is encoded in the append's turn, then the
 * data is synced and the snapshot written while later appends go on. Why: in the write turn,
 * every produce waited while up to 64 MiB of fresh data went to disk — 14 times in one produce
 * phase of `npm run bench -- peer`, with group writes of up to 75–91 ms; off that path the
 * phase moved about 15% more (2-core VM). At most one such snapshot is in flight; everything
 * else that stores or cuts state (`settle`) waits for it first, so a late snapshot never lands
 * after a truncation or a newer one.
 */
export class ProducerStatePersistence {
  /** Offset of the stored snapshot (the log start when there is none yet). */
  snapshotOffset = 0
  private bytesSince = 0
  /** The interval's snapshot being made durable off the append path, if any. */
  private inFlight: Promise<void> | undefined

  constructor(private readonly options: ProducerStatePersistenceOptions) {}

  /** On open: the stored snapshot plus the batches after it; a stale snapshot is replaced. */
  async load(
    segments: readonly SegmentInfo[],
    logStartOffset: number,
    meta: Record<string, string>,
    options: AbortOptions,
  ): Promise<void> {
    const { name, store, producers, logger, clock, logEndOffset } = this.options
    const loaded = await loadProducerState(
      {
        name,
        store,
        segments,
        logStartOffset,
        logEndOffset: logEndOffset(),
        snapshot: meta[META_PRODUCERS],
        producers,
        now: clock(),
        logger,
      },
      options,
    )
    this.snapshotOffset = loaded.snapshotOffset
    if (loaded.stale) await this.snapshot(options)
  }

  /** Stores the state as of the log end, durably, after making the data below it durable. */
  async snapshot(options: AbortOptions): Promise<void> {
    await this.settle()
    const { store } = this.options
    await store.flush(options)
    const offset = this.options.logEndOffset()
    await store.writeMeta({ [META_PRODUCERS]: this.encode(offset) }, { ...options, durable: true })
    this.snapshotOffset = offset
    this.bytesSince = 0
  }

  /** After an append: a snapshot once enough was appended since the last. A failure is retried later. */
  async appended(bytes: number, segmentBytes: number, options: AbortOptions): Promise<void> {
    this.bytesSince += bytes
    if (this.bytesSince < Math.min(segmentBytes, SNAPSHOT_INTERVAL_BYTES) || this.inFlight !== undefined) return
    const failed = (err: unknown): void =>
      this.options.logger.error({ partition: this.options.name, err }, 'producer-state snapshot failed; will retry')
    if (this.options.store.syncAppended === undefined) {
      await this.snapshot(options).catch(failed)
      return
    }
    const offset = this.options.logEndOffset()
    const body = this.encode(offset)
    this.bytesSince = 0
    this.inFlight = this.storeBehind(offset, body)
      .catch((err: unknown) => {
        this.bytesSince = Math.max(this.bytesSince, SNAPSHOT_INTERVAL_BYTES) // retried by the next append
        failed(err)
      })
      .finally(() => {
        this.inFlight = undefined
      })
  }

  /** Waits for a snapshot being made off the append path; call before anything else stores or cuts. */
  async settle(): Promise<void> {
    await this.inFlight
  }

  /** Syncs the data appended so far — everything below `offset` — then stores `body`, the state at `offset`. */
  private async storeBehind(offset: number, body: string): Promise<void> {
    const { store } = this.options
    await store.syncAppended!()
    await store.writeMeta({ [META_PRODUCERS]: body }, { durable: true })
    this.snapshotOffset = offset
  }

  /** Before retention or compaction removes batches below `offset`: the snapshot must already count them. */
  async cover(offset: number, options: AbortOptions): Promise<void> {
    await this.settle()
    if (this.snapshotOffset < offset) await this.snapshot(options)
  }

  /** The log was cut to `logEndOffset`: forget what went, and replace a snapshot that counted it. */
  async truncated(logEndOffset: number, options: AbortOptions): Promise<void> {
    const forgotten = this.options.producers.truncateFrom(logEndOffset)
    if (forgotten > 0)
      this.options.logger.info({ partition: this.options.name, forgotten }, 'producers forgotten by truncation')
    if (this.snapshotOffset > logEndOffset) await this.snapshot(options)
  }

  /**
   * The log restarts empty at `offset`: as in Kafka, what this replica knew of producers
   * described a log it no longer has. Returns the checkpoint to store with the reset.
   */
  reset(offset: number): Record<string, string> {
    this.options.producers.clear()
    this.snapshotOffset = offset
    this.bytesSince = 0
    return { [META_PRODUCERS]: this.encode(offset) }
  }

  /** The checkpoint a clean close stores, after its final flush. */
  closing(): Record<string, string> {
    return { [META_PRODUCERS]: this.encode(this.options.logEndOffset()) }
  }

  private encode(offset: number): string {
    const { producers, clock } = this.options
    producers.removeExpired(clock())
    return encodeProducerSnapshot(offset, producers.entries())
  }
}
