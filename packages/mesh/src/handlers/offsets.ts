import { type ListOffsetsPartitionResponse, ListOffsetsRequest, ListOffsetsResponse } from '@tributary/wire/pb/protocol'
import type { HandlerContext } from './context.js'
import { decodeRequest, errorFields, InvalidRequestError } from './errors.js'
import { leaderPartition } from './partition-lookup.js'

export const EARLIEST = -2n
export const LATEST = -1n

/**
 * `/tributary/offsets`: Kafka's ListOffsets. -2 is the log start, -1 the high watermark (the
 * next offset a consumer will see), otherwise the first offset whose record timestamp is at
 * or after the given one, among records below the high watermark (-1 when there is none).
 */
export function listOffsetsHandler(ctx: HandlerContext) {
  return async (bytes: Uint8Array, { signal }: { signal: AbortSignal }): Promise<Uint8Array> => {
    const request = decodeRequest('list offsets', () => ListOffsetsRequest.decode(bytes))
    if (request.partitions.length > 10_000)
      throw new InvalidRequestError('list offsets names at most 10,000 partitions')
    const partitions: ListOffsetsPartitionResponse[] = []
    for (const wanted of request.partitions) {
      const base = {
        topic: wanted.topic,
        partition: wanted.partition,
        offset: -1n,
        timestamp: -1n,
        leaderHint: '',
        errorCode: 0,
        errorMessage: '',
      }
      const lookup = leaderPartition(ctx, wanted.topic, wanted.partition)
      if ('error' in lookup) {
        partitions.push({ ...base, ...errorFields(lookup.error), leaderHint: lookup.leaderHint })
        continue
      }
      const { log } = lookup.hosted
      try {
        if (wanted.timestamp === EARLIEST) partitions.push({ ...base, offset: BigInt(log.logStartOffset) })
        else if (wanted.timestamp === LATEST) partitions.push({ ...base, offset: BigInt(log.highWatermark) })
        else if (wanted.timestamp < 0n)
          throw new InvalidRequestError(`timestamp ${wanted.timestamp} is neither -2, -1 nor a time`)
        else {
          const found = await log.offsetForTimestamp(Number(wanted.timestamp), { signal })
          if (found !== null && found.offset < log.highWatermark) {
            partitions.push({ ...base, offset: BigInt(found.offset), timestamp: BigInt(found.timestamp) })
          } else partitions.push(base)
        }
      } catch (err) {
        partitions.push({ ...base, ...errorFields(err) })
      }
    }
    return ListOffsetsResponse.encode({ partitions })
  }
}
