/**
 * A consumer's group mode: the bridge between its GroupSession (membership, over the wire) and
 * the consumer's one assignment point (`Assignment.sync`). An assignment first fetches the
 * group's committed offsets for the new partitions, so each starts where the group left off (or
 * at its reset policy when nothing is committed); a revocation pauses the partitions, waits for
 * their handlers, commits their positions (commit-on-revoke) and only then lets them go, so the
 * next owner starts exactly after the last processed record. Offsets are committed automatically
 * (every `autoCommitInterval` ms and/or `autoCommitThreshold` processed records) and on demand.
 */
import type { CommitOffset, MemberEvent, TopicPartition } from '@tributary/groups'
import { errorFromCode, type TributaryError } from '@tributary/wire'
import type { Cluster } from '../cluster/cluster.js'
import { InvalidArgumentError } from '../errors.js'
import type { Instrumentation } from '../instrumentation.js'
import type { Assignment, StartPolicy } from './assignment.js'
import type { ConsumerEvents } from './events.js'
import { GroupSession } from './group-session.js'
import { partitionKey } from './partition-state.js'

export interface GroupSettings {
  groupId: string
  groupInstanceId: string | undefined
  sessionTimeout: number
  heartbeatInterval: number
  rebalanceTimeout: number
  maxPollInterval: number
  partitionAssigners: string[]
  autoCommit: boolean
  autoCommitInterval: number | undefined
  autoCommitThreshold: number | undefined
  onPartitionsAssigned: ((partitions: TopicPartition[]) => void | Promise<void>) | undefined
  onPartitionsRevoked: ((partitions: TopicPartition[]) => void | Promise<void>) | undefined
}

export interface GroupConsumerHooks {
  /** New partitions are ready to fetch. */
  wake(): void
  /** The group failed for good (fenced static instance, a fatal coordinator error). */
  fatal(err: Error): void
}

/** eachMessage handlers start at up to millions a second: the max-poll clock is reset this often at most. */
const POLL_EVERY_MS = 100

/** How often a revocation checks whether the partitions' handlers have returned. */
const HANDLER_POLL_MS = 10
/** Attempts at fetching committed offsets for a new assignment before the consumer gives up. */
const OFFSET_FETCH_ATTEMPTS = 20

export class GroupConsumer {
  private session: GroupSession | undefined
  /** Member events are handled one at a time, in order: an assignment never overtakes a revocation. */
  private queue: Promise<void> = Promise.resolve()
  /** The offset last committed (or found committed) per partition. */
  private readonly committed = new Map<string, number>()
  private lastPolled = 0
  private lastCommitAt = Date.now()
  private committing: Promise<void> | undefined
  private resets = new Map<string, StartPolicy>()
  private topics: string[] = []
  private hooks: GroupConsumerHooks | undefined

  constructor(
    private readonly cluster: Cluster,
    private readonly assigned: Assignment,
    private readonly instrumentation: Instrumentation<ConsumerEvents>,
    readonly settings: GroupSettings,
  ) {}

  /** Joins the group with the topics the subscriptions resolve to now. */
  async start(hooks: GroupConsumerHooks, signal: AbortSignal): Promise<void> {
    this.hooks = hooks
    await this.refreshTopics(signal)
    const s = this.settings
    const session = new GroupSession({
      cluster: this.cluster,
      member: {
        groupId: s.groupId,
        topics: this.topics,
        groupInstanceId: s.groupInstanceId,
        sessionTimeoutMs: s.sessionTimeout,
        heartbeatIntervalMs: s.heartbeatInterval,
        rebalanceTimeoutMs: s.rebalanceTimeout,
        maxPollIntervalMs: s.maxPollInterval,
        assignors: s.partitionAssigners,
      },
      onEvent: (event) => this.onEvent(event),
    })
    this.session = session
    session.start()
  }

  /**
   * Called from the fetch loop: picks up topics created since (RegExp subscriptions), auto-commits,
   * and polls (Kafka's poll) unless a handler is running: a handler stuck past maxPollInterval makes
   * the member leave, so its partitions go to members that make progress.
   */
  async tick(signal: AbortSignal, metadataMaxAge: number, handlerRunning: boolean): Promise<void> {
    const session = this.session
    if (session === undefined || session.closed) return
    if (!handlerRunning) session.poll()
    if (Date.now() - this.assigned.lastResolved >= metadataMaxAge) {
      try {
        const before = this.topics.join('\u0000')
        await this.refreshTopics(signal)
        if (this.topics.join('\u0000') !== before) session.subscribe(this.topics)
      } catch {
        this.assigned.lastResolved = Date.now() // try again next period
      }
    }
    this.maybeAutoCommit()
  }

  /** A record or batch was processed. */
  processed(): void {
    this.session?.poll()
    this.maybeAutoCommit()
  }

  /** A handler is about to be given records: the application polls (at most every POLL_EVERY_MS). */
  progress(): void {
    const now = Date.now()
    if (now - this.lastPolled < POLL_EVERY_MS) return
    this.lastPolled = now
    this.session?.poll()
  }

  /** Commits `offsets` (the next offsets to read), or every position that moved since its last commit. */
  async commit(offsets?: Array<{ topic: string; partition: number; offset: number }>): Promise<void> {
    const session = this.session
    if (session === undefined || session.closed) {
      throw new InvalidArgumentError('the consumer is not in its group (run it first)')
    }
    const wanted = offsets ?? this.movedPositions()
    if (wanted.length === 0) return
    const list: CommitOffset[] = wanted.map((o) => ({ ...o, leaderEpoch: -1, metadata: '' }))
    const { results, error } = await session.commit(list)
    if (error !== undefined) throw error
    const failed = results.find((r) => r.errorCode !== 0)
    const accepted: CommitOffset[] = []
    for (const r of results) {
      const o = list.find((c) => c.topic === r.topic && c.partition === r.partition)
      if (r.errorCode !== 0 || o === undefined) continue
      this.committed.set(partitionKey(r.topic, r.partition), o.offset)
      accepted.push(o)
    }
    // The event names what was committed: a partition the coordinator refused is not.
    if (accepted.length > 0) {
      this.instrumentation.emit('consumer.commit_offsets', () => ({
        groupId: this.settings.groupId,
        topics: accepted.map((o) => ({ topic: o.topic, partition: o.partition, offset: String(o.offset) })),
      }))
    }
    if (failed !== undefined) throw errorFromCode(failed.errorCode, failed.errorMessage) as TributaryError
  }

  /** Commits what moved (autoCommit), then leaves the group — a static member only closes. */
  async stop(): Promise<void> {
    const session = this.session
    if (session === undefined || session.closed) return
    await this.queue
    if (this.settings.autoCommit) await this.commit().catch(() => {})
    const how = this.settings.groupInstanceId === undefined ? 'leave' : 'close'
    await session.leave(how, Math.min(this.settings.sessionTimeout, 10_000))
    await this.queue
    this.assigned.sync([])
    this.session = undefined
  }

  private async refreshTopics(signal: AbortSignal): Promise<void> {
    const resolved = await this.assigned.resolveTopics(signal)
    this.topics = [...resolved.keys()].sort()
    this.resets = new Map([...resolved].map(([topic, { reset }]) => [topic, reset]))
    this.assigned.lastResolved = Date.now()
  }

  private onEvent(event: MemberEvent): void {
    switch (event.type) {
      case 'joined':
        this.instrumentation.emit('consumer.group_join', () => ({
          groupId: this.settings.groupId,
          memberId: event.memberId,
          generation: event.generation,
          groupProtocol: event.protocol,
        }))
        break
      case 'assigned':
        this.enqueue(() => this.assign(event.assignment, event.partitions))
        break
      case 'revoke':
        this.instrumentation.emit('consumer.rebalancing', () => ({
          groupId: this.settings.groupId,
          memberId: this.session?.member.id ?? '',
        }))
        this.enqueue(async () => {
          await this.release(event.partitions, true)
          this.session?.revocationDone()
        })
        break
      case 'lost':
        // Another member may own them already: no commit, just stop reading them.
        this.enqueue(() => this.release(event.partitions, false))
        break
      case 'failed':
        this.hooks?.fatal(event.error)
        break
      default:
        break
    }
  }

  private enqueue(task: () => Promise<void>): void {
    this.queue = this.queue.then(task).catch((err: unknown) => this.hooks?.fatal(err as Error))
  }

  /** The member's whole assignment now, `added` being new: committed offsets first, then reading starts. */
  private async assign(assignment: TopicPartition[], added: TopicPartition[]): Promise<void> {
    const starts = new Map<string, number>()
    if (added.length > 0) {
      for (let attempt = 1; ; attempt++) {
        const session = this.session
        if (session === undefined || session.closed) return
        const { offsets, error } = await session.fetchOffsets(added)
        if (error === undefined) {
          for (const o of offsets) if (o.offset >= 0) starts.set(partitionKey(o.topic, o.partition), o.offset)
          break
        }
        if (attempt >= OFFSET_FETCH_ATTEMPTS || !error.retriable) throw error
        await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 50 * attempt)))
      }
    }
    const current = new Set([...this.assigned.states.keys()])
    this.assigned.sync(assignment.map((tp) => ({ ...tp, reset: this.resets.get(tp.topic) ?? 'latest' })))
    for (const tp of added) {
      const key = partitionKey(tp.topic, tp.partition)
      const start = starts.get(key)
      const state = this.assigned.get(tp.topic, tp.partition)
      if (state === undefined || current.has(key)) continue
      if (start !== undefined) {
        state.seek(start)
        this.committed.set(key, start)
      } else this.committed.delete(key)
    }
    this.hooks?.wake()
    if (added.length > 0) {
      this.instrumentation.emit('consumer.partitions_assigned', () => ({
        groupId: this.settings.groupId,
        partitions: added.map((tp) => ({ ...tp })),
      }))
      await this.settings.onPartitionsAssigned?.(added)
    }
  }

  /** Stops reading `partitions`: waits for their handlers, commits their positions (on revoke), then lets them go. */
  private async release(partitions: TopicPartition[], commit: boolean): Promise<void> {
    const states = partitions.map((tp) => this.assigned.get(tp.topic, tp.partition)).filter((s) => s !== undefined)
    for (const state of states) state.paused = true
    const deadline = Date.now() + this.settings.rebalanceTimeout
    while (states.some((s) => s.processing) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, HANDLER_POLL_MS))
    }
    if (commit && this.settings.autoCommit) {
      const moved = states
        .filter((s) => s.position !== undefined && this.committed.get(s.key) !== s.position)
        .map((s) => ({ topic: s.topic, partition: s.partition, offset: s.position! }))
      // A refused commit (fenced) must not keep the partitions: the next owner re-reads from the last commit.
      if (moved.length > 0) await this.commit(moved).catch(() => {})
    }
    if (commit) await this.settings.onPartitionsRevoked?.(partitions.map((tp) => ({ ...tp })))
    const gone = new Set(partitions.map((tp) => partitionKey(tp.topic, tp.partition)))
    const keep = [...this.assigned.states.values()]
      .filter((s) => !gone.has(s.key))
      .map((s) => ({ topic: s.topic, partition: s.partition, reset: s.reset }))
    this.assigned.sync(keep)
    for (const key of gone) this.committed.delete(key)
    this.instrumentation.emit(commit ? 'consumer.partitions_revoked' : 'consumer.partitions_lost', () => ({
      groupId: this.settings.groupId,
      partitions: partitions.map((tp) => ({ ...tp })),
    }))
  }

  private movedPositions(): Array<{ topic: string; partition: number; offset: number }> {
    return [...this.assigned.states.values()]
      .filter((s) => s.position !== undefined && this.committed.get(s.key) !== s.position)
      .map((s) => ({ topic: s.topic, partition: s.partition, offset: s.position! }))
  }

  private maybeAutoCommit(): void {
    const s = this.settings
    if (!s.autoCommit || this.committing !== undefined || this.session === undefined) return
    const byTime = s.autoCommitInterval !== undefined && Date.now() - this.lastCommitAt >= s.autoCommitInterval
    let byCount = false
    if (s.autoCommitThreshold !== undefined) {
      let pending = 0
      for (const state of this.assigned.states.values()) {
        const last = this.committed.get(state.key)
        if (state.position !== undefined && last !== undefined) pending += Math.max(0, state.position - last)
        else if (state.position !== undefined && state.position > 0) pending += 1
      }
      byCount = pending >= s.autoCommitThreshold
    }
    if (!byTime && !byCount) return
    this.lastCommitAt = Date.now()
    this.committing = this.commit()
      .catch(() => {
        // Retried at the next interval; a fenced commit is followed by a rejoin anyway.
      })
      .finally(() => {
        this.committing = undefined
      })
  }
}
