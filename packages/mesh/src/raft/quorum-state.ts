import type { PartitionLog } from '@tributary/log'
import { TributaryError } from '@tributary/wire'
import { CandidateState } from './candidate-state.js'
import { FollowerState } from './follower-state.js'
import { LeaderState } from './leader-state.js'
import { ProspectiveState } from './prospective-state.js'
import { validatePersistedQuorumState } from './quorum-store.js'
import type { PersistedQuorumState, QuorumRules, QuorumStateStore, RaftClock, RaftConfig } from './types.js'
import { UnattachedState } from './unattached-state.js'
import { VoterHistory, type VoterSet } from './voter-history.js'
import { scanVoterSets } from './voter-log.js'

export type EpochState = UnattachedState | FollowerState | ProspectiveState | CandidateState | LeaderState

/** A transition that Raft forbids was attempted: a bug in the caller, never a network condition. */
export class IllegalRaftTransitionError extends TributaryError {
  static override name = 'IllegalRaftTransitionError'
  constructor(message: string) {
    super(message, { retriable: false })
  }
}

export interface QuorumStateInit {
  partition: string
  localId: string
  /** The voter set to start from when nothing is stored: the placement, or a committed set. */
  voters: readonly string[]
  votersOffset: number
  observers: readonly string[]
  store: QuorumStateStore
  log: PartitionLog
  clock: RaftClock
  random: () => number
  config: RaftConfig
  rules: QuorumRules
}

/**
 * The one owner of a replica's role, epoch and voter set (KRaft's QuorumState). Every transition
 * is checked against Raft's rules, and the new epoch, vote and leader are saved to the store
 * *before* the new state takes effect — so a replica never acts on, or answers with, a term or
 * vote that a crash could make it forget. The voter set follows the log's VotersRecords (see
 * voter-history.ts) and is saved with them: written ahead of an append that carries one, after a
 * truncation that removes one, so a restart finds the set its log defines.
 */
export class QuorumState {
  private current: EpochState | undefined
  private readonly history: VoterHistory
  /** The write-ahead mark saved with the history (see PersistedVoterHistory.scanFrom). */
  private scanFrom: number | undefined
  private lastSaved = ''

  constructor(private readonly init: QuorumStateInit) {
    this.history = new VoterHistory({ base: { offset: init.votersOffset, voters: [...init.voters] }, entries: [] })
  }

  get state(): EpochState {
    if (this.current === undefined) throw new IllegalRaftTransitionError('quorum state is not initialized')
    return this.current
  }

  get epoch(): number {
    return this.state.epoch
  }

  /** The current voter set (empty while unknown), preferred leader first. */
  get voters(): readonly string[] {
    return this.history.latest()?.voters ?? []
  }

  /** The current voter set with the offset of its record, undefined while unknown. */
  get voterSet(): VoterSet | undefined {
    return this.history.latest()
  }

  /** The newest voter set committed below `highWatermark`. */
  committedVoterSet(highWatermark: number): VoterSet | undefined {
    return this.history.committed(highWatermark)
  }

  /** Voter changes at or above `highWatermark`, not committed yet. */
  uncommittedVoterChanges(highWatermark: number): number {
    return this.history.uncommitted(highWatermark)
  }

  get localIsVoter(): boolean {
    return this.voters.includes(this.init.localId)
  }

  isVoter(id: string): boolean {
    return this.voters.includes(id)
  }

  /**
   * Whether `id` may lead this replica: a voter of its set. A replica that is no voter itself (a
   * learner replaying an old voter set, or one that lost track of it) follows whoever leads:
   * it never votes, so following a wrong claim costs it nothing but a failed fetch.
   */
  mayFollow(id: string): boolean {
    return id !== this.init.localId && (this.isVoter(id) || !this.localIsVoter)
  }

  /**
   * How long a follower waits without a successful fetch before it stands: the fetch timeout
   * plus up to half of it again, drawn afresh each time. Followers that last heard from a
   * leader at the same moment would otherwise all stand at once and split the vote.
   */
  randomFetchTimeout(): number {
    const t = this.init.config.fetchTimeoutMs
    return t + Math.floor(this.init.random() * (t / 2))
  }

  /** A fresh election deadline, drawn from [T, 2T) so that split votes resolve. */
  randomElectionDeadline(): number {
    const t = this.init.config.electionTimeoutMs
    return this.init.clock.now() + t + Math.floor(this.init.random() * t)
  }

  /**
   * Loads the persisted state (an epoch the log already holds wins over an older one) and the
   * voter sets, reconciled with the log: sets at or above its end were never appended or were
   * truncated away; past a write-ahead mark, the log is scanned for sets never listed.
   */
  async initialize(options: { signal?: AbortSignal } = {}): Promise<void> {
    const loaded = await this.init.store.load(options)
    const stored = loaded === undefined ? undefined : validatePersistedQuorumState(loaded)
    const { log } = this.init
    if (stored?.voterHistory !== undefined) {
      const h = stored.voterHistory
      this.history.forget()
      if (h.base !== undefined) this.history.adopt(h.base)
      for (const e of h.entries) this.history.append(e)
      this.history.truncate(log.logEndOffset)
      this.scanFrom = h.scanFrom
    } else if (stored !== undefined && log.logEndOffset > log.logStartOffset) {
      // State saved before voter sets were: the log is the only record of them.
      this.scanFrom = log.logStartOffset
    }
    if (this.scanFrom !== undefined) {
      for (const set of await scanVoterSets(log, this.scanFrom, options.signal)) this.history.append(set)
      this.scanFrom = undefined
    }
    const logEpoch = log.latestEpoch()
    const { localId } = this.init
    if (stored === undefined || stored.epoch < logEpoch) {
      await this.persistThenSet(
        new UnattachedState(Math.max(0, logEpoch, stored?.epoch ?? 0), undefined, this.randomElectionDeadline()),
      )
    } else if (stored.leaderId !== undefined && stored.leaderId !== localId && this.mayFollow(stored.leaderId)) {
      this.current = new FollowerState(
        stored.epoch,
        stored.leaderId,
        stored.votedFor,
        this.init.clock.now() + this.randomFetchTimeout(),
      )
      await this.save()
    } else {
      // A leader that restarts does not lead again in its old epoch (KRaft's Resigned): it waits
      // as unattached, still bound by the vote it cast for itself.
      this.current = new UnattachedState(stored.epoch, stored.votedFor, this.randomElectionDeadline())
      await this.save()
    }
  }

  /** Enters `epoch` (higher than the current one) knowing no leader, or having granted a vote. */
  async transitionToUnattached(epoch: number, votedFor?: string): Promise<void> {
    const s = this.state
    if (epoch > s.epoch) return this.persistThenSet(new UnattachedState(epoch, votedFor, this.randomElectionDeadline()))
    if (epoch < s.epoch) throw this.illegal(`unattached in epoch ${epoch}`)
    if (votedFor !== undefined) {
      const free = s.role === 'unattached' || (s.role === 'prospective' && s.leaderId === undefined)
      if (!free || (s.votedFor !== undefined && s.votedFor !== votedFor)) {
        throw this.illegal(`vote for ${votedFor} in epoch ${epoch}`)
      }
      if (s.role === 'unattached' && s.votedFor === votedFor) return
      return this.persistThenSet(new UnattachedState(epoch, votedFor, this.randomElectionDeadline()))
    }
    // Same epoch, no new vote: a leader resigning, or an observer whose leader went quiet.
    if (s.role === 'leader' || (s.role === 'follower' && !this.localIsVoter)) {
      return this.persistThenSet(new UnattachedState(epoch, s.votedFor, this.randomElectionDeadline()))
    }
    throw this.illegal(`unattached in the same epoch ${epoch}`)
  }

  /** Follows `leaderId` in `epoch` (≥ the current one; the same epoch only if no leader is followed). */
  async transitionToFollower(epoch: number, leaderId: string): Promise<void> {
    const s = this.state
    if (!this.mayFollow(leaderId)) throw this.illegal(`follow ${leaderId}`)
    const now = this.init.clock.now()
    if (epoch > s.epoch) {
      return this.persistThenSet(new FollowerState(epoch, leaderId, undefined, now + this.randomFetchTimeout()))
    }
    if (epoch < s.epoch || s.role === 'leader' || s.role === 'follower') {
      throw this.illegal(`follow ${leaderId} in epoch ${epoch}`)
    }
    if (s.role === 'prospective' && s.leaderId !== undefined && s.leaderId !== leaderId) {
      throw this.illegal(`follow ${leaderId} in epoch ${epoch}, led by ${s.leaderId}`)
    }
    return this.persistThenSet(new FollowerState(epoch, leaderId, s.votedFor, now + this.randomFetchTimeout()))
  }

  /** Asks for pre-votes (KIP-996) in the current epoch: no new epoch, no vote cast. */
  async transitionToProspective(): Promise<void> {
    const s = this.state
    if (!this.localIsVoter) throw this.illegal('prospective (only voters stand)')
    if (s.role === 'leader') throw this.illegal('prospective while leader')
    const leaderId = s.role === 'follower' || s.role === 'prospective' ? s.leaderId : undefined
    const { localId } = this.init
    return this.persistThenSet(
      new ProspectiveState(s.epoch, localId, s.votedFor, leaderId, this.voters, this.randomElectionDeadline()),
    )
  }

  /** Stands for election in the next epoch, having voted for itself. */
  async transitionToCandidate(): Promise<void> {
    const s = this.state
    if (!this.localIsVoter) throw this.illegal('candidate (only voters stand)')
    if (s.role === 'leader') throw this.illegal('candidate while leader')
    const { localId } = this.init
    return this.persistThenSet(new CandidateState(s.epoch + 1, localId, this.voters, this.randomElectionDeadline()))
  }

  /** A candidate with a majority of votes leads its epoch. */
  async transitionToLeader(epochStartOffset: number): Promise<void> {
    const s = this.state
    if (s.role !== 'candidate' || !s.isVoteGranted()) throw this.illegal('leader without a majority of votes')
    const { localId, observers, log, config, rules, clock } = this.init
    await this.persistThenSet(
      new LeaderState({
        epoch: s.epoch,
        localId,
        voters: this.voters,
        observers,
        epochStartOffset,
        highWatermark: log.highWatermark,
        grantingVoters: s.grantingVoters(),
        now: clock.now(),
        checkIntervalMs: Math.max(1, Math.floor(config.electionTimeoutMs / 2)),
        balanceCheckIntervalMs: config.leaderImbalanceCheckIntervalMs,
        rules,
      }),
    )
  }

  // ---- the voter set, kept in step with the log ----

  /** Before appending records that may carry voter sets from `logEnd` on: saves the write-ahead mark. */
  async beforeVoterAppend(logEnd: number): Promise<void> {
    this.scanFrom = logEnd
    await this.save()
  }

  /** After that append: the sets it carried take effect (and the mark is cleared). */
  async afterVoterAppend(sets: readonly VoterSet[]): Promise<void> {
    for (const set of sets) this.history.append(set)
    this.scanFrom = undefined
    await this.save()
  }

  /** The log was truncated to `logEnd`: sets at or above it no longer count. */
  async logTruncated(logEnd: number): Promise<void> {
    if (this.history.truncate(logEnd)) await this.save()
  }

  /** The log restarted at an offset past records this replica never saw: its voter set is unknown. */
  async logRestarted(): Promise<void> {
    this.history.forget()
    await this.save()
  }

  /**
   * A committed voter set reported by an authority (a leader's published set), taken only while
   * this replica's own set is unknown; true when taken.
   */
  async adoptCommittedVoterSet(set: VoterSet): Promise<boolean> {
    if (this.history.latest() !== undefined || !this.history.adopt(set)) return false
    await this.save()
    return true
  }

  /** Forgets sets superseded by a newer committed one (saved with the next change). */
  compactVoterSets(highWatermark: number): void {
    this.history.compact(highWatermark)
  }

  private async persistThenSet(next: EpochState): Promise<void> {
    await this.save(next)
    this.current = next
  }

  /** Saves `state` (default the current one) with the voter history; skips a save that changes nothing. */
  private async save(state: EpochState | undefined = this.current): Promise<void> {
    if (state === undefined) return
    const persisted: PersistedQuorumState = { epoch: state.epoch }
    if (state.votedFor !== undefined) persisted.votedFor = state.votedFor
    if (state.leaderId !== undefined) persisted.leaderId = state.leaderId
    persisted.voterHistory = this.history.toPersisted()
    if (this.scanFrom !== undefined) persisted.voterHistory.scanFrom = this.scanFrom
    const text = JSON.stringify(persisted)
    if (text === this.lastSaved) return
    await this.init.store.save(persisted)
    this.lastSaved = text
  }

  private illegal(what: string): IllegalRaftTransitionError {
    const s = this.current
    return new IllegalRaftTransitionError(
      `${this.init.partition}: cannot become ${what} from ${s?.role ?? 'uninitialized'} in epoch ${s?.epoch ?? -1}`,
    )
  }
}
