import { CorruptRecordError, decodeRecordBatch, readBatchHeader, verifyBatchCrc } from '@tributary/wire'
import { inPartition } from './errors.js'
import type { LogStore, ReadResult, SegmentInfo, TimestampOffset } from './types.js'

export interface ChunkContext {
  name: string
  /** The offset the read asked for: the first batch must hold it. */
  offset: number
  /** Exclusive bound: batches reaching it are left out. */
  maxOffset: number
  /** One past the last offset of the segment the chunk came from. */
  segmentEnd: number
  epochFor(offset: number): number
}

export interface VerifiedChunk {
  /** Length of the verified prefix to serve. */
  bytes: number
  batchCount: number
  /** One past the last served batch, or undefined when none is served. */
  nextOffset: number | undefined
}

/**
 * Checks stored batches before they are served, so a flipped byte anywhere in a segment is a
 * `CorruptRecordError`, never wrong data. The CRC covers a batch from its attributes on; the
 * fields before it are checked by the log's own invariants: the magic byte; the length (by
 * bounds and because a wrong length moves the CRC's range); the base offset, because offsets
 * in a segment are contiguous (compaction keeps an empty placeholder batch where it removes
 * whole batches); and the leader epoch, which must equal the epoch the leader-epoch cache
 * assigns to the batch's offset.
 */
export function verifyChunk(chunk: Uint8Array, ctx: ChunkContext): VerifiedChunk {
  let pos = 0
  let batchCount = 0
  let expected: number | undefined
  while (pos < chunk.length) {
    let base: number
    let last: number
    let size: number
    try {
      const header = readBatchHeader(chunk, pos)
      size = 12 + header.batchLength
      base = header.baseOffset
      last = base + header.lastOffsetDelta
      if (expected === undefined ? base > ctx.offset || last < ctx.offset : base !== expected) {
        const want = expected === undefined ? `the batch holding offset ${ctx.offset}` : `offset ${expected}`
        throw new CorruptRecordError(`found a batch at offset ${base} where ${want} belongs`)
      }
      if (last >= ctx.segmentEnd)
        throw new CorruptRecordError(`batch at offset ${base} runs past its segment's end ${ctx.segmentEnd}`)
      const epoch = ctx.epochFor(base)
      if (header.partitionLeaderEpoch !== epoch) {
        throw new CorruptRecordError(
          `batch at offset ${base} has leader epoch ${header.partitionLeaderEpoch}, the log says ${epoch}`,
        )
      }
      if (!verifyBatchCrc(chunk, pos)) throw new CorruptRecordError(`batch at offset ${base} failed its CRC check`)
    } catch (err) {
      throw inPartition(err, `${ctx.name}: corrupt data near offset ${expected ?? ctx.offset}`)
    }
    if (last >= ctx.maxOffset) break
    pos += size
    batchCount++
    expected = last + 1
  }
  return { bytes: pos, batchCount, nextOffset: expected }
}

export interface TimestampSearch {
  name: string
  epochFor(offset: number): number
  /** Records below this offset (the log start) are not answers. */
  minOffset: number
  signal?: AbortSignal | undefined
}

const SCAN_CHUNK_BYTES = 1024 * 1024

/** Scans one segment from `from` for the first record with timestamp ≥ `timestamp`. */
export async function findFirstAtOrAfter(
  store: LogStore,
  segment: SegmentInfo,
  from: number,
  timestamp: number,
  ctx: TimestampSearch,
): Promise<TimestampOffset | null> {
  let offset = Math.max(from, segment.baseOffset)
  while (offset < segment.nextOffset) {
    ctx.signal?.throwIfAborted()
    const chunk = await store.read(segment.baseOffset, offset, SCAN_CHUNK_BYTES, { signal: ctx.signal })
    if (chunk.length === 0) return null
    const verified = verifyChunk(chunk, {
      ...ctx,
      offset,
      maxOffset: segment.nextOffset,
      segmentEnd: segment.nextOffset,
    })
    let pos = 0
    while (pos < verified.bytes) {
      const header = readBatchHeader(chunk, pos)
      if (header.maxTimestamp >= timestamp && header.recordCount > 0) {
        const { records } = await decodeRecordBatch(chunk, pos, { verifyCrc: false })
        for (const record of records) {
          if (record.offset < ctx.minOffset) continue
          const ts = header.timestampType === 'LogAppendTime' ? header.maxTimestamp : record.timestamp
          if (ts >= timestamp) return { offset: record.offset, timestamp: ts }
        }
      }
      pos += 12 + header.batchLength
    }
    if (verified.nextOffset === undefined || verified.nextOffset <= offset) return null
    offset = verified.nextOffset
  }
  return null
}

/** Index of the last segment whose base offset is ≤ `offset` (0 if none). */
export function segmentIndexFor(segments: readonly SegmentInfo[], offset: number): number {
  let lo = 0
  let hi = segments.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1
    if (segments[mid]!.baseOffset <= offset) lo = mid
    else hi = mid - 1
  }
  return lo
}

/**
 * The read path: whole batches of one segment from the batch holding `offset`, verified, cut
 * before the first batch reaching `maxOffset`. An empty segment or one ending at `offset`
 * hands over to the next.
 */
export async function readVerified(
  store: LogStore,
  segments: readonly SegmentInfo[],
  offset: number,
  maxOffset: number,
  maxBytes: number,
  ctx: { name: string; epochFor(offset: number): number; signal?: AbortSignal | undefined },
): Promise<Pick<ReadResult, 'records' | 'batchCount' | 'nextOffset'>> {
  const empty = { records: new Uint8Array(0), batchCount: 0, nextOffset: offset }
  if (offset >= maxOffset) return empty
  for (let i = segmentIndexFor(segments, offset); i < segments.length; i++) {
    const segment = segments[i]!
    if (segment.nextOffset <= offset) continue
    const chunk = await store.read(segment.baseOffset, offset, maxBytes, { signal: ctx.signal })
    if (chunk.length === 0) continue
    const verified = verifyChunk(chunk, { ...ctx, offset, maxOffset, segmentEnd: segment.nextOffset })
    return {
      records: chunk.subarray(0, verified.bytes),
      batchCount: verified.batchCount,
      nextOffset: verified.nextOffset ?? offset,
    }
  }
  return empty
}
