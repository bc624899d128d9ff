/*
 * Broker: one peer, every client protocol (KafkaJS's `broker/index.js` role). Each protocol
 * runs on its own long-lived, pipelined RPC stream, so a long-polling fetch never delays a
 * produce. Messages are protobuf (packages/wire/src/pb/protocol.proto); record batches travel
 * as their Kafka RecordBatch v2 bytes. Partition-level errors become the typed error of their
 * wire code, carrying the leader hint when the asked peer does not lead.
 *
 *   produce   ProduceRequest  → ProduceResponse
 *   fetch     FetchRequest    → FetchResponse      (long poll: maxWaitMs, minBytes, maxBytes)
 *   offsets   ListOffsetsRequest → ListOffsetsResponse (-2 earliest, -1 latest, else a time)
 *   metadata  MetadataRequest → MetadataResponse
 *   admin     AdminRequest (create / delete / alter configs) → AdminResponse
 *   group     GroupRequest (join, sync, heartbeat, leave, commit, fetch offsets) → GroupResponse
 *   group-admin GroupAdminRequest (list, describe, delete, alter offsets) → GroupAdminResponse
 *             (packages/wire/src/pb/groups.proto; errors travel in the response, for the member)
 */

import type { PeerId } from '@libp2p/interface'
import type { Multiaddr } from '@multiformats/multiaddr'
import {
  decodeGroupAdminResponse,
  decodeGroupResponse,
  encodeGroupAdminRequest,
  encodeGroupRequest,
  type GroupAdminRequest,
  type GroupAdminResponse,
  type GroupRequest,
  type GroupResponse,
} from '@tributary/groups'
import { PROTOCOLS } from '@tributary/mesh/constants'
import type { RpcDialer } from '@tributary/mesh/rpc'
import { errorFromCode, InvalidRequestError, lengthDelimitedField, type TributaryError } from '@tributary/wire'
import {
  AdminRequest,
  AdminResponse,
  FetchRequest,
  FetchResponse,
  ListOffsetsRequest,
  ListOffsetsResponse,
  MetadataRequest,
  MetadataResponse,
  ProduceRequest,
  ProduceResponse,
} from '@tributary/wire/pb/protocol'
import { RpcTransport } from './transport/rpc-transport.js'
import type { BrokerTransport, TransportRequestOptions } from './transport/transport.js'

export interface BrokerOptions {
  requestTimeoutMs?: number
  /** Largest response accepted (fetch responses carry up to maxBytes of batches). */
  maxResponseBytes?: number
  /** How requests travel; default libp2p streams to `peer` (see transport/). */
  transport?: BrokerTransport
}

export type Acks = 0 | 1 | -1

export interface ProduceResult {
  /** -1 when the leader held the batch from before but no longer knew its offsets (DUPLICATE_SEQUENCE). */
  baseOffset: number
  logAppendTime: number
  logStartOffset: number
}

/** The answer for a batch the leader holds from before but no longer knows the offsets of. */
export const OFFSETS_UNKNOWN: ProduceResult = { baseOffset: -1, logAppendTime: -1, logStartOffset: -1 }

/** The offset of the `index`th record of an acknowledged batch; -1 when its offsets are unknown. */
export function recordOffset(result: ProduceResult, index: number): number {
  return result.baseOffset < 0 ? -1 : result.baseOffset + index
}

export interface FetchPartitionResult {
  topic: string
  partition: number
  error: (TributaryError & { leaderHint?: string }) | undefined
  highWatermark: number
  logStartOffset: number
  logEndOffset: number
  /** Whole record batches, concatenated, as stored. */
  records: Uint8Array
}

export interface PartitionMetadata {
  partition: number
  leader: string
  leaderEpoch: number
  replicas: string[]
  inSync: string[]
  observers: string[]
  /** Filled only when the answering peer leads the partition; -1 otherwise. */
  logStartOffset: number
  highWatermark: number
  logEndOffset: number
  /** The other replicas as the leader sees them; filled only by the leader. */
  replicaStates: ReplicaStateMetadata[]
}

export interface ReplicaStateMetadata {
  peerId: string
  voter: boolean
  /** Its log end offset at its last fetch in the leader's epoch (-1: none yet). */
  logEndOffset: number
  /** Milliseconds since it last caught up with the leader's log end (-1: not in this epoch). */
  caughtUpMsAgo: number
}

export interface TopicMetadata {
  name: string
  topicId: string
  error: TributaryError | undefined
  replicationFactor: number
  configs: Record<string, string>
  partitions: PartitionMetadata[]
}

export interface ClusterMetadata {
  peerId: string
  peers: Array<{
    peerId: string
    addresses: string[]
    voter: boolean
    storage: string
    status: string
    version: string
  }>
  topics: TopicMetadata[]
}

export interface TopicResult {
  name: string
  topicId: string
  error: TributaryError | undefined
}

const toNumber = (n: bigint): number => Number(n)

/** Field number of ProduceRequest.records in packages/wire/src/pb/protocol.proto. */
const PRODUCE_RECORDS_FIELD = 5

function partitionError(
  code: number,
  message: string,
  leaderHint = '',
): (TributaryError & { leaderHint?: string }) | undefined {
  if (code === 0) return undefined
  const err = errorFromCode(code, message) as TributaryError & { leaderHint?: string }
  if (leaderHint !== '') err.leaderHint = leaderHint
  return err
}

export class Broker {
  private readonly transport: BrokerTransport

  constructor(
    node: RpcDialer,
    readonly peer: PeerId | Multiaddr,
    private readonly options: BrokerOptions = {},
  ) {
    this.transport =
      options.transport ??
      new RpcTransport(node, peer, {
        ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
        ...(options.maxResponseBytes === undefined ? {} : { maxResponseBytes: options.maxResponseBytes }),
      })
  }

  private request(
    protocol: string,
    payload: Uint8Array | Uint8Array[],
    options: TransportRequestOptions,
  ): Promise<Uint8Array> {
    return this.transport.request(protocol, payload, options)
  }

  async produce(
    request: { topic: string; partition: number; acks: Acks; timeoutMs?: number; records: Uint8Array },
    options: { signal?: AbortSignal } = {},
  ): Promise<ProduceResult> {
    // The record batches ride as a separate part (field 5), never copied into the message buffer.
    // Objects here are literals, not spreads: V8 (Node 20) promotes objects made by spreading, and
    // this runs for every produce (see @tributary/log group-commit.ts).
    const { topic, partition, acks, records } = request
    const timeoutMs = request.timeoutMs ?? 30_000
    const bytes = [
      ProduceRequest.encode({ topic, partition, acks, timeoutMs }),
      ...lengthDelimitedField(PRODUCE_RECORDS_FIELD, [records]),
    ]
    // The leader may wait up to timeoutMs for acks=all; the answer gets a second on top to travel.
    const rpcTimeoutMs = Math.max(this.options.requestTimeoutMs ?? 30_000, timeoutMs + 1000)
    const response = ProduceResponse.decode(
      await this.request(PROTOCOLS.produce, bytes, { signal: options.signal, timeoutMs: rpcTimeoutMs }),
    )
    const error = partitionError(response.errorCode, response.errorMessage, response.leaderHint)
    if (error !== undefined) throw error
    return {
      baseOffset: toNumber(response.baseOffset),
      logAppendTime: toNumber(response.logAppendTime),
      logStartOffset: toNumber(response.logStartOffset),
    }
  }

  async fetch(
    request: {
      maxWaitMs: number
      minBytes: number
      maxBytes: number
      partitions: Array<{ topic: string; partition: number; fetchOffset: number; partitionMaxBytes?: number }>
    },
    options: { signal?: AbortSignal } = {},
  ): Promise<FetchPartitionResult[]> {
    const bytes = FetchRequest.encode({
      ...request,
      partitions: request.partitions.map((p) => ({
        ...p,
        fetchOffset: BigInt(p.fetchOffset),
        partitionMaxBytes: p.partitionMaxBytes ?? 0,
      })),
      replicaId: '',
    })
    const response = FetchResponse.decode(
      await this.request(PROTOCOLS.fetch, bytes, {
        ...options,
        timeoutMs: request.maxWaitMs + (this.options.requestTimeoutMs ?? 30_000),
        // One whole batch may exceed maxBytes (so a consumer always progresses): room for a large one.
        maxResponseBytes: request.maxBytes + 64 * 1024 + 16 * 1024 * 1024,
      }),
    )
    return response.partitions.map((p) => ({
      topic: p.topic,
      partition: p.partition,
      error: partitionError(p.errorCode, p.errorMessage, p.leaderHint),
      highWatermark: toNumber(p.highWatermark),
      logStartOffset: toNumber(p.logStartOffset),
      logEndOffset: toNumber(p.logEndOffset),
      records: p.records,
    }))
  }

  async listOffsets(
    partitions: Array<{ topic: string; partition: number; timestamp: number }>,
    options: { signal?: AbortSignal } = {},
  ): Promise<
    Array<{ topic: string; partition: number; offset: number; timestamp: number; error: TributaryError | undefined }>
  > {
    const bytes = ListOffsetsRequest.encode({
      partitions: partitions.map((p) => ({ ...p, timestamp: BigInt(p.timestamp) })),
    })
    const response = ListOffsetsResponse.decode(await this.request(PROTOCOLS.offsets, bytes, options))
    return response.partitions.map((p) => ({
      topic: p.topic,
      partition: p.partition,
      offset: toNumber(p.offset),
      timestamp: toNumber(p.timestamp),
      error: partitionError(p.errorCode, p.errorMessage, p.leaderHint),
    }))
  }

  async metadata(topics?: string[], options: { signal?: AbortSignal } = {}): Promise<ClusterMetadata> {
    const bytes = MetadataRequest.encode({ topics: topics ?? [], allTopics: topics === undefined })
    const response = MetadataResponse.decode(
      await this.request(PROTOCOLS.metadata, bytes, { ...options, maxResponseBytes: 16 * 1024 * 1024 }),
    )
    return {
      peerId: response.peerId,
      peers: response.peers,
      topics: response.topics.map((t) => ({
        name: t.name,
        topicId: t.topicId,
        error: partitionError(t.errorCode, t.errorMessage),
        replicationFactor: t.replicationFactor,
        configs: Object.fromEntries(t.configs),
        partitions: t.partitions.map((p) => ({
          ...p,
          logStartOffset: toNumber(p.logStartOffset),
          highWatermark: toNumber(p.highWatermark),
          logEndOffset: toNumber(p.logEndOffset),
          replicaStates: p.replicaStates.map((r) => ({
            peerId: r.peerId,
            voter: r.voter,
            logEndOffset: toNumber(r.logEndOffset),
            caughtUpMsAgo: toNumber(r.caughtUpMsAgo),
          })),
        })),
      })),
    }
  }

  async createTopics(
    topics: Array<{ name: string; partitions: number; replicationFactor: number; configs?: Record<string, string> }>,
    options: { signal?: AbortSignal } = {},
  ): Promise<TopicResult[]> {
    return this.admin(
      {
        createTopics: {
          topics: topics.map((t) => ({ ...t, configs: new Map(Object.entries(t.configs ?? {})) })),
          timeoutMs: 30_000,
        },
      },
      options,
    )
  }

  deleteTopics(names: string[], options: { signal?: AbortSignal } = {}): Promise<TopicResult[]> {
    return this.admin({ deleteTopics: { names, timeoutMs: 30_000 } }, options)
  }

  alterConfigs(
    name: string,
    configs: Record<string, string>,
    options: { signal?: AbortSignal } = {},
  ): Promise<TopicResult[]> {
    return this.admin({ alterConfigs: { name, configs: new Map(Object.entries(configs)) } }, options)
  }

  /**
   * One consumer-group request to the group's coordinator. Errors come back in the response
   * (NOT_COORDINATOR with the coordinator as `coordinatorHint`), for the member state machine to
   * act on; a JoinGroup answer waits until the rebalance completes, so give it `timeoutMs`.
   */
  async group(
    request: GroupRequest,
    options: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<GroupResponse> {
    const response = decodeGroupResponse(await this.request(PROTOCOLS.group, encodeGroupRequest(request), options))
    if (
      response.groupId !== request.groupId ||
      response.recipient !== request.sender ||
      response.requestId !== request.requestId ||
      response.kind !== request.kind
    ) {
      throw new InvalidRequestError(`the answer to group request ${request.requestId} is addressed to another request`)
    }
    return response
  }

  /** One group administration request (list here, or describe / delete / alter offsets at the coordinator). */
  async groupAdmin(request: GroupAdminRequest, options: { signal?: AbortSignal } = {}): Promise<GroupAdminResponse> {
    return decodeGroupAdminResponse(
      await this.request(PROTOCOLS.groupAdmin, encodeGroupAdminRequest(request), {
        ...options,
        maxResponseBytes: 16 * 1024 * 1024,
      }),
    )
  }

  private async admin(request: AdminRequest, options: { signal?: AbortSignal }): Promise<TopicResult[]> {
    const response = AdminResponse.decode(await this.request(PROTOCOLS.admin, AdminRequest.encode(request), options))
    return response.results.map((r) => ({
      name: r.name,
      topicId: r.topicId,
      error: partitionError(r.errorCode, r.errorMessage),
    }))
  }

  close(): void {
    this.transport.close()
  }
}
