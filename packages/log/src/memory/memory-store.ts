import { KafkaStorageError } from '@tributary/wire'
import type { LogStore, SegmentInfo, SegmentRewriter, StoredBatch, StoreOpenResult } from '../types.js'

interface MemorySegment {
  info: SegmentInfo
  batches: StoredBatch[]
}

/** What survives a "restart" of an in-memory log: hand the same object to a new store. */
export interface MemoryPartitionData {
  segments: MemorySegment[]
  meta: Record<string, string>
  cleanShutdown: boolean
}

export function emptyPartitionData(): MemoryPartitionData {
  return { segments: [], meta: {}, cleanShutdown: false }
}

/**
 * Segments as arrays of batch buffers. Used for fast deterministic tests and for peers that
 * keep nothing across restarts; it honours the full store contract.
 */
export class MemoryStore implements LogStore {
  readonly kind = 'memory'
  private open_ = false

  constructor(private readonly data: MemoryPartitionData = emptyPartitionData()) {}

  async open(): Promise<StoreOpenResult> {
    this.open_ = true
    const cleanShutdown = this.data.cleanShutdown
    this.data.cleanShutdown = false
    return { segments: this.data.segments.map((s) => ({ ...s.info })), meta: { ...this.data.meta }, cleanShutdown }
  }

  private active(): MemorySegment {
    this.ensureOpen()
    const segment = this.data.segments.at(-1)
    if (segment === undefined) throw new KafkaStorageError('memory store has no active segment')
    return segment
  }

  private segment(base: number): MemorySegment {
    this.ensureOpen()
    const segment = this.data.segments.find((s) => s.info.baseOffset === base)
    if (segment === undefined) throw new KafkaStorageError(`memory store has no segment at ${base}`)
    return segment
  }

  async append(batches: readonly StoredBatch[]): Promise<SegmentInfo> {
    const segment = this.active()
    for (const batch of batches) {
      segment.batches.push({ ...batch, bytes: batch.bytes.slice() })
      segment.info.sizeBytes += batch.bytes.length
      segment.info.nextOffset = batch.lastOffset + 1
      segment.info.maxTimestamp = Math.max(segment.info.maxTimestamp, batch.maxTimestamp)
    }
    return { ...segment.info }
  }

  async roll(baseOffset: number, nowMs: number): Promise<SegmentInfo> {
    this.ensureOpen()
    const info: SegmentInfo = { baseOffset, nextOffset: baseOffset, sizeBytes: 0, maxTimestamp: -1, createdAtMs: nowMs }
    this.data.segments.push({ info, batches: [] })
    return { ...info }
  }

  async read(segmentBase: number, offset: number, maxBytes: number): Promise<Uint8Array> {
    const { batches } = this.segment(segmentBase)
    let i = firstHolding(batches, offset)
    const picked: Uint8Array[] = []
    let total = 0
    for (; i < batches.length; i++) {
      const size = batches[i]!.bytes.length
      if (picked.length > 0 && total + size > maxBytes) break
      picked.push(batches[i]!.bytes)
      total += size
    }
    return concat(picked, total)
  }

  async timeLookup(segmentBase: number): Promise<number> {
    return segmentBase
  }

  async truncate(segmentBase: number, offset: number): Promise<SegmentInfo> {
    const segment = this.segment(segmentBase)
    segment.batches.length = firstHolding(segment.batches, offset)
    recompute(segment)
    this.data.segments = this.data.segments.filter((s) => s.info.baseOffset <= segmentBase)
    return { ...segment.info }
  }

  async deleteSegments(baseOffsets: readonly number[]): Promise<void> {
    this.ensureOpen()
    const doomed = new Set(baseOffsets)
    this.data.segments = this.data.segments.filter((s) => !doomed.has(s.info.baseOffset))
  }

  async rewriteSegment(segmentBase: number): Promise<SegmentRewriter> {
    const segment = this.segment(segmentBase)
    const replacement: StoredBatch[] = []
    return {
      append: async (batch) => {
        replacement.push({ ...batch, bytes: batch.bytes.slice() })
      },
      commit: async () => {
        segment.batches = replacement
        recompute(segment)
        return { ...segment.info }
      },
      abort: async () => {},
    }
  }

  async writeMeta(entries: Record<string, string>): Promise<void> {
    Object.assign(this.data.meta, entries)
  }

  async flush(): Promise<void> {}

  async close(clean: boolean): Promise<void> {
    this.open_ = false
    this.data.cleanShutdown = clean
  }

  async destroy(): Promise<void> {
    this.open_ = false
    this.data.segments = []
    this.data.meta = {}
  }

  private ensureOpen(): void {
    if (!this.open_) throw new KafkaStorageError('memory store is closed')
  }
}

/** Index of the first batch whose last offset is ≥ `offset`. */
function firstHolding(batches: readonly StoredBatch[], offset: number): number {
  let lo = 0
  let hi = batches.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (batches[mid]!.lastOffset < offset) lo = mid + 1
    else hi = mid
  }
  return lo
}

function recompute(segment: MemorySegment): void {
  const { info, batches } = segment
  info.sizeBytes = batches.reduce((sum, b) => sum + b.bytes.length, 0)
  info.nextOffset = batches.length === 0 ? info.baseOffset : batches.at(-1)!.lastOffset + 1
  info.maxTimestamp = batches.reduce((max, b) => Math.max(max, b.maxTimestamp), -1)
}

export function concat(parts: readonly Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0]!
  const out = new Uint8Array(total)
  let pos = 0
  for (const part of parts) {
    out.set(part, pos)
    pos += part.length
  }
  return out
}
