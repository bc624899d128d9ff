/**
 * Shared shapes of the per-partition Raft: roles, the injected clock, persisted quorum state,
 * settings, the quorum rules the roles apply, and PartitionRaft's options and results.
 */
import type { AppendResult, PartitionLog } from '@tributary/log'
import type { Logger } from '../logger.js'
import type { RaftTransport } from './transport.js'

export type RaftRole = 'unattached' | 'follower' | 'candidate' | 'leader'

/** Opaque timer handle returned by `RaftClock.setTimeout`. */
export type TimerHandle = unknown

/**
 * Time as the Raft layer sees it. Injected so one code path runs under real time and under the
 * deterministic simulation's fake clock.
 */
export interface RaftClock {
  /** Milliseconds; only differences matter. */
  now(): number
  setTimeout(fn: () => void, ms: number): TimerHandle
  clearTimeout(handle: TimerHandle): void
}

/** What must survive a restart before a replica acts on it: Raft's current term and vote. */
export interface PersistedQuorumState {
  epoch: number
  /** The candidate this replica voted for in `epoch`, if any (itself, once it stood). */
  votedFor?: string
  /** The leader of `epoch`, once known. */
  leaderId?: string
}

/**
 * Durable home of one partition's quorum state. `save` must be durable when it resolves: a
 * vote is answered and an epoch is acted on only after it.
 */
export interface QuorumStateStore {
  load(options?: { signal?: AbortSignal }): Promise<PersistedQuorumState | undefined>
  save(state: PersistedQuorumState, options?: { signal?: AbortSignal }): Promise<void>
}

/** Per-partition settings. Names follow KRaft's `controller.quorum.*` and Kafka's replica settings. */
export interface RaftConfig {
  /** Base election timeout T; each wait is drawn from [T, 2T) (`controller.quorum.election.timeout.ms`). */
  electionTimeoutMs: number
  /**
   * A follower that has not fetched successfully for this long stands for election; a leader
   * not fetched from by a majority of voters for this long resigns (`controller.quorum.fetch.timeout.ms`).
   */
  fetchTimeoutMs: number
  /** Longest time the leader holds a replica fetch open waiting for data (`replica.fetch.wait.max.ms`). */
  fetchMaxWaitMs: number
  /** Bytes a replica asks for per fetch; the first batch comes whole regardless (`replica.fetch.max.bytes`). */
  fetchMaxBytes: number
  /** A voter not caught up within this long drops out of the in-sync set (`replica.lag.time.max.ms`). */
  replicaLagTimeMaxMs: number
  /** Timeout of Vote, BeginQuorumEpoch and EndQuorumEpoch requests, and added to a fetch's wait. */
  requestTimeoutMs: number
  /** Pause after a failed fetch before the next one (`replica.fetch.backoff.ms`). */
  retryBackoffMs: number
  /** Most `waitForCommit` calls pending at once; more fail fast instead of queueing without bound. */
  maxPendingCommits: number
  /** Most replica fetches held open at once on the leader; more are answered at once. */
  maxPendingFetches: number
}

export const DEFAULT_RAFT_CONFIG: Readonly<RaftConfig> = Object.freeze({
  electionTimeoutMs: 1000,
  fetchTimeoutMs: 2000,
  fetchMaxWaitMs: 500,
  fetchMaxBytes: 1024 * 1024,
  replicaLagTimeMaxMs: 30_000,
  requestTimeoutMs: 2000,
  retryBackoffMs: 50,
  maxPendingCommits: 10_000,
  maxPendingFetches: 1024,
})

/** A log's tail as the up-to-date rule compares it: epoch of the last batch, and the log end offset. */
export interface LogPosition {
  epoch: number
  offset: number
}

/**
 * The rules safety rests on, factored out so the simulation can plant a broken one and
 * show its invariant checks catch it. Production code always uses `DEFAULT_QUORUM_RULES`.
 */
export interface QuorumRules {
  /** The largest offset held by a majority, given every voter's log end offset (unknown = -1). */
  majorityEndOffset(voterEndOffsets: readonly number[]): number
  /**
   * Raft §5.4.2: a leader's high watermark may move to `offset` only once a record of its own
   * epoch is held by a majority; its epoch's first record sits at `epochStartOffset`.
   */
  commitsOwnEpoch(offset: number, epochStartOffset: number): boolean
  /** Raft's up-to-date rule (§5.4.1): may a voter whose log ends at `local` vote for `candidate`? */
  isLogUpToDate(candidate: LogPosition, local: LogPosition): boolean
}

export const DEFAULT_QUORUM_RULES: Readonly<QuorumRules> = Object.freeze({
  majorityEndOffset(voterEndOffsets: readonly number[]): number {
    const sorted = [...voterEndOffsets].sort((a, b) => b - a)
    // With n voters, the (⌊n/2⌋+1)-th largest end offset is held by a majority.
    return sorted[Math.floor(sorted.length / 2)] ?? -1
  },
  commitsOwnEpoch(offset: number, epochStartOffset: number): boolean {
    return offset > epochStartOffset
  },
  isLogUpToDate(candidate: LogPosition, local: LogPosition): boolean {
    return candidate.epoch > local.epoch || (candidate.epoch === local.epoch && candidate.offset >= local.offset)
  },
})

/** What `onChange` listeners see after every change of role, leader, epoch or high watermark. */
export interface RaftChange {
  role: RaftRole
  leaderId: string | undefined
  epoch: number
  highWatermark: number
}

export interface PartitionRaftInit {
  /** Routing key carried by every message, e.g. `<topicId>-<partition>`. */
  partition: string
  localId: string
  /** Peer ids that vote and count towards the high watermark. */
  voters: readonly string[]
  /** Peer ids that replicate but never vote or count. */
  observers?: readonly string[]
  /** The replica's log; the caller opens and closes it. */
  log: PartitionLog
  store: QuorumStateStore
  transport: RaftTransport
  clock?: RaftClock
  /** Uniform in [0, 1); seeded in the simulation. */
  random?: () => number
  logger?: Logger
  config?: Partial<RaftConfig>
  /** @internal Only the simulation's planted-bug tests replace these. */
  rules?: Partial<QuorumRules>
}

export interface LeaderAppendResult extends AppendResult {
  /** The epoch the batches were stamped with; pass it to `waitForCommit`. */
  leaderEpoch: number
}

export interface WaitForCommitOptions {
  /** The epoch of the append (default: the current one). */
  epoch?: number
  signal?: AbortSignal
  /** Default 30 s (Kafka's `request.timeout.ms`). */
  timeoutMs?: number
}
