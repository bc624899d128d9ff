/**
 * The leader's side of a produce: appending producer batches in the leader's epoch (acks=1),
 * and the error a replica that does not lead answers with, naming the leader when it knows one.
 */
import { NotLeaderOrFollowerError } from '@tributary/wire'
import type { RaftCore } from './core.js'
import type { EpochState } from './quorum-state.js'
import type { LeaderAppendResult } from './types.js'

/** Appends producer batches as the leader (acks=1 once this resolves). NotLeaderOrFollowerError elsewhere. */
export async function appendAsLeader(
  core: RaftCore,
  batches: Uint8Array,
  options: { signal?: AbortSignal },
): Promise<LeaderAppendResult> {
  const s = await core.locked(() => {
    const state = core.quorum.state
    if (state.role !== 'leader') throw notLeaderError(core, state)
    // Raft §3.10: appends wait out a hand-over, so the target can hold the whole log.
    if (state.transfer !== undefined) {
      throw new NotLeaderOrFollowerError(
        `${core.partition}: ${core.localId} is handing leadership to ${state.transfer.to}; retry shortly`,
      )
    }
    return state
  })
  // The write happens outside the raft lock, so concurrent produces queue in the log and are
  // committed in groups. Safety does not rest on the lock: the log refuses an append whose
  // epoch is older than what it holds, and data a deposed leader appended after losing
  // leadership is uncommitted and cut when it next fetches (diverging epoch).
  const result = await core.log.appendAsLeader(batches, s.epoch, { signal: options.signal })
  await core
    .locked(() => {
      if (core.quorum.state === s && s.updateLocalEndOffset(core.log.logEndOffset)) core.leaderHighWatermarkMoved(s)
      core.wakeFetches()
    })
    .catch(() => {
      // stopped meanwhile: the append stands, the caller learns leadership is gone from waitForCommit
    })
  // Not `{ ...result, leaderEpoch }`: objects made by spreading are promoted by V8 (group-commit.ts).
  const answer: LeaderAppendResult = {
    firstOffset: result.firstOffset,
    lastOffset: result.lastOffset,
    logAppendTime: result.logAppendTime,
    batchCount: result.batchCount,
    recordCount: result.recordCount,
    bytes: result.bytes,
    leaderEpoch: s.epoch,
  }
  if (result.duplicate === true) answer.duplicate = true
  return answer
}

/** What a replica in state `s` (undefined: not running) answers a request only the leader serves. */
export function notLeaderError(core: RaftCore, s: EpochState | undefined): NotLeaderOrFollowerError {
  const hint =
    s?.leaderId !== undefined
      ? `the leader is ${s.leaderId} (epoch ${s.epoch})`
      : 'no leader is known yet; retry shortly'
  return new NotLeaderOrFollowerError(`${core.partition}: ${core.localId} is not the leader; ${hint}`)
}
