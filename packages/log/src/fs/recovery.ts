import { verifyBatchCrc } from '@tributary/wire'
import type { Logger } from '../logger.js'
import { HEADER_BYTES, peekHeader, type Segment } from './segment.js'

const SCAN_BYTES = 8 * 1024 * 1024

/**
 * Kafka's LogSegment.recover for our files: re-reads a segment from its last trustworthy
 * index entry (or from the start, `fromScratch`), checking every batch — header sanity,
 * offset continuity, CRC — and re-indexing it; the first batch that fails, or a torn partial
 * batch, marks where the valid log ends, and the file is truncated there (logged). Returns the
 * number of bytes cut. A closed segment is never cut (`truncate: false`): its index is rebuilt
 * up to the damage, which then surfaces as a `CorruptRecordError` to whoever reads there,
 * rather than acknowledged data after it silently disappearing.
 */
export async function recoverSegment(
  segment: Segment,
  logger: Logger,
  partition: string,
  { fromScratch, truncate }: { fromScratch: boolean; truncate: boolean },
): Promise<number> {
  await segment.load()
  const fileSize = await segment.fileSize()
  const offsets = segment.offsetIndex!
  const times = segment.timeIndex!
  let start = 0
  let expected = segment.baseOffset
  if (fromScratch) {
    offsets.truncateWhere('value', 0)
    times.truncateWhere('value', 0)
  } else {
    offsets.truncateWhere('value', fileSize)
    // The last index entry must point at the batch it names; walk back until one does.
    while (offsets.length > 0) {
      const position = offsets.lastValue!
      const header = peekHeader(await segment.readAt(position, HEADER_BYTES), 0)
      if (header !== undefined && header.size > 0 && header.baseOffset === segment.baseOffset + offsets.lastKey!) {
        start = position
        expected = header.baseOffset
        break
      }
      offsets.truncateWhere('value', position)
    }
    times.truncateWhere('value', expected - segment.baseOffset + 1)
  }
  segment.size = start
  segment.nextOffset = expected
  segment.maxTimestamp = times.lastKey ?? -1
  segment.resetIndexCursor()

  let pos = start
  let reason: string | undefined
  scan: while (pos < fileSize) {
    let chunk = await segment.readAt(pos, Math.min(fileSize - pos, SCAN_BYTES))
    let p = 0
    while (p < chunk.length) {
      const header = peekHeader(chunk, p)
      if (header === undefined) {
        if (pos + p + HEADER_BYTES > fileSize) {
          reason = 'torn batch header'
          pos += p
          break scan
        }
        break // header crosses the chunk end: read on from here
      }
      if (header.size < 0) reason = 'invalid batch header'
      else if (header.baseOffset !== expected) reason = `offset ${header.baseOffset} where ${expected} belongs`
      else if (pos + p + header.size > fileSize) reason = 'torn batch'
      if (reason !== undefined) {
        pos += p
        break scan
      }
      if (p + header.size > chunk.length) {
        if (p > 0) break // read on from this batch
        chunk = await segment.readAt(pos, header.size) // one batch larger than the scan buffer
      }
      if (!verifyBatchCrc(chunk, p)) {
        reason = `CRC mismatch in batch at offset ${header.baseOffset}`
        pos += p
        break scan
      }
      segment.indexRecovered({
        bytes: chunk.subarray(p, p + header.size),
        baseOffset: header.baseOffset,
        lastOffset: header.lastOffset,
        maxTimestamp: header.maxTimestamp,
      })
      expected = header.lastOffset + 1
      p += header.size
    }
    if (p === 0) break
    pos += p
  }
  const cut = fileSize - segment.size
  if (cut > 0 && !truncate) {
    await segment.persistIndexes(true)
    logger.error(
      {
        partition,
        segment: segment.baseOffset,
        validBytes: segment.size,
        damagedBytes: cut,
        reason: reason ?? 'trailing bytes',
      },
      'closed segment is damaged; reads past the damage will fail',
    )
    return 0
  }
  if (cut > 0) {
    await segment.truncateAt(segment.size, segment.nextOffset, segment.maxTimestamp)
    logger.warn(
      {
        partition,
        segment: segment.baseOffset,
        truncatedBytes: cut,
        validBytes: segment.size,
        logEndOffset: segment.nextOffset,
        reason: reason ?? 'trailing bytes',
      },
      'recovery truncated a torn or corrupt segment tail',
    )
  } else {
    await segment.persistIndexes(true)
  }
  return cut
}
