/**
 * A replica that knows the leader of its epoch and fetches from it. It stands for election (a
 * voter) or goes looking for a leader (an observer) when no fetch has succeeded for the fetch
 * timeout; its high watermark is the leader's, capped at its own log end.
 */
export class FollowerState {
  readonly role = 'follower' as const

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
  }

  /** The leader resigned (EndQuorumEpoch): stand sooner than the fetch timeout would. */
  expediteElection(at: number): void {
    this.fetchDeadline = Math.min(this.fetchDeadline, at)
  }

  deadline(): number {
    return this.fetchDeadline
  }
}
