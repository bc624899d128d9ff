/**
 * Where the page's view of the mesh comes from: a Tributary connection, either this tab as a
 * browser peer (peer-source.ts, the default) or the SDK's browser light node (`connectMesh`:
 * WebSockets to the Node peer that served the page, no local partitions; `?mode=client`). The
 * views only see the MeshSource interface.
 */
import {
  type ClusterDescription,
  type DescribedTopic,
  type GroupDescription,
  type GroupOffsetLag,
  type KafkaMessage,
  type Producer,
  Tributary,
} from '@tributary/client'
import type { Bootstrap } from './bootstrap.js'

export type GroupDetail = GroupDescription & { offsets: GroupOffsetLag[] }

export interface TailRecord {
  partition: number
  offset: string
  key: string | null
  value: string
  timestamp: string
}

export interface TailHandle {
  /** The offset per partition the tail started from (the log end when it began). */
  startOffsets: Array<{ partition: number; offset: string }>
  stop(): Promise<void>
}

/** A browser peer's own storage: its replicas' bytes and the budget retention keeps them under. */
export interface PeerStorageStatus {
  logBytes: number
  budgetBytes: number | undefined
  persisted: boolean
  replicas: number
  /** The last write refused for quota, if any. */
  lastError: string | undefined
}

/** What the outbox panel shows; undefined when this build's producer has no outbox. */
export interface OutboxStatus {
  pending: number
}

export interface MeshSource {
  /** 'sdk': a light client of the Node peers; 'peer': this tab is a peer of the mesh. */
  readonly kind: 'sdk' | 'peer'
  /** The page's own libp2p peer id. */
  readonly selfId: string
  describeCluster(signal: AbortSignal): Promise<ClusterDescription>
  describeTopics(signal: AbortSignal): Promise<DescribedTopic[]>
  listGroups(signal: AbortSignal): Promise<string[]>
  describeGroup(groupId: string, signal: AbortSignal): Promise<GroupDetail>
  createTopic(topic: string, partitions: number, replicationFactor: number, signal: AbortSignal): Promise<void>
  produce(
    record: { topic: string; key: string | null; value: string },
    signal: AbortSignal,
  ): Promise<{ partition: number; offset: string }>
  tail(topic: string, onRecord: (record: TailRecord) => void, signal: AbortSignal): Promise<TailHandle>
  outbox(): OutboxStatus | undefined
  /** Replicates every partition of `topic` in this tab (peers only). */
  observe(topic: string): Promise<void>
  /** Topics this tab holds replicas of (empty for a light client). */
  observed(): string[]
  /** Remote addresses of this tab's open connections, by peer id (empty when unknown). */
  links(): Map<string, string[]>
  /** This tab's replica storage; undefined for a light client, which stores nothing. */
  peerStorage(): Promise<PeerStorageStatus | undefined>
  close(): Promise<void>
}

const text = new TextDecoder()

/** A MeshSource over any Tributary connection (light client or in-tab peer). */
export class TributarySource implements MeshSource {
  private producer: Producer | undefined
  private readonly admin

  constructor(
    readonly kind: 'sdk' | 'peer',
    private readonly mesh: Tributary,
    private readonly onClose: () => Promise<void> = async () => {},
  ) {
    this.admin = mesh.admin()
  }

  get selfId(): string {
    return this.mesh.peerId
  }

  describeCluster(signal: AbortSignal): Promise<ClusterDescription> {
    return this.admin.describeCluster({ signal })
  }

  async describeTopics(signal: AbortSignal): Promise<DescribedTopic[]> {
    const topics = await this.admin.describeTopics({ signal })
    return topics.filter((t) => !t.name.startsWith('__')).sort((a, b) => a.name.localeCompare(b.name))
  }

  async listGroups(signal: AbortSignal): Promise<string[]> {
    const { groups } = await this.admin.listGroups({ signal })
    return groups.map((g) => g.groupId).sort()
  }

  describeGroup(groupId: string, signal: AbortSignal): Promise<GroupDetail> {
    return this.admin.describeGroup(groupId, { signal })
  }

  async createTopic(topic: string, partitions: number, replicationFactor: number, signal: AbortSignal): Promise<void> {
    await this.admin.createTopics({ topics: [{ topic, numPartitions: partitions, replicationFactor }], signal })
  }

  async produce(
    record: { topic: string; key: string | null; value: string },
    _signal: AbortSignal,
  ): Promise<{ partition: number; offset: string }> {
    this.producer ??= this.mesh.producer()
    // The producer's own timeout and retries bound the send (its API takes no signal).
    const [result] = await this.producer.send({
      topic: record.topic,
      acks: 'all',
      timeout: 15_000,
      messages: [{ key: record.key, value: record.value }],
    })
    if (result === undefined) throw new Error('the producer answered nothing for the record')
    return { partition: result.partition, offset: result.baseOffset }
  }

  async tail(topic: string, onRecord: (record: TailRecord) => void, signal: AbortSignal): Promise<TailHandle> {
    // Start at each partition's log end, read explicitly: the tail is "live" only once these
    // positions are known, so nothing produced after it says so can be missed.
    const ends = await this.admin.fetchTopicOffsets(topic, { signal })
    const consumer = this.mesh.consumer({ maxWaitTimeInMs: 500 })
    consumer.assign(ends.map((e) => ({ topic, partition: e.partition, offset: e.high })))
    await consumer.run({
      eachMessage: async ({ partition, message }) => {
        onRecord({
          partition,
          offset: message.offset,
          key: message.key === null || message.key === undefined ? null : text.decode(message.key),
          value: message.value === null || message.value === undefined ? '' : text.decode(message.value),
          timestamp: message.timestamp,
        })
      },
    })
    return {
      startOffsets: ends.map((e) => ({ partition: e.partition, offset: e.high })),
      stop: () => consumer.disconnect(),
    }
  }

  outbox(): OutboxStatus | undefined {
    // The offline outbox is optional in the SDK build: show its pending count when the producer has one.
    const outbox = (this.producer as { outbox?: { pending?: unknown } } | undefined)?.outbox
    return typeof outbox?.pending === 'number' ? { pending: outbox.pending } : undefined
  }

  async observe(_topic: string): Promise<void> {
    throw new Error('this tab is a light client: it cannot hold replicas')
  }

  observed(): string[] {
    return []
  }

  links(): Map<string, string[]> {
    return new Map()
  }

  async peerStorage(): Promise<PeerStorageStatus | undefined> {
    return undefined
  }

  async close(): Promise<void> {
    await this.producer?.disconnect().catch(() => {})
    await this.admin.disconnect()
    await this.mesh.disconnect()
    await this.onClose()
  }
}

/** Connects the page to the mesh through the peers `bootstrap` names, with the SDK's browser light node. */
export async function connectMesh(bootstrap: Bootstrap, signal: AbortSignal): Promise<MeshSource> {
  const mesh = await Tributary.connect({
    bootstrap: bootstrap.addresses,
    connectionTimeout: 15_000,
    requestTimeout: 10_000,
    // A page served over plain http (localhost, a LAN) can only reach its peer over ws://, which the
    // browser transport refuses by default; a page served over https keeps the default.
    node: { allowInsecureWebSockets: location.protocol === 'http:' },
    signal,
  })
  return new TributarySource('sdk', mesh)
}

export type { KafkaMessage }
