/**
 * How a partition replica talks to the other replicas of its partition. The peer implements it
 * over libp2p RPC (encode with `messages.ts`, route by `request.partition`, decode the answer);
 * the simulation implements it over an in-memory network. Requests and responses are plain
 * values; a transport failure (unreachable peer, timeout, reset stream) is a rejected promise.
 */
import type {
  BeginQuorumEpochRequest,
  BeginQuorumEpochResponse,
  EndQuorumEpochRequest,
  EndQuorumEpochResponse,
  ReplicaFetchRequest,
  ReplicaFetchResponse,
  TimeoutNowRequest,
  TimeoutNowResponse,
  VoteRequest,
  VoteResponse,
} from './messages.js'

export interface RaftRequestOptions {
  /** Aborts the request (the replica stopped, or the caller's timeout passed). */
  signal: AbortSignal
  /** How long the caller will wait; the signal also fires then. */
  timeoutMs: number
}

/** The outbound side: one method per Raft request, addressed to a peer id. */
export interface RaftTransport {
  vote(to: string, request: VoteRequest, options: RaftRequestOptions): Promise<VoteResponse>
  beginQuorumEpoch(
    to: string,
    request: BeginQuorumEpochRequest,
    options: RaftRequestOptions,
  ): Promise<BeginQuorumEpochResponse>
  endQuorumEpoch(
    to: string,
    request: EndQuorumEpochRequest,
    options: RaftRequestOptions,
  ): Promise<EndQuorumEpochResponse>
  fetch(to: string, request: ReplicaFetchRequest, options: RaftRequestOptions): Promise<ReplicaFetchResponse>
  timeoutNow(to: string, request: TimeoutNowRequest, options: RaftRequestOptions): Promise<TimeoutNowResponse>
}

/**
 * The inbound side, implemented by `PartitionRaft`: what an RPC handler calls after decoding a
 * request and looking up the partition by `request.partition`. Each validates its request
 * (InvalidRequestError when malformed) and resolves with the response to send back.
 */
export interface RaftRequestHandler {
  handleVote(request: VoteRequest, options?: { signal?: AbortSignal }): Promise<VoteResponse>
  handleBeginQuorumEpoch(
    request: BeginQuorumEpochRequest,
    options?: { signal?: AbortSignal },
  ): Promise<BeginQuorumEpochResponse>
  handleEndQuorumEpoch(
    request: EndQuorumEpochRequest,
    options?: { signal?: AbortSignal },
  ): Promise<EndQuorumEpochResponse>
  handleFetch(request: ReplicaFetchRequest, options?: { signal?: AbortSignal }): Promise<ReplicaFetchResponse>
  handleTimeoutNow(request: TimeoutNowRequest, options?: { signal?: AbortSignal }): Promise<TimeoutNowResponse>
}
