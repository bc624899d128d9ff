/**
 * A replica that knows its epoch but no leader in it: just started, saw a higher epoch, voted
 * for a candidate, or resigned as leader. A voter waits out its election timeout and then
 * stands; an observer waits for a leader to be announced or found.
 */
export class UnattachedState {
  readonly role = 'unattached' as const
  readonly leaderId = undefined

  constructor(
    readonly epoch: number,
    /** The candidate voted for in this epoch (KRaft's Voted state), if any. */
    readonly votedFor: string | undefined,
    /** When a voter stands for election (an observer looks for the leader instead). */
    public electionDeadline: number,
  ) {}

  /**
   * One vote per epoch: a replica that has voted repeats the same answer to the same candidate
   * (requests are retried and duplicated) and refuses everyone else.
   */
  canGrantVote(candidateId: string, candidateLogUpToDate: boolean): boolean {
    if (this.votedFor !== undefined) return this.votedFor === candidateId
    return candidateLogUpToDate
  }

  deadline(): number {
    return this.electionDeadline
  }
}
