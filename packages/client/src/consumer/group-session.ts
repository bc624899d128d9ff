/**
 * A consumer's membership in its group: the GroupMember state machine (@tributary/groups) driven
 * over the wire. Requests go to the group's coordinator — the leader of its `__consumer_offsets`
 * partition, found from metadata, corrected by NOT_COORDINATOR hints — through the Broker; the
 * member is ticked at its deadlines; its events go to the consumer. Commits and offset fetches
 * are promises resolved by the member's answers (or its own request timeout).
 */
import {
  CONSUMER_OFFSETS_TOPIC,
  type CommitOffset,
  coordinatorPartitionFor,
  errorResponse,
  type FetchedOffset,
  GroupMember,
  type GroupRequest,
  type MemberEvent,
  type MemberOptions,
  type MemberOutput,
  type PartitionResult,
  type TopicPartition,
} from '@tributary/groups'
import { CoordinatorNotAvailableError, ErrorCode, type TributaryError } from '@tributary/wire'
import type { Cluster } from '../cluster/cluster.js'

export interface GroupSessionOptions {
  cluster: Cluster
  member: MemberOptions
  /** Every member event, in order ('assigned', 'revoke', 'lost', 'failed', …). */
  onEvent: (event: MemberEvent) => void
}

/** The member's nonce: random, so a restarted consumer never collides with its previous incarnation. */
function newSender(): string {
  return globalThis.crypto.randomUUID()
}

export class GroupSession {
  readonly member: GroupMember
  private coordinator: string | undefined
  private timer: ReturnType<typeof setTimeout> | undefined
  private readonly lifetime = new AbortController()
  private readonly awaiting = new Map<number, (event: MemberEvent) => void>()
  private readonly inFlight = new Set<Promise<void>>()
  private readonly joinTimeoutMs: number
  private readonly requestTimeoutMs: number

  constructor(private readonly options: GroupSessionOptions) {
    this.member = new GroupMember(options.member, { newSender })
    this.joinTimeoutMs = (options.member.rebalanceTimeoutMs ?? 300_000) + 5_000
    this.requestTimeoutMs = options.member.requestTimeoutMs ?? 30_000
  }

  get closed(): boolean {
    return this.lifetime.signal.aborted
  }

  start(): void {
    this.apply(this.member.start(Date.now()))
  }

  subscribe(topics: string[]): void {
    this.apply(this.member.subscribe(topics, Date.now()))
  }

  /** The application made progress (Kafka's poll): keeps the member within max.poll.interval. */
  poll(): void {
    this.apply(this.member.poll(Date.now()))
  }

  revocationDone(): void {
    this.apply(this.member.revocationDone(Date.now()))
  }

  async commit(offsets: CommitOffset[]): Promise<{ results: PartitionResult[]; error: TributaryError | undefined }> {
    const out = this.member.commit(offsets, Date.now())
    const event = await this.awaitEvent(out.requestId, () => this.apply(out))
    if (event.type !== 'committed') throw new Error('unreachable: a commit answered with another event')
    return { results: event.results, error: event.error }
  }

  async fetchOffsets(
    partitions: TopicPartition[],
  ): Promise<{ offsets: FetchedOffset[]; error: TributaryError | undefined }> {
    const out = this.member.fetchOffsets(partitions, Date.now())
    const event = await this.awaitEvent(out.requestId, () => this.apply(out))
    if (event.type !== 'offsets') throw new Error('unreachable: an offset fetch answered with another event')
    return { offsets: event.offsets, error: event.error }
  }

  /**
   * Leaves the group (a static member keeps its membership when `close`); resolves once the
   * LeaveGroup request was answered (so the coordinator rebalances at once) or after `timeoutMs`.
   */
  async leave(how: 'leave' | 'close', timeoutMs: number): Promise<void> {
    if (this.closed) return
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs)
    })
    const left = new Promise<void>((resolve) => {
      this.onLeft = resolve
    })
    this.apply(how === 'leave' ? this.member.leave(Date.now()) : this.member.close(Date.now()))
    if (this.member.state === 'left' || this.member.state === 'failed') this.onLeft?.()
    // The LeaveGroup request goes out with the 'left' event: wait for it (and anything else in flight) too.
    await Promise.race([left.then(() => Promise.allSettled([...this.inFlight])), timeout])
    clearTimeout(timer)
    this.shutdown()
  }

  /** Stops every timer and request at once, without telling the coordinator (it expires the session). */
  shutdown(): void {
    this.lifetime.abort()
    clearTimeout(this.timer)
    this.timer = undefined
  }

  private onLeft: (() => void) | undefined

  private awaitEvent(requestId: number, send: () => void): Promise<MemberEvent> {
    return new Promise((resolve) => {
      this.awaiting.set(requestId, resolve)
      send()
    })
  }

  private apply(out: MemberOutput): void {
    for (const event of out.events) {
      if ((event.type === 'committed' || event.type === 'offsets') && this.awaiting.has(event.requestId)) {
        const resolve = this.awaiting.get(event.requestId)!
        this.awaiting.delete(event.requestId)
        resolve(event)
        continue
      }
      if (event.type === 'left' || event.type === 'failed') this.onLeft?.()
      this.options.onEvent(event)
    }
    if (this.closed) return
    for (const request of out.requests) {
      const sending = this.send(request).finally(() => this.inFlight.delete(sending))
      this.inFlight.add(sending)
    }
    this.schedule()
  }

  private async send(request: GroupRequest): Promise<void> {
    const signal = this.lifetime.signal
    let target: string | undefined
    try {
      target = await this.findCoordinator(signal)
      const response = await this.options.cluster.broker(target).group(request, {
        signal,
        timeoutMs: request.kind === 'join' ? this.joinTimeoutMs : this.requestTimeoutMs,
      })
      if (response.errorCode === ErrorCode.NOT_COORDINATOR) {
        this.coordinator = response.coordinatorHint
        if (this.coordinator === undefined) this.forgetCoordinator()
      } else if (response.errorCode === ErrorCode.COORDINATOR_NOT_AVAILABLE) {
        this.forgetCoordinator()
      }
      if (!this.closed) this.apply(this.member.handle(response, Date.now()))
    } catch (err) {
      if (this.closed) return
      // Unreachable, timed out, no metadata: look the coordinator up again, and let the member
      // retry after its backoff rather than wait out its own request timeout.
      if (target === undefined || this.coordinator === target) this.forgetCoordinator()
      const reason = err instanceof Error ? err.message : String(err)
      const unavailable = new CoordinatorNotAvailableError(`group coordinator unreachable: ${reason}`)
      this.apply(this.member.handle(errorResponse(request, unavailable), Date.now()))
    }
  }

  private forgetCoordinator(): void {
    this.coordinator = undefined
    this.options.cluster.invalidate(CONSUMER_OFFSETS_TOPIC)
  }

  /** The leader of the group's offsets partition; any peer while that topic does not exist (it creates it). */
  private async findCoordinator(signal: AbortSignal): Promise<string> {
    if (this.coordinator !== undefined) return this.coordinator
    const cluster = this.options.cluster
    try {
      const topic = await cluster.topic(CONSUMER_OFFSETS_TOPIC, { signal })
      const partition = coordinatorPartitionFor(this.options.member.groupId, topic.partitions.length)
      const leader = topic.partitions[partition]?.leader
      if (leader !== undefined && leader !== '') {
        this.coordinator = leader
        return leader
      }
    } catch {
      // No offsets topic yet: the peer answering metadata creates it on the group request.
    }
    const metadata = await cluster.metadata([], { signal })
    return metadata.peerId
  }

  private schedule(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    const next = this.member.nextDeadline()
    if (next === undefined || this.closed) return
    this.timer = setTimeout(
      () => {
        this.timer = undefined
        if (!this.closed) this.apply(this.member.tick(Date.now()))
      },
      Math.min(2_147_483_647, Math.max(5, next - Date.now())),
    )
  }
}
