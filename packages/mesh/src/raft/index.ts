/**
 * Per-partition Raft, pull-based as in Kafka's KRaft (KIP-595). Each replica of a partition
 * runs a `PartitionRaft` over its log: voters elect a leader (randomized timeouts, the
 * up-to-date-log rule, one persisted vote per epoch), followers and observers fetch from it
 * with their last fetched epoch and truncate where they diverge, and the high watermark is the
 * offset a majority of voters holds. Leader epochs are Raft terms, stamped on every batch.
 * Voters ask for pre-votes before they stand (KIP-996); the voter set lives in the log
 * (VotersRecords, one voter changed at a time) and the leader replaces a voter long out of sync
 * through a learner; a leader that is not its partition's preferred one hands over to it.
 *
 * ```ts
 * import { MemoryQuorumStateStore, PartitionRaft } from './raft/index.js'
 *
 * const raft = new PartitionRaft({
 *   partition: `${topicId}-0`, localId: peerId, voters: replicas, log,
 *   store: new MemoryQuorumStateStore(), transport, // RaftTransport over libp2p RPC
 * })
 * raft.onChange(({ role, leaderId, epoch, highWatermark }) => hosted.notify())
 * await raft.start()
 * // produce (on the leader)
 * const appended = await raft.appendAsLeader(batches)                           // acks=1
 * await raft.waitForCommit(appended.lastOffset, { epoch: appended.leaderEpoch }) // acks=all
 * // inbound RPC: decode with messages.ts, then raft.handleVote / handleBeginQuorumEpoch /
 * // handleEndQuorumEpoch / handleTimeoutNow / handleFetch, and encode the answer
 * await raft.stop()
 * ```
 */
export { systemClock } from './clock.js'
export { resolveRaftConfig } from './config.js'
export {
  CONTROL_TYPE_LEADER_CHANGE,
  CONTROL_TYPE_VOTERS,
  controlRecordType,
  leaderChangeBatch,
  voterSetsIn,
  votersBatch,
} from './control-batch.js'
export type { ReplicaProgress } from './leader-state.js'
export { type Assignment, isRemoved } from './membership.js'
export {
  type BeginQuorumEpochRequest,
  type BeginQuorumEpochResponse,
  type DivergingEpoch,
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
  type QuorumEpochResponse,
  type ReplicaFetchRequest,
  type ReplicaFetchResponse,
  type TimeoutNowRequest,
  type TimeoutNowResponse,
  type VoteRequest,
  type VoteResponse,
} from './messages.js'
export { IllegalRaftTransitionError } from './quorum-state.js'
export { MemoryQuorumStateStore, validatePersistedQuorumState } from './quorum-store.js'
export { PartitionRaft } from './raft-node.js'
export type { RaftRequestHandler, RaftRequestOptions, RaftTransport } from './transport.js'
export {
  DEFAULT_RAFT_CONFIG,
  type LeaderAppendResult,
  type PartitionRaftInit,
  type PersistedQuorumState,
  type QuorumStateStore,
  type RaftChange,
  type RaftClock,
  type RaftConfig,
  type RaftRole,
  type RaftStats,
  type ReplicaPlacement,
  type WaitForCommitOptions,
} from './types.js'
export { isSingleChange, type VoterSet } from './voter-history.js'
