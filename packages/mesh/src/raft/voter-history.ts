/**
 * A partition's voter set as its log defines it (Raft dissertation §4.1, KIP-853's voter set
 * history). A VotersRecord changes the set as soon as it is in a replica's log — committed or
 * not — so a replica's voters are those of the last record it holds; truncating the record away
 * reverts to the one before. The history keeps:
 * - a base: the set in effect before any record it holds — the topic's placement (offset -1),
 *   or a committed set learned from an authority (a leader's published voter set) — or unknown,
 *   once the log restarted past records this replica never saw;
 * - the records above the base, by offset.
 * Entries below the high watermark are committed: all but the newest of them can be forgotten.
 */
import { InvalidRequestError } from '@tributary/wire'
import { MAX_ID_LENGTH } from './messages.js'

/** Most voters in one set (Kafka caps a replica list far below this). */
export const MAX_VOTERS = 255
/** Most records a persisted history holds; each leader has at most one change uncommitted. */
export const MAX_VOTER_HISTORY = 64

export interface VoterSet {
  /** Offset of the VotersRecord that made this the voter set; -1 for the topic's placement. */
  offset: number
  /** Preferred leader first. */
  voters: readonly string[]
}

/** What a replica persists with its quorum state. */
export interface PersistedVoterHistory {
  base?: VoterSet
  entries: VoterSet[]
  /**
   * Write-ahead mark: records may have been appended at or above this offset without being
   * listed (a crash between the append and the save); the next start scans the log from here.
   */
  scanFrom?: number
}

export class VoterHistory {
  private base: VoterSet | undefined
  private entries: VoterSet[]

  constructor(persisted: PersistedVoterHistory) {
    this.base = persisted.base
    this.entries = [...persisted.entries]
  }

  /** The current voter set: the newest record held, else the base; undefined while unknown. */
  latest(): VoterSet | undefined {
    return this.entries.at(-1) ?? this.base
  }

  /** The newest set committed below `highWatermark` (the base counts as committed). */
  committed(highWatermark: number): VoterSet | undefined {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const entry = this.entries[i] as VoterSet
      if (entry.offset < highWatermark) return entry
    }
    return this.base
  }

  /** Records at or above `highWatermark`: changes not committed yet. */
  uncommitted(highWatermark: number): number {
    return this.entries.filter((e) => e.offset >= highWatermark).length
  }

  /** Adds a record appended to the log; ignored unless newer than everything known. */
  append(set: VoterSet): boolean {
    const latest = this.latest()
    if (latest !== undefined && set.offset <= latest.offset) return false
    this.entries.push({ offset: set.offset, voters: [...set.voters] })
    return true
  }

  /** The log was truncated to `logEnd`: records at or above it are gone. The base stays. */
  truncate(logEnd: number): boolean {
    const kept = this.entries.filter((e) => e.offset < logEnd)
    if (kept.length === this.entries.length) return false
    this.entries = kept
    return true
  }

  /** The log restarted at an offset past records never seen: the voter set is unknown until learned. */
  forget(): void {
    this.base = undefined
    this.entries = []
  }

  /**
   * A set an authority reports committed. Taken when newer than everything known (committed
   * sets are ordered by offset, and a committed set stays the set until a later record), or
   * when nothing is known. Returns whether it was taken.
   */
  adopt(set: VoterSet): boolean {
    const latest = this.latest()
    if (latest !== undefined && set.offset <= latest.offset) return false
    this.base = { offset: set.offset, voters: [...set.voters] }
    this.entries = []
    return true
  }

  /** Forgets records superseded by a newer committed one (never the newest committed set). */
  compact(highWatermark: number): boolean {
    let newestCommitted = -1
    for (const [i, e] of this.entries.entries()) if (e.offset < highWatermark) newestCommitted = i
    if (newestCommitted < 0) return false
    this.base = this.entries[newestCommitted]
    this.entries = this.entries.slice(newestCommitted + 1)
    return true
  }

  toPersisted(): PersistedVoterHistory {
    const out: PersistedVoterHistory = { entries: this.entries.map(copySet) }
    if (this.base !== undefined) out.base = copySet(this.base)
    return out
  }
}

function copySet(set: VoterSet): VoterSet {
  return { offset: set.offset, voters: [...set.voters] }
}

/** Checks a voter set read from the log, a peer or storage; InvalidRequestError when malformed. */
export function validateVoterSet(set: VoterSet, what: string): VoterSet {
  const { offset, voters } = set ?? {}
  if (!Number.isSafeInteger(offset) || offset < -1) throw new InvalidRequestError(`${what}: invalid offset`)
  if (!Array.isArray(voters) || voters.length === 0 || voters.length > MAX_VOTERS) {
    throw new InvalidRequestError(`${what}: a voter set names 1-${MAX_VOTERS} voters`)
  }
  for (const id of voters) {
    if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_LENGTH) {
      throw new InvalidRequestError(`${what}: invalid voter id`)
    }
  }
  if (new Set(voters).size !== voters.length) throw new InvalidRequestError(`${what}: duplicate voters`)
  return { offset, voters: [...voters] }
}

export function validatePersistedVoterHistory(h: PersistedVoterHistory): PersistedVoterHistory {
  if (typeof h !== 'object' || h === null || !Array.isArray(h.entries) || h.entries.length > MAX_VOTER_HISTORY) {
    throw new InvalidRequestError(`stored voter history must list at most ${MAX_VOTER_HISTORY} sets`)
  }
  const out: PersistedVoterHistory = { entries: [] }
  if (h.base !== undefined) out.base = validateVoterSet(h.base, 'stored base voter set')
  let last = out.base?.offset ?? Number.NEGATIVE_INFINITY
  for (const e of h.entries) {
    const set = validateVoterSet(e, 'stored voter set')
    if (set.offset <= last) throw new InvalidRequestError('stored voter sets are out of order')
    last = set.offset
    out.entries.push(set)
  }
  if (h.scanFrom !== undefined) {
    if (!Number.isSafeInteger(h.scanFrom) || h.scanFrom < 0) {
      throw new InvalidRequestError('stored voter history has an invalid scan mark')
    }
    out.scanFrom = h.scanFrom
  }
  return out
}

/** Whether two sets differ by exactly one voter added or removed: the only change Raft makes safely one at a time. */
export function isSingleChange(from: readonly string[], to: readonly string[]): boolean {
  const added = to.filter((v) => !from.includes(v)).length
  const removed = from.filter((v) => !to.includes(v)).length
  return added + removed === 1
}
