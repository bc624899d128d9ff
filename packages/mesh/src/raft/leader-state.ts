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
  /** Period of the leader's checks (quorum contact, BeginQuorumEpoch retries). */
  checkIntervalMs: number
  rules: QuorumRules
}

/**
 * The leader of an epoch. It tracks every replica's fetch position and computes the high
 * watermark: the largest offset held by a majority of voters (itself included), advanced only
 * once an offset of its own epoch is committed (Raft §5.4.2, KIP-595) and never moved back. It
 * also derives the in-sync voters and whether a majority still fetches from it.
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
  private localEndOffset: number
  private readonly voters: readonly string[]
  private readonly progress = new Map<string, Progress>()
  private readonly rules: QuorumRules

  constructor(init: LeaderStateInit) {
    this.epoch = init.epoch
    this.localId = init.localId
    this.voters = init.voters
    this.epochStartOffset = init.epochStartOffset
    this.highWatermark = init.highWatermark
    this.localEndOffset = init.epochStartOffset
    this.becameLeaderAt = init.now
    this.nextCheckAt = init.now + init.checkIntervalMs
    this.grantingVoters = init.grantingVoters
    this.rules = init.rules
    for (const id of [...init.voters, ...init.observers]) {
      if (id === init.localId || this.progress.has(id)) continue
      const voter = init.voters.includes(id)
      this.progress.set(id, {
        id,
        voter,
        endOffset: -1,
        lastFetchAt: undefined,
        lastCaughtUpAt: Number.NEGATIVE_INFINITY,
        lastFetchLeaderEnd: -1,
      })
    }
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
    return this.nextCheckAt
  }

  /** The leader appended; returns true when the high watermark moved. */
  updateLocalEndOffset(logEndOffset: number): boolean {
    this.localEndOffset = logEndOffset
    return this.maybeAdvanceHighWatermark()
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

  /** Whether a majority of voters (itself included) fetched within the last `windowMs`. */
  hasQuorumContact(now: number, windowMs: number): boolean {
    let contacts = 1
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

  private maybeAdvanceHighWatermark(): boolean {
    const ends = [this.localEndOffset]
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
