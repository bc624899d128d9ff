import {
  type BatchRecord,
  decodeRecordBatch,
  encodeRecordBatch,
  encodeRecordBatchSync,
  type RecordBatchHeader,
  readBatchHeader,
} from '@tributary/wire'
import { compacts, type LogConfig } from './config.js'
import type { Logger } from './logger.js'
import { verifyChunk } from './read-verification.js'
import type { CompactionResult, LogStore, SegmentInfo, SegmentRewriter, StoredBatch } from './types.js'

export interface CompactionContext {
  name: string
  config: LogConfig
  store: LogStore
  logger: Logger
  now: number
  segments(): readonly SegmentInfo[]
  highWatermark: number
  epochFor(offset: number): number
  /** Everything below this offset was compacted by an earlier run. */
  cleanerOffset: number
  /** Runs a rewriter's commit while no read is in flight, and records the new segment. */
  swap(commit: () => Promise<SegmentInfo>): Promise<void>
  saveCleanerOffset(offset: number): Promise<void>
  signal?: AbortSignal | undefined
}

const CHUNK_BYTES = 4 * 1024 * 1024
/** Rough cost of one key-map entry beyond its characters (V8 map slot, number, string header). */
const ENTRY_OVERHEAD = 64

/**
 * Kafka's log cleaner for `cleanup.policy=compact`, in two passes that never hold more than
 * one chunk of the log plus a bounded key map in memory:
 *
 * 1. Over the dirty part (from the cleaner offset to the end of the closed segments below the
 *    high watermark) build key → latest offset, stopping at a batch boundary when the map
 *    reaches `log.cleaner.dedupe.buffer.size`; the rest waits for the next run.
 * 2. Rewrite every closed segment up to there, keeping for each key only its latest record
 *    and dropping tombstones older than `delete.retention.ms` (by record timestamp). Offsets
 *    are preserved; a batch that loses every record becomes part of an empty placeholder batch
 *    spanning its offsets, so segments stay offset-contiguous (the read path relies on it).
 *    A segment with nothing to drop is left untouched.
 */
export async function runCompaction(ctx: CompactionContext): Promise<CompactionResult> {
  const result: CompactionResult = {
    cleanedSegments: 0,
    recordsRemoved: 0,
    bytesBefore: 0,
    bytesAfter: 0,
    cleanedUpTo: ctx.cleanerOffset,
  }
  if (!compacts(ctx.config)) return result
  const closed = ctx.segments().slice(0, -1)
  const cleanable: SegmentInfo[] = []
  for (const segment of closed) {
    if (segment.nextOffset > ctx.highWatermark) break
    cleanable.push(segment)
  }
  if (cleanable.length === 0) return result

  const { map, mapEnd } = await buildKeyMap(ctx, cleanable)
  for (const segment of cleanable) {
    if (segment.baseOffset >= mapEnd) break
    ctx.signal?.throwIfAborted()
    const outcome = await rewriteSegment(ctx, segment, map, mapEnd)
    result.recordsRemoved += outcome.removed
    result.bytesBefore += segment.sizeBytes
    if (outcome.rewriter === undefined) {
      result.bytesAfter += segment.sizeBytes
      continue
    }
    const rewriter = outcome.rewriter
    let info: SegmentInfo | undefined
    await ctx.swap(async () => {
      info = await rewriter.commit()
      return info
    })
    result.bytesAfter += info?.sizeBytes ?? 0
    result.cleanedSegments++
  }
  if (mapEnd > ctx.cleanerOffset) await ctx.saveCleanerOffset(mapEnd)
  result.cleanedUpTo = Math.max(mapEnd, ctx.cleanerOffset)
  ctx.logger.info({ partition: ctx.name, ...result }, 'compaction finished')
  return result
}

/** Visits every verified batch of a segment from `from`, one bounded chunk at a time. */
async function forEachBatch(
  ctx: CompactionContext,
  segment: SegmentInfo,
  from: number,
  visit: (header: RecordBatchHeader, bytes: Uint8Array) => Promise<boolean | undefined>,
): Promise<void> {
  let offset = Math.max(from, segment.baseOffset)
  while (offset < segment.nextOffset) {
    ctx.signal?.throwIfAborted()
    const chunk = await ctx.store.read(segment.baseOffset, offset, CHUNK_BYTES, { signal: ctx.signal })
    if (chunk.length === 0) return
    const verified = verifyChunk(chunk, {
      name: ctx.name,
      offset,
      maxOffset: segment.nextOffset,
      segmentEnd: segment.nextOffset,
      epochFor: ctx.epochFor,
    })
    let pos = 0
    while (pos < verified.bytes) {
      const header = readBatchHeader(chunk, pos)
      const size = 12 + header.batchLength
      if ((await visit(header, chunk.subarray(pos, pos + size))) === false) return
      pos += size
    }
    if (verified.nextOffset === undefined) return
    offset = verified.nextOffset
  }
}

async function decodeRecords(bytes: Uint8Array): Promise<BatchRecord[]> {
  const { records } = await decodeRecordBatch(bytes, 0, { verifyCrc: false })
  return records
}

async function buildKeyMap(
  ctx: CompactionContext,
  cleanable: readonly SegmentInfo[],
): Promise<{ map: Map<string, number>; mapEnd: number }> {
  const map = new Map<string, number>()
  let mapBytes = 0
  let mapEnd = cleanable.at(-1)!.nextOffset
  let full = false
  for (const segment of cleanable) {
    if (full) break
    if (segment.nextOffset <= ctx.cleanerOffset) continue
    await forEachBatch(ctx, segment, ctx.cleanerOffset, async (header, bytes) => {
      if (header.recordCount === 0) return true
      const records = await decodeRecords(bytes)
      let added = 0
      const keys: Array<[string, number]> = []
      for (const record of records) {
        if (record.key === null || record.offset < ctx.cleanerOffset) continue
        const key = keyString(record.key)
        if (!map.has(key)) added += key.length + ENTRY_OVERHEAD
        keys.push([key, record.offset])
      }
      if (map.size > 0 && mapBytes + added > ctx.config.cleanerBufferBytes) {
        mapEnd = header.baseOffset
        full = true
        return false
      }
      mapBytes += added
      for (const [key, offset] of keys) map.set(key, offset)
      return true
    })
  }
  return { map, mapEnd }
}

interface RewriteOutcome {
  removed: number
  /** Present when something was dropped: the rewritten segment, ready to commit. */
  rewriter: SegmentRewriter | undefined
}

async function rewriteSegment(
  ctx: CompactionContext,
  segment: SegmentInfo,
  map: ReadonlyMap<string, number>,
  mapEnd: number,
): Promise<RewriteOutcome> {
  const rewriter = await ctx.store.rewriteSegment(segment.baseOffset, { signal: ctx.signal })
  let removed = 0
  let run: { base: number; last: number; epoch: number; maxTimestamp: number } | undefined
  const flushRun = async (): Promise<void> => {
    if (run === undefined) return
    const bytes = encodeRecordBatchSync({
      records: [],
      baseOffset: run.base,
      lastOffsetDelta: run.last - run.base,
      partitionLeaderEpoch: run.epoch,
      firstTimestamp: run.maxTimestamp,
      maxTimestamp: run.maxTimestamp,
    })
    await rewriter.append({ bytes, baseOffset: run.base, lastOffset: run.last, maxTimestamp: run.maxTimestamp })
    run = undefined
  }
  try {
    await forEachBatch(ctx, segment, segment.baseOffset, async (header, bytes) => {
      const base = header.baseOffset
      const last = base + header.lastOffsetDelta
      const records = header.recordCount === 0 ? [] : await decodeRecords(bytes)
      const kept = records.filter((record) => keep(ctx, record, header, map, mapEnd))
      removed += records.length - kept.length
      if (kept.length === 0) {
        // Whole batch gone (or an earlier placeholder): merge into a placeholder run of one epoch.
        if (run !== undefined && run.epoch !== header.partitionLeaderEpoch) await flushRun()
        if (run === undefined)
          run = { base, last, epoch: header.partitionLeaderEpoch, maxTimestamp: header.maxTimestamp }
        else {
          run.last = last
          run.maxTimestamp = Math.max(run.maxTimestamp, header.maxTimestamp)
        }
        return true
      }
      await flushRun()
      const stored: StoredBatch = { bytes, baseOffset: base, lastOffset: last, maxTimestamp: header.maxTimestamp }
      if (kept.length < records.length) stored.bytes = await reencode(header, kept)
      await rewriter.append(stored)
      return true
    })
    await flushRun()
  } catch (err) {
    await rewriter.abort()
    throw err
  }
  if (removed === 0) {
    await rewriter.abort()
    return { removed, rewriter: undefined }
  }
  return { removed, rewriter }
}

function keep(
  ctx: CompactionContext,
  record: BatchRecord,
  header: RecordBatchHeader,
  map: ReadonlyMap<string, number>,
  mapEnd: number,
): boolean {
  if (record.offset >= mapEnd || record.key === null) return true
  const latest = map.get(keyString(record.key))
  if (latest !== undefined && latest > record.offset) return false
  if (record.value === null) {
    const timestamp = header.timestampType === 'LogAppendTime' ? header.maxTimestamp : record.timestamp
    if (ctx.now - timestamp > ctx.config.deleteRetentionMs) return false
  }
  return true
}

function reencode(header: RecordBatchHeader, kept: readonly BatchRecord[]): Promise<Uint8Array> {
  return encodeRecordBatch({
    // Raw deltas, not decoded timestamps: a LogAppendTime batch decodes every record to its max timestamp.
    records: kept.map((r) => ({
      key: r.key,
      value: r.value,
      headers: r.headers,
      timestamp: header.firstTimestamp + r.timestampDelta,
      offsetDelta: r.offsetDelta,
    })),
    baseOffset: header.baseOffset,
    partitionLeaderEpoch: header.partitionLeaderEpoch,
    compression: header.compression,
    timestampType: header.timestampType,
    transactional: header.transactional,
    control: header.control,
    producerId: header.producerId,
    producerEpoch: header.producerEpoch,
    baseSequence: header.baseSequence,
    lastOffsetDelta: header.lastOffsetDelta,
    firstTimestamp: header.firstTimestamp,
    maxTimestamp: header.maxTimestamp,
  })
}

/** Keys as one-byte strings: exact (no hash collisions can drop a live record) and compact in V8. */
function keyString(key: Uint8Array): string {
  let s = ''
  for (let i = 0; i < key.length; i += 8192) {
    s += String.fromCharCode.apply(null, key.subarray(i, i + 8192) as unknown as number[])
  }
  return s
}
