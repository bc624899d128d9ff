/**
 * Reads a stopped peer's replica of a partition straight from its log directory
 * (`<dataDir>/logs/<topic>-<partition>`), as the log itself recovers it: the batches below
 * the high watermark it persisted (the committed prefix), and the values of their records.
 */
import { join } from 'node:path'
import { openFsLog } from '@tributary/log/fs'
import { decodeRecordBatch, iterateBatches } from '@tributary/wire'

const dec = new TextDecoder()

export interface ReplicaLog {
  highWatermark: number
  logEndOffset: number
  /** Leader epochs as the log's epoch cache records them: one entry per leader that wrote. */
  epochs: number
  /** Committed batches, as stored bytes, in offset order. */
  batches: Array<{ baseOffset: number; lastOffset: number; control: boolean; bytes: Uint8Array }>
  /** Values of the committed data records, in offset order (control batches skipped, as consumers do). */
  values: string[]
  /** Values of data records above the high watermark (an uncommitted tail). */
  uncommitted: string[]
}

export async function readReplicaLog(dataDir: string, topic: string, partition: number): Promise<ReplicaLog> {
  const name = `${topic}-${partition}`
  const log = await openFsLog({ dir: join(dataDir, 'logs', name), name })
  try {
    const out: ReplicaLog = {
      highWatermark: log.highWatermark,
      logEndOffset: log.logEndOffset,
      epochs: log.epochEntries().length,
      batches: [],
      values: [],
      uncommitted: [],
    }
    let offset = log.logStartOffset
    // Each read returns at least one batch and moves `offset` forward, so this ends at the log end.
    for (let reads = 0; offset < log.logEndOffset && reads < 1_000_000; reads++) {
      const read = await log.read(offset, { maxOffset: log.logEndOffset, maxBytes: 1 << 20 })
      if (read.batchCount === 0) break
      for (const { pos, size, header } of iterateBatches(read.records)) {
        const lastOffset = header.baseOffset + header.lastOffsetDelta
        const committed = lastOffset < out.highWatermark
        if (committed) {
          out.batches.push({
            baseOffset: header.baseOffset,
            lastOffset,
            control: header.control,
            bytes: read.records.slice(pos, pos + size),
          })
        }
        if (header.control) continue
        for (const r of (await decodeRecordBatch(read.records, pos)).records) {
          ;(committed ? out.values : out.uncommitted).push(dec.decode(r.value!))
        }
      }
      offset = read.nextOffset
    }
    return out
  } finally {
    await log.close()
  }
}
