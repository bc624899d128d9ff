/**
 * Who hosts a partition, as its leader tells the rest of the mesh (through gossiped metadata),
 * and when a replica may delete its data.
 *
 * The leader publishes its *committed* voter set with the offset of its VotersRecord — a fact
 * that no later leader can undo — plus the replicas that must host the partition without being
 * committed voters: configured observers, its learner, and the voters of a change not committed
 * yet (so a learner just promoted keeps its data while its promotion commits).
 *
 * A replica deletes its data only when the partition no longer needs it: no published role for
 * it, and either it is no voter in its own voter set (a learner given up on, or a voter that
 * read its own removal), or the published set is newer than any set it knows and leaves it out
 * (a voter removed while it was away). A removed voter's data is not needed: the set without it
 * was committed by a majority of that set, which holds everything committed before.
 */
import type { LeaderState } from './leader-state.js'
import type { QuorumState } from './quorum-state.js'
import type { VoterSet } from './voter-history.js'

export interface Assignment {
  /** The committed voter set, preferred leader first. */
  voters: readonly string[]
  /** Offset of its VotersRecord (-1: the topic's placement). Committed sets are ordered by it. */
  votersOffset: number
  /** Replicas that must host the partition without being committed voters. */
  observers: readonly string[]
}

/** The assignment the leader `s` publishes; `staticObservers` replicate by configuration. */
export function assignmentOf(quorum: QuorumState, s: LeaderState, staticObservers: readonly string[]): Assignment {
  const latest = quorum.voterSet
  const committed = quorum.committedVoterSet(s.highWatermark) ?? latest
  const voters = committed?.voters ?? []
  const observers = new Set<string>(staticObservers.filter((o) => !voters.includes(o)))
  for (const v of latest?.voters ?? []) if (!voters.includes(v)) observers.add(v)
  if (s.learner !== undefined) observers.add(s.learner.id)
  return { voters: [...voters], votersOffset: committed?.offset ?? -1, observers: [...observers] }
}

/**
 * Whether the replica on `localId`, whose own voter set is `local` (undefined: unknown), may
 * delete its data given the assignment its partition's leader published.
 */
export function isRemoved(localId: string, local: VoterSet | undefined, published: Assignment): boolean {
  if (published.voters.includes(localId) || published.observers.includes(localId)) return false
  // A replica that lost track of its voter set keeps its data until it learns it.
  if (local === undefined) return false
  return !local.voters.includes(localId) || published.votersOffset > local.offset
}
