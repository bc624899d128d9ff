import { type Logger, resolveLogConfig, silentLogger } from '@tributary/log'
import { PartitionRaft, type RaftConfig, type RaftTransport } from '../raft/index.js'
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
  /** Called whenever a hosted replica's role, leader, epoch or high watermark changes. */
  onRaftChange?: (hosted: HostedPartition) => void
}

/** A sole voter has nobody to wait for: it elects itself at once instead of after an election timeout. */
const SOLE_VOTER_ELECTION_MS = 10

const key = (topic: string, partition: number): string => `${topic}\u0000${partition}`

/**
 * Holds the partition replicas placed on this peer. It follows topic metadata: replicas are
 * opened when a topic that places one here appears, reconfigured when its configs change,
 * and closed and deleted — data included — when the topic is deleted or replaced by a
 * concurrent definition with another topic id. Changes are applied one at a time.
 */
export class PartitionManager {
  private readonly hosted = new Map<string, HostedPartition>()
  private readonly byRaftKey = new Map<string, HostedPartition>()
  private readonly topics = new Map<string, TopicView>()
  private readonly logger: Logger
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
      const config = resolveLogConfig({}, view.configs)
      for (let p = 0; p < view.partitions; p++) {
        const replicas = view.replicas[p] ?? []
        const existing = this.hosted.get(key(view.name, p))
        if (!replicas.includes(this.peerId)) {
          if (existing !== undefined) await this.closeAndRemove(existing, 'moved away')
          continue
        }
        if (existing !== undefined) {
          existing.log.updateConfig(config)
          continue
        }
        const log = await this.options.factory.open({
          topic: view.name,
          partition: p,
          topicId: view.topicId,
          configs: view.configs,
          logger: this.logger,
        })
        const raft = new PartitionRaft({
          partition: raftKey(view.topicId, p),
          localId: this.peerId,
          voters: [...replicas],
          observers: [],
          log,
          store: this.options.factory.quorumStore(view.name, p),
          transport: this.options.transport,
          logger: this.logger,
          config:
            replicas.length === 1
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
          { topic: view.name, partition: p, logEndOffset: log.logEndOffset, voters: replicas.length },
          'hosting partition',
        )
      }
    })
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
    await hosted.log.destroy()
    await this.options.factory.remove(hosted.topic, hosted.partition)
    this.logger.info(
      { topic: hosted.topic, partition: hosted.partition, why },
      'removed partition replica and its data',
    )
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
    return this.topics.get(topic)?.replicas[partition]?.[0]
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
        await hosted.log.close()
      }
      this.hosted.clear()
      this.byRaftKey.clear()
    })
  }
}
