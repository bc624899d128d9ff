import { lengthDelimitedField } from '@tributary/wire'
import { FetchPartitionResponse, FetchRequest } from '@tributary/wire/pb/protocol'
import type { HostedPartition } from '../partitions/hosted-partition.js'
import type { HandlerContext } from './context.js'
import { decodeRequest, errorFields, InvalidRequestError } from './errors.js'
import { type Lookup, leaderPartition } from './partition-lookup.js'

export const MAX_FETCH_WAIT_MS = 30_000
export const MAX_FETCH_BYTES = 64 * 1024 * 1024
const MAX_FETCH_PARTITIONS = 10_000

/**
 * `/tributary/fetch`: a long poll. Reads each partition from its fetch offset up to the high
 * watermark; answers as soon as `minBytes` are ready, an error occurs, or `maxWaitMs` passes,
 * waking whenever a partition receives data. The response never exceeds `maxBytes` except to
 * carry one whole batch, so a consumer always progresses.
 */
export function fetchHandler(ctx: HandlerContext) {
  return async (bytes: Uint8Array, { signal }: { signal: AbortSignal }): Promise<Uint8Array[]> => {
    const request = decodeRequest('fetch', () => FetchRequest.decode(bytes))
    if (request.maxWaitMs > MAX_FETCH_WAIT_MS)
      throw new InvalidRequestError(`maxWaitMs may be at most ${MAX_FETCH_WAIT_MS}`)
    if (request.partitions.length === 0 || request.partitions.length > MAX_FETCH_PARTITIONS) {
      throw new InvalidRequestError(`a fetch names 1 to ${MAX_FETCH_PARTITIONS} partitions`)
    }
    const maxBytes = Math.min(request.maxBytes || MAX_FETCH_BYTES, MAX_FETCH_BYTES)
    const deadline = ctx.now() + request.maxWaitMs
    for (let round = 0; ; round++) {
      const { responses, total, failed, waitOn } = await readAll(ctx, request, maxBytes, signal)
      const remaining = deadline - ctx.now()
      if (total >= Math.max(1, request.minBytes) || failed || remaining <= 0 || signal.aborted || round > 10_000) {
        return encodeByParts(responses)
      }
      await waitForAny(waitOn, remaining, signal)
    }
  }
}

const EMPTY_RECORDS = new Uint8Array(0)

function setError(response: FetchPartitionResponse, err: unknown): void {
  const { errorCode, errorMessage } = errorFields(err)
  response.errorCode = errorCode
  response.errorMessage = errorMessage
}

async function readAll(ctx: HandlerContext, request: FetchRequest, maxBytes: number, signal: AbortSignal) {
  const responses: FetchPartitionResponse[] = []
  const waitOn: Array<[HostedPartition, number]> = []
  let total = 0
  let failed = false
  for (const wanted of request.partitions) {
    // One literal per partition, then fields set on it: objects made by spreading are promoted by
    // V8 (README, Development), and a consumer's fetches run this for every partition.
    const response: FetchPartitionResponse = {
      topic: wanted.topic,
      partition: wanted.partition,
      errorCode: 0,
      errorMessage: '',
      highWatermark: -1n,
      logStartOffset: -1n,
      logEndOffset: -1n,
      records: EMPTY_RECORDS,
      leaderHint: '',
    }
    responses.push(response)
    const lookup = readablePartition(ctx, wanted.topic, wanted.partition)
    if ('error' in lookup) {
      failed = true
      setError(response, lookup.error)
      response.leaderHint = lookup.leaderHint
      continue
    }
    const { log } = lookup.hosted
    const version = lookup.hosted.version
    response.highWatermark = BigInt(log.highWatermark)
    response.logStartOffset = BigInt(log.logStartOffset)
    response.logEndOffset = BigInt(log.logEndOffset)
    try {
      const budget = total === 0 ? maxBytes : maxBytes - total
      if (budget <= 0) continue
      const partitionMax = Math.min(wanted.partitionMaxBytes || budget, budget)
      const result = await log.read(Number(wanted.fetchOffset), { maxBytes: partitionMax, signal })
      total += result.records.length
      waitOn.push([lookup.hosted, version])
      // The stored bytes go out as they are (protons types bytes fields over plain ArrayBuffers).
      response.records = result.records as Uint8Array<ArrayBuffer>
    } catch (err) {
      failed = true
      setError(response, err)
    }
  }
  return { responses, total, failed, waitOn }
}

/**
 * The leader's replica, or — on a peer that serves replica reads (a browser peer, KIP-392's
 * fetch from a follower) — its own replica, read up to the high watermark it has learned (the
 * log's reads stop there), so a nearby reader never sees an uncommitted record.
 */
function readablePartition(ctx: HandlerContext, topic: string, partition: number): Lookup {
  const lookup = leaderPartition(ctx, topic, partition)
  if (!('error' in lookup) || ctx.servesReplicaReads !== true) return lookup
  const hosted = ctx.partitions.get(topic, partition)
  return hosted === undefined ? lookup : { hosted }
}

/**
 * Why a long poll's internal wait ended, shared: `abort()` without a reason builds a DOMException
 * with a stack trace each time, ~3% of an idle peer's CPU under eight members' long polls.
 */
const WAIT_ENDED = new Error('fetch wait ended')

async function waitForAny(waitOn: Array<[HostedPartition, number]>, ms: number, signal: AbortSignal): Promise<void> {
  const done = new AbortController()
  const timer = setTimeout(() => done.abort(WAIT_ENDED), ms)
  const onAbort = (): void => done.abort(WAIT_ENDED)
  signal.addEventListener('abort', onAbort, { once: true })
  const ended = new Promise<void>((resolve) => done.signal.addEventListener('abort', () => resolve(), { once: true }))
  try {
    await Promise.race([ended, ...waitOn.map(([p, version]) => p.waitForData(version, done.signal))])
  } finally {
    clearTimeout(timer)
    signal.removeEventListener('abort', onAbort)
    done.abort(WAIT_ENDED)
  }
}

/** Field numbers in packages/wire/src/pb/protocol.proto: FetchResponse.partitions, FetchPartitionResponse.records. */
const PARTITIONS_FIELD = 1
const RECORDS_FIELD = 8

/**
 * The response as parts: each partition's fields, then its record bytes as they came from the
 * log, uncopied (protobuf merges fields given in any order), wrapped as repeated field 1.
 */
function encodeByParts(responses: FetchPartitionResponse[]): Uint8Array[] {
  return responses.flatMap((response) => {
    const { records } = response
    // Encoded apart, below: the message itself is encoded with no records (an empty bytes field is not written).
    response.records = EMPTY_RECORDS
    return lengthDelimitedField(PARTITIONS_FIELD, [
      FetchPartitionResponse.encode(response),
      ...(records.byteLength > 0 ? lengthDelimitedField(RECORDS_FIELD, [records]) : []),
    ])
  })
}
