/**
 * The `send`s waiting for their records' acknowledgements, by record id. A send registers its
 * ids while the store assigns them (before anyone can read the records), so no delivery can
 * slip past it; it resolves with one RecordMetadata per batch its records went into, or rejects
 * with the first failure of any of them.
 */
import { type ProduceResult, recordOffset } from '../broker.js'
import type { RecordMetadata } from '../producer/producer.js'
import type { SealedBatch, StoredRecord } from './store.js'

export interface SendWaiter {
  topic: string
  ids: number[]
  left: number
  delivered: Map<SealedBatch, { first: number; count: number; result: ProduceResult }>
  resolve(metadata: RecordMetadata[]): void
  reject(err: unknown): void
}

export class SendWaiters {
  private readonly byId = new Map<number, SendWaiter>()

  /** A waiter and the promise it settles (a rejection nobody awaits is not reported). */
  create(): { waiter: SendWaiter; done: Promise<RecordMetadata[]> } {
    let waiter: SendWaiter | undefined
    const done = new Promise<RecordMetadata[]>((resolve, reject) => {
      waiter = { topic: '', ids: [], left: 0, delivered: new Map(), resolve, reject }
    })
    done.catch(() => {})
    return { waiter: waiter!, done }
  }

  register(waiter: SendWaiter, topic: string, ids: number[]): void {
    waiter.topic = topic
    waiter.ids = ids
    waiter.left = ids.length
    for (const id of ids) this.byId.set(id, waiter)
  }

  drop(waiter: SendWaiter, err: unknown): void {
    for (const id of waiter.ids) if (this.byId.get(id) === waiter) this.byId.delete(id)
    waiter.reject(err)
  }

  dropAll(err: unknown): void {
    for (const waiter of new Set(this.byId.values())) this.drop(waiter, err)
  }

  delivered(batch: SealedBatch, result: ProduceResult): void {
    batch.records.forEach((record, index) => {
      const waiter = this.byId.get(record.id)
      if (waiter === undefined) return
      this.byId.delete(record.id)
      const entry = waiter.delivered.get(batch)
      if (entry === undefined) waiter.delivered.set(batch, { first: index, count: 1, result })
      else entry.count++
      if (--waiter.left === 0) waiter.resolve(metadataOf(waiter))
    })
  }

  failed(records: readonly StoredRecord[], error: Error): void {
    for (const record of records) {
      const waiter = this.byId.get(record.id)
      if (waiter !== undefined) this.drop(waiter, error)
    }
  }
}

function metadataOf(waiter: SendWaiter): RecordMetadata[] {
  return [...waiter.delivered].map(([batch, { first, count, result }]) => ({
    topicName: waiter.topic,
    partition: batch.partition,
    errorCode: 0,
    baseOffset: String(recordOffset(result, first)),
    recordCount: count,
    logAppendTime: String(result.logAppendTime),
    logStartOffset: String(result.logStartOffset),
  }))
}
