/**
 * The leader keeping its partition at its replication factor without an operator. A voter out
 * of the in-sync set for longer than `replicaReplacementDelayMs` is replaced: placement names a
 * live peer that holds no replica, it joins as a learner (it fetches but neither votes nor
 * counts), and once caught up it is added as a voter — then the lost voter is removed. Each step
 * is a VotersRecord that changes the set by one voter (Raft dissertation §4.1: the sets before
 * and after share a majority), appended only when the previous change is committed and this
 * leader's own epoch is (the fix to single-server changes Ongaro published in 2015). Adding
 * before removing keeps the partition writable throughout: the learner was caught up, so the
 * larger majority is reachable at once.
 */
import { votersBatch } from './control-batch.js'
import type { RaftCore } from './core.js'
import type { LeaderState } from './leader-state.js'

/** The leader's periodic step towards `replicationFactor` healthy voters. Locked. */
export async function reconcileVoters(core: RaftCore, s: LeaderState, now: number): Promise<void> {
  const { placement, quorum, config, localId } = core
  if (placement === undefined || s.transfer !== undefined) return
  if (s.highWatermark <= s.epochStartOffset) return
  if (!core.rules.mayChangeVoters(quorum.uncommittedVoterChanges(s.highWatermark))) return
  const voters = quorum.voters
  const lag = config.replicaLagTimeMaxMs
  if (voters.length > placement.replicationFactor) {
    // A new leader knows nobody's progress yet: give every voter the lag to show it keeps up
    // before picking the one to remove.
    if (now - s.becameLeaderAt < lag) return
    return changeVoters(core, s, withoutOne(voters, s, now, lag, localId))
  }
  const learner = s.learner
  if (learner !== undefined) {
    const progress = s.replica(learner.id)
    if (learner.replacing !== undefined && s.isInSync(learner.replacing, now, lag)) {
      core.logger.info({ partition: core.partition, learner: learner.id }, 'the voter came back; learner dropped')
      s.dropLearner()
      core.membershipChanged()
    } else if (progress?.lastFetchAt !== undefined && s.isInSync(learner.id, now, lag)) {
      await changeVoters(core, s, [...voters, learner.id])
    } else if (now - (progress?.lastFetchAt ?? learner.since) > config.replicaReplacementDelayMs) {
      core.logger.info({ partition: core.partition, learner: learner.id }, 'learner did not fetch; trying another')
      s.triedLearners.add(learner.id)
      s.dropLearner()
      core.membershipChanged()
    }
    return
  }
  const missing = voters.length < placement.replicationFactor
  const lost = missing ? undefined : longestOut(voters, s, now, lag, localId, config.replicaReplacementDelayMs)
  if (!missing && lost === undefined) return
  const candidates = placement.candidates()
  let pick = candidates.find((id) => !voters.includes(id) && !s.triedLearners.has(id))
  if (pick === undefined && s.triedLearners.size > 0) {
    // Every candidate failed once: start over rather than give up for this leader's tenure.
    s.triedLearners.clear()
    pick = candidates.find((id) => !voters.includes(id))
  }
  if (pick === undefined) {
    core.logger.debug({ partition: core.partition, lost }, 'no peer available to replace a voter')
    return
  }
  s.addLearner({ id: pick, replacing: lost, since: now })
  core.logger.info({ partition: core.partition, learner: pick, replacing: lost }, 'adding a learner')
  core.membershipChanged()
}

/** The voter out of sync for longer than the replacement delay, longest out first (never the leader). */
function longestOut(
  voters: readonly string[],
  s: LeaderState,
  now: number,
  lagMs: number,
  localId: string,
  delayMs: number,
): string | undefined {
  return voters
    .filter((v) => v !== localId && !s.isInSync(v, now, lagMs) && now >= s.outOfSyncSince(v, lagMs) + delayMs)
    .sort((a, b) => s.outOfSyncSince(a, lagMs) - s.outOfSyncSince(b, lagMs) || (a < b ? -1 : 1))[0]
}

/**
 * `voters` less one: an out-of-sync voter if there is one (longest out first), else the newest
 * (the last). The newest voter takes the removed one's place in the order, so a replacement
 * keeps the preferred-leader order of the placement it repairs.
 */
export function withoutOne(
  voters: readonly string[],
  s: LeaderState,
  now: number,
  lagMs: number,
  localId: string,
): string[] {
  const caughtUp = (id: string): number => s.replica(id)?.lastCaughtUpAt ?? Number.NEGATIVE_INFINITY
  const out = voters
    .filter((v) => v !== localId && !s.isInSync(v, now, lagMs))
    .sort((a, b) => caughtUp(a) - caughtUp(b) || (a < b ? -1 : 1))
  const last = voters.at(-1) as string
  const victim = out[0] ?? (last !== localId ? last : (voters.at(-2) as string))
  const next = [...voters]
  const at = next.indexOf(victim)
  if (at === next.length - 1) next.pop()
  else {
    next[at] = next.pop() as string
  }
  return next
}

/** Appends the VotersRecord that makes `voters` the set; it takes effect on append. Locked. */
async function changeVoters(core: RaftCore, s: LeaderState, voters: readonly string[]): Promise<void> {
  const before = core.quorum.voters
  try {
    await core.log.appendAsLeader(votersBatch(voters, core.clock.now()), s.epoch, { allowControl: true })
  } catch (err) {
    core.logger.error({ partition: core.partition, epoch: s.epoch, err }, 'cannot append a voter change')
    return
  }
  if (core.quorum.state !== s) return
  const added = voters.filter((v) => !before.includes(v))
  const removed = before.filter((v) => !voters.includes(v))
  core.logger.info({ partition: core.partition, epoch: s.epoch, voters, added, removed }, 'voter set changed')
  core.stats.votersAdded += added.length
  core.stats.votersRemoved += removed.length
  const moved = s.setVoters(core.quorum.voters)
  if (s.updateLocalEndOffset(core.log.logEndOffset) || moved) core.leaderHighWatermarkMoved(s)
  core.membershipChanged()
  core.wakeFetches()
}
