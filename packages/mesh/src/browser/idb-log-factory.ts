/**
 * Partition logs of a browser peer in IndexedDB: the log rows in one database (packages/log's
 * layout, partition key `<topic>-<partition>` as Kafka names replica directories), and the
 * catalog of replicas (with their topic ids) and their Raft state in the peer's own database.
 * Each peer gets its own pair of databases, so two peers in one origin never share a row.
 *
 * A byte budget, when set, keeps the sum of the logs under it: each open log gets an equal share,
 * enforced by capping its `retention.bytes` and `segment.bytes` (retention deletes whole closed
 * segments, so a log stays under retention + one segment: ¾ and ¼ of its share). A write the
 * browser refuses for quota is reported to `onStorageError` listeners as `StorageQuotaError`; the
 * store's transactions guarantee nothing of it was written.
 */
import { type LogConfig, type PartitionLog, resolveLogConfig } from '@tributary/log'
import { IdbStore, openIdbLog } from '@tributary/log/idb'
import { InvalidConfigError, StorageQuotaError } from '@tributary/wire'
import type { PartitionLogFactory, PartitionLogSpec } from '../partitions/log-factory.js'
import { type PersistedQuorumState, type QuorumStateStore, validatePersistedQuorumState } from '../raft/index.js'
import { type PeerDatabase, QUORUM, REPLICAS, replicaKey } from './peer-database.js'

export interface IdbLogFactoryOptions {
  /** The peer's own database (catalog and Raft state). */
  peerDb: PeerDatabase
  /** The database the log rows go to; one per peer. */
  logDbName: string
  /** Keep the logs under this many bytes in total; default no budget (the browser's quota). */
  budgetBytes?: number
}

export interface StorageErrorEvent {
  topic: string
  partition: number
  error: Error
}

/** Smallest share of the budget a log may get: a few maximum-size batches. */
const MIN_SHARE_BYTES = 64 * 1024

interface OpenLog {
  log: PartitionLog
  /** The topic's own configs, before the budget caps them. */
  topicConfig: LogConfig
  apply: (config: Partial<LogConfig>) => void
}

export class IdbLogFactory implements PartitionLogFactory {
  readonly kind = 'idb'
  private readonly open_ = new Map<string, OpenLog>()
  private readonly listeners = new Set<(event: StorageErrorEvent) => void>()
  private budget: number | undefined

  constructor(private readonly options: IdbLogFactoryOptions) {
    this.budget = checkBudget(options.budgetBytes)
  }

  get budgetBytes(): number | undefined {
    return this.budget
  }

  /** Changes the byte budget (undefined: none); applied to open logs at once, enforced by the next retention run. */
  setBudget(bytes: number | undefined): void {
    this.budget = checkBudget(bytes)
    this.rebalance()
  }

  /** Told of every write a log refused for lack of storage (quota): nothing of it was written. */
  onStorageError(listener: (event: StorageErrorEvent) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Bytes held by the open logs. */
  usedBytes(): number {
    let total = 0
    for (const { log } of this.open_.values()) total += log.sizeBytes
    return total
  }

  async open(spec: PartitionLogSpec): Promise<PartitionLog> {
    const key = replicaKey(spec.topic, spec.partition)
    const { peerDb, logDbName } = this.options
    const name = `${spec.topic}-${spec.partition}`
    const known = await peerDb.get(REPLICAS, key)
    if (known !== undefined && known.topicId !== spec.topicId) {
      // Left from a topic of the same name that was deleted and re-created: not this replica's data.
      await this.remove(spec.topic, spec.partition)
    }
    if (known?.topicId !== spec.topicId) {
      await peerDb.put(REPLICAS, key, { topic: spec.topic, partition: spec.partition, topicId: spec.topicId })
    }
    const topicConfig = resolveLogConfig({}, spec.configs)
    const log = await openIdbLog({
      name,
      dbName: logDbName,
      partitionKey: name,
      topicConfig: spec.configs,
      logger: spec.logger,
    })
    const entry = this.guard(key, spec, log, topicConfig)
    this.open_.set(key, entry)
    this.rebalance()
    return log
  }

  /**
   * Hooks the open log: topic config changes keep the budget's caps, refused writes are reported,
   * and closing or destroying it gives its share back.
   */
  private guard(key: string, spec: PartitionLogSpec, log: PartitionLog, topicConfig: LogConfig): OpenLog {
    const updateConfig = log.updateConfig.bind(log)
    const entry: OpenLog = { log, topicConfig, apply: updateConfig }
    const report = (error: unknown): never => {
      if (error instanceof StorageQuotaError) {
        for (const listener of this.listeners) listener({ topic: spec.topic, partition: spec.partition, error })
      }
      throw error
    }
    const appendAsFollower = log.appendAsFollower.bind(log)
    const appendAsLeader = log.appendAsLeader.bind(log)
    const close = log.close.bind(log)
    const destroy = log.destroy.bind(log)
    const forget = (): void => {
      if (this.open_.get(key) === entry) this.open_.delete(key)
      this.rebalance()
    }
    Object.assign(log, {
      updateConfig: (config: Partial<LogConfig>) => {
        entry.topicConfig = { ...entry.topicConfig, ...config }
        updateConfig(this.capped(entry.topicConfig))
      },
      appendAsFollower: (batches: Uint8Array, options?: { signal?: AbortSignal }) =>
        appendAsFollower(batches, options).catch(report),
      appendAsLeader: (batches: Uint8Array, epoch: number, options?: { signal?: AbortSignal }) =>
        appendAsLeader(batches, epoch, options).catch(report),
      close: () => close().finally(forget),
      destroy: () => destroy().finally(forget),
    })
    return entry
  }

  /** Each open log's share of the budget, as caps on its retention and segment size. */
  private rebalance(): void {
    for (const entry of this.open_.values()) entry.apply(this.capped(entry.topicConfig))
  }

  private capped(config: LogConfig): Partial<LogConfig> {
    if (this.budget === undefined) return config
    const share = Math.max(MIN_SHARE_BYTES, Math.floor(this.budget / Math.max(1, this.open_.size)))
    const retention = Math.floor((share * 3) / 4)
    return {
      ...config,
      retentionBytes: config.retentionBytes < 0 ? retention : Math.min(config.retentionBytes, retention),
      segmentBytes: Math.min(config.segmentBytes, Math.floor(share / 4)),
    }
  }

  async stored(): Promise<Array<{ topic: string; partition: number; topicId: string }>> {
    return (await this.options.peerDb.replicas()).map(({ topic, partition, topicId }) => ({
      topic,
      partition,
      topicId,
    }))
  }

  quorumStore(topic: string, partition: number): QuorumStateStore {
    const { peerDb } = this.options
    const key = replicaKey(topic, partition)
    return {
      async load() {
        const state = await peerDb.get(QUORUM, key)
        return state === undefined ? undefined : validatePersistedQuorumState(state as PersistedQuorumState)
      },
      async save(state) {
        await peerDb.put(QUORUM, key, state)
      },
    }
  }

  async remove(topic: string, partition: number): Promise<void> {
    const name = `${topic}-${partition}`
    await new IdbStore({ partitionKey: name, dbName: this.options.logDbName }).destroy()
    await this.options.peerDb.deleteReplica(replicaKey(topic, partition))
  }
}

function checkBudget(bytes: number | undefined): number | undefined {
  if (bytes === undefined) return undefined
  if (!Number.isSafeInteger(bytes) || bytes < MIN_SHARE_BYTES) {
    throw new InvalidConfigError(`a storage budget must be a whole number of bytes, at least ${MIN_SHARE_BYTES}`)
  }
  return bytes
}
