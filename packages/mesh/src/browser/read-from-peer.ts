/**
 * Reads a partition from a chosen peer rather than its leader: a browser consumer reading from
 * a nearby browser's replica (KIP-392's fetch from a follower). The other peer answers from its
 * own replica, never past the high watermark it has learned (see `servesReplicaReads`). Relayed
 * connections are refused, as for every Tributary RPC: the read goes over a direct (WebRTC or
 * WebSocket) connection.
 */
import type { PeerId } from '@libp2p/interface'
import { errorFromCode, InvalidRequestError } from '@tributary/wire'
import { FetchRequest, FetchResponse } from '@tributary/wire/pb/protocol'
import { PROTOCOLS } from '../constants.js'
import { MAX_FETCH_BYTES, MAX_FETCH_WAIT_MS } from '../handlers/fetch.js'
import type { PeerNode } from '../peer.js'
import { RpcClient } from '../rpc/index.js'

export interface ReadFromPeerRequest {
  topic: string
  partition: number
  offset: number
  /** Default 1 MiB; the first batch comes whole regardless. */
  maxBytes?: number
  /** Long poll: how long the peer may wait for data at `offset`. Default 0. */
  maxWaitMs?: number
}

export interface ReadFromPeerResult {
  /** Whole record batches (Kafka RecordBatch v2 bytes), below the peer's high watermark. */
  records: Uint8Array
  highWatermark: number
  logStartOffset: number
  logEndOffset: number
}

export interface ReadFromPeerOptions {
  signal?: AbortSignal
  /** Default 10 s plus the long-poll wait. */
  timeoutMs?: number
}

const DEFAULT_MAX_BYTES = 1024 * 1024
const DEFAULT_TIMEOUT_MS = 10_000

export async function readFromPeer(
  node: Pick<PeerNode, 'dialProtocol'>,
  peer: PeerId,
  request: ReadFromPeerRequest,
  options: ReadFromPeerOptions = {},
): Promise<ReadFromPeerResult> {
  const maxBytes = request.maxBytes ?? DEFAULT_MAX_BYTES
  const maxWaitMs = request.maxWaitMs ?? 0
  if (!Number.isSafeInteger(request.offset) || request.offset < 0) {
    throw new InvalidRequestError(`offset must be a non-negative integer, got ${request.offset}`)
  }
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0 || maxBytes > MAX_FETCH_BYTES) {
    throw new InvalidRequestError(`maxBytes must be an integer in [1, ${MAX_FETCH_BYTES}]`)
  }
  if (!Number.isSafeInteger(maxWaitMs) || maxWaitMs < 0 || maxWaitMs > MAX_FETCH_WAIT_MS) {
    throw new InvalidRequestError(`maxWaitMs must be an integer in [0, ${MAX_FETCH_WAIT_MS}]`)
  }
  const client = new RpcClient(node, peer, PROTOCOLS.fetch, {
    maxResponseBytes: maxBytes + 64 * 1024,
    requestTimeoutMs: (options.timeoutMs ?? DEFAULT_TIMEOUT_MS) + maxWaitMs,
  })
  try {
    const answer = await client.request(
      FetchRequest.encode({
        maxWaitMs,
        minBytes: 1,
        maxBytes,
        replicaId: '',
        partitions: [
          {
            topic: request.topic,
            partition: request.partition,
            fetchOffset: BigInt(request.offset),
            partitionMaxBytes: maxBytes,
          },
        ],
      }),
      options.signal === undefined ? {} : { signal: options.signal },
    )
    const response = FetchResponse.decode(answer)
    const part = response.partitions.find((p) => p.topic === request.topic && p.partition === request.partition)
    if (part === undefined) {
      throw new InvalidRequestError(`the peer's answer holds no ${request.topic}-${request.partition}`)
    }
    if (part.errorCode !== 0) throw errorFromCode(part.errorCode, part.errorMessage)
    return {
      records: part.records,
      highWatermark: Number(part.highWatermark),
      logStartOffset: Number(part.logStartOffset),
      logEndOffset: Number(part.logEndOffset),
    }
  } finally {
    await client.close()
  }
}
