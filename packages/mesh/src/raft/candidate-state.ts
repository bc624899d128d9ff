/**
 * A voter standing for election in its epoch. It voted for itself (persisted before any request
 * went out) and counts answers; a majority of grants makes it leader, and the election timeout
 * without one starts a new election in the next epoch.
 */
export class CandidateState {
  readonly role = 'candidate' as const
  readonly leaderId = undefined
  private readonly granted = new Set<string>()
  private readonly rejected = new Set<string>()

  constructor(
    readonly epoch: number,
    readonly localId: string,
    private readonly voters: readonly string[],
    public electionDeadline: number,
  ) {
    this.granted.add(localId)
  }

  get votedFor(): string {
    return this.localId
  }

  private get majority(): number {
    return Math.floor(this.voters.length / 2) + 1
  }

  /** It voted for itself in this epoch. */
  canGrantVote(candidateId: string): boolean {
    return candidateId === this.localId
  }

  /**
   * Records a voter's answer. The first answer counts: a voter answers the same way for the
   * whole epoch, so a later different answer is a duplicate from a confused peer and ignored.
   */
  recordVote(voterId: string, granted: boolean): void {
    if (voterId === this.localId || !this.voters.includes(voterId)) return
    if (this.granted.has(voterId) || this.rejected.has(voterId)) return
    ;(granted ? this.granted : this.rejected).add(voterId)
  }

  isVoteGranted(): boolean {
    return this.granted.size >= this.majority
  }

  /** Voters that granted, for the leader-change record. */
  grantingVoters(): string[] {
    return [...this.granted]
  }

  /** Voters that have not answered yet. */
  unanswered(): string[] {
    return this.voters.filter((v) => !this.granted.has(v) && !this.rejected.has(v))
  }

  deadline(): number {
    return this.electionDeadline
  }
}
