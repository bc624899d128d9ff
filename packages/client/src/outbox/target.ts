/**
 * Where an outbox delivers: the two things it needs of the mesh, behind one interface so the
 * delivery state machine runs unchanged against a real connection or a test double.
 * `clusterTarget` serves them from a connection's cluster (leader cache, NOT_LEADER hints);
 * `ConnectingTarget` connects on first use and again after a failed attempt, so an outbox can
 * be opened — and records queued — while no peer is reachable.
 */
import type { ProduceResult } from '../broker.js'
import type { Cluster } from '../cluster/cluster.js'

export interface PartitionInfo {
  partitionId: number
  /** '' while the partition has no leader. */
  leader: string
}

export interface OutboxProduceRequest {
  topic: string
  partition: number
  /** One encoded RecordBatch v2. */
  records: Uint8Array
  timeoutMs: number
}

export interface OutboxTarget {
  /** The topic's partitions; throws the typed error (UnknownTopicOrPartitionError, NetworkError, …). */
  partitions(topic: string, signal: AbortSignal): Promise<PartitionInfo[]>
  /** Produces with acks=all to the partition's leader; throws the typed error. */
  produce(request: OutboxProduceRequest, signal: AbortSignal): Promise<ProduceResult>
  /** Releases what the target opened (not a connection it was given). */
  close(): Promise<void>
}

export function clusterTarget(cluster: Cluster, close: () => Promise<void> = async () => {}): OutboxTarget {
  return {
    async partitions(topic, signal) {
      const meta = await cluster.topic(topic, { signal })
      return meta.partitions.map((p) => ({ partitionId: p.partition, leader: p.leader }))
    },
    async produce(request, signal) {
      try {
        const { broker } = await cluster.leader(request.topic, request.partition, { signal })
        return await broker.produce({ ...request, acks: -1 }, { signal })
      } catch (err) {
        cluster.onPartitionError(request.topic, request.partition, err)
        throw err
      }
    },
    close,
  }
}

/** Connects when first needed; a failed connection is tried again on the next call. */
export class ConnectingTarget implements OutboxTarget {
  private connected: Promise<OutboxTarget> | undefined
  private closed = false

  constructor(private readonly connect: (signal: AbortSignal) => Promise<OutboxTarget>) {}

  private target(signal: AbortSignal): Promise<OutboxTarget> {
    if (this.connected === undefined) {
      const attempt = this.connect(signal)
      this.connected = attempt
      attempt.catch(() => {
        if (this.connected === attempt) this.connected = undefined
      })
    }
    return this.connected
  }

  async partitions(topic: string, signal: AbortSignal): Promise<PartitionInfo[]> {
    return (await this.target(signal)).partitions(topic, signal)
  }

  async produce(request: OutboxProduceRequest, signal: AbortSignal): Promise<ProduceResult> {
    return (await this.target(signal)).produce(request, signal)
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    const connected = this.connected
    this.connected = undefined
    const target = await connected?.catch(() => undefined)
    await target?.close()
  }
}
