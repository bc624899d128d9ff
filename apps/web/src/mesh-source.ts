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
  type OutboxProducer,
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

/** What the outbox panel shows; undefined when this tab could not open its outbox. */
export interface OutboxStatus {
  /** The outbox's name (its IndexedDB database is tributary-outbox:<name>). */
  name: string
  /** Records queued and not yet acknowledged. */
  pending: number
  /** Whether the mesh answered its last delivery round (undefined before the first). */
  online: boolean | undefined
  /** Records acknowledged since the page loaded. */
  delivered: number
  /** The last delivery failure, if any. */
  lastError: string | undefined
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
  /** Queues a record durably in this tab's outbox; it is delivered (exactly once) when the mesh is reachable. */
  enqueue(record: { topic: string; key: string | null; value: string }): Promise<{ recordId: number }>
  tail(topic: string, onRecord: (record: TailRecord) => void, signal: AbortSignal): Promise<TailHandle>
  /** The outbox's state; undefined while it is not open (or could not be: `outboxError`). */
  outbox(): Promise<OutboxStatus | undefined>
  outboxError(): string | undefined
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
  private outboxProducer: OutboxProducer | undefined
  private outboxFailure: string | undefined
  private readonly outboxOpened: Promise<void>
  private delivered = 0
  private lastDeliveryError: string | undefined

  /**
   * `outboxName` names this tab's durable outbox: sends from the page go through it, so a record
   * sent or queued while the mesh is unreachable is delivered once it is back, even after a reload.
   */
  constructor(
    readonly kind: 'sdk' | 'peer',
    private readonly mesh: Tributary,
    private readonly outboxName: string,
    private readonly onClose: () => Promise<void> = async () => {},
  ) {
    this.admin = mesh.admin()
    this.outboxOpened = this.openOutbox()
  }

  private async openOutbox(): Promise<void> {
    try {
      const outbox = await this.mesh.outbox({ name: this.outboxName })
      outbox.on('outbox.delivered', ({ payload }) => {
        this.delivered += payload.recordIds.length
      })
      outbox.on('outbox.failed', ({ payload }) => {
        this.lastDeliveryError = `${payload.recordIds.length} record(s) refused: ${payload.error.message}`
      })
      outbox.on('outbox.retry', ({ payload }) => {
        this.lastDeliveryError = payload.error.message
      })
      this.outboxProducer = outbox
    } catch (err) {
      // Another tab holds this outbox, or IndexedDB is unavailable: sends go straight to the mesh.
      this.outboxFailure = err instanceof Error ? `${err.name}: ${err.message}` : String(err)
    }
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
    signal: AbortSignal,
  ): Promise<{ partition: number; offset: string }> {
    await this.outboxOpened
    if (this.outboxProducer !== undefined) {
      const [result] = await this.outboxProducer.send({
        topic: record.topic,
        messages: [{ key: record.key, value: record.value }],
        signal,
      })
      if (result === undefined) throw new Error('the outbox answered nothing for the record')
      return { partition: result.partition, offset: result.baseOffset }
    }
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

  async enqueue(record: { topic: string; key: string | null; value: string }): Promise<{ recordId: number }> {
    await this.outboxOpened
    if (this.outboxProducer === undefined) {
      throw new Error(`this tab has no outbox (${this.outboxFailure ?? 'not open'}): use Send`)
    }
    const { recordIds } = await this.outboxProducer.enqueue({
      topic: record.topic,
      messages: [{ key: record.key, value: record.value }],
    })
    return { recordId: recordIds[0] ?? -1 }
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

  async outbox(): Promise<OutboxStatus | undefined> {
    const outbox = this.outboxProducer
    if (outbox === undefined) return undefined
    return {
      name: this.outboxName,
      pending: await outbox.pending(),
      online: outbox.isOnline,
      delivered: this.delivered,
      lastError: this.lastDeliveryError,
    }
  }

  outboxError(): string | undefined {
    return this.outboxFailure
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
    await this.outboxProducer?.close().catch(() => {})
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
  return new TributarySource('sdk', mesh, 'tributary-web-client')
}

export type { KafkaMessage }
