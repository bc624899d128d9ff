/**
 * Preferred-leader balancing (Kafka's `auto.leader.rebalance.enable`): the first voter of a
 * partition is its preferred leader, and placement spreads first places evenly over the peers.
 * After restarts, whoever stood first leads; so every `leaderImbalanceCheckIntervalMs` a leader
 * that is not the preferred one, while the preferred one is in sync, hands over (Raft
 * dissertation §3.10): it stops taking appends, waits until the target holds its whole log, and
 * sends it TimeoutNow — the target stands at once, with a log no voter can refuse. If leadership
 * has not moved within an election timeout, appends resume and the next check tries again.
 * Only ever towards the preferred leader, who never hands over, so it cannot ping-pong.
 */
import type { RaftCore } from './core.js'
import type { LeaderState } from './leader-state.js'
import type { TimeoutNowRequest } from './messages.js'

/** The leader's periodic balance check; may start a transfer. Locked. */
export function checkPreferredLeader(core: RaftCore, s: LeaderState, now: number): void {
  const { config, quorum, localId } = core
  if (s.transfer !== undefined && now >= s.transfer.deadline) {
    core.logger.info({ partition: core.partition, to: s.transfer.to }, 'leadership transfer timed out; leading on')
    s.transfer = undefined
    core.wakeFetches()
  }
  if (!config.autoLeaderRebalanceEnable || now < s.nextBalanceCheckAt) return
  s.nextBalanceCheckAt = now + config.leaderImbalanceCheckIntervalMs
  if (s.transfer !== undefined || s.learner !== undefined) return
  if (s.highWatermark <= s.epochStartOffset || quorum.uncommittedVoterChanges(s.highWatermark) > 0) return
  const preferred = quorum.voters[0]
  if (preferred === undefined || preferred === localId) return
  const target = s.replica(preferred)
  const recent = target?.lastFetchAt !== undefined && now - target.lastFetchAt <= config.fetchTimeoutMs
  if (!recent || !s.isInSync(preferred, now, config.replicaLagTimeMaxMs)) return
  core.logger.info(
    { partition: core.partition, epoch: s.epoch, to: preferred },
    'handing leadership to the preferred leader',
  )
  s.transfer = { to: preferred, deadline: now + config.electionTimeoutMs, sent: false }
  core.reschedule()
  sendTimeoutNowIfCaughtUp(core, s)
}

/** Sends TimeoutNow once the transfer target holds the whole log. Locked. */
export function sendTimeoutNowIfCaughtUp(core: RaftCore, s: LeaderState): void {
  const t = s.transfer
  if (t === undefined || t.sent) return
  const progress = s.replica(t.to)
  if (progress === undefined || progress.endOffset < core.log.logEndOffset) return
  t.sent = true
  core.stats.leadershipTransfers++
  const request: TimeoutNowRequest = { partition: core.partition, leaderId: core.localId, leaderEpoch: s.epoch }
  core
    .request('timeout-now', core.config.requestTimeoutMs, (o) => core.transport.timeoutNow(t.to, request, o))
    .catch((err: unknown) => core.logger.debug({ partition: core.partition, to: t.to, err }, 'timeout-now failed'))
}
