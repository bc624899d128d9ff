import { LeaderEpochCache } from './leader-epoch-cache.js'
import type { AbortOptions, LogStore, SegmentInfo } from './types.js'

/** Checkpoint names in the store's meta (Kafka keeps the same state in separate checkpoint files). */
export const META_HIGH_WATERMARK = 'high-watermark'
export const META_LOG_START = 'log-start-offset'
export const META_EPOCHS = 'leader-epochs'
export const META_CLEANER = 'cleaner-offset'

export interface LoadedLog {
  segments: SegmentInfo[]
  epochs: LeaderEpochCache
  /** The epoch cache named epochs past the recovered log end; they were dropped and must be saved. */
  epochsChanged: boolean
  startOffset: number
  highWatermark: number
  cleanerOffset: number | undefined
  /** Closed segments wholly below the log start: a crash came between checkpoint and deletion. */
  belowStart: SegmentInfo[]
  cleanShutdown: boolean
  /** Every checkpoint the store returned (the producer-state snapshot among them). */
  meta: Record<string, string>
}

/**
 * Kafka's LogLoader: opens the store (which recovers its own files) and reconciles the
 * checkpoints with what the segments really hold — the log start within the log, the high
 * watermark at most the log end, no epoch starting past the log end (recovery may have cut a
 * torn tail the checkpoint already named).
 */
export async function loadLog(store: LogStore, nowMs: number, options: AbortOptions): Promise<LoadedLog> {
  const opened = await store.open(nowMs, options)
  let segments = opened.segments
  const epochs = LeaderEpochCache.fromJson(opened.meta[META_EPOCHS])
  let startOffset = Math.max(parseOffset(opened.meta[META_LOG_START]), segments[0]?.baseOffset ?? 0)
  if (segments.length === 0) segments = [await store.roll(startOffset, nowMs, options)]
  const logEnd = segments.at(-1)!.nextOffset
  if (startOffset > logEnd) startOffset = logEnd
  const epochsChanged = epochs.truncateFromEnd(logEnd)
  const cleaner = opened.meta[META_CLEANER]
  return {
    segments,
    epochs,
    epochsChanged,
    startOffset,
    highWatermark: Math.min(parseOffset(opened.meta[META_HIGH_WATERMARK]), logEnd),
    cleanerOffset: cleaner === undefined ? undefined : parseOffset(cleaner),
    belowStart: segments.slice(0, -1).filter((s) => s.nextOffset <= startOffset),
    cleanShutdown: opened.cleanShutdown,
    meta: opened.meta,
  }
}

function parseOffset(value: string | undefined): number {
  if (value === undefined) return 0
  const n = Number(value)
  return Number.isSafeInteger(n) && n >= 0 ? n : 0
}
