/**
 * A replica that knows the leader of its epoch and fetches from it. It stands for election (a
 * voter) or goes looking for a leader (an observer) when no fetch has succeeded for the fetch
 * timeout; its high watermark is the leader's, capped at its own log end.
 */
export class FollowerState {
  readonly role = 'follower' as const
  /** The leader resigned or its connection dropped: pre-votes are granted again until it is heard from. */
  leaderLost = false

  constructor(
    readonly epoch: number,
    readonly leaderId: string,
    /** The vote cast in this epoch, carried over so a restart cannot vote twice. */
    readonly votedFor: string | undefined,
    /** Last successful fetch + fetch timeout. */
    public fetchDeadline: number,
  ) {}

  /** A follower's epoch already has a leader: it grants no vote in it. */
  canGrantVote(): boolean {
    return false
  }

  recordFetchSuccess(now: number, fetchTimeoutMs: number): void {
    this.fetchDeadline = now + fetchTimeoutMs
    this.leaderLost = false
  }

  /** The leader resigned (EndQuorumEpoch) or became unreachable: stand sooner than the fetch timeout would. */
  expediteElection(at: number): void {
    this.fetchDeadline = Math.min(this.fetchDeadline, at)
    this.leaderLost = true
  }

  /** KIP-996: a voter that hears from its leader refuses pre-votes, so a lone replica cannot depose it. */
  hasLiveLeader(): boolean {
    return !this.leaderLost
  }

  deadline(): number {
    return this.fetchDeadline
  }
}
