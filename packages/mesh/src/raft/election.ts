/**
 * Elections: answering Vote requests (one vote per epoch, persisted before the answer, and only
 * for a candidate whose log is at least as up to date), and a candidate asking for votes.
 */
import { ErrorCode, InvalidRequestError } from '@tributary/wire'
import type { CandidateState } from './candidate-state.js'
import type { RaftCore } from './core.js'
import { type VoteRequest, type VoteResponse, validateVoteRequest, validateVoteResponse } from './messages.js'

/** Answers a Vote request. Locked. */
export async function answerVote(core: RaftCore, request: VoteRequest): Promise<VoteResponse> {
  const r = validateVoteRequest(request)
  const { quorum, localId, log } = core
  if (!quorum.localIsVoter || r.voterId !== localId) {
    throw new InvalidRequestError(`${core.partition}: vote request for ${r.voterId} reached ${localId}, not a voter`)
  }
  if (!quorum.isVoter(r.candidateId) || r.candidateId === localId) {
    throw new InvalidRequestError(`${core.partition}: ${r.candidateId} is not a voter that may ask ${localId}`)
  }
  const s = quorum.state
  if (r.candidateEpoch >= s.epoch) {
    const upToDate = core.rules.isLogUpToDate(
      { epoch: r.lastOffsetEpoch, offset: r.lastOffset },
      { epoch: log.latestEpoch(), offset: log.logEndOffset },
    )
    if (r.candidateEpoch > s.epoch) {
      // A newer epoch: move into it (stepping down if leading), voting now if the log allows.
      await core.becomeUnattached(r.candidateEpoch, upToDate ? r.candidateId : undefined)
    } else if (s.canGrantVote(r.candidateId, upToDate) && s.votedFor !== r.candidateId) {
      await core.becomeUnattached(s.epoch, r.candidateId)
    }
  }
  const now = quorum.state
  const granted = now.role === 'unattached' && now.epoch === r.candidateEpoch && now.votedFor === r.candidateId
  return {
    errorCode: ErrorCode.NONE,
    errorMessage: '',
    voteGranted: granted,
    leaderEpoch: now.epoch,
    leaderId: now.leaderId,
  }
}

/** Sends Vote requests to every other voter; answers are counted as they arrive. Locked. */
export function requestVotes(core: RaftCore, state: CandidateState): void {
  const { log, localId, partition, config } = core
  const base = {
    partition,
    candidateId: localId,
    candidateEpoch: state.epoch,
    lastOffsetEpoch: log.latestEpoch(),
    lastOffset: log.logEndOffset,
  }
  for (const voter of state.unanswered()) {
    const request: VoteRequest = { ...base, voterId: voter }
    core
      .request('vote', config.electionTimeoutMs, (options) => core.transport.vote(voter, request, options))
      .then((response) => core.locked(() => onVoteResponse(core, state, voter, validateVoteResponse(response))))
      .catch((err: unknown) => core.logger.debug({ partition, voter, err }, 'vote request failed'))
  }
}

async function onVoteResponse(
  core: RaftCore,
  state: CandidateState,
  voter: string,
  response: VoteResponse,
): Promise<void> {
  if (response.leaderEpoch > state.epoch || (response.leaderEpoch === state.epoch && response.leaderId)) {
    await core.observeLeader(response.leaderEpoch, response.leaderId)
  }
  if (core.quorum.state !== state || response.errorCode !== ErrorCode.NONE) return
  if (response.leaderEpoch !== state.epoch) return
  state.recordVote(voter, response.voteGranted)
  if (state.isVoteGranted()) await core.becomeLeader()
}
