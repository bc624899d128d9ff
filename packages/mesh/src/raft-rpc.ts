import type { Libp2p } from '@libp2p/interface'
import { peerIdFromString } from '@libp2p/peer-id'
import { InvalidRequestError, UnknownTopicOrPartitionError } from '@tributary/wire'
import { PROTOCOLS } from './constants.js'
import type { Logger } from './logger.js'
import {
  type BeginQuorumEpochRequest,
  type BeginQuorumEpochResponse,
  decodeBeginQuorumEpochRequest,
  decodeEndQuorumEpochRequest,
  decodeQuorumEpochResponse,
  decodeReplicaFetchRequest,
  decodeReplicaFetchResponse,
  decodeTimeoutNowRequest,
  decodeVoteRequest,
  decodeVoteResponse,
  type EndQuorumEpochRequest,
  type EndQuorumEpochResponse,
  encodeBeginQuorumEpochRequest,
  encodeEndQuorumEpochRequest,
  encodeQuorumEpochResponse,
  encodeReplicaFetchRequest,
  encodeReplicaFetchResponse,
  encodeTimeoutNowRequest,
  encodeVoteRequest,
  encodeVoteResponse,
  type RaftRequestHandler,
  type RaftRequestOptions,
  type RaftTransport,
  type ReplicaFetchRequest,
  type ReplicaFetchResponse,
  type TimeoutNowRequest,
  type TimeoutNowResponse,
  type VoteRequest,
  type VoteResponse,
} from './raft/index.js'
import {
  answerBundle,
  BUNDLE_RECORDS_BUDGET_BYTES,
  decodeBundleRequest,
  FetchBundler,
  MAX_BUNDLE_ENTRIES,
  ParkedFetches,
} from './replica-fetch-bundles.js'
import { RpcClient, registerRpcHandler, type UnregisterRpcHandler } from './rpc/index.js'

/** First byte of a `/tributary/raft` request: which message follows. */
enum Kind {
  Vote = 1,
  BeginQuorumEpoch = 2,
  EndQuorumEpoch = 3,
  TimeoutNow = 4,
}

const MAX_CONTROL_BYTES = 64 * 1024
const MAX_FETCH_RESPONSE_BYTES = 64 * 1024 * 1024 + 64 * 1024
/** Bounds the busy set (one entry per followed partition); past it, fetches are gathered. */
const MAX_BUSY_PARTITIONS = 100_000
/** A bundle's entries are each a control-sized fetch request. */
const MAX_BUNDLE_REQUEST_BYTES = MAX_BUNDLE_ENTRIES * (MAX_CONTROL_BYTES + 8)
/** The first entry as large as a lone fetch's answer, the others' records within the budget, and their headers. */
const MAX_BUNDLE_RESPONSE_BYTES =
  MAX_FETCH_RESPONSE_BYTES + BUNDLE_RECORDS_BUDGET_BYTES + MAX_BUNDLE_ENTRIES * MAX_CONTROL_BYTES

/** Replica fetches this peer served, as leader: alone, or in bundles (and the fetches those held). */
export interface ReplicaFetchStats {
  single: number
  bundles: number
  bundledFetches: number
}

/**
 * Raft between peers over libp2p: vote, quorum-epoch and timeout-now messages share `/tributary/raft`
 * (a kind byte, then the protobuf message), replica fetches — long polls that may wait —
 * use `/tributary/raft-fetch` so they never hold up an election. Each request names its
 * partition; the handler routes it to the replica, after checking that the id the message
 * claims (candidate, leader, fetching replica) is the authenticated remote peer. Caught-up
 * replicas' fetches to one leader travel together over `/tributary/raft-fetch-bundle`.
 */
export class RaftRpc implements RaftTransport {
  private readonly clients = new Map<string, RpcClient>()
  private readonly served: ReplicaFetchStats = { single: 0, bundles: 0, bundledFetches: 0 }
  /** Partitions whose last replica fetch from here brought records: their next one goes alone. */
  private readonly busy = new Set<string>()
  /** Each follower's fetches parked here, answered together (replica-fetch-bundles.ts). */
  private readonly parked = new ParkedFetches()
  private readonly unregister: UnregisterRpcHandler[] = []
  private readonly bundler = new FetchBundler({
    single: (to, request, options) => this.fetchAlone(to, request, options),
    bundle: (to, request, options) => this.client(to, PROTOCOLS.raftFetchBundle).request(request, options),
  })

  constructor(
    private readonly node: Libp2p,
    private readonly logger: Logger,
  ) {}

  async start(lookup: (partition: string) => RaftRequestHandler | undefined): Promise<void> {
    const route = (partition: string): RaftRequestHandler => {
      const handler = lookup(partition)
      if (handler === undefined) throw new UnknownTopicOrPartitionError(`no replica of ${partition} here`)
      return handler
    }
    this.unregister.push(
      await registerRpcHandler(
        this.node,
        PROTOCOLS.raft,
        async (request, { peerId, signal }) => {
          const body = request.subarray(1)
          switch (request[0]) {
            case Kind.Vote: {
              const vote = decodeVoteRequest(body)
              claimedBy(vote.candidateId, peerId, 'vote')
              return encodeVoteResponse(await route(vote.partition).handleVote(vote, { signal }))
            }
            case Kind.BeginQuorumEpoch: {
              const begin = decodeBeginQuorumEpochRequest(body)
              claimedBy(begin.leaderId, peerId, 'begin-quorum-epoch')
              return encodeQuorumEpochResponse(await route(begin.partition).handleBeginQuorumEpoch(begin, { signal }))
            }
            case Kind.EndQuorumEpoch: {
              const end = decodeEndQuorumEpochRequest(body)
              claimedBy(end.leaderId, peerId, 'end-quorum-epoch')
              return encodeQuorumEpochResponse(await route(end.partition).handleEndQuorumEpoch(end, { signal }))
            }
            case Kind.TimeoutNow: {
              const handOver = decodeTimeoutNowRequest(body)
              claimedBy(handOver.leaderId, peerId, 'timeout-now')
              return encodeQuorumEpochResponse(await route(handOver.partition).handleTimeoutNow(handOver, { signal }))
            }
            default:
              throw new InvalidRequestError(`unknown raft message kind ${request[0]}`)
          }
        },
        { maxRequestBytes: MAX_CONTROL_BYTES, logger: this.logger, maxInboundStreams: 64 },
      ),
    )
    this.unregister.push(
      await registerRpcHandler(
        this.node,
        PROTOCOLS.raftFetch,
        async (request, { peerId, signal }) => {
          const fetch = decodeReplicaFetchRequest(request)
          claimedBy(fetch.replicaId, peerId, 'replica fetch')
          this.served.single++
          const answer = await this.parked.run(
            peerId,
            signal,
            (answerNow) => route(fetch.partition).handleFetch(fetch, { signal: answerNow }),
            (a) => a.records.byteLength > 0,
          )
          return encodeReplicaFetchResponse(answer)
        },
        // One long poll per partition this peer follows: room for many partitions per stream.
        { maxRequestBytes: MAX_CONTROL_BYTES, maxInFlightPerStream: 512, logger: this.logger, maxInboundStreams: 64 },
      ),
    )
    this.unregister.push(
      await registerRpcHandler(
        this.node,
        PROTOCOLS.raftFetchBundle,
        async (request, { peerId, signal }) => {
          const entries = decodeBundleRequest(request)
          this.served.bundles++
          this.served.bundledFetches += entries.length
          const answered = await this.parked.run(
            peerId,
            signal,
            (wake) =>
              answerBundle(
                entries,
                async (entry, answerNow) => {
                  const fetch = decodeReplicaFetchRequest(entry)
                  claimedBy(fetch.replicaId, peerId, 'replica fetch')
                  return route(fetch.partition).handleFetch(fetch, { signal: answerNow })
                },
                wake,
                PROTOCOLS.raftFetchBundle,
              ),
            (a) => a.recordBytes > 0,
          )
          return answered.bytes
        },
        {
          maxRequestBytes: MAX_BUNDLE_REQUEST_BYTES,
          maxInFlightPerStream: 64,
          logger: this.logger,
          maxInboundStreams: 64,
        },
      ),
    )
  }

  /** Replica fetches served so far (for metrics). */
  fetchStats(): ReplicaFetchStats {
    return { ...this.served }
  }

  private client(to: string, protocol: string): RpcClient {
    const key = `${protocol} ${to}`
    let client = this.clients.get(key)
    if (client === undefined) {
      const fetch = protocol === PROTOCOLS.raftFetch
      const bundle = protocol === PROTOCOLS.raftFetchBundle
      client = new RpcClient(this.node, peerIdFromString(to), protocol, {
        maxRequestBytes: bundle ? MAX_BUNDLE_REQUEST_BYTES : MAX_CONTROL_BYTES,
        maxResponseBytes: bundle ? MAX_BUNDLE_RESPONSE_BYTES : fetch ? MAX_FETCH_RESPONSE_BYTES : MAX_CONTROL_BYTES,
        maxInFlight: fetch ? 512 : bundle ? 64 : 32,
        dialTimeoutMs: 2000,
        logger: this.logger,
      })
      this.clients.set(key, client)
    }
    return client
  }

  private async control(to: string, kind: Kind, body: Uint8Array, options: RaftRequestOptions): Promise<Uint8Array> {
    const request = new Uint8Array(body.length + 1)
    request[0] = kind
    request.set(body, 1)
    return this.client(to, PROTOCOLS.raft).request(request, options)
  }

  async vote(to: string, request: VoteRequest, options: RaftRequestOptions): Promise<VoteResponse> {
    return decodeVoteResponse(await this.control(to, Kind.Vote, encodeVoteRequest(request), options))
  }

  async beginQuorumEpoch(
    to: string,
    request: BeginQuorumEpochRequest,
    options: RaftRequestOptions,
  ): Promise<BeginQuorumEpochResponse> {
    return decodeQuorumEpochResponse(
      await this.control(to, Kind.BeginQuorumEpoch, encodeBeginQuorumEpochRequest(request), options),
    )
  }

  async endQuorumEpoch(
    to: string,
    request: EndQuorumEpochRequest,
    options: RaftRequestOptions,
  ): Promise<EndQuorumEpochResponse> {
    return decodeQuorumEpochResponse(
      await this.control(to, Kind.EndQuorumEpoch, encodeEndQuorumEpochRequest(request), options),
    )
  }

  async timeoutNow(to: string, request: TimeoutNowRequest, options: RaftRequestOptions): Promise<TimeoutNowResponse> {
    return decodeQuorumEpochResponse(await this.control(to, Kind.TimeoutNow, encodeTimeoutNowRequest(request), options))
  }

  /**
   * A replica whose last fetch brought records fetches again at once and alone: under load each
   * partition keeps its own pipeline (gathering busy partitions into bundles cost 40% of acks=all
   * throughput in the mesh bench). A caught-up replica's fetch is gathered with this turn's other
   * fetches to the same leader (replica-fetch-bundles.ts).
   */
  async fetch(to: string, request: ReplicaFetchRequest, options: RaftRequestOptions): Promise<ReplicaFetchResponse> {
    const encoded = encodeReplicaFetchRequest(request)
    const busy = this.busy.has(request.partition)
    this.busy.delete(request.partition)
    const response = decodeReplicaFetchResponse(
      busy ? await this.fetchAlone(to, encoded, options) : await this.bundler.fetch(to, encoded, options),
    )
    if (response.records.byteLength > 0 && this.busy.size < MAX_BUSY_PARTITIONS) this.busy.add(request.partition)
    return response
  }

  private fetchAlone(to: string, request: Uint8Array, options: RaftRequestOptions): Promise<Uint8Array> {
    return this.client(to, PROTOCOLS.raftFetch).request(request, options)
  }

  async stop(): Promise<void> {
    for (const unregister of this.unregister.splice(0)) await unregister().catch(() => {})
    await Promise.all([...this.clients.values()].map((c) => c.close()))
    this.clients.clear()
  }
}

function claimedBy(claimed: string, remote: string, what: string): void {
  if (claimed !== remote)
    throw new InvalidRequestError(`${what} claims to come from ${claimed} but arrived from ${remote}`)
}
