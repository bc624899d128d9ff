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
import {
  ErrorCode,
  errorFromCode,
  RequestTimedOutError,
  type TributaryError,
  UnknownMemberIdError,
} from '@tributary/wire'
import { CONSUMER_PROTOCOL_TYPE } from '../constants.js'
import type { CommitOffset, GroupRequest, GroupRequestBody, GroupResponse, RequestKind } from '../protocol/messages.js'
import { keyOf, keySet, sortTopicPartitions, type TopicPartition } from '../topic-partition.js'
import {
  checkSender,
  type MemberComponents,
  type MemberConfig,
  type MemberEvent,
  type MemberOptions,
  type MemberPhase,
  memberConfig,
} from './config.js'

export interface MemberOutput {
  requests: GroupRequest[]
  events: MemberEvent[]
}

interface SentRequest {
  kind: RequestKind
  sentAt: number
  memberId: string
  generation: number
}

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
const MAX_TRACKED_REQUESTS = 10_000

export class GroupMember {
  private readonly config: ReturnType<typeof memberConfig>
  private phase: MemberPhase = 'idle'
  private started = false
  private sender: string
  private memberId = ''
  private generation = -1
  private protocol = ''
  private readonly owned = new Map<string, TopicPartition>()
  private ownedGeneration = -1
  private nextRequestId = 1
  private readonly sent = new Map<number, SentRequest>()
  /** Request ids of the current join or sync attempt (retries included). */
  private readonly attempt = new Set<number>()
  private joinReason = ''
  private retryAt: number | undefined
  private nextHeartbeatAt: number | undefined
  private leaseUntil = Number.NEGATIVE_INFINITY
  private lastPoll = 0
  private pollExpired = false
  private revocation: { partitions: TopicPartition[]; continuation: Continuation } | undefined
  private rejoinRequested: string | undefined
  private leaving: 'leave' | 'close' | undefined
  private readonly pending = new Map<number, { kind: 'commit' | 'fetch'; deadline: number }>()
  private out: MemberOutput = { requests: [], events: [] }

  constructor(
    options: MemberOptions,
    private readonly components: MemberComponents,
  ) {
    this.config = memberConfig(options)
    this.sender = checkSender(components.newSender())
  }

  get state(): MemberPhase {
    return this.phase
  }
  get id(): string {
    return this.memberId
  }
  get currentGeneration(): number {
    return this.generation
  }
  get nonce(): string {
    return this.sender
  }
  get groupInstanceId(): string | undefined {
    return this.config.groupInstanceId
  }
  /** The partitions this member owns right now (including ones being revoked). */
  get assignment(): TopicPartition[] {
    return sortTopicPartitions(this.owned.values())
  }

  start(now: number): MemberOutput {
    return this.run(() => {
      if (this.started) return
      this.started = true
      this.lastPoll = now
      this.beginJoin(now, 'starting')
    })
  }

  /** The application made progress (Kafka's poll): resets the max poll interval. */
  poll(now: number): MemberOutput {
    return this.run(() => {
      this.lastPoll = now
      if (this.pollExpired && this.phase === 'idle') {
        this.pollExpired = false
        this.beginJoin(now, 'polling again after exceeding the max poll interval')
      }
    })
  }

  subscribe(topics: string[], now: number): MemberOutput {
    return this.run(() => {
      this.config.topics = [...topics]
      if (this.phase === 'stable') this.beginJoin(now, 'subscription changed')
      else if (this.phase === 'joining') this.sendJoin(now, 'subscription changed')
      else if (this.phase === 'syncing' || this.phase === 'revoking') this.rejoinRequested = 'subscription changed'
    })
  }

  handle(response: GroupResponse, now: number): MemberOutput {
    return this.run(() => {
      if (response.recipient !== this.sender || response.groupId !== this.config.groupId) return
      const sent = this.sent.get(response.requestId)
      if (sent === undefined || sent.kind !== response.kind) return
      if (response.sessionRenewed) {
        this.leaseUntil = Math.max(
          this.leaseUntil,
          sent.sentAt + this.config.sessionTimeoutMs - this.config.leaseMarginMs,
        )
      }
      switch (response.kind) {
        case 'join':
          return this.onJoin(response, now)
        case 'sync':
          return this.onSync(response, now)
        case 'heartbeat':
          this.sent.delete(response.requestId)
          return this.onHeartbeat(response, sent, now)
        case 'commit':
        case 'fetch':
          return this.onOffsets(response, sent, now)
        case 'leave':
          this.sent.delete(response.requestId)
          return
      }
    })
  }

  /** The application finished with the partitions of the last `revoke` event. */
  revocationDone(now: number): MemberOutput {
    return this.run(() => {
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
    let requestId = 0
    const output = this.run(() => {
      requestId = this.send(now, {
        kind: 'commit',
        memberId: this.memberId,
        groupInstanceId: this.memberId === '' ? undefined : this.config.groupInstanceId,
        generation: this.memberId === '' ? -1 : this.generation,
        offsets,
      })
      this.pending.set(requestId, { kind: 'commit', deadline: now + this.config.requestTimeoutMs })
    })
    return { ...output, requestId }
  }

  /** Asks for committed offsets; they arrive as an `offsets` event. */
  fetchOffsets(partitions: TopicPartition[] | undefined, now: number): MemberOutput & { requestId: number } {
    let requestId = 0
    const output = this.run(() => {
      requestId = this.send(now, { kind: 'fetch', partitions })
      this.pending.set(requestId, { kind: 'fetch', deadline: now + this.config.requestTimeoutMs })
    })
    return { ...output, requestId }
  }

  /** Leaves the group for good: revokes (the host commits), then sends LeaveGroup, static or not. */
  leave(now: number): MemberOutput {
    return this.run(() => this.startLeaving(now, 'leave'))
  }

  /**
   * Stops like Kafka's `close()`: revokes, then leaves, except a static member, which keeps its
   * membership so that a restart within the session timeout gets its partitions back.
   */
  close(now: number): MemberOutput {
    return this.run(() => this.startLeaving(now, 'close'))
  }

  tick(now: number): MemberOutput {
    return this.run(() => {
      this.expirePending(now)
      if (this.phase === 'idle' || this.phase === 'left' || this.phase === 'failed') return
      if (now >= this.lastPoll + this.config.maxPollIntervalMs && this.leaving === undefined) {
        this.pollTimeout(now)
        return
      }
      if (this.owned.size > 0 && now >= this.leaseUntil) {
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
      if (this.memberId !== '' && this.nextHeartbeatAt !== undefined && now >= this.nextHeartbeatAt) {
        this.send(now, {
          kind: 'heartbeat',
          memberId: this.memberId,
          groupInstanceId: this.config.groupInstanceId,
          generation: Math.max(0, this.generation),
        })
        this.nextHeartbeatAt = now + this.config.heartbeatIntervalMs
      }
    })
  }

  nextDeadline(): number | undefined {
    if (this.phase === 'left' || this.phase === 'failed') {
      this.earliestPending()
      return
    }
    const times = [this.earliestPending()]
    if (this.phase !== 'idle') {
      times.push(this.lastPoll + this.config.maxPollIntervalMs)
      if (this.owned.size > 0) times.push(this.leaseUntil)
      if (this.phase === 'joining' || this.phase === 'syncing') times.push(this.retryAt)
      if (this.memberId !== '') times.push(this.nextHeartbeatAt)
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
    const id = this.send(now, {
      kind: 'join',
      memberId: this.memberId,
      groupInstanceId: this.config.groupInstanceId,
      clientId: this.config.clientId,
      protocolType: CONSUMER_PROTOCOL_TYPE,
      protocols: this.config.assignors,
      sessionTimeoutMs: this.config.sessionTimeoutMs,
      rebalanceTimeoutMs: this.config.rebalanceTimeoutMs,
      topics: this.config.topics,
      owned: this.assignment,
      ownedGeneration: this.ownedGeneration,
      reason,
    })
    this.attempt.add(id)
    this.retryAt = now + this.config.requestTimeoutMs
  }

  private sendSync(now: number): void {
    if (this.phase !== 'syncing') this.attempt.clear()
    this.phase = 'syncing'
    const id = this.send(now, {
      kind: 'sync',
      memberId: this.memberId,
      groupInstanceId: this.config.groupInstanceId,
      generation: this.generation,
    })
    this.attempt.add(id)
    this.retryAt = now + this.config.requestTimeoutMs
  }

  private onJoin(r: GroupResponse & { kind: 'join' }, now: number): void {
    if (this.phase !== 'joining' || !this.attempt.has(r.requestId)) return
    if (r.errorCode !== 0) {
      this.onError(r.errorCode, r.errorMessage, now)
      return
    }
    this.memberId = r.memberId
    this.generation = r.generation
    this.protocol = r.protocol
    this.nextHeartbeatAt ??= now + this.config.heartbeatIntervalMs
    this.emit({ type: 'joined', memberId: r.memberId, generation: r.generation, protocol: r.protocol })
    if (this.leaving !== undefined) {
      this.finishLeave(now)
      return
    }
    this.sendSync(now)
  }

  private onSync(r: GroupResponse & { kind: 'sync' }, now: number): void {
    if (this.phase !== 'syncing' || !this.attempt.has(r.requestId)) return
    if (r.errorCode !== 0) {
      this.onError(r.errorCode, r.errorMessage, now)
      return
    }
    if (r.generation !== this.generation) return
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
    this.emit({
      type: 'assigned',
      partitions: sortTopicPartitions(added),
      assignment: this.assignment,
      generation: this.generation,
    })
    if (this.leaving !== undefined) this.finishLeave(now)
    else if (rejoin) this.beginJoin(now, 'released partitions for their new owners')
    else if (this.rejoinRequested !== undefined) this.beginJoin(now, this.rejoinRequested)
  }

  private revoke(partitions: TopicPartition[], continuation: Continuation): void {
    this.phase = 'revoking'
    this.revocation = { partitions, continuation }
    this.emit({ type: 'revoke', partitions, generation: this.generation })
  }

  // ---- answers to heartbeats, commits and errors ----

  private onHeartbeat(r: GroupResponse, sent: SentRequest, now: number): void {
    // An answer about an earlier identity or generation says nothing about the present one.
    if (sent.memberId !== this.memberId || sent.generation !== Math.max(0, this.generation)) return
    if (r.errorCode === 0) return
    if (REJOIN.has(r.errorCode)) {
      if (this.phase === 'stable') this.beginJoin(now, 'the group is rebalancing')
      else if (this.phase === 'revoking') this.rejoinRequested = 'the group is rebalancing'
      return
    }
    if (r.errorCode === ErrorCode.UNKNOWN_MEMBER_ID || FATAL.has(r.errorCode))
      this.onError(r.errorCode, r.errorMessage, now)
  }

  private onOffsets(r: GroupResponse, sent: SentRequest, now: number): void {
    this.sent.delete(r.requestId)
    if (!this.pending.delete(r.requestId)) return
    const error = r.errorCode === 0 ? undefined : errorFromCode(r.errorCode, r.errorMessage)
    if (r.kind === 'commit') this.emit({ type: 'committed', requestId: r.requestId, results: r.results, error })
    else if (r.kind === 'fetch') this.emit({ type: 'offsets', requestId: r.requestId, offsets: r.offsets, error })
    if (r.errorCode === 0 || sent.memberId !== this.memberId || sent.memberId === '') return
    if (REJOIN.has(r.errorCode)) {
      if (this.phase === 'stable' && sent.generation === this.generation)
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
      this.emit({ type: 'failed', error })
      return
    }
    if (code === ErrorCode.UNKNOWN_MEMBER_ID) {
      this.resetIdentity(error)
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
    if (partitions.length > 0) this.emit({ type: 'lost', partitions, reason })
  }

  /** A new identity: everything held is lost and a new nonce keeps old answers away. */
  private resetIdentity(error: TributaryError): void {
    this.lose(error.message)
    this.memberId = ''
    this.generation = -1
    this.ownedGeneration = -1
    this.protocol = ''
    this.sender = checkSender(this.components.newSender())
    this.sent.clear()
    this.attempt.clear()
    this.revocation = undefined
    this.nextHeartbeatAt = undefined
    this.leaseUntil = Number.NEGATIVE_INFINITY
    if (this.phase === 'revoking') this.phase = 'joining'
  }

  private pollTimeout(now: number): void {
    // The application is stuck: it cannot run revocation callbacks, so the partitions are lost.
    this.lose(`no poll within max.poll.interval.ms (${this.config.maxPollIntervalMs} ms)`)
    if (this.memberId !== '' && this.config.groupInstanceId === undefined) {
      this.send(now, {
        kind: 'leave',
        memberId: this.memberId,
        groupInstanceId: undefined,
        reason: 'max poll interval exceeded',
      })
    }
    this.resetIdentity(new UnknownMemberIdError('left the group after exceeding the max poll interval'))
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
    if (this.memberId !== '' && !keepStatic) {
      this.send(now, {
        kind: 'leave',
        memberId: this.memberId,
        groupInstanceId: this.config.groupInstanceId,
        reason: this.leaving === 'close' ? 'consumer closed' : 'consumer left',
      })
    }
    this.phase = 'left'
    this.retryAt = undefined
    this.nextHeartbeatAt = undefined
    this.emit({ type: 'left' })
  }

  // ---- plumbing ----

  private send(now: number, body: GroupRequestBody): number {
    const requestId = this.nextRequestId++
    const request = { groupId: this.config.groupId, sender: this.sender, requestId, ...body } as GroupRequest
    this.out.requests.push(request)
    this.sent.set(requestId, {
      kind: body.kind,
      sentAt: now,
      memberId: this.memberId,
      generation: Math.max(0, this.generation),
    })
    if (this.sent.size > MAX_TRACKED_REQUESTS) this.sent.delete(this.sent.keys().next().value as number)
    return requestId
  }

  private expirePending(now: number): void {
    for (const [requestId, p] of this.pending) {
      if (now < p.deadline) continue
      this.pending.delete(requestId)
      this.sent.delete(requestId)
      const error = new RequestTimedOutError(
        `no answer from the group coordinator within ${this.config.requestTimeoutMs} ms`,
      )
      if (p.kind === 'commit') this.emit({ type: 'committed', requestId, results: [], error })
      else this.emit({ type: 'offsets', requestId, offsets: [], error })
    }
    for (const [requestId, s] of this.sent) {
      if ((s.kind === 'heartbeat' || s.kind === 'leave') && now >= s.sentAt + this.config.requestTimeoutMs) {
        this.sent.delete(requestId)
      }
    }
  }

  private earliestPending(): number | undefined {
    let next: number | undefined
    for (const p of this.pending.values()) if (next === undefined || p.deadline < next) next = p.deadline
    return next
  }

  private emit(event: MemberEvent): void {
    this.out.events.push(event)
  }

  private run(fn: () => void): MemberOutput {
    const out: MemberOutput = { requests: [], events: [] }
    const previous = this.out
    this.out = out
    try {
      fn()
    } finally {
      this.out = previous
    }
    return out
  }
}

export type { MemberConfig }
