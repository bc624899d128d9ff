/**
 * Answering BeginQuorumEpoch (a new leader announces itself: follow it), EndQuorumEpoch (the
 * leader resigns: stand for election soon, its preferred successors first, as in KIP-595) and
 * TimeoutNow (the leader hands over to this voter: stand at once, Raft §3.10).
 */
import { ErrorCode, InvalidRequestError } from '@tributary/wire'
import type { RaftCore } from './core.js'
import {
  type BeginQuorumEpochRequest,
  type EndQuorumEpochRequest,
  type QuorumEpochResponse,
  type TimeoutNowRequest,
  validateBeginQuorumEpochRequest,
  validateEndQuorumEpochRequest,
  validateTimeoutNowRequest,
} from './messages.js'

export function answerBeginQuorumEpoch(core: RaftCore, request: BeginQuorumEpochRequest): Promise<QuorumEpochResponse> {
  const r = validateBeginQuorumEpochRequest(request)
  checkSender(core, r.partition, r.leaderId)
  return core.locked(async () => {
    if (r.leaderEpoch >= core.quorum.epoch) await core.observeLeader(r.leaderEpoch, r.leaderId)
    return quorumEpochResponse(core, r.leaderEpoch)
  })
}

export function answerEndQuorumEpoch(core: RaftCore, request: EndQuorumEpochRequest): Promise<QuorumEpochResponse> {
  const r = validateEndQuorumEpochRequest(request)
  checkSender(core, r.partition, r.leaderId)
  return core.locked(async () => {
    const { quorum, config, localId } = core
    if (r.leaderEpoch > quorum.epoch) await core.observeLeader(r.leaderEpoch, undefined)
    const s = quorum.state
    if (quorum.localIsVoter && s.epoch === r.leaderEpoch) {
      const rank = r.preferredSuccessors.indexOf(localId)
      const step = config.electionTimeoutMs / quorum.voters.length
      const backoff = (rank < 0 ? quorum.voters.length : rank) * step + (core.random() * step) / 2
      const at = core.clock.now() + Math.floor(backoff)
      core.logger.debug({ partition: core.partition, epoch: s.epoch, rank }, 'leader resigned; standing sooner')
      if (s.role === 'follower' && s.leaderId === r.leaderId) s.expediteElection(at)
      else if (s.role === 'unattached' || s.role === 'prospective') {
        s.electionDeadline = Math.min(s.electionDeadline, at)
      }
      core.reschedule()
    }
    return quorumEpochResponse(core, r.leaderEpoch)
  })
}

export function answerTimeoutNow(core: RaftCore, request: TimeoutNowRequest): Promise<QuorumEpochResponse> {
  const r = validateTimeoutNowRequest(request)
  checkSender(core, r.partition, r.leaderId)
  return core.locked(async () => {
    const s = core.quorum.state
    // Only the leader this replica follows, in its epoch, may hand over; anything else is stale.
    if (core.quorum.localIsVoter && s.role === 'follower' && s.leaderId === r.leaderId && s.epoch === r.leaderEpoch) {
      core.logger.info(
        { partition: core.partition, epoch: s.epoch, from: r.leaderId },
        'leadership handed over; standing',
      )
      await core.becomeCandidate()
    }
    return quorumEpochResponse(core, r.leaderEpoch)
  })
}

/**
 * The transport lost its connection to `peerId`. If that is this follower's leader, stand
 * soon instead of waiting out the fetch timeout, in turns as after a resignation: the remaining
 * voters by their order in the voter set, a slot of electionTimeout / voters each, randomized in
 * its first half. Every follower sees the connection close at the same moment, so without turns
 * they stood together and split the vote (the mesh bench: epoch 3 → 5 and 1.6 s, one failover in
 * three). Always safe: it only fires a timeout early;
 * a leader that is in fact alive wins its followers back, or keeps them, by the usual rules.
 * Locked.
 */
export function expediteElection(core: RaftCore, peerId: string): void {
  const s = core.quorum.state
  if (s.role !== 'follower' || s.leaderId !== peerId || !core.quorum.localIsVoter) return
  const voters = core.quorum.voters
  const rank = Math.max(0, voters.filter((v) => v !== peerId).indexOf(core.localId))
  const step = core.config.electionTimeoutMs / voters.length
  const at = core.clock.now() + Math.floor(rank * step + (core.random() * step) / 2)
  core.logger.debug(
    { partition: core.partition, epoch: s.epoch, leader: peerId, rank },
    'lost the leader; standing sooner',
  )
  s.expediteElection(at)
  core.reschedule()
}

function checkSender(core: RaftCore, partition: string, leaderId: string): void {
  if (partition !== core.partition) {
    throw new InvalidRequestError(`raft request for partition ${partition} reached ${core.partition}`)
  }
  if (!core.quorum.mayFollow(leaderId)) {
    throw new InvalidRequestError(`${core.partition}: ${leaderId} is not another voter`)
  }
}

function quorumEpochResponse(core: RaftCore, requestEpoch: number): QuorumEpochResponse {
  const s = core.quorum.state
  const fenced = requestEpoch < s.epoch
  return {
    errorCode: fenced ? ErrorCode.FENCED_LEADER_EPOCH : ErrorCode.NONE,
    errorMessage: fenced ? `epoch ${requestEpoch} is over; ${s.epoch} began` : '',
    leaderEpoch: s.epoch,
    leaderId: s.leaderId,
  }
}
