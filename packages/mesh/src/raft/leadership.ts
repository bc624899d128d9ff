/**
 * Driving a leader: starting its epoch (the leader-change record, then BeginQuorumEpoch to
 * every replica), its periodic check (resend BeginQuorumEpoch to replicas that have not
 * fetched; resign when a majority stopped fetching; voter replacement and preferred-leader
 * balancing), and resigning (EndQuorumEpoch, so the best-placed voter stands at once instead
 * of waiting out a fetch timeout).
 */
import { leaderChangeBatch } from './control-batch.js'
import type { RaftCore } from './core.js'
import { ADMITTED_OBSERVER_IDLE_FETCH_TIMEOUTS, type LeaderState } from './leader-state.js'
import { checkPreferredLeader } from './leadership-transfer.js'
import type { EndQuorumEpochRequest } from './messages.js'
import { reconcileVoters } from './voter-changes.js'

/** A new leader appends its leader-change record, then announces itself. Locked. */
export async function beginEpoch(core: RaftCore, s: LeaderState): Promise<void> {
  const { log, localId, quorum } = core
  const batch = leaderChangeBatch(
    { leaderId: localId, voters: quorum.voters, grantingVoters: s.grantingVoters },
    core.clock.now(),
  )
  try {
    await log.appendAsLeader(batch, s.epoch, { allowControl: true })
  } catch (err) {
    core.logger.error({ partition: core.partition, epoch: s.epoch, err }, 'cannot append the leader-change record')
    return resign(core, s)
  }
  if (s.updateLocalEndOffset(log.logEndOffset)) core.leaderHighWatermarkMoved(s)
  sendBeginQuorumEpoch(core, s, [...quorum.voters, ...core.observerIds])
}

/** The leader's timer fired. Locked. */
export async function leaderCheck(core: RaftCore, s: LeaderState, now: number): Promise<void> {
  const { fetchTimeoutMs, electionTimeoutMs } = core.config
  if (now - s.becameLeaderAt >= fetchTimeoutMs && !s.hasQuorumContact(now, fetchTimeoutMs)) {
    core.logger.info({ partition: core.partition, epoch: s.epoch }, 'no majority fetched recently; resigning')
    return resign(core, s)
  }
  if (now >= s.nextCheckAt) {
    s.nextCheckAt = now + Math.max(1, Math.floor(electionTimeoutMs / 2))
    s.dropIdleObservers(now, fetchTimeoutMs * ADMITTED_OBSERVER_IDLE_FETCH_TIMEOUTS)
    await reconcileVoters(core, s, now)
    if (core.quorum.state !== s) return
  }
  checkPreferredLeader(core, s, now)
  const awaiting = s.replicasAwaitingBegin()
  if (awaiting.length > 0) sendBeginQuorumEpoch(core, s, awaiting)
}

/** Steps down within the epoch and tells the other voters. Locked. */
export async function resign(core: RaftCore, s: LeaderState): Promise<void> {
  await core.becomeUnattached(s.epoch)
  void announceResignation(core, s)
}

/** Sends EndQuorumEpoch to every other voter; resolves when all answered or timed out. */
export async function announceResignation(core: RaftCore, s: LeaderState): Promise<void> {
  const request: EndQuorumEpochRequest = {
    partition: core.partition,
    leaderId: core.localId,
    leaderEpoch: s.epoch,
    preferredSuccessors: s.preferredSuccessors(),
  }
  const sends = core.quorum.voters
    .filter((v) => v !== core.localId)
    .map((v) =>
      core.request('end-quorum-epoch', core.config.requestTimeoutMs, (o) =>
        core.transport.endQuorumEpoch(v, request, o),
      ),
    )
  await Promise.allSettled(sends)
}

function sendBeginQuorumEpoch(core: RaftCore, s: LeaderState, to: readonly string[]): void {
  const request = { partition: core.partition, leaderId: core.localId, leaderEpoch: s.epoch }
  for (const peer of new Set(to)) {
    if (peer === core.localId) continue
    core
      .request('begin-quorum-epoch', core.config.requestTimeoutMs, (o) =>
        core.transport.beginQuorumEpoch(peer, request, o),
      )
      .catch((err: unknown) => core.logger.debug({ partition: core.partition, peer, err }, 'begin-quorum-epoch failed'))
  }
}
