/** Helpers of the browser-peer tests (they run in the page). */
import type { PartitionLog } from '@tributary/log'
import { decodeRecordBatchSync, iterateBatches } from '@tributary/wire'

export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e9).toString(36)}`
}

/**
 * Polls `fn` every 50 ms until it returns something other than undefined/false, or fails after
 * `timeoutMs`, naming what was awaited and, with `state`, what there was instead.
 */
export async function waitFor<T>(
  fn: () => Promise<T | undefined | false> | T | undefined | false,
  what: string,
  timeoutMs = 30_000,
  state?: () => string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let last: unknown
  while (Date.now() < deadline) {
    try {
      const value = await fn()
      if (value !== undefined && value !== false) return value
    } catch (err) {
      last = err
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  const instead = state === undefined ? '' : ` (instead: ${state()})`
  throw new Error(
    `timed out after ${timeoutMs} ms waiting for ${what}${last === undefined ? '' : `: ${String(last)}`}${instead}`,
  )
}

/** The values of the user records in `bytes` (whole batches), in offset order. */
export function valuesOf(bytes: Uint8Array): string[] {
  const text = new TextDecoder()
  const values: string[] = []
  for (const { pos, header } of iterateBatches(bytes)) {
    if (header.control) continue
    for (const record of decodeRecordBatchSync(bytes, pos, { verifyCrc: true }).records) {
      values.push(record.value === null ? '' : text.decode(record.value))
    }
  }
  return values
}

/** Every user record's value from `from` up to `maxOffset` (default: the log's high watermark). */
export async function readValues(log: PartitionLog, from: number, maxOffset = log.highWatermark): Promise<string[]> {
  const values: string[] = []
  let offset = from
  // Bounded: each read moves past at least one batch, and the log holds finitely many.
  for (let reads = 0; offset < maxOffset && reads < 100_000; reads++) {
    const read = await log.read(offset, { maxOffset, maxBytes: 64 * 1024 })
    if (read.batchCount === 0) break
    values.push(...valuesOf(read.records))
    offset = read.nextOffset
  }
  return values
}

/** One past the last offset of the last batch in `records` (0 when empty). */
export function nextOffsetAfter(records: Uint8Array): number {
  let next = 0
  for (const { header } of iterateBatches(records)) next = header.baseOffset + header.lastOffsetDelta + 1
  return next
}
