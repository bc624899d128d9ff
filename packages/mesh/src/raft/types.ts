/**
 * Shared shapes of the per-partition Raft: roles, the injected clock, persisted quorum state,
 * settings, the quorum rules the roles apply, and PartitionRaft's options and results.
 */
import type { AppendResult, PartitionLog } from '@tributary/log'
import type { Logger } from '../logger.js'
import type { RaftTransport } from './transport.js'
import type { PersistedVoterHistory } from './voter-history.js'

export type RaftRole = 'unattached' | 'follower' | 'prospective' | 'candidate' | 'leader'

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
  /** The voter sets of the log (absent in state written before voter changes existed). */
  voterHistory?: PersistedVoterHistory
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
  /**
   * A voter out of the in-sync set for this long is replaced: the leader adds a caught-up
   * learner and then removes it, one voter change at a time (`replica.replacement.delay.ms`).
   */
  replicaReplacementDelayMs: number
  /**
   * How often a leader checks that it is its partition's preferred leader (the first voter), and
   * hands leadership over when that voter is in sync (Kafka's `leader.imbalance.check.interval.seconds`).
   */
  leaderImbalanceCheckIntervalMs: number
  /** Whether leaders hand leadership to the preferred leader (Kafka's `auto.leader.rebalance.enable`). */
  autoLeaderRebalanceEnable: boolean
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
  // Long enough to ride out a restart or a rolling upgrade, short enough that a lost peer's
  // replicas are rebuilt within minutes, not when an operator notices.
  replicaReplacementDelayMs: 60_000,
  leaderImbalanceCheckIntervalMs: 300_000,
  autoLeaderRebalanceEnable: true,
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
  /** Raft §4.1: a leader changes the voter set only when no earlier change is uncommitted. */
  mayChangeVoters(uncommittedChanges: number): boolean
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
  mayChangeVoters(uncommittedChanges: number): boolean {
    return uncommittedChanges === 0
  },
})

/**
 * What `onChange` listeners see after every change of role, leader, epoch, high watermark, voter
 * set or learners.
 */
export interface RaftChange {
  role: RaftRole
  leaderId: string | undefined
  epoch: number
  highWatermark: number
  /** Offset of the VotersRecord of the current voter set (-1: the initial one; undefined: unknown). */
  votersOffset: number | undefined
  /** The leader's learners (empty elsewhere). */
  learners: readonly string[]
}

/** What a replica did as its partition's leader, counted since it started. */
export interface RaftStats {
  /** Voters added and removed by VotersRecords it appended. */
  votersAdded: number
  votersRemoved: number
  /** Leadership hand-overs it started (TimeoutNow sent to the preferred leader). */
  leadershipTransfers: number
}

/** Where replacement voters come from: the partition's target size and the peers able to host it. */
export interface ReplicaPlacement {
  /** Voters the partition should have (the topic's replication factor). */
  replicationFactor: number
  /**
   * Peers that could host a replica now (alive voting peers), best first — placement's rendezvous
   * order, so every leader picks the same. Current voters and learners are skipped.
   */
  candidates(): readonly string[]
}

export interface PartitionRaftInit {
  /** Routing key carried by every message, e.g. `<topicId>-<partition>`. */
  partition: string
  localId: string
  /**
   * Peer ids that vote and count towards the high watermark, preferred leader first: the
   * partition's initial placement, or a committed voter set an authority reported. The voter set
   * saved with the quorum state (kept in step with the log's VotersRecords) wins over it.
   */
  voters: readonly string[]
  /** Offset of the VotersRecord that made `voters` the voter set (default -1: the initial placement). */
  votersOffset?: number
  /** Peer ids that replicate but never vote or count. */
  observers?: readonly string[]
  /**
   * Whether a peer outside the configured replicas may replicate as an observer (the leader asks
   * at its first fetch): a browser peer following the partition. Default: nobody may.
   */
  admitObserver?: (replicaId: string) => boolean
  /** How the leader finds replacement voters; without it, voters are never replaced. */
  placement?: ReplicaPlacement
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
