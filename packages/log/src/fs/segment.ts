import { readSync, writevSync } from 'node:fs'
import { type FileHandle, open, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import type { StoredBatch } from '../types.js'
import { SparseIndex } from './sparse-index.js'

/** Kafka's file names: the base offset, zero-padded to 20 digits. */
export function segmentName(baseOffset: number): string {
  return String(baseOffset).padStart(20, '0')
}

export const HEADER_BYTES = 61
const MIN_BATCH_LENGTH = 49
/** Extra bytes read past `maxBytes` so the batch holding the offset is usually in the first read. */
const READ_SLACK = 64 * 1024
/**
 * Transfers up to these sizes use synchronous positioned I/O on the event loop; larger ones go to
 * libuv's thread pool. Why: a small `pwrite`/`pread` against the page cache costs ~3 µs of CPU,
 * while the same call through the thread pool costs ~55 µs on this project's 2-core VM (two
 * futex hand-offs and an eventfd wake-up; measured with fs.writev vs writevSync of 1.4 KB), and
 * the replication path makes several such calls per produce. Kafka likewise writes to the page
 * cache on its request threads and leaves durability to fsync, which stays asynchronous here.
 * The cost: a read that misses the page cache blocks the loop for one disk read of ≤ 1 MiB.
 */
const SYNC_READ_MAX_BYTES = 1024 * 1024
/**
 * Writes are held lower: filling fresh page-cache pages costs 0.4–2.4 ms of CPU per MiB on that VM
 * (depending on how the host backs new pages), so a produce of one 1,000-record batch (~126 KB)
 * and a group commit of several are written on a pool thread while the event loop reads and
 * checks the next ones. Measured with `npm run bench -- peer`: at 1 MiB the peer's main thread
 * ran 82–86% of the produce phase and was the limit; at 128 KiB it ran ~60%, and 64 KiB gave
 * 3–6% more produce than 128 KiB in alternating runs.
 */
const SYNC_WRITE_MAX_BYTES = 64 * 1024

export interface BatchHeaderView {
  baseOffset: number
  /** 12 + batch length, or -1 when the header is implausible. */
  size: number
  lastOffset: number
  maxTimestamp: number
}

/** The three header fields the store walks by. No CRC check: the engine verifies what it serves. */
export function peekHeader(buf: Uint8Array, p: number): BatchHeaderView | undefined {
  if (p + HEADER_BYTES > buf.length) return undefined
  const view = new DataView(buf.buffer, buf.byteOffset + p, HEADER_BYTES)
  const baseOffset = Number(view.getBigInt64(0))
  const length = view.getInt32(8)
  const lastOffsetDelta = view.getInt32(23)
  if (length < MIN_BATCH_LENGTH || view.getInt8(16) !== 2 || lastOffsetDelta < 0 || !Number.isSafeInteger(baseOffset)) {
    return { baseOffset, size: -1, lastOffset: -1, maxTimestamp: -1 }
  }
  const maxTimestamp = Number(view.getBigInt64(35))
  return { baseOffset, size: 12 + length, lastOffset: baseOffset + lastOffsetDelta, maxTimestamp }
}

/**
 * One segment: `<base>.log` with its sparse `.index` and `.timeindex`. The active segment
 * appends; closed ones are read-only, and their file handles and index entries are loaded on
 * first use and released under the store's open-file bound (`release`).
 *
 * Time index entry (T, r) means: every batch below offset base + r has max timestamp ≤ T, so
 * a search for timestamp t may start at the last entry with T < t.
 */
export class Segment {
  nextOffset: number
  size: number
  maxTimestamp: number
  createdAtMs: number
  private log: FileHandle | undefined
  private indexFile: FileHandle | undefined
  private timeFile: FileHandle | undefined
  offsetIndex: SparseIndex | undefined
  timeIndex: SparseIndex | undefined
  private bytesSinceIndex = 0

  constructor(
    readonly dir: string,
    readonly baseOffset: number,
    private indexIntervalBytes: number,
    info: { nextOffset: number; size: number; maxTimestamp: number; createdAtMs: number },
  ) {
    this.nextOffset = info.nextOffset
    this.size = info.size
    this.maxTimestamp = info.maxTimestamp
    this.createdAtMs = info.createdAtMs
  }

  get paths(): { log: string; index: string; timeindex: string } {
    const stem = join(this.dir, segmentName(this.baseOffset))
    return { log: `${stem}.log`, index: `${stem}.index`, timeindex: `${stem}.timeindex` }
  }

  get isLoaded(): boolean {
    return this.log !== undefined
  }

  /** Creates empty files for a new active segment (replacing leftovers of an interrupted roll). */
  static async create(dir: string, baseOffset: number, nowMs: number, indexIntervalBytes: number): Promise<Segment> {
    const segment = new Segment(dir, baseOffset, indexIntervalBytes, {
      nextOffset: baseOffset,
      size: 0,
      maxTimestamp: -1,
      createdAtMs: nowMs,
    })
    const paths = segment.paths
    segment.log = await open(paths.log, 'w+')
    segment.indexFile = await open(paths.index, 'w+')
    segment.timeFile = await open(paths.timeindex, 'w+')
    segment.offsetIndex = new SparseIndex('offset')
    segment.timeIndex = new SparseIndex('time')
    return segment
  }

  /** Opens handles and loads both indexes; reports whether the index files passed the sanity check. */
  async load(): Promise<boolean> {
    if (this.log !== undefined) return true
    const paths = this.paths
    this.log = await open(paths.log, 'r+')
    this.indexFile = await openReadWrite(paths.index)
    this.timeFile = await openReadWrite(paths.timeindex)
    const offsets = await SparseIndex.load('offset', this.indexFile)
    const times = await SparseIndex.load('time', this.timeFile)
    this.offsetIndex = offsets.index
    this.timeIndex = times.index
    const lastPosition = offsets.index.lastValue ?? 0
    this.bytesSinceIndex = this.size - lastPosition
    return offsets.clean && times.clean && lastPosition < Math.max(this.size, 1)
  }

  /** Closes handles and forgets index entries (closed segments only). */
  async release(): Promise<void> {
    const handles = [this.log, this.indexFile, this.timeFile]
    this.log = this.indexFile = this.timeFile = undefined
    this.offsetIndex = this.timeIndex = undefined
    await Promise.all(handles.map((h) => h?.close()))
  }

  async fileSize(): Promise<number> {
    return (await this.handle().stat()).size
  }

  private handle(): FileHandle {
    if (this.log === undefined) throw new Error(`segment ${this.baseOffset} is not loaded`)
    return this.log
  }

  async readAt(position: number, length: number): Promise<Uint8Array> {
    const buf = uninitialized(Math.max(0, length))
    let done = 0
    const handle = this.handle()
    while (done < buf.length) {
      const want = buf.length - done
      const bytesRead =
        want <= SYNC_READ_MAX_BYTES
          ? readSync(handle.fd, buf, done, want, position + done)
          : (await handle.read(buf, done, want, position + done)).bytesRead
      if (bytesRead === 0) break
      done += bytesRead
    }
    return done === buf.length ? buf : buf.subarray(0, done)
  }

  /** Appends stamped batches with one positioned, vectored write, then indexes them. */
  async append(batches: readonly StoredBatch[]): Promise<void> {
    const handle = this.handle()
    const buffers = batches.map((b) => b.bytes)
    const total = buffers.reduce((n, b) => n + b.length, 0)
    let written = 0
    while (written < total) {
      const rest = remaining(buffers, written)
      const bytesWritten =
        total - written <= SYNC_WRITE_MAX_BYTES
          ? writevSync(handle.fd, rest, this.size + written)
          : (await handle.writev(rest, this.size + written)).bytesWritten
      if (bytesWritten <= 0) throw new Error(`no progress writing segment ${this.baseOffset}`)
      written += bytesWritten
    }
    for (const batch of batches) this.indexBatch(batch)
  }

  /** Indexes a batch written at the current end, then moves the end past it. */
  private indexBatch(batch: StoredBatch): void {
    const position = this.size
    if (this.bytesSinceIndex >= this.indexIntervalBytes && position > 0) {
      this.offsetIndex!.append(batch.baseOffset - this.baseOffset, position)
      this.maybeAppendTime()
      this.bytesSinceIndex = 0
    }
    this.bytesSinceIndex += batch.bytes.length
    this.size += batch.bytes.length
    this.nextOffset = batch.lastOffset + 1
    if (batch.maxTimestamp > this.maxTimestamp) this.maxTimestamp = batch.maxTimestamp
  }

  /** Re-indexes a batch found by recovery at the current end (the bytes are already in the file). */
  indexRecovered(batch: StoredBatch): void {
    this.indexBatch(batch)
  }

  private maybeAppendTime(): void {
    const last = this.timeIndex!.lastKey
    if (this.maxTimestamp >= 0 && (last === undefined || this.maxTimestamp > last)) {
      this.timeIndex!.append(this.maxTimestamp, this.nextOffset - this.baseOffset)
    }
  }

  /** Writes pending index entries (and one for the current max timestamp) to their files. */
  async persistIndexes(truncateFiles = false): Promise<void> {
    this.maybeAppendTime()
    await this.offsetIndex!.persist(this.indexFile!, truncateFiles)
    await this.timeIndex!.persist(this.timeFile!, truncateFiles)
  }

  get unpersistedIndexEntries(): number {
    return (this.offsetIndex?.unpersisted ?? 0) + (this.timeIndex?.unpersisted ?? 0)
  }

  async sync(): Promise<void> {
    await this.persistIndexes()
    await Promise.all([this.log!.datasync(), this.indexFile!.datasync(), this.timeFile!.datasync()])
  }

  /** Makes the log file's bytes durable, not its indexes; safe while appends continue. */
  async syncData(): Promise<void> {
    await this.handle().datasync()
  }

  /**
   * Whole batches from the one holding `offset`, up to `maxBytes` (at least one). Walks
   * headers only; a header that makes no sense is handed to the engine, which rejects it.
   */
  async read(offset: number, maxBytes: number): Promise<Uint8Array> {
    const limit = this.size
    let pos = this.offsetIndex!.floorValue(offset - this.baseOffset) ?? 0
    let block = await this.readAt(pos, Math.min(limit - pos, maxBytes + this.indexIntervalBytes + READ_SLACK))
    let blockStart = pos
    const headerAt = async (at: number): Promise<BatchHeaderView | undefined> => {
      const inBlock = peekHeader(block, at - blockStart)
      if (inBlock !== undefined) return inBlock
      if (at + HEADER_BYTES > limit) return undefined
      block = await this.readAt(at, Math.min(limit - at, maxBytes + READ_SLACK))
      blockStart = at
      return peekHeader(block, 0)
    }
    // Skip to the batch holding `offset`.
    for (;;) {
      if (pos >= limit) return new Uint8Array(0)
      const header = await headerAt(pos)
      if (header === undefined || header.size < 0 || pos + header.size > limit) {
        return this.readAt(pos, Math.min(limit - pos, HEADER_BYTES)) // damaged: let the engine say so
      }
      if (header.lastOffset >= offset) break
      pos += header.size
    }
    const start = pos
    let total = 0
    while (pos < limit) {
      const header = await headerAt(pos)
      if (header === undefined || header.size < 0 || pos + header.size > limit) {
        if (total === 0) return this.readAt(pos, Math.min(limit - pos, HEADER_BYTES))
        break
      }
      if (total > 0 && total + header.size > maxBytes) break
      total += header.size
      pos += header.size
    }
    if (start >= blockStart && start + total <= blockStart + block.length) {
      return block.subarray(start - blockStart, start - blockStart + total)
    }
    return this.readAt(start, total)
  }

  /** An offset from which a forward scan finds the first batch with max timestamp ≥ `timestamp`. */
  timeLookup(timestamp: number): number {
    return this.baseOffset + (this.timeIndex!.lowerValue(timestamp) ?? 0)
  }

  /** Position of the batch holding `offset`, or the end when no batch does. */
  async positionOf(offset: number): Promise<number> {
    let pos = this.offsetIndex!.floorValue(offset - this.baseOffset) ?? 0
    for (let guard = 0; pos < this.size && guard < 10_000_000; guard++) {
      const header = peekHeader(await this.readAt(pos, HEADER_BYTES), 0)
      if (header === undefined || header.size < 0 || header.lastOffset >= offset) break
      pos += header.size
    }
    return Math.min(pos, this.size)
  }

  /** Cuts the file at `position` (a batch boundary) and drops index entries past it. */
  async truncateAt(position: number, nextOffset: number, maxTimestamp: number): Promise<void> {
    await this.handle().truncate(position)
    this.size = position
    this.nextOffset = nextOffset
    this.maxTimestamp = maxTimestamp
    this.offsetIndex!.truncateWhere('value', position)
    this.timeIndex!.truncateWhere('value', nextOffset - this.baseOffset + 1)
    this.bytesSinceIndex = position - (this.offsetIndex!.lastValue ?? 0)
    await this.persistIndexes(true)
  }

  async delete(): Promise<void> {
    await this.release()
    const paths = this.paths
    await Promise.all([paths.log, paths.index, paths.timeindex].map((p) => unlink(p).catch(ignoreMissing)))
  }

  setIndexInterval(bytes: number): void {
    this.indexIntervalBytes = bytes
  }

  /** Rebuild bookkeeping after an index reload: bytes since the last entry decide the next one. */
  resetIndexCursor(): void {
    this.bytesSinceIndex = this.size - (this.offsetIndex?.lastValue ?? 0)
  }
}

function remaining(buffers: readonly Uint8Array[], skip: number): Uint8Array[] {
  const out: Uint8Array[] = []
  for (const b of buffers) {
    if (skip >= b.length) {
      skip -= b.length
      continue
    }
    out.push(skip > 0 ? b.subarray(skip) : b)
    skip = 0
  }
  return out
}

/**
 * A plain Uint8Array over memory that is not zeroed first: reads overwrite it at once, and zeroing
 * the block of every fetch was 2% of a serving peer's CPU (perf, the groups bench). Not a pooled
 * Buffer: what a read returns may be kept (a fetch response), and must not pin a shared slab.
 */
function uninitialized(length: number): Uint8Array {
  const bytes = Buffer.allocUnsafeSlow(length)
  return new Uint8Array(bytes.buffer, bytes.byteOffset, length)
}

/** Opens for positioned reads and writes, creating the file if a crash left it missing. */
async function openReadWrite(path: string): Promise<FileHandle> {
  try {
    return await open(path, 'r+')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
    return open(path, 'w+')
  }
}

function ignoreMissing(err: NodeJS.ErrnoException): void {
  if (err.code !== 'ENOENT') throw err
}
