/**
 * A member's link to its coordinator: who it is (nonce, member id, generation, assignor), the
 * requests it sent, how long its hold on its partitions lasts (the lease: a session timeout,
 * less a margin, after sending the latest request the coordinator answered as a sign of life),
 * when the next heartbeat is due, and the output being built by the current call.
 */
import { RequestTimedOutError } from '@tributary/wire'
import { CONSUMER_PROTOCOL_TYPE, MAX_HEARTBEAT_WAIT_MS } from '../constants.js'
import type { GroupRequest, GroupRequestBody, OffsetCommitBody, OffsetFetchBody } from '../protocol/messages.js'
import type { TopicPartition } from '../topic-partition.js'
import { checkSender, type MemberComponents, type MemberConfig, type MemberEvent } from './config.js'
import { RequestLog, type SentRequest } from './requests.js'

export interface MemberOutput {
  requests: GroupRequest[]
  events: MemberEvent[]
}

export class MemberSession {
  sender: string
  memberId = ''
  /** The generation of the latest join answer; -1 before the first. */
  generation = -1
  protocol = ''
  readonly requests = new RequestLog()
  nextHeartbeatAt: number | undefined
  leaseUntil = Number.NEGATIVE_INFINITY
  private out: MemberOutput = { requests: [], events: [] }

  constructor(
    private readonly config: MemberConfig,
    private readonly components: MemberComponents,
  ) {
    this.sender = checkSender(components.newSender())
  }

  /** The coordinator renewed the session when it received `sent`: the lease runs from its sending. */
  renew(sent: SentRequest): void {
    this.leaseUntil = Math.max(this.leaseUntil, sent.sentAt + this.config.sessionTimeoutMs - this.config.leaseMarginMs)
  }

  /** A new identity: a new nonce keeps answers meant for the old one away. */
  reset(): void {
    this.memberId = ''
    this.generation = -1
    this.protocol = ''
    this.sender = checkSender(this.components.newSender())
    this.requests.forgetSent()
    this.nextHeartbeatAt = undefined
    this.leaseUntil = Number.NEGATIVE_INFINITY
  }

  sendJoin(now: number, owned: TopicPartition[], ownedGeneration: number, reason: string, startedAt: number): number {
    return this.send(now, {
      kind: 'join',
      memberId: this.memberId,
      groupInstanceId: this.config.groupInstanceId,
      clientId: this.config.clientId,
      protocolType: CONSUMER_PROTOCOL_TYPE,
      protocols: this.config.assignors,
      sessionTimeoutMs: this.config.sessionTimeoutMs,
      rebalanceTimeoutMs: this.config.rebalanceTimeoutMs,
      topics: this.config.topics,
      owned,
      ownedGeneration,
      reason,
      startedAt,
    })
  }

  sendSync(now: number): number {
    return this.send(now, {
      kind: 'sync',
      memberId: this.memberId,
      groupInstanceId: this.config.groupInstanceId,
      generation: this.generation,
    })
  }

  /**
   * Heartbeats go out every heartbeat interval once the member has an id, whatever it is doing.
   * Each may be parked by the coordinator for two intervals — until the next one replaces it — so
   * a rebalance reaches the member at once instead of at its next heartbeat.
   */
  heartbeatIfDue(now: number): void {
    if (this.memberId === '' || this.nextHeartbeatAt === undefined || now < this.nextHeartbeatAt) return
    this.send(now, {
      kind: 'heartbeat',
      memberId: this.memberId,
      groupInstanceId: this.config.groupInstanceId,
      generation: Math.max(0, this.generation),
      ...(this.config.parkHeartbeats
        ? { maxWaitMs: Math.min(2 * this.config.heartbeatIntervalMs, MAX_HEARTBEAT_WAIT_MS) }
        : {}),
    })
    this.nextHeartbeatAt = now + this.config.heartbeatIntervalMs
  }

  send(now: number, body: GroupRequestBody): number {
    const requestId = this.requests.record({
      kind: body.kind,
      sentAt: now,
      memberId: this.memberId,
      generation: Math.max(0, this.generation),
    })
    this.out.requests.push({ groupId: this.config.groupId, sender: this.sender, requestId, ...body } as GroupRequest)
    return requestId
  }

  /** Sends a commit or fetch whose outcome the host hears about as an event (answer or timeout). */
  awaited(now: number, body: OffsetCommitBody | OffsetFetchBody): MemberOutput & { requestId: number } {
    let requestId = 0
    const output = this.run(() => {
      requestId = this.send(now, body)
      this.requests.await(requestId, body.kind, now + this.config.requestTimeoutMs)
    })
    return { ...output, requestId }
  }

  /** Commits and offset fetches nobody answered in time fail with RequestTimedOutError. */
  expirePending(now: number): void {
    for (const { requestId, kind } of this.requests.expire(now, this.config.requestTimeoutMs)) {
      const error = new RequestTimedOutError(
        `no answer from the group coordinator within ${this.config.requestTimeoutMs} ms`,
      )
      if (kind === 'commit') this.emit({ type: 'committed', requestId, results: [], error })
      else this.emit({ type: 'offsets', requestId, offsets: [], error })
    }
  }

  emit(event: MemberEvent): void {
    this.out.events.push(event)
  }

  /** Runs one call into the member, collecting what it sends and tells. */
  run(fn: () => void): MemberOutput {
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
