/**
 * Answering BeginQuorumEpoch (a new leader announces itself: follow it) and EndQuorumEpoch (the
 * leader resigns: stand for election soon, its preferred successors first, as in KIP-595).
 */
import { ErrorCode, InvalidRequestError } from '@tributary/wire'
import type { RaftCore } from './core.js'
import {
  type BeginQuorumEpochRequest,
  type EndQuorumEpochRequest,
  type QuorumEpochResponse,
  validateBeginQuorumEpochRequest,
  validateEndQuorumEpochRequest,
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
      else if (s.role === 'unattached') s.electionDeadline = Math.min(s.electionDeadline, at)
      core.reschedule()
    }
    return quorumEpochResponse(core, r.leaderEpoch)
  })
}

function checkSender(core: RaftCore, partition: string, leaderId: string): void {
  if (partition !== core.partition) {
    throw new InvalidRequestError(`raft request for partition ${partition} reached ${core.partition}`)
  }
  if (!core.quorum.isVoter(leaderId) || leaderId === core.localId) {
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
