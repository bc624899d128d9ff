import type { PartitionLog } from '@tributary/log'
import { InvalidRequestError, NotLeaderOrFollowerError } from '@tributary/wire'
import { componentLogger, type Logger, silentLogger } from '../logger.js'
import { ChangeNotifier } from './change-notifier.js'
import { systemClock } from './clock.js'
import { CommitWaiters } from './commit-waiters.js'
import { checkMembers, resolveRaftConfig } from './config.js'
import type { RaftCore } from './core.js'
import { DeadlineTimer } from './deadline-timer.js'
import { answerVote } from './election.js'
import { checkFetcher } from './fetch-admission.js'
import { answerReplicaFetch, FetchWaiters } from './fetch-handler.js'
import { appendAsLeader, notLeaderError } from './leader-append.js'
import type { LeaderState, ReplicaProgress } from './leader-state.js'
import { announceResignation } from './leadership.js'
import { sendTimeoutNowIfCaughtUp } from './leadership-transfer.js'
import { type Assignment, assignmentOf } from './membership.js'
import {
  type BeginQuorumEpochRequest,
  type EndQuorumEpochRequest,
  type QuorumEpochResponse,
  type ReplicaFetchRequest,
  type ReplicaFetchResponse,
  type TimeoutNowRequest,
  type VoteRequest,
  type VoteResponse,
  validateReplicaFetchRequest,
} from './messages.js'
import { OutboundRequests } from './outbound.js'
import {
  answerBeginQuorumEpoch,
  answerEndQuorumEpoch,
  answerTimeoutNow,
  expediteElection,
} from './quorum-epoch-handlers.js'
import { QuorumState } from './quorum-state.js'
import { ReplicaFetcher } from './replica-fetcher.js'
import { RoleDriver } from './role-driver.js'
import { Serial } from './serial.js'
import type { RaftRequestHandler, RaftRequestOptions, RaftTransport } from './transport.js'
import {
  DEFAULT_QUORUM_RULES,
  type LeaderAppendResult,
  type PartitionRaftInit,
  type QuorumRules,
  type RaftChange,
  type RaftClock,
  type RaftConfig,
  type RaftRole,
  type RaftStats,
  type ReplicaPlacement,
  type WaitForCommitOptions,
} from './types.js'
import type { VoterSet } from './voter-history.js'
import { trackVoterSets } from './voter-log.js'

const DEFAULT_COMMIT_TIMEOUT_MS = 30_000

/**
 * One partition replica's Raft, pull-based as in KRaft (KIP-595): elections with randomized
 * timeouts, pre-votes and the up-to-date rule, followers and observers fetching from the leader,
 * and the high watermark at the offset a majority of voters holds. The voter set follows the
 * log's VotersRecords; the leader replaces a voter long out of sync and hands leadership to the
 * preferred voter. `QuorumState` owns the role and voter set and persists them before they take
 * effect; `RoleDriver` starts each role's work; this class drives timers, requests and the log.
 *
 * ```ts
 * const raft = new PartitionRaft({ partition: 'orders-0', localId, voters, log, store, transport })
 * await raft.start()
 * const { lastOffset, leaderEpoch } = await raft.appendAsLeader(batch) // acks=1
 * await raft.waitForCommit(lastOffset, { epoch: leaderEpoch })      // acks=all
 * ```
 */
export class PartitionRaft implements RaftCore, RaftRequestHandler {
  readonly partition: string
  readonly localId: string
  readonly log: PartitionLog
  readonly quorum: QuorumState
  readonly transport: RaftTransport
  readonly clock: RaftClock
  readonly random: () => number
  readonly config: Readonly<RaftConfig>
  readonly rules: QuorumRules
  readonly logger: Logger
  readonly observerIds: readonly string[]
  readonly placement: ReplicaPlacement | undefined
  private readonly admitObserver: ((replicaId: string) => boolean) | undefined
  readonly stats: RaftStats = { votersAdded: 0, votersRemoved: 0, leadershipTransfers: 0 }
  private readonly serial = new Serial()
  private readonly commits: CommitWaiters
  private readonly fetchWaiters: FetchWaiters
  private readonly roles: RoleDriver
  private readonly outbound: OutboundRequests
  private readonly changes: ChangeNotifier
  private readonly timer: DeadlineTimer
  private phase: 'new' | 'starting' | 'running' | 'stopped' = 'new'

  constructor(init: PartitionRaftInit) {
    this.config = resolveRaftConfig(init.config)
    const observers = init.observers ?? []
    checkMembers(init.partition, init.localId, init.voters, observers, init.votersOffset)
    this.partition = init.partition
    this.observerIds = [...observers]
    this.placement = init.placement
    this.admitObserver = init.admitObserver
    this.localId = init.localId
    // Every write to the log goes through this, so the voter set follows the log's VotersRecords.
    this.log = trackVoterSets(init.log, () => this.quorum)
    this.transport = init.transport
    this.clock = init.clock ?? systemClock
    this.random = init.random ?? Math.random
    this.rules = { ...DEFAULT_QUORUM_RULES, ...init.rules }
    this.logger = componentLogger(init.logger ?? silentLogger, 'raft')
    this.changes = new ChangeNotifier(this.logger, this.partition)
    this.outbound = new OutboundRequests(this.clock, this.partition)
    this.commits = new CommitWaiters(this.clock, this.config.maxPendingCommits, this.partition)
    this.fetchWaiters = new FetchWaiters(this.clock, this.config.maxPendingFetches)
    this.roles = new RoleDriver(this, {
      fetcher: new ReplicaFetcher(this),
      initialVoters: [...init.voters],
      leftLeadership: () => this.commits.failAll(this.notLeader()),
      changed: () => this.emitChange(),
    })
    this.timer = new DeadlineTimer(this.clock, () => {
      this.locked(() => this.roles.tick()).catch((err: unknown) => {
        if (!this.stopped) this.logger.warn({ partition: this.partition, err }, 'raft timer failed')
        this.serial.run(() => this.reschedule())
      })
    })
    this.quorum = new QuorumState({
      partition: this.partition,
      localId: this.localId,
      voters: [...init.voters],
      votersOffset: init.votersOffset ?? -1,
      observers: [...observers],
      store: init.store,
      log: this.log,
      clock: this.clock,
      random: this.random,
      config: this.config,
      rules: this.rules,
    })
  }

  get role(): RaftRole {
    return this.phase === 'running' ? this.quorum.state.role : 'unattached'
  }
  get leaderId(): string | undefined {
    return this.phase === 'running' ? this.quorum.state.leaderId : undefined
  }
  get epoch(): number {
    return this.phase === 'running' ? this.quorum.state.epoch : -1
  }
  get highWatermark(): number {
    return this.log.highWatermark
  }
  get isVoter(): boolean {
    return this.quorum.localIsVoter
  }
  get stopped(): boolean {
    return this.phase === 'stopped'
  }

  /** Loads the persisted quorum state and starts the role's timers and loops. Idempotent. */
  async start(options: { signal?: AbortSignal } = {}): Promise<void> {
    if (this.phase !== 'new') return
    this.phase = 'starting'
    try {
      await this.quorum.initialize(options)
    } catch (err) {
      if (this.phase === 'starting') this.phase = 'new'
      throw err
    }
    if (this.phase !== 'starting') return
    this.phase = 'running'
    this.logger.info({ partition: this.partition, epoch: this.epoch, role: this.role }, 'raft started')
    await this.locked(() => this.roles.entered(undefined))
  }

  /**
   * Stops timers, loops and waiters. A leader first tells the other voters it resigns
   * (EndQuorumEpoch) unless `resign: false` (the simulation's crash). The log stays open.
   */
  async stop(options: { resign?: boolean } = {}): Promise<void> {
    if (this.phase === 'stopped') return
    const leader = this.phase === 'running' && this.quorum.state.role === 'leader' ? this.quorum.state : undefined
    this.phase = 'stopped'
    this.timer.cancel()
    this.commits.failAll(new NotLeaderOrFollowerError(`${this.partition}: the replica on ${this.localId} stopped`))
    this.fetchWaiters.wakeAll()
    if (leader !== undefined && options.resign !== false) await announceResignation(this, leader)
    this.outbound.abortAll(new NotLeaderOrFollowerError(`${this.partition}: replica stopped`))
    await this.serial.idle()
    this.logger.info({ partition: this.partition }, 'raft stopped')
  }

  /** The transport lost its connection to `peerId`: if it leads this follower, stand soon. */
  leaderUnreachable(peerId: string): Promise<void> {
    return this.locked(() => expediteElection(this, peerId))
  }

  /** The replica's voter set (its log's newest VotersRecord, or its initial set); undefined while unknown. */
  get voterSet(): VoterSet | undefined {
    return this.phase === 'running' ? this.quorum.voterSet : undefined
  }

  /** On the leader: the committed voter set and who else must host the partition (for metadata). */
  assignment(): Assignment | undefined {
    const s = this.phase === 'running' ? this.quorum.state : undefined
    return s?.role === 'leader' ? assignmentOf(this.quorum, s, this.observerIds) : undefined
  }

  /**
   * A voter set an authority (a leader, through metadata) reports committed. Taken when newer
   * than anything this replica knows — in particular by one that lost track of its voter set.
   */
  adoptCommittedVoterSet(set: VoterSet): Promise<boolean> {
    return this.locked(async () => {
      const adopted = await this.quorum.adoptCommittedVoterSet(set)
      if (adopted) {
        this.logger.info({ partition: this.partition, voters: set.voters, offset: set.offset }, 'adopted a voter set')
        this.membershipChanged()
      }
      return adopted
    })
  }

  /** Called after every change of role, leader, epoch, high watermark or membership. Returns an unsubscribe function. */
  onChange(listener: (change: RaftChange) => void): () => void {
    return this.changes.subscribe(listener)
  }

  /** The leader's in-sync voters (itself first); empty on other roles. */
  inSyncVoters(): string[] {
    const s = this.phase === 'running' ? this.quorum.state : undefined
    return s?.role === 'leader' ? s.inSyncVoters(this.clock.now(), this.config.replicaLagTimeMaxMs) : []
  }

  /** What the leader knows of each replica; empty on other roles. */
  replicaProgress(): ReplicaProgress[] {
    const s = this.phase === 'running' ? this.quorum.state : undefined
    return s?.role === 'leader' ? s.replicas() : []
  }

  /** Appends producer batches as the leader (acks=1 once this resolves). NotLeaderOrFollowerError elsewhere. */
  appendAsLeader(batches: Uint8Array, options: { signal?: AbortSignal } = {}): Promise<LeaderAppendResult> {
    return appendAsLeader(this, batches, options)
  }

  /**
   * acks=all: resolves once the high watermark passes `offset` while the leader of the append's
   * epoch still leads. Rejects with NotLeaderOrFollowerError if leadership is lost first (the
   * write may or may not survive: the producer retries), RequestTimedOutError on timeout.
   */
  waitForCommit(offset: number, options: WaitForCommitOptions = {}): Promise<void> {
    if (!Number.isSafeInteger(offset) || offset < 0) {
      return Promise.reject(new InvalidRequestError(`${this.partition}: invalid offset ${offset}`))
    }
    const s = this.phase === 'running' ? this.quorum.state : undefined
    const epoch = options.epoch ?? s?.epoch ?? -1
    if (s?.role !== 'leader' || s.epoch !== epoch) return Promise.reject(this.notLeader())
    if (this.log.highWatermark > offset) return Promise.resolve()
    return this.commits.wait(offset, epoch, options.timeoutMs ?? DEFAULT_COMMIT_TIMEOUT_MS, options.signal)
  }

  // ---- inbound requests ----

  /** Answers a candidate (the vote is persisted before the answer) or a pre-vote. */
  async handleVote(request: VoteRequest): Promise<VoteResponse> {
    this.checkPartition(request.partition)
    return this.locked(() => answerVote(this, request))
  }

  /** A new leader announces itself. */
  async handleBeginQuorumEpoch(request: BeginQuorumEpochRequest): Promise<QuorumEpochResponse> {
    return answerBeginQuorumEpoch(this, request)
  }

  /** The leader resigns: stand for election soon. */
  async handleEndQuorumEpoch(request: EndQuorumEpochRequest): Promise<QuorumEpochResponse> {
    return answerEndQuorumEpoch(this, request)
  }

  /** The leader hands over to this voter: stand now. */
  async handleTimeoutNow(request: TimeoutNowRequest): Promise<QuorumEpochResponse> {
    return answerTimeoutNow(this, request)
  }

  /** A replica fetches (on the leader); held open up to its maxWaitMs while it is caught up. */
  async handleFetch(
    request: ReplicaFetchRequest,
    options: { signal?: AbortSignal } = {},
  ): Promise<ReplicaFetchResponse> {
    const r = validateReplicaFetchRequest(request)
    this.checkPartition(r.partition)
    const s = this.phase === 'running' ? this.quorum.state : undefined
    checkFetcher(this, s, r.replicaId, this.admitObserver)
    const answer = answerReplicaFetch(this, this.fetchWaiters, r, options.signal)
    if (s?.role === 'leader' && s.transfer?.to === r.replicaId) {
      // Queued behind the fetch's first pass, which recorded how far the target got.
      this.locked(() => {
        if (this.quorum.state === s) sendTimeoutNowIfCaughtUp(this, s)
      }).catch(() => {})
    }
    return answer
  }

  // ---- RaftCore ----

  locked<T>(task: () => Promise<T> | T): Promise<T> {
    return this.serial.run(() => {
      if (this.phase !== 'running') throw new NotLeaderOrFollowerError(`${this.partition}: replica is not running`)
      return task()
    })
  }

  request<T>(what: string, timeoutMs: number, call: (options: RaftRequestOptions) => Promise<T>): Promise<T> {
    return this.outbound.run(what, timeoutMs, call)
  }

  observeLeader(epoch: number, leaderId: string | undefined): Promise<void> {
    return this.roles.observeLeader(epoch, leaderId)
  }

  becomeUnattached(epoch: number, votedFor?: string): Promise<void> {
    return this.roles.becomeUnattached(epoch, votedFor)
  }

  becomeProspective(): Promise<void> {
    return this.roles.becomeProspective()
  }

  becomeCandidate(): Promise<void> {
    return this.roles.becomeCandidate()
  }

  becomeLeader(): Promise<void> {
    return this.roles.becomeLeader()
  }

  /**
   * Parked replica fetches are not woken here: followers learn the high watermark with their next
   * fetch answer (new data or the end of the long poll), as in Kafka, where a delayed follower
   * fetch completes on new bytes only. Waking them would cost every produce another round trip
   * per follower while acknowledgements do not depend on followers knowing the watermark.
   */
  leaderHighWatermarkMoved(state: LeaderState): void {
    this.log.setHighWatermark(state.highWatermark)
    this.quorum.compactVoterSets(state.highWatermark)
    this.commits.commitBelow(state.highWatermark, state.epoch)
    this.emitChange()
  }

  followerHighWatermark(offset: number): void {
    if (offset <= this.log.highWatermark) return
    this.log.setHighWatermark(offset)
    this.quorum.compactVoterSets(this.log.highWatermark)
    this.emitChange()
  }

  reschedule(): void {
    if (this.phase === 'running') this.timer.arm(this.quorum.state.deadline())
  }

  wakeFetches(): void {
    this.fetchWaiters.wakeAll()
  }

  membershipChanged(): void {
    this.emitChange()
  }

  // ---- internals ----

  private emitChange(): void {
    const s = this.quorum.state
    this.changes.publish({
      role: s.role,
      leaderId: s.leaderId,
      epoch: s.epoch,
      highWatermark: this.log.highWatermark,
      votersOffset: this.quorum.voterSet?.offset,
      learners: s.role === 'leader' && s.learner !== undefined ? [s.learner.id] : [],
    })
  }

  private notLeader(): NotLeaderOrFollowerError {
    return notLeaderError(this, this.phase === 'running' ? this.quorum.state : undefined)
  }

  private checkPartition(partition: string): void {
    if (partition !== this.partition) {
      throw new InvalidRequestError(`raft request for partition ${partition} reached ${this.partition}`)
    }
  }
}
