/**
 * The admin client (KafkaJS's `admin/`): topics, their partitions' leadership and offsets,
 * configs, the peers of the mesh, and consumer groups (group-admin.ts, groups.ts). Topic offsets
 * are looked up in topic-offsets.ts.
 *
 * ```ts
 * const admin = mesh.admin()
 * await admin.createTopics({ topics: [{ topic: 'orders', numPartitions: 6, replicationFactor: 3 }] })
 * const [orders] = await admin.describeTopics({ topics: ['orders'] })
 * orders.partitions[0].leader // peer id
 * ```
 */
import { RequestTimedOutError, TopicAlreadyExistsError } from '@tributary/wire'
import type { ClusterMetadata, TopicMetadata } from '../broker.js'
import type { Cluster, PeerInfo } from '../cluster/cluster.js'
import { ClientClosedError, InvalidArgumentError } from '../errors.js'
import { createRetrier, type Retrier, type RetryOptions, sleep } from '../retry.js'
import {
  type ConfigResource,
  ConfigResourceTypes,
  type DescribeConfigResponse,
  describeTopicConfigs,
} from './configs.js'
import { type DescribedTopic, describeTopics } from './describe.js'
import {
  deleteGroups,
  describeGroups,
  describeGroupWithLag,
  type GroupListing,
  listAllGroups,
  offsetsByTopic,
  type SetOffsetsOptions,
  setGroupOffsets,
} from './group-admin.js'
import type { GroupDescription, GroupOffsetLag } from './groups.js'
import { type PartitionOffsets, topicOffsets, topicOffsetsByTimestamp } from './topic-offsets.js'
import {
  type ConfigEntry,
  checkConfigEntries,
  checkTopicConfig,
  checkTopicName,
  type ITopicConfig,
} from './validate.js'

export type { PartitionOffsets }
export { ConfigResourceTypes }

export interface AdminOptions {
  retry?: RetryOptions
}

export interface AdminContext {
  cluster: Cluster
  onClose?: () => void
}

export interface ClusterDescription {
  /** The peer that answered. */
  peerId: string
  peers: Array<{
    peerId: string
    addresses: string[]
    /** May vote in partition Raft groups (and hold replicas). */
    voter: boolean
    storage: string
    status: string
    version: string
  }>
}

export class Admin {
  private readonly cluster: Cluster
  private readonly retrier: Retrier
  private readonly groupContext: { cluster: Cluster; retrier: Retrier }
  private closed = false

  constructor(
    private readonly context: AdminContext,
    options: AdminOptions = {},
  ) {
    this.cluster = context.cluster
    this.retrier = createRetrier(options.retry)
    this.groupContext = { cluster: this.cluster, retrier: this.retrier }
  }

  async connect(): Promise<void> {
    this.assertOpen()
    await this.retrier(() => this.cluster.metadata([]))
  }

  async disconnect(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.context.onClose?.()
  }

  /**
   * Creates topics. Resolves true when all were created, false when some already existed (the rest
   * were created); any other failure is thrown, typed, naming its topic. With `waitForLeaders`
   * (default), resolves once every new partition has a leader.
   */
  async createTopics(options: {
    topics: ITopicConfig[]
    validateOnly?: boolean
    waitForLeaders?: boolean
    timeout?: number
    signal?: AbortSignal
  }): Promise<boolean> {
    this.assertOpen()
    if (!Array.isArray(options?.topics) || options.topics.length === 0) {
      throw new InvalidArgumentError('createTopics takes { topics: [{ topic, numPartitions, replicationFactor }] }')
    }
    const topics = options.topics.map(checkTopicConfig)
    const names = new Set<string>()
    for (const t of topics) {
      if (names.has(t.name)) throw new InvalidArgumentError(`topic '${t.name}' is named twice in one createTopics`)
      names.add(t.name)
    }
    if (options.validateOnly === true) return true
    const signal = options.signal
    const results = await this.retrier(
      async () => (await this.anyBroker(signal)).createTopics(topics, opts(signal)),
      opts(signal),
    )
    let allCreated = true
    for (const r of results) {
      if (r.error instanceof TopicAlreadyExistsError) allCreated = false
      else if (r.error !== undefined) throw r.error
    }
    const created = results.filter((r) => r.error === undefined).map((r) => r.name)
    if (options.waitForLeaders !== false && created.length > 0) {
      await this.waitForLeaders(created, options.timeout ?? 10_000, signal)
    }
    return allCreated
  }

  private async waitForLeaders(topics: string[], timeoutMs: number, signal: AbortSignal | undefined): Promise<void> {
    const deadline = Date.now() + timeoutMs
    for (let attempt = 0; ; attempt++) {
      const meta = await this.cluster.metadata(topics, opts(signal)).catch(() => undefined)
      const ready = meta?.topics.every((t) => t.error === undefined && t.partitions.every((p) => p.leader !== ''))
      if (ready === true) return
      if (Date.now() >= deadline) {
        throw new RequestTimedOutError(
          `topics ${topics.join(', ')} were created, but not every partition had a leader within ${timeoutMs} ms`,
        )
      }
      await sleep(Math.min(50 * 2 ** Math.min(attempt, 5), Math.max(1, deadline - Date.now())), signal)
    }
  }

  async deleteTopics(options: { topics: string[]; timeout?: number; signal?: AbortSignal }): Promise<void> {
    this.assertOpen()
    if (!Array.isArray(options?.topics) || options.topics.length === 0) {
      throw new InvalidArgumentError('deleteTopics takes { topics: [name, …] }')
    }
    const names = options.topics.map(checkTopicName)
    const signal = options.signal
    const results = await this.retrier(
      async () => (await this.anyBroker(signal)).deleteTopics(names, opts(signal)),
      opts(signal),
    )
    for (const r of results) if (r.error !== undefined) throw r.error
    for (const name of names) this.cluster.invalidate(name)
  }

  async listTopics(options: { signal?: AbortSignal } = {}): Promise<string[]> {
    this.assertOpen()
    const meta = await this.retrier(() => this.cluster.metadata(undefined, opts(options.signal)), opts(options.signal))
    return meta.topics.filter((t) => t.error === undefined).map((t) => t.name)
  }

  /** KafkaJS's fetchTopicMetadata: leaders, replicas and in-sync replicas per partition. */
  async fetchTopicMetadata(options: { topics?: string[]; signal?: AbortSignal } = {}): Promise<{
    topics: Array<{
      name: string
      partitions: Array<{
        partitionErrorCode: number
        partitionId: number
        leader: string
        replicas: string[]
        isr: string[]
        offlineReplicas: string[]
      }>
    }>
  }> {
    const topics = await this.topicsMetadata(options.topics, options.signal)
    return {
      topics: topics.map((t) => ({
        name: t.name,
        partitions: t.partitions.map((p) => ({
          partitionErrorCode: p.leader === '' ? 5 : 0,
          partitionId: p.partition,
          leader: p.leader,
          replicas: p.replicas,
          isr: p.inSync,
          offlineReplicas: p.replicas.filter(
            (r) => !this.cluster.peers.some((peer) => peer.peerId === r && peer.status === 'alive'),
          ),
        })),
      })),
    }
  }

  /**
   * Per partition: leader, epoch, voters, observers, in-sync voters, and the leader's log start,
   * high watermark and log end (asked of each leader; '-1' where a leader did not answer).
   */
  async describeTopics(options: { topics?: string[]; signal?: AbortSignal } = {}): Promise<DescribedTopic[]> {
    const topics = await this.topicsMetadata(options.topics, options.signal)
    return describeTopics(this.cluster, topics, options.signal)
  }

  /** Earliest and latest offsets of every partition of a topic. */
  async fetchTopicOffsets(topic: string, options: { signal?: AbortSignal } = {}): Promise<PartitionOffsets[]> {
    this.assertOpen()
    return topicOffsets(this.cluster, this.retrier, topic, options.signal)
  }

  /**
   * Per partition, the first offset whose record timestamp is at or after `timestamp`; where no
   * record is that recent, the latest offset (as KafkaJS answers). Without a timestamp: latest.
   */
  async fetchTopicOffsetsByTimestamp(
    topic: string,
    timestamp?: number,
    options: { signal?: AbortSignal } = {},
  ): Promise<Array<{ partition: number; offset: string }>> {
    this.assertOpen()
    return topicOffsetsByTimestamp(this.cluster, this.retrier, topic, timestamp, options.signal)
  }

  /** Topic configs: those set on the topic, and every other known name as a default. */
  async describeConfigs(options: {
    resources: ConfigResource[]
    signal?: AbortSignal
  }): Promise<DescribeConfigResponse> {
    this.assertOpen()
    if (!Array.isArray(options?.resources))
      throw new InvalidArgumentError('describeConfigs takes { resources: [{ type, name }] }')
    for (const r of options.resources) {
      if (r?.type !== ConfigResourceTypes.TOPIC)
        throw new InvalidArgumentError('only TOPIC config resources exist in Tributary')
      checkTopicName(r.name)
    }
    const names = options.resources.map((r) => r.name)
    const meta = await this.retrier(() => this.cluster.metadata(names, opts(options.signal)), opts(options.signal))
    return describeTopicConfigs(options.resources, meta.topics)
  }

  /**
   * Sets topic configs. Entries not named stay as they are (the peer merges, like Kafka's
   * incrementalAlterConfigs with SET); `validateOnly` checks without changing anything.
   */
  async alterConfigs(options: {
    validateOnly?: boolean
    resources: Array<{ type: number; name: string; configEntries: ConfigEntry[] }>
    signal?: AbortSignal
  }): Promise<{
    resources: Array<{ errorCode: number; errorMessage: string | null; resourceType: number; resourceName: string }>
  }> {
    this.assertOpen()
    if (!Array.isArray(options?.resources))
      throw new InvalidArgumentError('alterConfigs takes { resources: [{ type, name, configEntries }] }')
    const checked = options.resources.map((r) => {
      if (r?.type !== ConfigResourceTypes.TOPIC)
        throw new InvalidArgumentError('only TOPIC config resources exist in Tributary')
      const name = checkTopicName(r.name)
      return { name, configs: checkConfigEntries(r.configEntries ?? [], name) }
    })
    const resources = []
    for (const { name, configs } of checked) {
      if (options.validateOnly !== true) {
        const results = await this.retrier(
          async () => (await this.anyBroker(options.signal)).alterConfigs(name, configs, opts(options.signal)),
          opts(options.signal),
        )
        for (const r of results) if (r.error !== undefined) throw r.error
        this.cluster.invalidate(name)
      }
      resources.push({ errorCode: 0, errorMessage: null, resourceType: ConfigResourceTypes.TOPIC, resourceName: name })
    }
    return { resources }
  }

  /** Every consumer group of the mesh, with its state and member count. */
  async listGroups(options: { signal?: AbortSignal } = {}): Promise<{ groups: GroupListing[] }> {
    this.assertOpen()
    return { groups: await listAllGroups(this.groupContext, options.signal) }
  }

  /** Groups' state, generation, assignor and members with their assignments. */
  async describeGroups(
    groupIds: string[],
    options: { signal?: AbortSignal } = {},
  ): Promise<{ groups: GroupDescription[] }> {
    this.assertOpen()
    return { groups: await describeGroups(this.groupContext, groupIds, options.signal) }
  }

  /** One group as describeGroups has it, plus committed offsets and lag (log end − committed) per partition. */
  async describeGroup(
    groupId: string,
    options: { topics?: string[]; signal?: AbortSignal } = {},
  ): Promise<GroupDescription & { offsets: GroupOffsetLag[] }> {
    this.assertOpen()
    return describeGroupWithLag(this.groupContext, groupId, options)
  }

  /** Committed offsets of a group ('-1' where none), per topic (all it committed to when `topics` is absent). */
  async fetchOffsets(options: {
    groupId: string
    topics?: string[]
    signal?: AbortSignal
  }): Promise<Array<{ topic: string; partitions: Array<{ partition: number; offset: string }> }>> {
    const described = await this.describeGroup(options.groupId, {
      ...(options.topics === undefined ? {} : { topics: options.topics }),
      ...opts(options.signal),
    })
    return offsetsByTopic(described.offsets)
  }

  /** Deletes groups that have no members, with their committed offsets. */
  async deleteGroups(groupIds: string[], options: { signal?: AbortSignal } = {}): Promise<Array<{ groupId: string }>> {
    this.assertOpen()
    await deleteGroups(this.groupContext, groupIds, options.signal)
    return groupIds.map((groupId) => ({ groupId }))
  }

  /** Sets a member-less group's committed offsets for partitions of a topic. */
  async setOffsets(options: SetOffsetsOptions): Promise<void> {
    this.assertOpen()
    await setGroupOffsets(this.groupContext, options)
  }

  /** Moves a member-less group to the latest (default) or earliest offsets of every partition of a topic. */
  async resetOffsets(options: {
    groupId: string
    topic: string
    earliest?: boolean
    signal?: AbortSignal
  }): Promise<void> {
    const offsets = await this.fetchTopicOffsets(options.topic, opts(options.signal))
    await this.setOffsets({
      groupId: options.groupId,
      topic: options.topic,
      partitions: offsets.map((o) => ({ partition: o.partition, offset: options.earliest === true ? o.low : o.high })),
      ...opts(options.signal),
    })
  }

  /** The peers of the mesh as the answering peer knows them: ids, addresses, roles, liveness. */
  async describeCluster(options: { signal?: AbortSignal } = {}): Promise<ClusterDescription> {
    this.assertOpen()
    const meta: ClusterMetadata = await this.retrier(
      () => this.cluster.metadata([], opts(options.signal)),
      opts(options.signal),
    )
    return { peerId: meta.peerId, peers: meta.peers.map((p: PeerInfo) => ({ ...p })) }
  }

  private async topicsMetadata(
    topics: string[] | undefined,
    signal: AbortSignal | undefined,
  ): Promise<TopicMetadata[]> {
    this.assertOpen()
    if (topics !== undefined) {
      if (!Array.isArray(topics)) throw new InvalidArgumentError('topics must be an array of names')
      topics.forEach(checkTopicName)
    }
    const meta = await this.retrier(() => this.cluster.metadata(topics, opts(signal)), opts(signal))
    for (const t of meta.topics) if (t.error !== undefined) throw t.error
    return meta.topics
  }

  /** A peer to send topic changes to: whichever answers metadata (any peer may create topics). */
  private async anyBroker(signal: AbortSignal | undefined) {
    const meta = await this.cluster.metadata([], opts(signal))
    return this.cluster.broker(meta.peerId)
  }

  private assertOpen(): void {
    if (this.closed) throw new ClientClosedError('the admin client is disconnected; create a new one')
  }
}

function opts(signal: AbortSignal | undefined): { signal?: AbortSignal } {
  return signal === undefined ? {} : { signal }
}
