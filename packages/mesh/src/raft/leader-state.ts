import type { QuorumRules } from './types.js'

/** What the leader knows of one replica's log, learned from its fetches. */
export interface ReplicaProgress {
  id: string
  voter: boolean
  /** The replica's log end offset at its last valid fetch (-1: not fetched in this epoch). */
  endOffset: number
  /** When it last fetched (any valid fetch) in this epoch. */
  lastFetchAt: number | undefined
  /** The last time it was caught up with the leader's log end (Kafka's `lastCaughtUpTimeMs`). */
  lastCaughtUpAt: number
}

interface Progress extends ReplicaProgress {
  /** The leader's log end offset when the replica fetched last. */
  lastFetchLeaderEnd: number
}

/** An admitted observer silent for this many fetch timeouts is forgotten. */
export const ADMITTED_OBSERVER_IDLE_FETCH_TIMEOUTS = 10

export interface LeaderStateInit {
  epoch: number
  localId: string
  voters: readonly string[]
  observers: readonly string[]
  /** The leader's log end offset when it took over: its first record of this epoch goes here. */
  epochStartOffset: number
  /** The high watermark it inherits from its log (never above what was committed). */
  highWatermark: number
  grantingVoters: readonly string[]
  now: number
  /** Period of the leader's checks (quorum contact, BeginQuorumEpoch retries, voter changes). */
  checkIntervalMs: number
  /** Period of its preferred-leader checks. */
  balanceCheckIntervalMs: number
  rules: QuorumRules
}

/** A learner the leader brings up to date before making it a voter (one at a time). */
export interface Learner {
  id: string
  /** The voter it is meant to replace, if any (else it fills a missing slot). */
  replacing: string | undefined
  since: number
}

/** A leadership hand-over in progress (Raft §3.10): appends wait while the target catches up. */
export interface Transfer {
  to: string
  /** Abandoned (appends resume) if leadership has not moved by then. */
  deadline: number
  /** TimeoutNow went out. */
  sent: boolean
}

/**
 * The leader of an epoch. It tracks every replica's fetch position and computes the high
 * watermark: the largest offset held by a majority of voters (itself included), advanced only
 * once an offset of its own epoch is committed (Raft §5.4.2, KIP-595) and never moved back. It
 * also derives the in-sync voters and whether a majority still fetches from it. The voter set
 * can change while it leads (a VotersRecord it appended takes effect at once); learners are
 * replicas it tracks without counting them.
 */
export class LeaderState {
  readonly role = 'leader' as const
  readonly epoch: number
  readonly localId: string
  readonly epochStartOffset: number
  readonly becameLeaderAt: number
  readonly grantingVoters: readonly string[]
  highWatermark: number
  nextCheckAt: number
  nextBalanceCheckAt: number
  learner: Learner | undefined
  transfer: Transfer | undefined
  /** Learners that failed to catch up under this leader: not picked again. */
  readonly triedLearners = new Set<string>()
  private localEndOffset: number
  private voters: readonly string[]
  private readonly observers: readonly string[]
  /** Observers admitted at their first fetch (peers following the partition by choice). */
  private readonly admitted = new Set<string>()
  private readonly progress = new Map<string, Progress>()
  private readonly rules: QuorumRules

  constructor(init: LeaderStateInit) {
    this.epoch = init.epoch
    this.localId = init.localId
    this.voters = [...init.voters]
    this.observers = init.observers
    this.epochStartOffset = init.epochStartOffset
    this.highWatermark = init.highWatermark
    this.localEndOffset = init.epochStartOffset
    this.becameLeaderAt = init.now
    this.nextCheckAt = init.now + init.checkIntervalMs
    this.nextBalanceCheckAt = init.now + init.balanceCheckIntervalMs
    this.grantingVoters = init.grantingVoters
    this.rules = init.rules
    for (const id of [...init.voters, ...init.observers]) this.track(id)
  }

  get leaderId(): string {
    return this.localId
  }

  /** It voted for itself to get here. */
  get votedFor(): string {
    return this.localId
  }

  canGrantVote(): boolean {
    return false
  }

  deadline(): number {
    return Math.min(this.nextCheckAt, this.transfer?.deadline ?? Number.POSITIVE_INFINITY)
  }

  /** The leader appended; returns true when the high watermark moved. */
  updateLocalEndOffset(logEndOffset: number): boolean {
    this.localEndOffset = logEndOffset
    return this.maybeAdvanceHighWatermark()
  }

  /**
   * The voter set changed (a VotersRecord this leader appended). New voters keep the progress
   * they made as learners; removed ones stop counting. Returns true when the high watermark moved.
   */
  setVoters(voters: readonly string[]): boolean {
    this.voters = [...voters]
    for (const id of voters) this.track(id)
    for (const p of [...this.progress.values()]) {
      p.voter = voters.includes(p.id)
      if (!p.voter && !this.isObserver(p.id) && this.learner?.id !== p.id) this.progress.delete(p.id)
    }
    if (this.learner !== undefined && voters.includes(this.learner.id)) this.learner = undefined
    return this.maybeAdvanceHighWatermark()
  }

  addLearner(learner: Learner): void {
    this.learner = learner
    this.track(learner.id)
  }

  /** Stops tracking the learner (it caught up and became a voter, or was given up on). */
  dropLearner(): void {
    const id = this.learner?.id
    this.learner = undefined
    if (id !== undefined && !this.voters.includes(id) && !this.isObserver(id)) this.progress.delete(id)
  }

  private isObserver(id: string): boolean {
    return this.observers.includes(id) || this.admitted.has(id)
  }

  /**
   * Tracks `id` as an observer from its first fetch on (it replicates without counting for the
   * high watermark). At most `max` are held: when full, those idle for `idleMs` make room, and
   * if none is, the fetcher is refused. Returns whether `id` may fetch.
   */
  admitObserver(id: string, now: number, max: number, idleMs: number): boolean {
    if (id === this.localId) return false
    if (this.progress.has(id)) return true
    if (this.admitted.size >= max) {
      this.dropIdleObservers(now, idleMs)
      if (this.admitted.size >= max) return false
    }
    this.admitted.add(id)
    this.track(id)
    return true
  }

  /**
   * Forgets admitted observers that have not fetched for `idleMs` (a closed tab), so they leave
   * the replica lists this leader reports; one that comes back is admitted again.
   */
  dropIdleObservers(now: number, idleMs: number): void {
    for (const id of [...this.admitted]) {
      const p = this.progress.get(id)
      if (p !== undefined && now - (p.lastFetchAt ?? this.becameLeaderAt) <= idleMs) continue
      this.admitted.delete(id)
      this.progress.delete(id)
    }
  }

  /** Replicas allowed to fetch from this leader: voters, observers and the learner. */
  isReplica(id: string): boolean {
    return this.progress.has(id)
  }

  /**
   * A replica fetched from `fetchOffset` — already checked to be consistent with this log, so
   * its log matches the leader's below it. Returns true when the high watermark moved. Fetches
   * from replicas outside the configured set are served but not tracked.
   */
  updateReplica(id: string, fetchOffset: number, leaderEndOffset: number, now: number): boolean {
    const p = this.progress.get(id)
    if (p === undefined) return false
    // Kafka's rule: caught up now if it reached the leader's end; caught up as of its previous
    // fetch if it reached the end the leader had then.
    if (fetchOffset >= leaderEndOffset) p.lastCaughtUpAt = Math.max(p.lastCaughtUpAt, now)
    else if (p.lastFetchAt !== undefined && fetchOffset >= p.lastFetchLeaderEnd) {
      p.lastCaughtUpAt = Math.max(p.lastCaughtUpAt, p.lastFetchAt)
    }
    p.endOffset = fetchOffset
    p.lastFetchAt = now
    p.lastFetchLeaderEnd = leaderEndOffset
    return p.voter && this.maybeAdvanceHighWatermark()
  }

  /** The leader and every voter caught up within `lagMaxMs` (Kafka's ISR), leader first. */
  inSyncVoters(now: number, lagMaxMs: number): string[] {
    const inSync = [this.localId]
    for (const p of this.progress.values()) {
      if (p.voter && now - p.lastCaughtUpAt <= lagMaxMs) inSync.push(p.id)
    }
    return inSync
  }

  /** Whether `id` (the leader itself, a voter or a learner) is caught up within `lagMaxMs`. */
  isInSync(id: string, now: number, lagMaxMs: number): boolean {
    if (id === this.localId) return true
    const p = this.progress.get(id)
    return p !== undefined && now - p.lastCaughtUpAt <= lagMaxMs
  }

  /**
   * Since when `id` counts as out of the in-sync set: `lagMaxMs` after it was last caught up —
   * or after this leader took over, which gives every replica a fresh chance (Kafka's new leader
   * does the same).
   */
  outOfSyncSince(id: string, lagMaxMs: number): number {
    const p = this.progress.get(id)
    return Math.max(p?.lastCaughtUpAt ?? Number.NEGATIVE_INFINITY, this.becameLeaderAt) + lagMaxMs
  }

  /** What the leader knows of one replica, if it tracks it. */
  replica(id: string): ReplicaProgress | undefined {
    const p = this.progress.get(id)
    return p === undefined ? undefined : { ...p }
  }

  /** Whether a majority of voters (itself included) fetched within the last `windowMs`. */
  hasQuorumContact(now: number, windowMs: number): boolean {
    let contacts = this.voters.includes(this.localId) ? 1 : 0
    for (const p of this.progress.values()) {
      if (p.voter && p.lastFetchAt !== undefined && now - p.lastFetchAt <= windowMs) contacts++
    }
    return contacts >= Math.floor(this.voters.length / 2) + 1
  }

  /** Replicas that have not fetched in this epoch: they may not know it began. */
  replicasAwaitingBegin(): string[] {
    return [...this.progress.values()].filter((p) => p.lastFetchAt === undefined).map((p) => p.id)
  }

  /** Other voters, most caught up first: whom a resigning leader suggests. */
  preferredSuccessors(): string[] {
    return [...this.progress.values()]
      .filter((p) => p.voter)
      .sort((a, b) => b.endOffset - a.endOffset || (a.id < b.id ? -1 : 1))
      .map((p) => p.id)
  }

  /** A snapshot of every tracked replica (for describe-quorum style reporting). */
  replicas(): ReplicaProgress[] {
    return [...this.progress.values()].map(({ lastFetchLeaderEnd: _, ...p }) => ({ ...p }))
  }

  private track(id: string): void {
    if (id === this.localId || this.progress.has(id)) return
    this.progress.set(id, {
      id,
      voter: this.voters.includes(id),
      endOffset: -1,
      lastFetchAt: undefined,
      lastCaughtUpAt: Number.NEGATIVE_INFINITY,
      lastFetchLeaderEnd: -1,
    })
  }

  private maybeAdvanceHighWatermark(): boolean {
    const ends = this.voters.includes(this.localId) ? [this.localEndOffset] : []
    for (const p of this.progress.values()) if (p.voter) ends.push(p.endOffset)
    const candidate = this.rules.majorityEndOffset(ends)
    // Only an offset of this epoch being committed commits what came before it (Raft §5.4.2).
    if (this.rules.commitsOwnEpoch(candidate, this.epochStartOffset) && candidate > this.highWatermark) {
      this.highWatermark = candidate
      return true
    }
    return false
  }
}
