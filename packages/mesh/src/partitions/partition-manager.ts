import { type Logger, resolveLogConfig, silentLogger } from '@tributary/log'
import { logTopicConfigs } from '../metadata/topic-configs.js'
import {
  type Assignment,
  isRemoved,
  PartitionRaft,
  type RaftConfig,
  type RaftStats,
  type RaftTransport,
} from '../raft/index.js'
import { HostedPartition, raftKey } from './hosted-partition.js'
import type { PartitionLogFactory } from './log-factory.js'
import type { TopicView } from './topic-view.js'

export interface PartitionManagerOptions {
  peerId: string
  factory: PartitionLogFactory
  logger?: Logger
  /** How often retention and compaction run over hosted logs (Kafka's log.retention.check.interval.ms). */
  retentionCheckIntervalMs?: number
  /** How replicas reach each other's Raft replicas. */
  transport: RaftTransport
  raftConfig?: Partial<RaftConfig>
  /** Called whenever a hosted replica's role, leader, epoch, high watermark or membership changes. */
  onRaftChange?: (hosted: HostedPartition) => void
  /**
   * The assignment a partition's leader last published (its committed voter set and who else
   * must host it), when it is for this topic id; undefined until a leader published one.
   */
  published?: (topic: TopicView, partition: number) => Assignment | undefined
  /** Peers that could host a replacement replica of a partition now, in placement order. */
  candidates?: (topic: TopicView, partition: number) => string[]
  /**
   * Partitions this peer chose to replicate as an observer (a browser tab following a topic):
   * hosted though placement gives it no role, and kept though the leader's assignment names none.
   */
  observing?: (topic: string, partition: number) => boolean
  /** Whether a peer that is no configured replica may fetch from a partition this peer leads, as an observer. */
  admitObserver?: (peerId: string) => boolean
}

/** A sole voter has nobody to wait for: it elects itself at once instead of after an election timeout. */
const SOLE_VOTER_ELECTION_MS = 10

const key = (topic: string, partition: number): string => `${topic}\u0000${partition}`

/**
 * Holds the partition replicas placed on this peer. It follows topic metadata and the
 * assignments partition leaders publish: a replica is opened when a topic places one here, when
 * a leader names this peer (a learner replacing a lost voter), or when one is found in storage;
 * it is reconfigured when its topic's configs change, and closed and deleted — data included —
 * when the topic is deleted or replaced by a concurrent definition with another topic id, or
 * when the published assignment shows the partition no longer needs it (`isRemoved`). Changes
 * are applied one at a time.
 */
export class PartitionManager {
  private readonly hosted = new Map<string, HostedPartition>()
  private readonly byRaftKey = new Map<string, HostedPartition>()
  private readonly topics = new Map<string, TopicView>()
  private readonly logger: Logger
  /** What replicas closed since the start did as leaders (their live counters went with them). */
  private readonly retired: RaftStats = { votersAdded: 0, votersRemoved: 0, leadershipTransfers: 0 }
  private tail: Promise<unknown> = Promise.resolve()
  private timer: ReturnType<typeof setInterval> | undefined
  private stopped = false

  constructor(private readonly options: PartitionManagerOptions) {
    this.logger = options.logger ?? silentLogger
  }

  get peerId(): string {
    return this.options.peerId
  }

  start(): void {
    const every = this.options.retentionCheckIntervalMs ?? 60_000
    this.timer = setInterval(() => {
      this.maintain().catch((err: unknown) => this.logger.error({ err }, 'retention check failed'))
    }, every)
    this.timer.unref?.()
  }

  /** Runs `fn` after every change queued before it. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.tail.then(fn, fn)
    this.tail = next.catch(() => {})
    return next
  }

  /** A topic was created or changed: open the replicas it places here, apply its configs. */
  applyTopic(view: TopicView): Promise<void> {
    return this.serial(async () => {
      if (this.stopped) return
      const previous = this.topics.get(view.name)
      if (previous !== undefined && previous.topicId !== view.topicId) await this.dropTopic(previous, 'replaced')
      this.topics.set(view.name, view)
      const config = resolveLogConfig({}, logTopicConfigs(view.configs))
      const stored = await this.options.factory.stored()
      for (let p = 0; p < view.partitions; p++) {
        this.hosted.get(key(view.name, p))?.log.updateConfig(config)
        const found = stored.some((s) => s.topic === view.name && s.partition === p && s.topicId === view.topicId)
        await this.reconcile(view, p, found)
      }
    })
  }

  /** A partition's published assignment changed: host, keep or delete the replica accordingly. */
  applyAssignment(topic: string, partition: number): Promise<void> {
    return this.serial(async () => {
      const view = this.topics.get(topic)
      if (this.stopped || view === undefined || partition >= view.partitions) return
      await this.reconcile(view, partition, false)
    })
  }

  /** The assignment in force: the one published, else the topic's placement. */
  assignment(view: TopicView, partition: number): Assignment {
    return (
      this.options.published?.(view, partition) ?? {
        voters: view.replicas[partition] ?? [],
        votersOffset: -1,
        observers: [],
      }
    )
  }

  private async reconcile(view: TopicView, p: number, stored: boolean): Promise<void> {
    const published = this.options.published?.(view, p)
    const existing = this.hosted.get(key(view.name, p))
    if (existing !== undefined) {
      if (published !== undefined) await this.removeIfUnneeded(existing, published)
      return
    }
    const a = this.assignment(view, p)
    const me = this.peerId
    if (!a.voters.includes(me) && !a.observers.includes(me) && !stored && !this.observes(view.name, p)) return
    const hosted = await this.open(view, p, a)
    if (published !== undefined) await this.removeIfUnneeded(hosted, published)
  }

  private async open(view: TopicView, p: number, a: Assignment): Promise<HostedPartition> {
    const log = await this.options.factory.open({
      topic: view.name,
      partition: p,
      topicId: view.topicId,
      configs: logTopicConfigs(view.configs),
      logger: this.logger,
    })
    const voters = a.voters
    const raft = new PartitionRaft({
      partition: raftKey(view.topicId, p),
      localId: this.peerId,
      // Where a replica with no stored voter set starts; a stored one (a restart) wins.
      voters: [...voters],
      votersOffset: a.votersOffset,
      observers: voters.includes(this.peerId) ? [] : [this.peerId],
      placement: {
        replicationFactor: view.replicationFactor,
        candidates: () => this.options.candidates?.(view, p) ?? [],
      },
      log,
      ...(this.options.admitObserver === undefined ? {} : { admitObserver: this.options.admitObserver }),
      store: this.options.factory.quorumStore(view.name, p),
      transport: this.options.transport,
      logger: this.logger,
      config:
        voters.length === 1
          ? { ...this.options.raftConfig, electionTimeoutMs: SOLE_VOTER_ELECTION_MS }
          : { ...this.options.raftConfig },
    })
    const hosted = new HostedPartition(view.name, p, view.topicId, log, raft)
    raft.onChange(() => {
      hosted.notify()
      this.options.onRaftChange?.(hosted)
    })
    this.hosted.set(key(view.name, p), hosted)
    this.byRaftKey.set(raft.partition, hosted)
    await raft.start()
    this.logger.info(
      { topic: view.name, partition: p, logEndOffset: log.logEndOffset, voters: raft.voterSet?.voters },
      raft.isVoter ? 'hosting partition' : 'hosting partition as a learner',
    )
    return hosted
  }

  /** Deletes the replica if the published assignment shows the partition no longer needs it. */
  private async removeIfUnneeded(hosted: HostedPartition, published: Assignment): Promise<void> {
    const raft = hosted.raft
    // A replica that lost track of its voter set (its log restarted past records it never saw)
    // takes the committed one the leader published.
    if (raft.voterSet === undefined && !raft.stopped) {
      await raft.adoptCommittedVoterSet({ offset: published.votersOffset, voters: published.voters }).catch(() => false)
    }
    if (isRemoved(this.peerId, raft.voterSet, published) && !this.observes(hosted.topic, hosted.partition)) {
      await this.closeAndRemove(hosted, 'no longer a replica of its partition')
    }
  }

  /** Closes a replica this peer no longer wants (it stopped observing it) and deletes its data. */
  release(topic: string, partition: number): Promise<void> {
    return this.serial(async () => {
      const hosted = this.hosted.get(key(topic, partition))
      if (this.stopped || hosted === undefined || this.observes(topic, partition)) return
      await this.closeAndRemove(hosted, 'no longer observed')
    })
  }

  private observes(topic: string, partition: number): boolean {
    return this.options.observing?.(topic, partition) ?? false
  }

  /** A topic was deleted (or replaced): close its replicas and delete their data. */
  removeTopic(name: string, topicId?: string): Promise<void> {
    return this.serial(async () => {
      const view = this.topics.get(name)
      if (view !== undefined && (topicId === undefined || view.topicId === topicId))
        await this.dropTopic(view, 'deleted')
      // Replicas of this name left in storage by an older topic id (deleted while we were away).
      for (const stored of await this.options.factory.stored()) {
        if (
          stored.topic === name &&
          (topicId === undefined || stored.topicId === topicId) &&
          !this.hosted.has(key(name, stored.partition))
        ) {
          await this.options.factory.remove(name, stored.partition)
        }
      }
    })
  }

  private async dropTopic(view: TopicView, why: string): Promise<void> {
    this.topics.delete(view.name)
    for (let p = 0; p < view.partitions; p++) {
      const hosted = this.hosted.get(key(view.name, p))
      if (hosted !== undefined && hosted.topicId === view.topicId) await this.closeAndRemove(hosted, why)
    }
  }

  private async closeAndRemove(hosted: HostedPartition, why: string): Promise<void> {
    this.hosted.delete(key(hosted.topic, hosted.partition))
    this.byRaftKey.delete(hosted.raft.partition)
    hosted.notify()
    await hosted.raft.stop({ resign: false })
    this.retire(hosted.raft.stats)
    await hosted.log.destroy()
    await this.options.factory.remove(hosted.topic, hosted.partition)
    this.logger.info(
      { topic: hosted.topic, partition: hosted.partition, why },
      'removed partition replica and its data',
    )
  }

  private retire(stats: RaftStats): void {
    this.retired.votersAdded += stats.votersAdded
    this.retired.votersRemoved += stats.votersRemoved
    this.retired.leadershipTransfers += stats.leadershipTransfers
  }

  /** What the replicas on this peer did as leaders since it started (voter changes, hand-overs). */
  raftStats(): RaftStats {
    const total = { ...this.retired }
    for (const { raft } of this.hosted.values()) {
      total.votersAdded += raft.stats.votersAdded
      total.votersRemoved += raft.stats.votersRemoved
      total.leadershipTransfers += raft.stats.leadershipTransfers
    }
    return total
  }

  get(topic: string, partition: number): HostedPartition | undefined {
    return this.hosted.get(key(topic, partition))
  }

  /** The replica a Raft message is for (by its routing key), if this peer holds it. */
  byRaft(partition: string): PartitionRaft | undefined {
    return this.byRaftKey.get(partition)?.raft
  }

  topic(name: string): TopicView | undefined {
    return this.topics.get(name)
  }

  /** The preferred (first) replica of a partition: who should lead when all is well. */
  preferredLeaderOf(topic: string, partition: number): string | undefined {
    const view = this.topics.get(topic)
    return view === undefined ? undefined : this.assignment(view, partition).voters[0]
  }

  list(): HostedPartition[] {
    return [...this.hosted.values()]
  }

  /** Applies retention and compaction to every hosted log. */
  async maintain(): Promise<void> {
    for (const hosted of this.list()) {
      try {
        await hosted.log.applyRetention()
        await hosted.log.compact()
      } catch (err) {
        this.logger.warn({ err, partition: hosted.name }, 'retention or compaction failed')
      }
    }
  }

  stop(): Promise<void> {
    clearInterval(this.timer)
    return this.serial(async () => {
      if (this.stopped) return
      this.stopped = true
      // Leaders resign first (EndQuorumEpoch), so other replicas take over without waiting out a timeout.
      await Promise.all([...this.hosted.values()].map((h) => h.raft.stop({ resign: true }).catch(() => {})))
      for (const hosted of this.hosted.values()) {
        hosted.notify()
        // Every log is closed whatever another one does. A log whose final checkpoint fails (a
        // full disk or browser quota) still releases its files or database; without its clean
        // marker the next open recovers the tail, so nothing is lost — worth a warning, not a
        // stop that leaves the node running.
        await hosted.log.close().catch((err: unknown) => {
          this.logger.warn({ err, partition: hosted.name }, 'closing the log failed; the next open recovers it')
        })
      }
      this.hosted.clear()
      this.byRaftKey.clear()
    })
  }
}
