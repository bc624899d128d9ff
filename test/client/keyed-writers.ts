/**
 * The workload of the exactly-once tests: a few writers, each owning some keys, each awaiting
 * its send before the next (so every key has one well-defined send order), share one producer.
 * Every value is unique and numbered per key (`<key>#<n>`). The ledger remembers, per record,
 * where its send said it landed (partition and offset) or that its send failed.
 *
 * Writing happens in phases (`write(count)`), so a test can act — kill a leader, restart it —
 * while a phase is in flight and still continue the same per-key sequences afterwards.
 */
import { murmur2, type Producer, type RecordMetadata, toPositive } from '@tributary/client'

export interface SentRecord {
  key: string
  value: string
  /** Where the default partitioner puts the key (murmur2, as Kafka). */
  partition: number
  /** The offset the acknowledgement named; undefined while unacknowledged or if the send failed. */
  offset: number | undefined
  /** The send's error, if it failed for good. */
  error: Error | undefined
}

export interface KeyedWritersOptions {
  producer: Producer
  topic: string
  partitions: number
  keys: readonly string[]
  writers: number
  /** Records per send call. */
  perSend: number
  /** acks=all wait on the leader, ms. */
  timeoutMs: number
}

export class KeyedWriters {
  readonly records: SentRecord[] = []
  /** Records per key, in send order. */
  readonly byKey = new Map<string, SentRecord[]>()
  acked = 0
  failed = 0
  sends = 0
  private readonly nextSeq = new Map<string, number>()
  private readonly ackWaiters: Array<{ count: number; resolve: () => void }> = []

  constructor(private readonly options: KeyedWritersOptions) {
    if (options.keys.length < options.writers) throw new RangeError('every writer needs at least one key')
    for (const key of options.keys) {
      this.byKey.set(key, [])
      this.nextSeq.set(key, 0)
    }
  }

  /** Resolves as soon as `count` records are acknowledged (no polling: a test acts mid-stream). */
  whenAcked(count: number): Promise<void> {
    if (this.acked >= count) return Promise.resolve()
    return new Promise((resolve) => this.ackWaiters.push({ count, resolve }))
  }

  /** Acknowledged records in one partition. */
  ackedIn(partition: number): number {
    return this.records.filter((r) => r.partition === partition && r.offset !== undefined).length
  }

  static partitionOf(key: string, partitions: number): number {
    return toPositive(murmur2(new TextEncoder().encode(key))) % partitions
  }

  /** Writes `count` more records across all writers; resolves when every send of the phase settled. */
  async write(count: number): Promise<void> {
    const { writers } = this.options
    await Promise.all(
      Array.from({ length: writers }, (_, w) =>
        this.writer(w, Math.floor(count / writers) + (w < count % writers ? 1 : 0)),
      ),
    )
  }

  private async writer(index: number, count: number): Promise<void> {
    const { keys, writers, perSend, producer, topic, partitions, timeoutMs } = this.options
    const own = keys.filter((_, i) => i % writers === index)
    let turn = 0
    // Bounded: each round sends at least one record of the `count`.
    for (let written = 0; written < count; ) {
      const batch: SentRecord[] = []
      for (let i = 0; i < perSend && written < count; i++, written++, turn++) {
        const key = own[turn % own.length]!
        const seq = this.nextSeq.get(key)!
        this.nextSeq.set(key, seq + 1)
        const record: SentRecord = {
          key,
          value: `${key}#${seq}`,
          partition: KeyedWriters.partitionOf(key, partitions),
          offset: undefined,
          error: undefined,
        }
        batch.push(record)
        this.records.push(record)
        this.byKey.get(key)!.push(record)
      }
      this.sends++
      try {
        const result = await producer.send({
          topic,
          acks: 'all',
          timeout: timeoutMs,
          messages: batch.map((r) => ({ key: r.key, value: r.value })),
        })
        assignOffsets(batch, result)
        this.acked += batch.length
        for (const waiter of this.ackWaiters.filter((w) => this.acked >= w.count)) {
          this.ackWaiters.splice(this.ackWaiters.indexOf(waiter), 1)
          waiter.resolve()
        }
      } catch (err) {
        // The application gives up on these records (it does not resend them): each may be in
        // the log at most once.
        for (const r of batch) r.error = err as Error
        this.failed += batch.length
      }
    }
  }
}

/**
 * Each record's offset from its send's answer: per partition, the send's records fill the
 * answer's entries for that partition in order (one entry per batch they went into, with
 * `recordCount` records from `baseOffset` on).
 */
export function assignOffsets(records: SentRecord[], result: RecordMetadata[]): void {
  const byPartition = new Map<number, SentRecord[]>()
  for (const r of records) byPartition.set(r.partition, [...(byPartition.get(r.partition) ?? []), r])
  const entries = new Map<number, RecordMetadata[]>()
  for (const m of result) entries.set(m.partition, [...(entries.get(m.partition) ?? []), m])
  for (const partition of entries.keys()) {
    if (!byPartition.has(partition)) throw new Error(`the answer names partition ${partition}, which got no record`)
  }
  for (const [partition, list] of byPartition) {
    let i = 0
    for (const entry of entries.get(partition) ?? []) {
      for (let k = 0; k < entry.recordCount; k++) {
        const record = list[i++]
        if (record === undefined) throw new Error(`the answer for partition ${partition} names more records than sent`)
        record.offset = Number(entry.baseOffset) + k
      }
    }
    if (i !== list.length) throw new Error(`the answer for partition ${partition} names ${i} of ${list.length} records`)
  }
}
