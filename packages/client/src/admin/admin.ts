/**
 * The admin client (KafkaJS's `admin/`): topics, their partitions' leadership and offsets,
 * configs, the peers of the mesh, and consumer groups (groups.ts).
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
import { type DescribedTopic, describeTopics, fetchOffsets } from './describe.js'
import {
  coordinatorRequest,
  describeGroup,
  type GroupDescription,
  type GroupOffsetLag,
  groupLag,
  listGroups,
  toDescription,
} from './groups.js'
import {
  type ConfigEntry,
  checkConfigEntries,
  checkTopicConfig,
  checkTopicName,
  type ITopicConfig,
} from './validate.js'

export { ConfigResourceTypes }

export interface AdminOptions {
  retry?: RetryOptions
}

export interface AdminContext {
  cluster: Cluster
  onClose?: () => void
}

export interface PartitionOffsets {
  partition: number
  /** The next offset a consumer will see (= high). */
  offset: string
  high: string
  low: string
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
  private closed = false

  constructor(
    private readonly context: AdminContext,
    options: AdminOptions = {},
  ) {
    this.cluster = context.cluster
    this.retrier = createRetrier(options.retry)
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
    checkTopicName(topic)
    return this.retrier(async () => {
      const meta = await this.cluster.topic(topic, opts(options.signal))
      const partitions = meta.partitions.map((p) => p.partition)
      const [low, high] = await Promise.all([
        fetchOffsets(this.cluster, topic, partitions, -2, options.signal),
        fetchOffsets(this.cluster, topic, partitions, -1, options.signal),
      ])
      return partitions.map((partition, i) => ({
        partition,
        offset: String(high[i]!.offset),
        high: String(high[i]!.offset),
        low: String(low[i]!.offset),
      }))
    }, opts(options.signal))
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
    checkTopicName(topic)
    if (timestamp !== undefined && (!Number.isSafeInteger(timestamp) || timestamp < 0)) {
      throw new InvalidArgumentError(`timestamp must be milliseconds since the epoch, got ${String(timestamp)}`)
    }
    return this.retrier(async () => {
      const meta = await this.cluster.topic(topic, opts(options.signal))
      const partitions = meta.partitions.map((p) => p.partition)
      const latest = await fetchOffsets(this.cluster, topic, partitions, -1, options.signal)
      if (timestamp === undefined) return latest.map((l) => ({ partition: l.partition, offset: String(l.offset) }))
      const found = await fetchOffsets(this.cluster, topic, partitions, timestamp, options.signal)
      return found.map((f, i) => ({
        partition: f.partition,
        offset: String(f.offset >= 0 ? f.offset : latest[i]!.offset),
      }))
    }, opts(options.signal))
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
  async listGroups(
    options: { signal?: AbortSignal } = {},
  ): Promise<{ groups: Array<{ groupId: string; protocolType: string; state: string; members: number }> }> {
    this.assertOpen()
    const groups = await this.retrier(() => listGroups(this.cluster, options.signal), opts(options.signal))
    return { groups }
  }

  /** Groups' state, generation, assignor and members with their assignments. */
  async describeGroups(
    groupIds: string[],
    options: { signal?: AbortSignal } = {},
  ): Promise<{ groups: GroupDescription[] }> {
    this.assertOpen()
    checkGroupIds(groupIds)
    const groups: GroupDescription[] = []
    for (const groupId of groupIds) {
      const group = await this.retrier(() => describeGroup(this.cluster, groupId, options.signal), opts(options.signal))
      groups.push(toDescription(group))
    }
    return { groups }
  }

  /** One group as describeGroups has it, plus committed offsets and lag (log end − committed) per partition. */
  async describeGroup(
    groupId: string,
    options: { topics?: string[]; signal?: AbortSignal } = {},
  ): Promise<GroupDescription & { offsets: GroupOffsetLag[] }> {
    this.assertOpen()
    checkGroupIds([groupId])
    options.topics?.forEach(checkTopicName)
    return this.retrier(async () => {
      const group = await describeGroup(this.cluster, groupId, options.signal)
      const offsets = await groupLag(this.cluster, group, options.topics, options.signal)
      return { ...toDescription(group), offsets }
    }, opts(options.signal))
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
    const byTopic = new Map<string, Array<{ partition: number; offset: string }>>()
    for (const o of described.offsets)
      byTopic.set(o.topic, [...(byTopic.get(o.topic) ?? []), { partition: o.partition, offset: o.offset }])
    return [...byTopic].map(([topic, partitions]) => ({ topic, partitions }))
  }

  /** Deletes groups that have no members, with their committed offsets. */
  async deleteGroups(groupIds: string[], options: { signal?: AbortSignal } = {}): Promise<Array<{ groupId: string }>> {
    this.assertOpen()
    checkGroupIds(groupIds)
    for (const groupId of groupIds) {
      await this.retrier(
        () => coordinatorRequest(this.cluster, { kind: 'delete', groupId }, options.signal),
        opts(options.signal),
      )
    }
    return groupIds.map((groupId) => ({ groupId }))
  }

  /** Sets a member-less group's committed offsets for partitions of a topic. */
  async setOffsets(options: {
    groupId: string
    topic: string
    partitions: Array<{ partition: number; offset: string | number }>
    signal?: AbortSignal
  }): Promise<void> {
    this.assertOpen()
    checkGroupIds([options.groupId])
    checkTopicName(options.topic)
    if (!Array.isArray(options.partitions) || options.partitions.length === 0)
      throw new InvalidArgumentError('setOffsets takes partitions: [{ partition, offset }]')
    const offsets = options.partitions.map((p) => {
      const offset = typeof p?.offset === 'string' && /^\d+$/.test(p.offset) ? Number(p.offset) : p?.offset
      if (
        !Number.isInteger(p?.partition) ||
        p.partition < 0 ||
        !Number.isSafeInteger(offset) ||
        (offset as number) < 0
      ) {
        throw new InvalidArgumentError(`setOffsets: ${JSON.stringify(p)} is not { partition, offset ≥ 0 }`)
      }
      return { topic: options.topic, partition: p.partition, offset: offset as number }
    })
    await this.retrier(
      () =>
        coordinatorRequest(this.cluster, { kind: 'alter-offsets', groupId: options.groupId, offsets }, options.signal),
      opts(options.signal),
    )
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

function checkGroupIds(groupIds: string[]): void {
  if (!Array.isArray(groupIds) || groupIds.length === 0)
    throw new InvalidArgumentError('name at least one group id (an array of strings)')
  for (const id of groupIds) {
    if (typeof id !== 'string' || id.length === 0 || id.length > 255)
      throw new InvalidArgumentError(`a group id must be a string of 1 to 255 characters, got ${String(id)}`)
  }
}
