/**
 * A voter that lost its leader (or never had one) and asks the other voters whether they would
 * vote for it, before it moves to a new epoch (KIP-996's pre-vote, Raft dissertation §9.6). Only a
 * majority of yes answers makes it a candidate. A voter that still hears from a leader says no, so
 * a replica cut off from its partition — or removed from it — cannot force the healthy majority
 * into a new epoch when it comes back: its epoch does not grow while it stands alone.
 */
export class ProspectiveState {
  readonly role = 'prospective' as const
  private readonly granted = new Set<string>()
  private readonly rejected = new Set<string>()

  constructor(
    readonly epoch: number,
    readonly localId: string,
    /** The vote cast in this epoch, carried over. */
    readonly votedFor: string | undefined,
    /** The leader it followed in this epoch, if any: it still grants nobody a vote in this epoch. */
    readonly leaderId: string | undefined,
    private readonly voters: readonly string[],
    public electionDeadline: number,
  ) {
    // It would vote for itself.
    if (voters.includes(localId)) this.granted.add(localId)
  }

  private get majority(): number {
    return Math.floor(this.voters.length / 2) + 1
  }

  /** A real vote in this epoch: as unattached, unless this epoch already had a leader. */
  canGrantVote(candidateId: string, candidateLogUpToDate: boolean): boolean {
    if (this.leaderId !== undefined) return false
    if (this.votedFor !== undefined) return this.votedFor === candidateId
    return candidateLogUpToDate
  }

  /** The first answer of each voter counts (answers are duplicated and retried, never changed). */
  recordPreVote(voterId: string, granted: boolean): void {
    if (voterId === this.localId || !this.voters.includes(voterId)) return
    if (this.granted.has(voterId) || this.rejected.has(voterId)) return
    ;(granted ? this.granted : this.rejected).add(voterId)
  }

  isPreVoteGranted(): boolean {
    return this.granted.size >= this.majority
  }

  unanswered(): string[] {
    return this.voters.filter((v) => !this.granted.has(v) && !this.rejected.has(v))
  }

  deadline(): number {
    return this.electionDeadline
  }
}
