/**
 * An outbox store in memory: the same contract as the IndexedDB store, for fast deterministic
 * tests and for Node processes that accept losing unsent records with the process. Two outbox
 * producers opened one after the other on the same MemoryOutboxStore object continue one
 * outbox, as two page loads continue one IndexedDB database.
 */
import { OutboxFullError } from './errors.js'
import type {
  OutboxChange,
  OutboxLimits,
  OutboxMeta,
  OutboxSnapshot,
  OutboxStore,
  PartitionSequence,
  SealedBatch,
  StoredRecord,
  TopicPartitions,
} from './store.js'

let instances = 0

export interface OutboxDump {
  meta: OutboxMeta
  records: StoredRecord[]
  batches: SealedBatch[]
  sequences: PartitionSequence[]
  topics: TopicPartitions[]
}

export class MemoryOutboxStore implements OutboxStore {
  private state: OutboxMeta | undefined
  private readonly records = new Map<number, StoredRecord>()
  private readonly sealed = new Map<number, SealedBatch>()
  private readonly sequences = new Map<string, PartitionSequence>()
  private readonly topics = new Map<string, TopicPartitions>()

  /** `name` only matters for messages and the one-producer-at-a-time rule; by default each store has its own. */
  constructor(readonly name = `memory-${++instances}`) {}

  async open(newProducerId: () => number): Promise<OutboxSnapshot> {
    this.state ??= { producerId: newProducerId(), nextRecordId: 1, records: 0, bytes: 0 }
    return {
      meta: { ...this.state },
      sequences: [...this.sequences.values()].map((s) => ({ ...s })),
      topics: [...this.topics.values()].map((t) => ({ ...t })),
    }
  }

  async append(
    records: ReadonlyArray<Omit<StoredRecord, 'id'>>,
    limits: OutboxLimits,
    onIds?: (ids: number[]) => void,
  ): Promise<number[]> {
    const meta = this.opened()
    const bytes = records.reduce((n, r) => n + r.size, 0)
    checkRoom(meta, records.length, bytes, limits)
    const ids = records.map((_, i) => meta.nextRecordId + i)
    onIds?.(ids)
    for (const record of records) {
      const id = meta.nextRecordId++
      // Copied, as IndexedDB's structured clone does: the caller may reuse its buffers.
      this.records.set(id, { ...record, id, key: copy(record.key), value: copy(record.value) })
    }
    meta.records += records.length
    meta.bytes += bytes
    return ids
  }

  async unsealed(maxRecords: number, maxBytes: number): Promise<StoredRecord[]> {
    const out: StoredRecord[] = []
    let bytes = 0
    // Map iteration is insertion order, and ids are inserted increasing.
    for (const record of this.records.values()) {
      if (out.length >= maxRecords || (out.length > 0 && bytes + record.size > maxBytes)) break
      out.push(record)
      bytes += record.size
    }
    return out
  }

  async batches(limit: number): Promise<SealedBatch[]> {
    return [...this.sealed.values()].sort((a, b) => a.id - b.id).slice(0, limit)
  }

  async commit(change: OutboxChange): Promise<void> {
    const meta = this.opened()
    for (const id of change.deleteRecordIds ?? []) this.records.delete(id)
    for (const id of change.deleteBatchIds ?? []) this.sealed.delete(id)
    for (const batch of change.putBatches ?? []) this.sealed.set(batch.id, batch)
    for (const s of change.putSequences ?? []) this.sequences.set(`${s.topic}\u0000${s.partition}`, { ...s })
    for (const t of change.putTopics ?? []) this.topics.set(t.topic, { ...t })
    if (change.released !== undefined) {
      meta.records = Math.max(0, meta.records - change.released.records)
      meta.bytes = Math.max(0, meta.bytes - change.released.bytes)
    }
  }

  async meta(): Promise<OutboxMeta> {
    return { ...this.opened() }
  }

  close(): void {}

  /** Everything the store holds, for a persistence layer to write out (FileOutboxStore's snapshots). */
  dump(): OutboxDump {
    return {
      meta: { ...this.opened() },
      records: [...this.records.values()],
      batches: [...this.sealed.values()].sort((a, b) => a.id - b.id),
      sequences: [...this.sequences.values()],
      topics: [...this.topics.values()],
    }
  }

  /** Replaces the contents with a dump. */
  load(dump: OutboxDump): void {
    this.state = { ...dump.meta }
    this.records.clear()
    this.sealed.clear()
    this.sequences.clear()
    this.topics.clear()
    for (const r of dump.records) this.records.set(r.id, r)
    for (const b of dump.batches) this.sealed.set(b.id, b)
    for (const s of dump.sequences) this.sequences.set(`${s.topic}\u0000${s.partition}`, { ...s })
    for (const t of dump.topics) this.topics.set(t.topic, { ...t })
  }

  private opened(): OutboxMeta {
    if (this.state === undefined) throw new Error('the outbox store is not open')
    return this.state
  }
}

function copy(bytes: Uint8Array | null): Uint8Array | null {
  return bytes === null ? null : new Uint8Array(bytes)
}

/** Throws OutboxFullError when `records` more records of `bytes` would exceed the limits. */
export function checkRoom(meta: OutboxMeta, records: number, bytes: number, limits: OutboxLimits): void {
  if (meta.records + records > limits.maxRecords) {
    throw new OutboxFullError(
      `the outbox holds ${meta.records} of its ${limits.maxRecords} records; ${records} more do not fit (nothing was queued; retry once it delivers)`,
    )
  }
  if (meta.bytes + bytes > limits.maxBytes) {
    throw new OutboxFullError(
      `the outbox holds ${meta.bytes} of its ${limits.maxBytes} bytes; ${bytes} more do not fit (nothing was queued; retry once it delivers)`,
    )
  }
}
