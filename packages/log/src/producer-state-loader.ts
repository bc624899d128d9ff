import { CorruptRecordError, readBatchHeader, verifyBatchCrc } from '@tributary/wire'
import { inPartition } from './errors.js'
import type { Logger } from './logger.js'
import { decodeProducerSnapshot, type ProducerSnapshot } from './producer-snapshot.js'
import { type ProducerStateManager, producerBatchOf } from './producer-state.js'
import type { AbortOptions, LogStore, SegmentInfo } from './types.js'

/** Checkpoint name of the producer-state snapshot; stores may keep `.snapshot` entries apart (they are large). */
export const META_PRODUCERS = 'producers.snapshot'

const REPLAY_CHUNK_BYTES = 4 * 1024 * 1024

export interface ProducerStateLoad {
  name: string
  store: LogStore
  segments: readonly SegmentInfo[]
  logStartOffset: number
  logEndOffset: number
  /** The stored snapshot, if any. */
  snapshot: string | undefined
  producers: ProducerStateManager
  now: number
  logger: Logger
}

export interface LoadedProducerState {
  /** Offset of the snapshot the state now rests on (the log start when there was none). */
  snapshotOffset: number
  /** The stored snapshot no longer matches the log (missing, stale, or past its end): write a new one. */
  stale: boolean
}

/**
 * Rebuilds producer state on open (Kafka's `loadProducerState`): the last snapshot, then the
 * headers of the batches after it — only those, so an open does not walk the whole log. With
 * no usable snapshot the state is rebuilt from the log start. A snapshot past the recovered log
 * end (a torn tail lost batches it counted) is cut back to the end.
 */
export async function loadProducerState(load: ProducerStateLoad, options: AbortOptions): Promise<LoadedProducerState> {
  const { name, logStartOffset, logEndOffset, logger } = load
  let snapshot: ProducerSnapshot | undefined
  if (load.snapshot !== undefined) {
    try {
      snapshot = decodeProducerSnapshot(load.snapshot)
    } catch (err) {
      logger.warn({ partition: name, err }, 'producer-state snapshot unreadable; rebuilding from the log')
    }
  }
  if (snapshot !== undefined && snapshot.offset < logStartOffset) {
    // Batches between the snapshot and the log start are gone: producers they advanced would be
    // stale (and refused as out of order). Forgetting them is the safe side.
    logger.warn(
      { partition: name, snapshotOffset: snapshot.offset, logStartOffset },
      'producer-state snapshot predates the log start; rebuilding',
    )
    snapshot = undefined
  }
  load.producers.clear()
  if (snapshot !== undefined) {
    load.producers.load(snapshot.producers)
    if (snapshot.offset > logEndOffset) {
      const forgotten = load.producers.truncateFrom(logEndOffset)
      logger.info(
        { partition: name, snapshotOffset: snapshot.offset, logEndOffset, forgotten },
        'producer state cut back to the log end',
      )
      return { snapshotOffset: logEndOffset, stale: true }
    }
  }
  const from = snapshot?.offset ?? logStartOffset
  const replayed = await replayProducerBatches(load, from, logEndOffset, options)
  logger.info(
    { partition: name, producers: load.producers.size, snapshotOffset: snapshot?.offset ?? -1, replayed },
    'producer state loaded',
  )
  return { snapshotOffset: from, stale: from !== logEndOffset }
}

/** Applies the producer batches in [from, to) to the state, reading only whole stored batches and their headers. */
async function replayProducerBatches(
  load: ProducerStateLoad,
  from: number,
  to: number,
  options: AbortOptions,
): Promise<number> {
  let replayed = 0
  for (const segment of load.segments) {
    if (segment.nextOffset <= from || segment.baseOffset >= to) continue
    let offset = Math.max(from, segment.baseOffset)
    const end = Math.min(segment.nextOffset, to)
    while (offset < end) {
      options.signal?.throwIfAborted()
      const chunk = await load.store.read(segment.baseOffset, offset, REPLAY_CHUNK_BYTES, options)
      if (chunk.length === 0) break
      let pos = 0
      const before = offset
      try {
        while (pos < chunk.length) {
          const header = readBatchHeader(chunk, pos)
          const last = header.baseOffset + header.lastOffsetDelta
          // A batch starting below `from` is already in the snapshot (only a compaction
          // placeholder can straddle it); one reaching `to` is not in the log being loaded.
          if (header.baseOffset >= from && last < to) {
            const batch = producerBatchOf(header)
            if (batch !== undefined) {
              if (verifyBatchCrc(chunk, pos)) {
                load.producers.apply(batch, header.baseOffset, last, load.now)
                replayed++
              } else {
                load.logger.warn(
                  { partition: load.name, offset: header.baseOffset },
                  'corrupt batch skipped by producer-state replay',
                )
              }
            }
          }
          offset = Math.max(offset, last + 1)
          pos += 12 + header.batchLength
        }
      } catch (err) {
        throw inPartition(err, `${load.name}: producer-state replay near offset ${offset}`)
      }
      if (offset <= before)
        throw new CorruptRecordError(`${load.name}: producer-state replay stuck at offset ${offset}`)
    }
  }
  return replayed
}
