/**
 * The messages a group's members and its coordinator exchange, as the state machines use them
 * (numbers, `undefined` for "none"). Bytes are in codec.ts. A member sends a GroupRequest; the
 * coordinator answers each with one GroupResponse of the same kind, addressed to the request's
 * `sender` and echoing its `requestId`. A JoinGroup answer waits until the rebalance completes.
 */
import type { TopicPartition } from '../topic-partition.js'

export interface RequestHeader {
  groupId: string
  /** The member's nonce for its current identity (1-64 characters); answers are addressed to it. */
  sender: string
  /** Increases with every request of one sender (a positive safe integer). */
  requestId: number
}

export interface JoinGroupBody {
  kind: 'join'
  /** '' on a first join. */
  memberId: string
  groupInstanceId: string | undefined
  clientId: string
  protocolType: string
  /** Assignor names, most preferred first. */
  protocols: string[]
  sessionTimeoutMs: number
  rebalanceTimeoutMs: number
  topics: string[]
  /** What the member holds now, and the generation that assignment came from (-1: none). */
  owned: TopicPartition[]
  ownedGeneration: number
  reason: string
  /** When this incarnation started (ms, the member's clock): a static instance goes only to a later one. */
  startedAt: number
}

export interface SyncGroupBody {
  kind: 'sync'
  memberId: string
  groupInstanceId: string | undefined
  generation: number
}

export interface HeartbeatBody {
  kind: 'heartbeat'
  memberId: string
  groupInstanceId: string | undefined
  generation: number
  /**
   * The coordinator may park the answer this long and answers it at once when a rebalance starts
   * (or the member's next heartbeat arrives): members hear of a rebalance within a round trip.
   * 0 or absent: answer now, as Kafka's Heartbeat does.
   */
  maxWaitMs?: number
}

export interface LeaveGroupBody {
  kind: 'leave'
  memberId: string
  groupInstanceId: string | undefined
  reason: string
}

export interface CommitOffset {
  topic: string
  partition: number
  /** The next offset to consume. */
  offset: number
  /** Leader epoch of the last consumed record; -1 when unknown. */
  leaderEpoch: number
  metadata: string
}

export interface OffsetCommitBody {
  kind: 'commit'
  /** '' with generation -1: a commit from outside any generation, accepted only while the group is empty. */
  memberId: string
  groupInstanceId: string | undefined
  generation: number
  offsets: CommitOffset[]
}

export interface OffsetFetchBody {
  kind: 'fetch'
  /** undefined: everything the group has committed. */
  partitions: TopicPartition[] | undefined
}

export type GroupRequestBody =
  | JoinGroupBody
  | SyncGroupBody
  | HeartbeatBody
  | LeaveGroupBody
  | OffsetCommitBody
  | OffsetFetchBody

export type GroupRequest = RequestHeader & GroupRequestBody
export type RequestKind = GroupRequestBody['kind']

export interface ResponseHeader {
  groupId: string
  /** The request's sender. */
  recipient: string
  requestId: number
  /** Kafka error code for the whole request; 0 = none. */
  errorCode: number
  errorMessage: string
  /**
   * The coordinator took the request as a sign of life of the member, renewing its session from
   * the moment it received the request. Only such answers extend the member's hold on its partitions.
   */
  sessionRenewed: boolean
  /** With NOT_COORDINATOR: the coordinator's peer id as far as the answering peer knows. */
  coordinatorHint?: string
}

export interface JoinGroupResult {
  kind: 'join'
  generation: number
  protocol: string
  memberId: string
}

export interface SyncGroupResult {
  kind: 'sync'
  generation: number
  protocol: string
  assignment: TopicPartition[]
  /** Partitions the coordinator believes the member still holds and must release, then rejoin. */
  revoke: TopicPartition[]
}

export interface HeartbeatResult {
  kind: 'heartbeat'
}

export interface LeaveGroupResult {
  kind: 'leave'
}

export interface PartitionResult {
  topic: string
  partition: number
  errorCode: number
  errorMessage: string
}

export interface OffsetCommitResult {
  kind: 'commit'
  /** One per partition of the request (all NONE when the whole request failed: see errorCode). */
  results: PartitionResult[]
}

export interface FetchedOffset {
  topic: string
  partition: number
  /** -1: nothing committed. */
  offset: number
  leaderEpoch: number
  metadata: string
}

export interface OffsetFetchResult {
  kind: 'fetch'
  offsets: FetchedOffset[]
}

export type GroupResponseBody =
  | JoinGroupResult
  | SyncGroupResult
  | HeartbeatResult
  | LeaveGroupResult
  | OffsetCommitResult
  | OffsetFetchResult

export type GroupResponse = ResponseHeader & GroupResponseBody
