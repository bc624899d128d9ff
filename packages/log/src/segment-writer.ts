/**
 * Putting validated batches into segments: appended to the active segment, rolling to a new
 * one first whenever `segment.bytes` or `segment.ms` says so. The log's segment list follows
 * what the store reports after each write or roll.
 */
import type { LogConfig } from './config.js'
import type { Logger } from './logger.js'
import type { AbortOptions, LogStore, SegmentInfo, StoredBatch } from './types.js'

export interface SegmentTarget {
  name: string
  store: LogStore
  logger: Logger
  /** The log's current settings (they may change between two writes). */
  config: () => LogConfig
  /** The log's segment list, oldest first; updated in place. */
  segments: () => SegmentInfo[]
}

/** Writes batches to the active segment, rolling first whenever segment.bytes or segment.ms says so. */
export async function writeBatches(
  target: SegmentTarget,
  batches: readonly StoredBatch[],
  now: number,
  options: AbortOptions,
): Promise<void> {
  let pending: StoredBatch[] = []
  let active = target.segments().at(-1)!
  let pendingBytes = 0
  for (const batch of batches) {
    const size = batch.bytes.length
    const full = active.sizeBytes + pendingBytes + size > target.config().segmentBytes
    const old = now - active.createdAtMs >= target.config().segmentMs
    if ((full || old) && active.sizeBytes + pendingBytes > 0) {
      if (pending.length > 0) active = await storeAppend(target, pending, options)
      active = await rollTo(target, batch.baseOffset, now, options)
      pending = []
      pendingBytes = 0
    }
    pending.push(batch)
    pendingBytes += size
  }
  if (pending.length > 0) await storeAppend(target, pending, options)
}

async function storeAppend(target: SegmentTarget, batches: StoredBatch[], options: AbortOptions): Promise<SegmentInfo> {
  const info = await target.store.append(batches, options)
  const segments = target.segments()
  segments[segments.length - 1] = info
  return info
}

async function rollTo(
  target: SegmentTarget,
  baseOffset: number,
  now: number,
  options: AbortOptions,
): Promise<SegmentInfo> {
  const info = await target.store.roll(baseOffset, now, options)
  target.segments().push(info)
  target.logger.debug({ partition: target.name, baseOffset }, 'rolled segment')
  return info
}
