import type { LogConfig, Logger, PartitionLog } from '@tributary/log'
import type { QuorumStateStore } from '../raft/index.js'

export interface PartitionLogSpec {
  topic: string
  partition: number
  topicId: string
  /** Kafka-named topic configs (`retention.ms`, …). */
  configs: Record<string, string>
  logger: Logger
}

/**
 * Where a peer keeps its partition logs: files in Node, IndexedDB in browsers, memory in
 * tests. The mesh never touches storage except through this and the PartitionLog contract.
 */
export interface PartitionLogFactory {
  readonly kind: 'fs' | 'idb' | 'memory'
  /** Opens (creating or recovering) the log of a replica this peer holds. */
  open(spec: PartitionLogSpec): Promise<PartitionLog>
  /** The replicas found in storage, with the topic id they were created for. */
  stored(): Promise<Array<{ topic: string; partition: number; topicId: string }>>
  /** Where the replica's Raft state (epoch, vote) is persisted, beside its log. */
  quorumStore(topic: string, partition: number): QuorumStateStore
  /** Deletes a replica's data (the log must be closed). */
  remove(topic: string, partition: number): Promise<void>
}

export type LogConfigOverrides = Partial<LogConfig>
