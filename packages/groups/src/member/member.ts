/**
 * One consumer's side of a group, as a state machine: join → sync (fetch the assignment) →
 * stable, heartbeats, rejoining when the group rebalances, leaving. The host sends the requests it
 * returns, feeds back the answers with `handle`, calls `tick` at `nextDeadline()`, `poll` whenever
 * the application makes progress, and `revocationDone` once it finished with revoked partitions.
 *
 * Ownership is never assumed beyond what the coordinator could still vouch for: partitions are
 * held only while the member's session is surely alive on the coordinator, i.e. until a session
 * timeout after sending the latest request the coordinator answered as a sign of life. With the
 * coordinator keeping a timed-out member's partitions fenced just as long, no two members ever
 * hold a partition at the same moment, even when messages are lost or the member is cut off.
 *
 * Eager protocol: all partitions are revoked before every rejoin. Cooperative: partitions stay
 * while rebalancing; only those the new assignment takes away are revoked, and then the member
 * rejoins so the next generation can hand them to their new owner.
 */
import { ErrorCode, errorFromCode, type TributaryError, UnknownMemberIdError } from '@tributary/wire'
import type { CommitOffset, GroupResponse } from '../protocol/messages.js'
import { keyOf, keySet, sortTopicPartitions, type TopicPartition } from '../topic-partition.js'
import {
  type MemberComponents,
  type MemberConfig,
  type MemberOptions,
  type MemberPhase,
  memberConfig,
} from './config.js'
import type { SentRequest } from './requests.js'
import { type MemberOutput, MemberSession } from './session.js'

type Continuation =
  | { next: 'join'; reason: string }
  | { next: 'assign'; added: TopicPartition[]; rejoin: boolean }
  | { next: 'leave' }

/** Errors after which the member cannot go on (Kafka treats them as fatal too). */
const FATAL = new Set<number>([
  ErrorCode.FENCED_INSTANCE_ID,
  ErrorCode.INCONSISTENT_GROUP_PROTOCOL,
  ErrorCode.INVALID_SESSION_TIMEOUT,
  ErrorCode.GROUP_MAX_SIZE_REACHED,
  ErrorCode.INVALID_GROUP_ID,
  ErrorCode.INVALID_REQUEST,
])
const REJOIN = new Set<number>([ErrorCode.REBALANCE_IN_PROGRESS, ErrorCode.ILLEGAL_GENERATION])

export class GroupMember {
  private readonly config: ReturnType<typeof memberConfig>
  private readonly session: MemberSession
  private phase: MemberPhase = 'idle'
  private started = false
  private readonly owned = new Map<string, TopicPartition>()
  private ownedGeneration = -1
  /** Request ids of the current join or sync attempt (retries included). */
  private readonly attempt = new Set<number>()
  private joinReason = ''
  private retryAt: number | undefined
  private lastPoll = 0
  private startedAt = 0
  private pollExpired = false
  private revocation: { partitions: TopicPartition[]; continuation: Continuation } | undefined
  private rejoinRequested: string | undefined
  private leaving: 'leave' | 'close' | undefined

  constructor(options: MemberOptions, components: MemberComponents) {
    this.config = memberConfig(options)
    this.session = new MemberSession(this.config, components)
  }

  get state(): MemberPhase {
    return this.phase
  }
  get id(): string {
    return this.session.memberId
  }
  get currentGeneration(): number {
    return this.session.generation
  }
  get nonce(): string {
    return this.session.sender
  }
  get groupInstanceId(): string | undefined {
    return this.config.groupInstanceId
  }
  /** The partitions this member owns right now (including ones being revoked). */
  get assignment(): TopicPartition[] {
    return sortTopicPartitions(this.owned.values())
  }

  start(now: number): MemberOutput {
    return this.session.run(() => {
      if (this.started) return
      this.started = true
      this.startedAt = Math.max(0, now)
      this.lastPoll = now
      this.beginJoin(now, 'starting')
    })
  }

  /** The application made progress (Kafka's poll): resets the max poll interval. */
  poll(now: number): MemberOutput {
    return this.session.run(() => {
      this.lastPoll = now
      if (this.pollExpired && this.phase === 'idle') {
        this.pollExpired = false
        this.beginJoin(now, 'polling again after exceeding the max poll interval')
      }
    })
  }

  /** Changes the subscription (a list of topic names: patterns are resolved by the host). */
  subscribe(topics: string[], now: number): MemberOutput {
    memberConfig({ ...this.config, topics }) // InvalidConfigError for bad names, before anything changes
    return this.session.run(() => {
      this.config.topics = [...topics]
      if (this.phase === 'stable') this.beginJoin(now, 'subscription changed')
      else if (this.phase === 'joining') this.sendJoin(now, 'subscription changed')
      else if (this.phase === 'syncing' || this.phase === 'revoking') this.rejoinRequested = 'subscription changed'
    })
  }

  handle(response: GroupResponse, now: number): MemberOutput {
    return this.session.run(() => {
      if (response.recipient !== this.session.sender || response.groupId !== this.config.groupId) return
      const sent = this.session.requests.get(response.requestId)
      if (sent === undefined || sent.kind !== response.kind) return
      if (response.sessionRenewed) this.session.renew(sent)
      switch (response.kind) {
        case 'join':
          return this.onJoin(response, now)
        case 'sync':
          return this.onSync(response, now)
        case 'heartbeat':
          this.session.requests.forget(response.requestId)
          return this.onHeartbeat(response, sent, now)
        case 'commit':
        case 'fetch':
          return this.onOffsets(response, sent, now)
        case 'leave':
          this.session.requests.forget(response.requestId)
          return
      }
    })
  }

  /** The application finished with the partitions of the last `revoke` event. */
  revocationDone(now: number): MemberOutput {
    return this.session.run(() => {
      const revocation = this.revocation
      if (this.phase !== 'revoking' || revocation === undefined) return
      this.revocation = undefined
      for (const tp of revocation.partitions) this.owned.delete(keyOf(tp))
      if (this.leaving !== undefined) {
        this.finishLeave(now)
        return
      }
      const cont = revocation.continuation
      if (cont.next === 'join') this.sendJoin(now, cont.reason)
      else if (cont.next === 'assign') this.assign(now, cont.added, cont.rejoin)
      else this.sendLeave(now)
    })
  }

  /** Builds a commit in the member's current generation; its outcome arrives as a `committed` event. */
  commit(offsets: CommitOffset[], now: number): MemberOutput & { requestId: number } {
    return this.session.awaited(now, {
      kind: 'commit',
      memberId: this.session.memberId,
      groupInstanceId: this.session.memberId === '' ? undefined : this.config.groupInstanceId,
      generation: this.session.memberId === '' ? -1 : this.session.generation,
      offsets,
    })
  }

  /** Asks for committed offsets; they arrive as an `offsets` event. */
  fetchOffsets(partitions: TopicPartition[] | undefined, now: number): MemberOutput & { requestId: number } {
    return this.session.awaited(now, { kind: 'fetch', partitions })
  }

  /** Leaves the group for good: revokes (the host commits), then sends LeaveGroup, static or not. */
  leave(now: number): MemberOutput {
    return this.session.run(() => this.startLeaving(now, 'leave'))
  }

  /**
   * Stops like Kafka's `close()`: revokes, then leaves, except a static member, which keeps its
   * membership so that a restart within the session timeout gets its partitions back.
   */
  close(now: number): MemberOutput {
    return this.session.run(() => this.startLeaving(now, 'close'))
  }

  tick(now: number): MemberOutput {
    return this.session.run(() => {
      this.session.expirePending(now)
      if (this.phase === 'idle' || this.phase === 'left' || this.phase === 'failed') return
      if (now >= this.lastPoll + this.config.maxPollIntervalMs && this.leaving === undefined) {
        this.pollTimeout(now)
        return
      }
      if (this.owned.size > 0 && now >= this.session.leaseUntil) {
        this.lose('no answer from the coordinator within the session timeout')
        if (this.phase === 'revoking') {
          this.revocation = undefined
          if (this.leaving !== undefined) {
            this.sendLeave(now)
            return
          }
        }
        if (this.phase !== 'joining') this.beginJoin(now, 'session lost')
      }
      if ((this.phase === 'joining' || this.phase === 'syncing') && this.retryAt !== undefined && now >= this.retryAt) {
        if (this.phase === 'joining') this.sendJoin(now, this.joinReason)
        else this.sendSync(now)
      }
      this.session.heartbeatIfDue(now)
    })
  }

  nextDeadline(): number | undefined {
    if (this.phase === 'left' || this.phase === 'failed') return this.session.requests.earliestDeadline()
    const times = [this.session.requests.earliestDeadline()]
    if (this.phase !== 'idle') {
      // tick acts on the max poll interval only while not leaving (see tick).
      if (this.leaving === undefined) times.push(this.lastPoll + this.config.maxPollIntervalMs)
      if (this.owned.size > 0) times.push(this.session.leaseUntil)
      if (this.phase === 'joining' || this.phase === 'syncing') times.push(this.retryAt)
      if (this.session.memberId !== '') times.push(this.session.nextHeartbeatAt)
    }
    const defined = times.filter((t): t is number => t !== undefined && Number.isFinite(t))
    return defined.length === 0 ? undefined : Math.min(...defined)
  }

  // ---- joining and syncing ----

  private beginJoin(now: number, reason: string): void {
    this.rejoinRequested = undefined
    if (this.config.protocol === 'eager' && this.owned.size > 0) {
      this.revoke(this.assignment, { next: 'join', reason })
      return
    }
    this.sendJoin(now, reason)
  }

  private sendJoin(now: number, reason: string): void {
    if (this.phase !== 'joining') this.attempt.clear()
    this.phase = 'joining'
    this.joinReason = reason
    this.attempt.add(this.session.sendJoin(now, this.assignment, this.ownedGeneration, reason, this.startedAt))
    this.retryAt = now + this.config.requestTimeoutMs
  }

  private sendSync(now: number): void {
    if (this.phase !== 'syncing') this.attempt.clear()
    this.phase = 'syncing'
    this.attempt.add(this.session.sendSync(now))
    this.retryAt = now + this.config.requestTimeoutMs
  }

  private onJoin(r: GroupResponse & { kind: 'join' }, now: number): void {
    if (this.phase !== 'joining' || !this.attempt.has(r.requestId)) return
    if (r.errorCode !== 0) {
      this.onError(r.errorCode, r.errorMessage, now)
      return
    }
    this.session.memberId = r.memberId
    this.session.generation = r.generation
    this.session.protocol = r.protocol
    this.session.nextHeartbeatAt ??= now + this.config.heartbeatIntervalMs
    this.session.emit({ type: 'joined', memberId: r.memberId, generation: r.generation, protocol: r.protocol })
    if (this.leaving !== undefined) {
      this.finishLeave(now)
      return
    }
    this.sendSync(now)
    // A parked heartbeat of the new generation goes out with the sync, so a rebalance starting
    // right after this one (cooperative's second round, say) reaches the member at once: until its
    // next scheduled heartbeat it would otherwise have none waiting at the coordinator.
    if (this.config.parkHeartbeats) {
      this.session.nextHeartbeatAt = now
      this.session.heartbeatIfDue(now)
    }
  }

  private onSync(r: GroupResponse & { kind: 'sync' }, now: number): void {
    if (this.phase !== 'syncing' || !this.attempt.has(r.requestId)) return
    if (r.errorCode !== 0) {
      this.onError(r.errorCode, r.errorMessage, now)
      return
    }
    if (r.generation !== this.session.generation) return
    this.attempt.clear()
    this.retryAt = undefined
    const assigned = keySet(r.assignment)
    const toRevoke = this.assignment.filter((tp) => !assigned.has(keyOf(tp)))
    const added = r.assignment.filter((tp) => !this.owned.has(keyOf(tp)))
    this.ownedGeneration = r.generation
    // Rejoin after revoking, or when the coordinator thinks we hold more than we do: either way
    // the next join's report is what lets it hand those partitions on.
    const rejoin = toRevoke.length > 0 || r.revoke.length > 0
    if (toRevoke.length > 0) this.revoke(toRevoke, { next: 'assign', added, rejoin })
    else this.assign(now, added, rejoin)
  }

  private assign(now: number, added: TopicPartition[], rejoin: boolean): void {
    for (const tp of added) this.owned.set(keyOf(tp), tp)
    this.phase = 'stable'
    this.session.emit({
      type: 'assigned',
      partitions: sortTopicPartitions(added),
      assignment: this.assignment,
      generation: this.session.generation,
    })
    if (this.leaving !== undefined) this.finishLeave(now)
    else if (rejoin) this.beginJoin(now, 'released partitions for their new owners')
    else if (this.rejoinRequested !== undefined) this.beginJoin(now, this.rejoinRequested)
  }

  private revoke(partitions: TopicPartition[], continuation: Continuation): void {
    this.phase = 'revoking'
    this.revocation = { partitions, continuation }
    this.session.emit({ type: 'revoke', partitions, generation: this.session.generation })
  }

  // ---- answers to heartbeats, commits and errors ----

  private onHeartbeat(r: GroupResponse, sent: SentRequest, now: number): void {
    // A parked heartbeat is answered when the member is removed, which a leave does: no news then.
    if (this.phase === 'left' || this.phase === 'failed') return
    // An answer about an earlier identity or generation says nothing about the present one.
    if (sent.memberId !== this.session.memberId || sent.generation !== Math.max(0, this.session.generation)) return
    if (r.errorCode === 0) return
    if (REJOIN.has(r.errorCode)) {
      if (this.phase === 'stable') this.beginJoin(now, 'the group is rebalancing')
      // While syncing, the answer may still bring this generation's assignment (and revocations):
      // take it, then rejoin.
      else if (this.phase === 'revoking' || this.phase === 'syncing') this.rejoinRequested = 'the group is rebalancing'
      return
    }
    if (r.errorCode === ErrorCode.UNKNOWN_MEMBER_ID || FATAL.has(r.errorCode))
      this.onError(r.errorCode, r.errorMessage, now)
  }

  private onOffsets(r: GroupResponse, sent: SentRequest, now: number): void {
    if (!this.session.requests.answered(r.requestId)) return
    const error = r.errorCode === 0 ? undefined : errorFromCode(r.errorCode, r.errorMessage)
    if (r.kind === 'commit') this.session.emit({ type: 'committed', requestId: r.requestId, results: r.results, error })
    else if (r.kind === 'fetch')
      this.session.emit({ type: 'offsets', requestId: r.requestId, offsets: r.offsets, error })
    if (r.errorCode === 0 || sent.memberId !== this.session.memberId || sent.memberId === '') return
    if (REJOIN.has(r.errorCode)) {
      if (this.phase === 'stable' && sent.generation === this.session.generation)
        this.beginJoin(now, 'commit refused: rejoining')
    } else if (r.errorCode === ErrorCode.UNKNOWN_MEMBER_ID || FATAL.has(r.errorCode)) {
      this.onError(r.errorCode, r.errorMessage, now)
    }
  }

  private onError(code: number, message: string, now: number): void {
    const error = errorFromCode(code, message)
    if (FATAL.has(code)) {
      this.lose(`fatal: ${error.message}`)
      this.phase = 'failed'
      this.session.emit({ type: 'failed', error })
      return
    }
    if (code === ErrorCode.UNKNOWN_MEMBER_ID) {
      this.resetIdentity(error, now)
      if (this.leaving !== undefined) {
        this.sendLeave(now)
        return
      }
      this.sendJoin(now, 'the coordinator no longer knew this member')
      return
    }
    if (REJOIN.has(code)) {
      this.beginJoin(now, error.message)
      return
    }
    // Coordinator not available, not the coordinator, loading, or unknown: try again shortly.
    this.retryAt = now + this.config.retryBackoffMs
  }

  // ---- losing and leaving ----

  private lose(reason: string): void {
    const partitions = this.assignment
    this.owned.clear()
    if (partitions.length > 0) this.session.emit({ type: 'lost', partitions, reason })
  }

  /**
   * A new identity: everything held is lost and a new nonce keeps old answers away. It counts as a
   * new incarnation: a join of the old identity still in transit must not replace it (join.ts).
   */
  private resetIdentity(error: TributaryError, now: number): void {
    this.lose(error.message)
    this.session.reset()
    this.startedAt = Math.max(this.startedAt + 1, now)
    this.ownedGeneration = -1
    this.attempt.clear()
    this.revocation = undefined
    if (this.phase === 'revoking') this.phase = 'joining'
  }

  private pollTimeout(now: number): void {
    // The application is stuck: it cannot run revocation callbacks, so the partitions are lost.
    this.lose(`no poll within max.poll.interval.ms (${this.config.maxPollIntervalMs} ms)`)
    if (this.session.memberId !== '' && this.config.groupInstanceId === undefined) {
      this.session.send(now, {
        kind: 'leave',
        memberId: this.session.memberId,
        groupInstanceId: undefined,
        reason: 'max poll interval exceeded',
      })
    }
    this.resetIdentity(new UnknownMemberIdError('left the group after exceeding the max poll interval'), now)
    this.phase = 'idle'
    this.pollExpired = true
  }

  private startLeaving(now: number, how: 'leave' | 'close'): void {
    if (this.phase === 'left' || this.phase === 'failed') return
    this.leaving = how
    if (this.phase === 'revoking') return // revocationDone continues with the leave
    this.finishLeave(now)
  }

  private finishLeave(now: number): void {
    if (this.owned.size > 0) this.revoke(this.assignment, { next: 'leave' })
    else this.sendLeave(now)
  }

  private sendLeave(now: number): void {
    const keepStatic = this.leaving === 'close' && this.config.groupInstanceId !== undefined
    if (this.session.memberId !== '' && !keepStatic) {
      this.session.send(now, {
        kind: 'leave',
        memberId: this.session.memberId,
        groupInstanceId: this.config.groupInstanceId,
        reason: this.leaving === 'close' ? 'consumer closed' : 'consumer left',
      })
    }
    this.phase = 'left'
    this.retryAt = undefined
    this.session.nextHeartbeatAt = undefined
    this.session.emit({ type: 'left' })
  }
}

export type { MemberConfig }
