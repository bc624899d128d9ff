/**
 * Who may fetch from this replica. The replica path serves records above the high watermark:
 * only the leader's replicas may fetch them. Elsewhere anyone may ask who leads (a learner
 * looking for its leader does). A fetcher outside the configured replicas is admitted as an
 * observer if the peer allows it, up to a bound.
 */
import { InvalidRequestError } from '@tributary/wire'
import type { RaftCore } from './core.js'
import { ADMITTED_OBSERVER_IDLE_FETCH_TIMEOUTS, type LeaderState } from './leader-state.js'
import type { EpochState } from './quorum-state.js'

/** Observers admitted at their first fetch that one leader tracks at most (each costs a progress entry). */
const MAX_ADMITTED_OBSERVERS = 256

/** Throws InvalidRequestError unless `replicaId` may fetch while the replica is in state `s`. */
export function checkFetcher(
  core: RaftCore,
  s: EpochState | undefined,
  replicaId: string,
  admitObserver: ((replicaId: string) => boolean) | undefined,
): void {
  if (
    replicaId === core.localId ||
    (s?.role === 'leader' && !s.isReplica(replicaId) && !admit(core, s, replicaId, admitObserver))
  ) {
    throw new InvalidRequestError(`${core.partition}: ${replicaId} is not a replica of this partition`)
  }
}

/** A fetcher outside the configured replicas, admitted as an observer if the peer allows it. */
function admit(
  core: RaftCore,
  s: LeaderState,
  replicaId: string,
  admitObserver: ((replicaId: string) => boolean) | undefined,
): boolean {
  if (admitObserver?.(replicaId) !== true) return false
  const idleMs = core.config.fetchTimeoutMs * ADMITTED_OBSERVER_IDLE_FETCH_TIMEOUTS
  return s.admitObserver(replicaId, core.clock.now(), MAX_ADMITTED_OBSERVERS, idleMs)
}
