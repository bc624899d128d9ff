import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { CorruptRecordError, KafkaStorageError } from '@tributary/wire'
import type { Logger } from '../logger.js'
import type { LogStore, SegmentInfo, SegmentRewriter, StoredBatch, StoreOpenResult } from '../types.js'
import { readCheckpoint, removeFile, syncDir, writeCheckpoint } from './checkpoint.js'
import { recoverSegment } from './recovery.js'
import { HEADER_BYTES, peekHeader, Segment, segmentName } from './segment.js'

export interface FsStoreOptions {
  /** The partition's own directory. */
  dir: string
  name: string
  logger: Logger
  indexIntervalBytes: number
  /** Closed segments whose files may be open at once (the active one is always open). Default 32. */
  maxOpenSegments?: number
}

const META_FILE = 'meta.checkpoint'
const CLEAN_SHUTDOWN_FILE = '.clean-shutdown'
const CLEANER_DIR = 'cleaner'
const SUFFIXES = ['.log', '.index', '.timeindex'] as const
/**
 * Checkpoints named `*.snapshot` (the producer state: large, rarely written) get a file each,
 * so the frequent small checkpoints (the high watermark at every flush) never rewrite them.
 */
const SNAPSHOT_KEY = /^[a-z0-9-]+\.snapshot$/
/** Unpersisted index entries before they are written out, bounding recovery's rescan. */
const PERSIST_INDEX_EVERY = 1024

interface CleanMarker {
  baseOffset: number
  nextOffset: number
  size: number
  maxTimestamp: number
}

/**
 * Segment files in one directory per partition (Kafka's layout). Closed segments are trusted
 * after a cheap check (index files of whole entries, last entry inside the log); the active
 * one is recovered from its last index entry unless the clean-shutdown marker vouches for it.
 * At most `maxOpenSegments` closed segments hold open files; reads pin the segment they use.
 */
export class FsStore implements LogStore {
  readonly kind = 'fs'
  private segments: Segment[] = []
  private meta: Record<string, string> = {}
  /** Closed segments with open files, least recently used first. */
  private readonly loaded = new Set<Segment>()
  private readonly pins = new Map<Segment, number>()
  private dirDirty = false
  private readonly maxOpen: number

  constructor(private readonly options: FsStoreOptions) {
    this.maxOpen = Math.max(1, options.maxOpenSegments ?? 32)
  }

  private get dir(): string {
    return this.options.dir
  }

  async open(nowMs: number): Promise<StoreOpenResult> {
    await mkdir(this.dir, { recursive: true })
    await this.finishInterruptedSwaps()
    const metaBody = await readCheckpoint(join(this.dir, META_FILE)).catch((err: unknown) => {
      this.options.logger.warn({ partition: this.options.name, err }, 'meta checkpoint damaged; starting from defaults')
      return undefined
    })
    this.meta = metaBody === undefined ? {} : (JSON.parse(metaBody) as Record<string, string>)
    const snapshots = await this.readSnapshots()
    const marker = await this.readMarker()
    await removeFile(join(this.dir, CLEAN_SHUTDOWN_FILE))

    const bases = (await readdir(this.dir))
      .filter((f) => /^\d{20}\.log$/.test(f))
      .map((f) => Number(f.slice(0, 20)))
      .sort((a, b) => a - b)
    for (let i = 0; i < bases.length; i++) {
      const base = bases[i]!
      const isActive = i === bases.length - 1
      const size = (await stat(join(this.dir, `${segmentName(base)}.log`))).size
      const info = { nextOffset: bases[i + 1] ?? base, size, maxTimestamp: -1, createdAtMs: nowMs }
      const segment = new Segment(this.dir, base, this.options.indexIntervalBytes, info)
      this.segments.push(segment)
      if (isActive) {
        const trusted = marker !== undefined && marker.baseOffset === base && marker.size === size
        if (trusted && (await segment.load())) {
          segment.nextOffset = marker.nextOffset
          segment.maxTimestamp = marker.maxTimestamp
        } else {
          await recoverSegment(segment, this.options.logger, this.options.name, { fromScratch: false, truncate: true })
        }
      } else if (!(await segment.load())) {
        this.options.logger.warn(
          { partition: this.options.name, segment: base },
          'closed segment failed its sanity check; rebuilding its index',
        )
        await recoverSegment(segment, this.options.logger, this.options.name, { fromScratch: true, truncate: false })
        segment.nextOffset = bases[i + 1]!
        await segment.release()
      } else {
        segment.maxTimestamp = segment.timeIndex!.lastKey ?? -1
        await segment.release()
      }
    }
    return {
      segments: this.segments.map(infoOf),
      meta: { ...this.meta, ...snapshots },
      cleanShutdown: marker !== undefined,
    }
  }

  private async readSnapshots(): Promise<Record<string, string>> {
    const found: Record<string, string> = {}
    for (const file of await readdir(this.dir)) {
      if (!SNAPSHOT_KEY.test(file)) continue
      const body = await readCheckpoint(join(this.dir, file)).catch((err: unknown) => {
        // The engine rebuilds what a snapshot held from the log.
        this.options.logger.warn(
          { partition: this.options.name, file, err },
          'snapshot checkpoint damaged; ignoring it',
        )
        return undefined
      })
      if (body !== undefined) found[file] = body
    }
    return found
  }

  private async readMarker(): Promise<CleanMarker | undefined> {
    try {
      const body = await readCheckpoint(join(this.dir, CLEAN_SHUTDOWN_FILE))
      return body === undefined ? undefined : (JSON.parse(body) as CleanMarker)
    } catch {
      return undefined // a damaged marker only costs a recovery scan
    }
  }

  /** Completes a compaction swap that a crash interrupted, and drops unfinished cleaner output. */
  private async finishInterruptedSwaps(): Promise<void> {
    for (const file of await readdir(this.dir)) {
      if (file.endsWith('.swap')) await rename(join(this.dir, file), join(this.dir, file.slice(0, -'.swap'.length)))
      else if (file.endsWith('.tmp')) await removeFile(join(this.dir, file))
    }
    await rm(join(this.dir, CLEANER_DIR), { recursive: true, force: true })
  }

  private active(): Segment {
    const segment = this.segments.at(-1)
    if (segment === undefined) throw new KafkaStorageError(`${this.options.name}: no active segment`)
    return segment
  }

  private find(base: number): Segment {
    const segment = this.segments.find((s) => s.baseOffset === base)
    if (segment === undefined) throw new KafkaStorageError(`${this.options.name}: no segment at offset ${base}`)
    return segment
  }

  /**
   * Runs `fn` with the segment's files open. Every segment in use is pinned — the active one
   * too, since a roll can close it for appends mid-read — and eviction passes pinned ones by.
   */
  private async use<T>(segment: Segment, fn: () => Promise<T>): Promise<T> {
    this.pins.set(segment, (this.pins.get(segment) ?? 0) + 1)
    try {
      if (segment !== this.segments.at(-1)) {
        this.loaded.delete(segment)
        this.loaded.add(segment)
        if (!segment.isLoaded && !(await segment.load())) {
          throw new CorruptRecordError(`${this.options.name}: index of segment ${segment.baseOffset} is damaged`)
        }
      }
      return await fn()
    } finally {
      const pins = (this.pins.get(segment) ?? 1) - 1
      if (pins === 0) this.pins.delete(segment)
      else this.pins.set(segment, pins)
      await this.evict()
    }
  }

  /** Releases least recently used closed segments beyond the bound, skipping pinned ones. */
  private async evict(): Promise<void> {
    for (const segment of this.loaded) {
      if (this.loaded.size <= this.maxOpen) return
      if (this.pins.has(segment) || segment === this.segments.at(-1)) continue
      this.loaded.delete(segment)
      await segment.release()
    }
  }

  async append(batches: readonly StoredBatch[]): Promise<SegmentInfo> {
    const segment = this.active()
    await segment.append(batches)
    if (segment.unpersistedIndexEntries >= PERSIST_INDEX_EVERY) await segment.persistIndexes()
    return infoOf(segment)
  }

  async roll(baseOffset: number, nowMs: number): Promise<SegmentInfo> {
    const previous = this.segments.at(-1)
    if (previous !== undefined) {
      // Closed segments are trusted on open, so they are made durable before the next begins.
      await previous.sync()
      this.loaded.add(previous)
      await this.evict()
    }
    const segment = await Segment.create(this.dir, baseOffset, nowMs, this.options.indexIntervalBytes)
    this.segments.push(segment)
    this.dirDirty = true
    return infoOf(segment)
  }

  read(segmentBase: number, offset: number, maxBytes: number): Promise<Uint8Array> {
    const segment = this.find(segmentBase)
    return this.use(segment, () => segment.read(offset, maxBytes))
  }

  timeLookup(segmentBase: number, timestamp: number): Promise<number> {
    const segment = this.find(segmentBase)
    return this.use(segment, async () => segment.timeLookup(timestamp))
  }

  async truncate(segmentBase: number, offset: number): Promise<SegmentInfo> {
    const segment = this.find(segmentBase)
    if (!segment.isLoaded) await segment.load()
    this.loaded.delete(segment)
    this.segments = this.segments.filter((s) => s.baseOffset <= segmentBase)
    const position = await segment.positionOf(offset)
    if (position >= segment.size) return infoOf(segment)
    const next = (await this.peek(segment, position)).baseOffset
    // The exact max timestamp of what remains: the time index up to its last entry, then a header scan.
    const times = segment.timeIndex!
    times.truncateWhere('value', next - segment.baseOffset + 1)
    let maxTimestamp = times.lastKey ?? -1
    let pos = await segment.positionOf(segment.baseOffset + (times.lastValue ?? 0))
    while (pos < position) {
      const header = await this.peek(segment, pos)
      maxTimestamp = Math.max(maxTimestamp, header.maxTimestamp)
      pos += header.size
    }
    await segment.truncateAt(position, next, maxTimestamp)
    return infoOf(segment)
  }

  private async peek(
    segment: Segment,
    pos: number,
  ): Promise<{ baseOffset: number; size: number; maxTimestamp: number }> {
    const header = peekHeader(await segment.readAt(pos, HEADER_BYTES), 0)
    if (header === undefined || header.size < 0) {
      throw new CorruptRecordError(
        `${this.options.name}: damaged batch header at position ${pos} of segment ${segment.baseOffset}`,
      )
    }
    return header
  }

  async deleteSegments(baseOffsets: readonly number[]): Promise<void> {
    const doomed = new Set(baseOffsets)
    for (const segment of this.segments.filter((s) => doomed.has(s.baseOffset))) {
      this.loaded.delete(segment)
      await segment.delete()
    }
    this.segments = this.segments.filter((s) => !doomed.has(s.baseOffset))
    this.dirDirty = true
  }

  async rewriteSegment(segmentBase: number): Promise<SegmentRewriter> {
    const old = this.find(segmentBase)
    const cleanerDir = join(this.dir, CLEANER_DIR)
    await mkdir(cleanerDir, { recursive: true })
    const cleaned = await Segment.create(cleanerDir, segmentBase, old.createdAtMs, this.options.indexIntervalBytes)
    return {
      append: (batch) => cleaned.append([batch]),
      commit: async () => {
        await cleaned.sync()
        const from = cleaned.paths
        const to = old.paths
        await cleaned.release()
        // Kafka's .cleaned → .swap → final: once every .swap exists, open() finishes the swap.
        for (const suffix of SUFFIXES) await rename(from[suffixKey(suffix)], `${to[suffixKey(suffix)]}.swap`)
        await syncDir(this.dir)
        this.loaded.delete(old)
        await old.release()
        for (const suffix of SUFFIXES) await rename(`${to[suffixKey(suffix)]}.swap`, to[suffixKey(suffix)])
        await syncDir(this.dir)
        const next = new Segment(this.dir, segmentBase, this.options.indexIntervalBytes, {
          nextOffset: old.nextOffset,
          size: cleaned.size,
          maxTimestamp: cleaned.maxTimestamp,
          createdAtMs: old.createdAtMs,
        })
        this.segments[this.segments.indexOf(old)] = next
        return infoOf(next)
      },
      abort: async () => {
        await cleaned.delete()
      },
    }
  }

  async writeMeta(entries: Record<string, string>, options: { durable?: boolean } = {}): Promise<void> {
    const durable = options.durable === true
    let small = false
    for (const [key, value] of Object.entries(entries)) {
      if (SNAPSHOT_KEY.test(key)) await writeCheckpoint(join(this.dir, key), value, durable)
      else {
        this.meta[key] = value
        small = true
      }
    }
    if (small) await writeCheckpoint(join(this.dir, META_FILE), JSON.stringify(this.meta), durable)
  }

  async syncAppended(): Promise<void> {
    // Pinned so a roll meanwhile cannot close it; anything that would cut or delete it first waits
    // for this (the engine's contract). Data of earlier segments was made durable by their roll.
    const segment = this.segments.at(-1)
    if (segment !== undefined) await this.use(segment, () => segment.syncData())
  }

  async flush(): Promise<void> {
    await this.segments.at(-1)?.sync()
    if (this.dirDirty) {
      await syncDir(this.dir)
      this.dirDirty = false
    }
  }

  async close(clean: boolean): Promise<void> {
    const active = this.segments.at(-1)
    if (active?.isLoaded) {
      await active.sync()
      if (clean) {
        const marker: CleanMarker = {
          baseOffset: active.baseOffset,
          nextOffset: active.nextOffset,
          size: active.size,
          maxTimestamp: active.maxTimestamp,
        }
        await writeCheckpoint(join(this.dir, CLEAN_SHUTDOWN_FILE), JSON.stringify(marker), true)
      }
    }
    for (const segment of this.segments) await segment.release()
    this.loaded.clear()
  }

  async destroy(): Promise<void> {
    for (const segment of this.segments) await segment.release()
    this.segments = []
    this.loaded.clear()
    await rm(this.dir, { recursive: true, force: true })
  }
}

function suffixKey(suffix: (typeof SUFFIXES)[number]): 'log' | 'index' | 'timeindex' {
  return suffix.slice(1) as 'log' | 'index' | 'timeindex'
}

function infoOf(segment: Segment): SegmentInfo {
  return {
    baseOffset: segment.baseOffset,
    nextOffset: segment.nextOffset,
    sizeBytes: segment.size,
    maxTimestamp: segment.maxTimestamp,
    createdAtMs: segment.createdAtMs,
  }
}
