import { ProduceRequest, ProduceResponse } from '@tributary/wire/pb/protocol'
import type { HandlerContext } from './context.js'
import { decodeRequest, errorFields, InvalidRequestError } from './errors.js'
import { leaderPartition } from './partition-lookup.js'

const MAX_TIMEOUT_MS = 300_000
const DEFAULT_TIMEOUT_MS = 30_000

/**
 * `/tributary/produce`: appends a producer's batches to a partition this peer leads, as the
 * stored bytes, through its Raft replica (which stamps the leader epoch). acks 0 and 1 answer
 * once the leader appended; acks=all once the batch is within the high watermark.
 *
 * An idempotent producer's retry (its acknowledgement was lost, or it reached a new leader
 * after a failover) is answered from the log's producer state with the offsets the original
 * received, and nothing is appended. The original may not be committed yet — it may even come
 * from an earlier leader's epoch — so acks=all waits for it the same way: this leader's high
 * watermark passing it (a leader commits older epochs' entries with its own first batch).
 */
export function produceHandler(ctx: HandlerContext) {
  return async (bytes: Uint8Array, context: { readonly signal: AbortSignal }): Promise<Uint8Array> => {
    const request = decodeRequest('produce', () => ProduceRequest.decode(bytes))
    if (![0, 1, -1].includes(request.acks))
      throw new InvalidRequestError(`acks must be 0, 1 or -1 (all), got ${request.acks}`)
    if (request.timeoutMs > MAX_TIMEOUT_MS)
      throw new InvalidRequestError(`timeout ${request.timeoutMs} ms exceeds ${MAX_TIMEOUT_MS}`)
    const lookup = leaderPartition(ctx, request.topic, request.partition)
    if ('error' in lookup)
      return ProduceResponse.encode({ ...errorFields(lookup.error), leaderHint: lookup.leaderHint, baseOffset: -1n })
    const { hosted } = lookup
    try {
      // Only acks=all waits past the append, so only it reads the request's signal: reading it is what
      // makes the AbortSignal (see server-stream.ts), and an acks=0/1 append is not withdrawn once
      // queued anyway — as a Kafka broker still appends a request whose client has gone.
      const options = request.acks === -1 ? { signal: context.signal } : {}
      const result = await hosted.raft.appendAsLeader(request.records, options)
      if (result.duplicate !== true) hosted.notify()
      if (request.acks === -1) {
        // acks=all: acknowledged once the batch (or the original of a retry) is within the high
        // watermark, held by a majority of voters.
        await hosted.raft.waitForCommit(result.lastOffset, {
          epoch: result.leaderEpoch,
          timeoutMs: request.timeoutMs || DEFAULT_TIMEOUT_MS,
          signal: context.signal,
        })
      }
      return ProduceResponse.encode({
        baseOffset: BigInt(result.firstOffset),
        logAppendTime: BigInt(result.logAppendTime),
        logStartOffset: BigInt(hosted.log.logStartOffset),
      })
    } catch (err) {
      return ProduceResponse.encode({ ...errorFields(err), baseOffset: -1n, leaderHint: hosted.raft.leaderId ?? '' })
    }
  }
}
