import type { PartitionLog } from '@tributary/log'
import type { Logger } from '../logger.js'
import type { LeaderState } from './leader-state.js'
import type { QuorumState } from './quorum-state.js'
import type { RaftRequestOptions, RaftTransport } from './transport.js'
import type { QuorumRules, RaftClock, RaftConfig, RaftStats, ReplicaPlacement } from './types.js'

/**
 * What the role helpers (elections, the follower's fetcher, the leader's fetch handler) see of
 * their replica. `PartitionRaft` implements it; transitions go through it so that entering a
 * state always starts that state's work (fetching, asking for votes, announcing leadership).
 * Methods marked "locked" must be called while holding the replica's serial lock.
 */
export interface RaftCore {
  readonly partition: string
  readonly localId: string
  readonly observerIds: readonly string[]
  readonly log: PartitionLog
  readonly quorum: QuorumState
  readonly transport: RaftTransport
  readonly clock: RaftClock
  readonly random: () => number
  readonly config: Readonly<RaftConfig>
  readonly rules: QuorumRules
  readonly logger: Logger
  readonly stopped: boolean
  /** How replacement voters are found; undefined: voters are never replaced. */
  readonly placement: ReplicaPlacement | undefined
  /** Counters of what this replica did as leader. */
  readonly stats: RaftStats

  /** Runs `task` under the replica's serial lock; rejects with NotLeaderOrFollowerError once stopped. */
  locked<T>(task: () => Promise<T> | T): Promise<T>
  /** Calls the transport with a timeout and the replica's stop signal. */
  request<T>(what: string, timeoutMs: number, call: (options: RaftRequestOptions) => Promise<T>): Promise<T>

  /** Locked. Learned of `epoch` (and maybe its leader) from a peer: move forward if it is news. */
  observeLeader(epoch: number, leaderId: string | undefined): Promise<void>
  /** Locked. */
  becomeUnattached(epoch: number, votedFor?: string): Promise<void>
  /** Locked. */
  becomeProspective(): Promise<void>
  /** Locked. */
  becomeCandidate(): Promise<void>
  /** Locked. */
  becomeLeader(): Promise<void>
  /** Locked. The leader's high watermark moved: publish it to the log, waiters and listeners. */
  leaderHighWatermarkMoved(state: LeaderState): void
  /** Locked. A follower learned a high watermark (already capped at its log end). */
  followerHighWatermark(offset: number): void
  /** Locked. Re-arms the replica's timer for the current state's deadline. */
  reschedule(): void
  /** Wakes replica fetches held open on the leader (new data, a new high watermark, a new role). */
  wakeFetches(): void
  /** Locked. The voter set or the leader's learners changed: tell listeners. */
  membershipChanged(): void
}
