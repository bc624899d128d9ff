import type { PartitionLog } from '@tributary/log'
import { emptyPartitionData, type MemoryPartitionData, openMemoryLog } from '@tributary/log/memory'
import { MemoryQuorumStateStore, type QuorumStateStore } from '../raft/index.js'
import type { PartitionLogFactory, PartitionLogSpec } from './log-factory.js'

/** Partition logs in memory: for tests and peers that keep nothing. Survives close/reopen. */
export class MemoryLogFactory implements PartitionLogFactory {
  readonly kind = 'memory'
  private readonly data = new Map<string, { topicId: string; data: MemoryPartitionData }>()
  private readonly quorum = new Map<string, MemoryQuorumStateStore>()

  quorumStore(topic: string, partition: number): QuorumStateStore {
    const key = `${topic}-${partition}`
    let store = this.quorum.get(key)
    if (store === undefined) {
      store = new MemoryQuorumStateStore()
      this.quorum.set(key, store)
    }
    return store
  }

  async open(spec: PartitionLogSpec): Promise<PartitionLog> {
    const key = `${spec.topic}-${spec.partition}`
    let entry = this.data.get(key)
    if (entry === undefined || entry.topicId !== spec.topicId) {
      entry = { topicId: spec.topicId, data: emptyPartitionData() }
      this.data.set(key, entry)
    }
    return openMemoryLog({ name: key, data: entry.data, topicConfig: spec.configs, logger: spec.logger })
  }

  async stored(): Promise<Array<{ topic: string; partition: number; topicId: string }>> {
    return [...this.data.entries()].map(([key, { topicId }]) => {
      const at = key.lastIndexOf('-')
      return { topic: key.slice(0, at), partition: Number(key.slice(at + 1)), topicId }
    })
  }

  async remove(topic: string, partition: number): Promise<void> {
    this.data.delete(`${topic}-${partition}`)
    this.quorum.delete(`${topic}-${partition}`)
  }
}
