import {
  CorruptRecordError,
  InvalidRecordError,
  iterateBatches,
  RecordTooLargeError,
  setBaseOffset,
  setLogAppendTime,
  setPartitionLeaderEpoch,
  validateBatchRecords,
  verifyBatchCrc,
} from '@tributary/wire'
import { compacts, type LogConfig } from './config.js'
import { inPartition } from './errors.js'
import { type ProducerBatch, producedBatchOf } from './producer-state.js'
import type { AppendResult, StoredBatch } from './types.js'

export interface ValidatedAppend {
  batches: StoredBatch[]
  recordCount: number
  bytes: number
  logAppendTime: number
}

/** Bound on batches in one append: a produce request is itself size-limited, this bounds the loop. */
const MAX_BATCHES_PER_APPEND = 100_000

/** Producer batches that passed `checkLeaderAppend`, not yet given offsets. */
export interface CheckedAppend {
  bytes: Uint8Array
  batches: Array<{ pos: number; size: number; lastOffsetDelta: number; maxTimestamp: number }>
  /** Idempotence fields per batch; undefined for batches without a producer id. */
  producers: Array<ProducerBatch | undefined>
  recordCount: number
}

/**
 * Checks producer batches as a leader does (Kafka's LogValidator): every batch is whole,
 * CRC-valid, within `max.message.bytes`, has sequential record offsets (and keys, for
 * compacted logs) and consistent idempotence fields. Changes nothing: offsets come later
 * (`stampLeaderAppend`), once the batches are known not to be a producer's retry.
 */
export async function checkLeaderAppend(
  bytes: Uint8Array,
  name: string,
  config: LogConfig,
  options: { allowControl?: boolean } = {},
): Promise<CheckedAppend> {
  const checked: CheckedAppend = { bytes, batches: [], producers: [], recordCount: 0 }
  try {
    for (const { pos, size, header } of iterateBatches(bytes)) {
      if (checked.batches.length >= MAX_BATCHES_PER_APPEND)
        throw new InvalidRecordError(`more than ${MAX_BATCHES_PER_APPEND} batches in one append`)
      if (size > config.maxMessageBytes) {
        throw new RecordTooLargeError(`batch of ${size} bytes exceeds max.message.bytes (${config.maxMessageBytes})`)
      }
      if (!verifyBatchCrc(bytes, pos))
        throw new CorruptRecordError(`batch ${checked.batches.length} failed its CRC check`)
      if (header.control && !options.allowControl)
        throw new InvalidRecordError('producers may not write control batches')
      if (header.recordCount < 1) throw new InvalidRecordError('a produced batch must hold at least one record')
      await validateBatchRecords(bytes, pos, {
        verifyCrc: false, // checked just above, with a clearer message
        requireKeys: compacts(config) && !header.control,
        sequentialOffsets: true,
        maxDecompressedBytes: Math.max(config.maxMessageBytes * 64, 64 * 1024 * 1024),
      })
      checked.producers.push(producedBatchOf(header))
      checked.recordCount += header.recordCount
      checked.batches.push({ pos, size, lastOffsetDelta: header.lastOffsetDelta, maxTimestamp: header.maxTimestamp })
    }
  } catch (err) {
    throw inPartition(err, `${name}: rejected append`)
  }
  if (checked.batches.length === 0) throw new InvalidRecordError(`${name}: rejected append: no record batch in request`)
  return checked
}

/** Gives checked batches their offsets from `nextOffset` and the leader epoch, in place. */
export function stampLeaderAppend(
  checked: CheckedAppend,
  name: string,
  config: LogConfig,
  nextOffset: number,
  leaderEpoch: number,
  nowMs: number,
): ValidatedAppend {
  const { bytes, recordCount } = checked
  if (nextOffset + recordCount > Number.MAX_SAFE_INTEGER)
    throw new InvalidRecordError(`${name}: offsets would pass 2^53`)
  const logAppendTime = config.messageTimestampType === 'LogAppendTime' ? nowMs : -1
  const batches: StoredBatch[] = []
  let offset = nextOffset
  for (const { pos, size, lastOffsetDelta, maxTimestamp } of checked.batches) {
    setBaseOffset(bytes, pos, offset)
    setPartitionLeaderEpoch(bytes, pos, leaderEpoch)
    if (logAppendTime >= 0) setLogAppendTime(bytes, pos, logAppendTime)
    batches.push({
      bytes: bytes.subarray(pos, pos + size),
      baseOffset: offset,
      lastOffset: offset + lastOffsetDelta,
      maxTimestamp: logAppendTime >= 0 ? logAppendTime : maxTimestamp,
    })
    offset += lastOffsetDelta + 1
  }
  return { batches, recordCount, bytes: bytes.length, logAppendTime }
}

/**
 * Checks batches fetched from a leader: whole, CRC-valid, offsets continuing exactly from
 * `nextOffset`, epochs never going back. Offsets and epochs are kept. The records themselves
 * were validated by the leader when produced; the CRC proves they arrived as it stored them,
 * so (as in Kafka) a follower does not walk them again.
 */
export async function validateFollowerAppend(
  bytes: Uint8Array,
  name: string,
  nextOffset: number,
  latestEpoch: number,
): Promise<ValidatedAppend> {
  const batches: StoredBatch[] = []
  let recordCount = 0
  let expected = nextOffset
  let epoch = latestEpoch
  try {
    for (const { pos, size, header } of iterateBatches(bytes)) {
      if (batches.length >= MAX_BATCHES_PER_APPEND)
        throw new InvalidRecordError(`more than ${MAX_BATCHES_PER_APPEND} batches in one append`)
      if (!verifyBatchCrc(bytes, pos))
        throw new CorruptRecordError(`batch at offset ${header.baseOffset} failed its CRC check`)
      if (header.baseOffset !== expected) {
        throw new InvalidRecordError(`batch starts at offset ${header.baseOffset}, expected ${expected}`)
      }
      if (header.partitionLeaderEpoch < epoch) {
        throw new InvalidRecordError(
          `batch at offset ${header.baseOffset} has epoch ${header.partitionLeaderEpoch} < ${epoch}`,
        )
      }
      epoch = header.partitionLeaderEpoch
      const lastOffset = header.baseOffset + header.lastOffsetDelta
      batches.push({
        bytes: bytes.subarray(pos, pos + size),
        baseOffset: header.baseOffset,
        lastOffset,
        maxTimestamp: header.maxTimestamp,
      })
      recordCount += header.recordCount
      expected = lastOffset + 1
    }
  } catch (err) {
    throw inPartition(err, `${name}: rejected replicated append`)
  }
  return { batches, recordCount, bytes: bytes.length, logAppendTime: -1 }
}

/** What an append reports: the offsets its batches received. */
export function appendResult(validated: ValidatedAppend): AppendResult {
  const { batches } = validated
  return {
    firstOffset: batches[0]!.baseOffset,
    lastOffset: batches.at(-1)!.lastOffset,
    logAppendTime: validated.logAppendTime,
    batchCount: batches.length,
    recordCount: validated.recordCount,
    bytes: validated.bytes,
  }
}

/** A stored batch's partition leader epoch (header bytes 12-15). */
export function readEpoch(batch: StoredBatch): number {
  const b = batch.bytes
  return ((b[12]! << 24) | (b[13]! << 16) | (b[14]! << 8) | b[15]!) >> 0
}
