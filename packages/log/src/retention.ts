import { deletes, type LogConfig } from './config.js'
import type { SegmentInfo } from './types.js'

/**
 * Decides the new log start offset under the delete policy (Kafka's retention): closed
 * segments wholly below the high watermark go, oldest first, while their newest record is
 * older than `retention.ms` or the log without them is still at least `retention.bytes`.
 * Segments already below the log start always go. The active segment always stays.
 */
export function planRetention(
  segments: readonly SegmentInfo[],
  config: LogConfig,
  highWatermark: number,
  logStartOffset: number,
  nowMs: number,
): number {
  let start = logStartOffset
  let total = segments.reduce((sum, s) => sum + s.sizeBytes, 0)
  for (let i = 0; i < segments.length - 1; i++) {
    const segment = segments[i]!
    if (segment.nextOffset > highWatermark) break
    const belowStart = segment.nextOffset <= logStartOffset
    const expired =
      deletes(config) &&
      config.retentionMs >= 0 &&
      segment.maxTimestamp >= 0 &&
      nowMs - segment.maxTimestamp > config.retentionMs
    const oversize = deletes(config) && config.retentionBytes >= 0 && total - segment.sizeBytes >= config.retentionBytes
    if (!belowStart && !expired && !oversize) break
    total -= segment.sizeBytes
    start = Math.max(start, segment.nextOffset)
  }
  return start
}
