/**
 * Elections: answering Vote requests (one vote per epoch, persisted before the answer, and only
 * for a candidate whose log is at least as up to date), answering pre-votes (KIP-996: the same
 * question, asked without moving anyone to a new epoch, and refused while a leader is heard
 * from), a prospective voter asking for pre-votes, and a candidate asking for votes.
 */
import { ErrorCode, InvalidRequestError } from '@tributary/wire'
import type { CandidateState } from './candidate-state.js'
import type { RaftCore } from './core.js'
import { type VoteRequest, type VoteResponse, validateVoteRequest, validateVoteResponse } from './messages.js'
import type { ProspectiveState } from './prospective-state.js'

/** Answers a Vote request (or a pre-vote). Locked. */
export async function answerVote(core: RaftCore, request: VoteRequest): Promise<VoteResponse> {
  const r = validateVoteRequest(request)
  const { quorum, localId, log } = core
  if (!quorum.localIsVoter || r.voterId !== localId) {
    throw new InvalidRequestError(`${core.partition}: vote request for ${r.voterId} reached ${localId}, not a voter`)
  }
  if (!quorum.isVoter(r.candidateId) || r.candidateId === localId) {
    throw new InvalidRequestError(`${core.partition}: ${r.candidateId} is not a voter that may ask ${localId}`)
  }
  const upToDate = core.rules.isLogUpToDate(
    { epoch: r.lastOffsetEpoch, offset: r.lastOffset },
    { epoch: log.latestEpoch(), offset: log.logEndOffset },
  )
  if (r.preVote) return answerPreVote(core, r, upToDate)
  const s = quorum.state
  if (r.candidateEpoch > s.epoch) {
    // A newer epoch: move into it (stepping down if leading), voting now if the log allows.
    await core.becomeUnattached(r.candidateEpoch, upToDate ? r.candidateId : undefined)
  } else if (r.candidateEpoch === s.epoch && s.canGrantVote(r.candidateId, upToDate)) {
    // Already voted for it (a retried request) as unattached: the answer is the same, nothing to save.
    if (s.role !== 'unattached' || s.votedFor !== r.candidateId) await core.becomeUnattached(s.epoch, r.candidateId)
  }
  const now = quorum.state
  const granted = now.role === 'unattached' && now.epoch === r.candidateEpoch && now.votedFor === r.candidateId
  return voteResponse(core, granted)
}

/**
 * KIP-996: would this voter vote for the candidate in `candidateEpoch`? Not while it leads or
 * follows a leader it still hears from (a lone replica coming back must not depose it); otherwise
 * by the usual rules. Nothing is saved or changed.
 */
function answerPreVote(core: RaftCore, r: VoteRequest, upToDate: boolean): VoteResponse {
  const s = core.quorum.state
  let granted: boolean
  if (r.candidateEpoch < s.epoch || s.role === 'leader') granted = false
  else if (s.role === 'follower' && s.hasLiveLeader()) granted = false
  else if (r.candidateEpoch === s.epoch) granted = s.canGrantVote(r.candidateId, upToDate)
  else granted = upToDate
  return voteResponse(core, granted)
}

function voteResponse(core: RaftCore, granted: boolean): VoteResponse {
  const now = core.quorum.state
  return {
    errorCode: ErrorCode.NONE,
    errorMessage: '',
    voteGranted: granted,
    leaderEpoch: now.epoch,
    leaderId: now.leaderId,
  }
}

/** Sends pre-vote requests to every other voter; a majority of grants makes it a candidate. Locked. */
export function requestPreVotes(core: RaftCore, state: ProspectiveState): void {
  for (const voter of state.unanswered()) {
    sendVote(core, voter, state.epoch + 1, true, (response) => onPreVoteResponse(core, state, voter, response))
  }
}

/** Sends Vote requests to every other voter; answers are counted as they arrive. Locked. */
export function requestVotes(core: RaftCore, state: CandidateState): void {
  for (const voter of state.unanswered()) {
    sendVote(core, voter, state.epoch, false, (response) => onVoteResponse(core, state, voter, response))
  }
}

function sendVote(
  core: RaftCore,
  voter: string,
  candidateEpoch: number,
  preVote: boolean,
  onResponse: (response: VoteResponse) => Promise<void>,
): void {
  const { log, localId, partition, config } = core
  const request: VoteRequest = {
    partition,
    candidateId: localId,
    candidateEpoch,
    voterId: voter,
    lastOffsetEpoch: log.latestEpoch(),
    lastOffset: log.logEndOffset,
    preVote,
  }
  core
    .request(preVote ? 'pre-vote' : 'vote', config.electionTimeoutMs, (options) =>
      core.transport.vote(voter, request, options),
    )
    .then((response) => core.locked(() => onResponse(validateVoteResponse(response))))
    .catch((err: unknown) => core.logger.debug({ partition, voter, preVote, err }, 'vote request failed'))
}

async function onPreVoteResponse(
  core: RaftCore,
  state: ProspectiveState,
  voter: string,
  response: VoteResponse,
): Promise<void> {
  // A voter in a newer epoch, or one that knows this epoch's leader: follow that instead — but
  // not back to the leader this replica lost on another voter's word (it may be as stale as
  // ours); only the leader itself answering proves it alive.
  const known = response.leaderEpoch === state.epoch && response.leaderId !== undefined
  const news = response.leaderId !== state.leaderId || response.leaderId === voter
  if (response.leaderEpoch > state.epoch || (known && news)) {
    await core.observeLeader(response.leaderEpoch, response.leaderId)
  }
  if (core.quorum.state !== state || response.errorCode !== ErrorCode.NONE) return
  state.recordPreVote(voter, response.voteGranted)
  if (state.isPreVoteGranted()) await core.becomeCandidate()
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
