/**
 * Moving a replica between roles and starting each role's work: `QuorumState` persists a
 * transition, then entering the new state starts what that state does (a leader begins its
 * epoch, a prospective asks for pre-votes, a candidate for votes, a follower fetches). The
 * replica's timer lands here too: a passed deadline is the leader's check, a voter's election,
 * or an observer's search for its leader.
 */
import type { RaftCore } from './core.js'
import { requestPreVotes, requestVotes } from './election.js'
import { beginEpoch, leaderCheck } from './leadership.js'
import type { EpochState } from './quorum-state.js'
import type { ReplicaFetcher } from './replica-fetcher.js'

/** What the driver needs of its replica beyond `RaftCore`. */
export interface RoleDriverHooks {
  readonly fetcher: ReplicaFetcher
  /** The voters it was created with: whom it asks for the leader while its own voter set is unknown. */
  readonly initialVoters: readonly string[]
  /** The replica was the leader and is no more: fail what waited on its leadership. */
  leftLeadership(): void
  /** Tell listeners the role, leader, epoch or high watermark changed. */
  changed(): void
}

export class RoleDriver {
  constructor(
    private readonly core: RaftCore,
    private readonly hooks: RoleDriverHooks,
  ) {}

  /** Locked. Learned of `epoch` (and maybe its leader) from a peer: move forward if it is news. */
  async observeLeader(epoch: number, leaderId: string | undefined): Promise<void> {
    const { quorum } = this.core
    const s = quorum.state
    const leader = leaderId !== undefined && quorum.mayFollow(leaderId) ? leaderId : undefined
    if (epoch > s.epoch) {
      if (leader !== undefined) await this.transition(() => quorum.transitionToFollower(epoch, leader))
      else await this.becomeUnattached(epoch)
    } else if (epoch === s.epoch && leader !== undefined) {
      const free =
        s.role === 'unattached' ||
        s.role === 'candidate' ||
        (s.role === 'prospective' && (s.leaderId === undefined || s.leaderId === leader))
      if (free) await this.transition(() => quorum.transitionToFollower(epoch, leader))
      else if (s.leaderId !== leader) {
        this.core.logger.error(
          { partition: this.core.partition, epoch, known: s.leaderId, claimed: leader },
          'two leaders',
        )
      }
    }
  }

  becomeUnattached(epoch: number, votedFor?: string): Promise<void> {
    return this.transition(() => this.core.quorum.transitionToUnattached(epoch, votedFor))
  }

  becomeProspective(): Promise<void> {
    return this.transition(() => this.core.quorum.transitionToProspective())
  }

  becomeCandidate(): Promise<void> {
    return this.transition(() => this.core.quorum.transitionToCandidate())
  }

  becomeLeader(): Promise<void> {
    return this.transition(() => this.core.quorum.transitionToLeader(this.core.log.logEndOffset))
  }

  /** Starts the current state's work; `before` is the state it left (undefined at start). Locked. */
  async entered(before: EpochState | undefined): Promise<void> {
    const { core } = this
    const s = core.quorum.state
    if (before?.role === 'leader') {
      this.hooks.leftLeadership()
    }
    core.wakeFetches()
    core.logger.debug({ partition: core.partition, role: s.role, epoch: s.epoch, leader: s.leaderId }, 'raft state')
    if (s.role === 'leader') await beginEpoch(core, s)
    else if (s.role === 'prospective') {
      if (s.isPreVoteGranted()) return this.becomeCandidate()
      requestPreVotes(core, s)
    } else if (s.role === 'candidate') {
      if (s.isVoteGranted()) return this.becomeLeader()
      requestVotes(core, s)
    } else if (s.role === 'follower') this.hooks.fetcher.start(s)
    if (core.quorum.state !== s) return
    core.reschedule()
    this.hooks.changed()
  }

  /** The replica's timer fired. Locked. */
  async tick(): Promise<void> {
    const { core } = this
    const s = core.quorum.state
    const now = core.clock.now()
    if (now >= s.deadline()) {
      if (s.role === 'leader') await leaderCheck(core, s, now)
      else if (core.quorum.localIsVoter) await this.becomeProspective()
      else if (s.role === 'follower') await this.becomeUnattached(s.epoch)
      else {
        // No voter: wait for a leader to be announced, asking a voter now and then who it is.
        const voters = core.quorum.voters
        this.hooks.fetcher.probe(voters.length > 0 ? voters : this.hooks.initialVoters)
        s.electionDeadline = now + core.config.electionTimeoutMs
      }
    }
    core.reschedule()
  }

  /** Runs a QuorumState transition, then starts the new state's work. Locked. */
  private async transition(change: () => Promise<void>): Promise<void> {
    const before = this.core.quorum.state
    await change()
    if (this.core.quorum.state !== before) await this.entered(before)
  }
}
