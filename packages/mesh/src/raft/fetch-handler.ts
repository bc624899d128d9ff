/**
 * The leader's side of replication: answering a replica's fetch. The fetcher's position
 * (fetchOffset, lastFetchedEpoch) is checked against the leader's epoch cache first; a position
 * this log does not share gets a DivergingEpoch (KIP-595) and is *not* counted, a consistent one
 * is recorded for the high watermark and the in-sync set and answered with the batches after
 * it. A caught-up fetcher is held open (long poll) until new data, a role
 * change, or `fetchMaxWaitMs`.
 */
import { ErrorCode } from '@tributary/wire'
import type { RaftCore } from './core.js'
import type { ReplicaFetchRequest, ReplicaFetchResponse } from './messages.js'
import type { RaftClock } from './types.js'

const EMPTY = new Uint8Array(0)

/** A caught-up fetch to hold open, with the waiters' version when that was decided. */
interface Park {
  park: number
}

/** Long-polling fetches parked on the leader, bounded in number. */
export class FetchWaiters {
  private waiters = new Set<() => void>()
  /** Bumped by every `wakeAll`: a fetch that decided to wait before a wake-up does not miss it. */
  version = 0

  constructor(
    private readonly clock: RaftClock,
    private readonly max: number,
  ) {}

  /**
   * Resolves after `ms`, on `wakeAll`, or on abort — at once if a wake-up came since `seenVersion`
   * or too many fetches are already parked.
   */
  wait(ms: number, seenVersion: number, signal: AbortSignal | undefined): Promise<void> {
    if (ms <= 0 || signal?.aborted || seenVersion !== this.version || this.waiters.size >= this.max) {
      return Promise.resolve()
    }
    return new Promise((resolve) => {
      const done = (): void => {
        this.waiters.delete(done)
        this.clock.clearTimeout(timer)
        signal?.removeEventListener('abort', done)
        resolve()
      }
      const timer = this.clock.setTimeout(done, ms)
      signal?.addEventListener('abort', done, { once: true })
      this.waiters.add(done)
    })
  }

  wakeAll(): void {
    this.version++
    for (const wake of [...this.waiters]) wake()
  }
}

/** Answers a replica fetch, holding it open while the fetcher is caught up. */
export async function answerReplicaFetch(
  core: RaftCore,
  waiters: FetchWaiters,
  request: ReplicaFetchRequest,
  signal: AbortSignal | undefined,
): Promise<ReplicaFetchResponse> {
  const first = await core.locked(() => answer(core, waiters, request, false))
  if (!('park' in first)) return first
  await waiters.wait(Math.min(request.maxWaitMs, core.config.fetchMaxWaitMs), first.park, signal)
  return (await core.locked(() => answer(core, waiters, request, true))) as ReplicaFetchResponse
}

/** An answer from the replica's current state, with no records (a module function: `answer` runs per fetch, and a closure per call was measurable). */
function response(core: RaftCore, errorCode: number, errorMessage: string): ReplicaFetchResponse {
  const s = core.quorum.state
  return {
    errorCode,
    errorMessage,
    leaderId: s.leaderId,
    leaderEpoch: s.epoch,
    highWatermark: core.log.highWatermark,
    logStartOffset: core.log.logStartOffset,
    records: EMPTY,
    divergingEpoch: undefined,
  }
}

/** Locked. `final`: never park (the second pass after a wait). */
async function answer(
  core: RaftCore,
  waiters: FetchWaiters,
  r: ReplicaFetchRequest,
  final: boolean,
): Promise<ReplicaFetchResponse | Park> {
  const { log, quorum, config } = core
  const s = quorum.state
  if (s.role !== 'leader') {
    return response(core, ErrorCode.NOT_LEADER_OR_FOLLOWER, `${core.localId} does not lead ${core.partition}`)
  }
  if (r.currentLeaderEpoch < s.epoch) {
    return response(core, ErrorCode.FENCED_LEADER_EPOCH, `epoch ${r.currentLeaderEpoch} is over; ${s.epoch} began`)
  }
  if (r.currentLeaderEpoch > s.epoch) {
    return response(core, ErrorCode.UNKNOWN_LEADER_EPOCH, `epoch ${r.currentLeaderEpoch} is newer than ${s.epoch}`)
  }
  const leo = log.logEndOffset
  if (r.fetchOffset < log.logStartOffset || (r.lastFetchedEpoch < 0 && r.fetchOffset > leo)) {
    return response(
      core,
      ErrorCode.OFFSET_OUT_OF_RANGE,
      `offset ${r.fetchOffset} is outside [${log.logStartOffset}, ${leo}]`,
    )
  }
  if (r.lastFetchedEpoch >= 0) {
    const end = log.endOffsetForEpoch(r.lastFetchedEpoch)
    if (end.epoch !== r.lastFetchedEpoch || end.endOffset < r.fetchOffset) {
      const diverging = response(core, ErrorCode.NONE, '')
      diverging.divergingEpoch = { epoch: end.epoch, endOffset: end.endOffset }
      return diverging
    }
  }
  // The fetcher's log matches this one below fetchOffset: count it.
  const moved = r.replicaId !== core.localId && s.updateReplica(r.replicaId, r.fetchOffset, leo, core.clock.now())
  if (moved) core.leaderHighWatermarkMoved(s)
  if (r.fetchOffset >= leo) {
    // Caught up: hold the fetch until new data even when it just moved the high watermark (the
    // fetcher learns the new watermark with that data, or when the long poll ends).
    if (!final && r.maxWaitMs > 0) return { park: waiters.version }
    return response(core, ErrorCode.NONE, '')
  }
  const maxBytes = Math.min(r.maxBytes > 0 ? r.maxBytes : config.fetchMaxBytes, config.fetchMaxBytes)
  const read = await log.read(r.fetchOffset, { maxOffset: leo, maxBytes })
  // The fresh response gets its records set rather than spread into a copy: V8 promotes objects made
  // by spreading (README, Development), and this runs for every replica fetch.
  const answer = response(core, ErrorCode.NONE, '')
  answer.records = read.records
  return answer
}
