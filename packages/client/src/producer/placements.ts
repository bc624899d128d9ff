/**
 * Where one send's records went, so the send can resolve with the offsets of its own records:
 * per batch, the index of its first record there and how many followed.
 */
import type { ProducerBatch } from './accumulator.js'
import type { RecordMetadata } from './producer.js'

/** A send's records in one batch: from index `first` of the batch, `count` of them. */
interface Group {
  batch: ProducerBatch
  first: number
  count: number
}

/**
 * Where one send's records of a topic went: per batch, the index in it of the send's first record
 * and how many followed. A send's records are appended in one synchronous stretch, so those in
 * one batch are contiguous there even when records for other partitions came between them.
 */
export class Placements {
  private readonly groups: Group[] = []
  private last: Group | undefined
  /** Made once a send spans many batches; until then a look back over `groups` is cheaper. */
  private byBatch: Map<ProducerBatch, Group> | undefined

  constructor(private readonly topic: string) {}

  add(batch: ProducerBatch, index: number): void {
    if (this.last?.batch === batch) {
      this.last.count++
      return
    }
    let group = this.byBatch?.get(batch) ?? (this.byBatch === undefined ? this.find(batch) : undefined)
    if (group === undefined) {
      group = { batch, first: index, count: 1 }
      this.groups.push(group)
      this.byBatch?.set(batch, group)
      if (this.byBatch === undefined && this.groups.length > 8)
        this.byBatch = new Map(this.groups.map((g) => [g.batch, g]))
    } else group.count++
    this.last = group
  }

  private find(batch: ProducerBatch): Group | undefined {
    for (const g of this.groups) if (g.batch === batch) return g
    return undefined
  }

  /** Waits for each batch's acknowledgement; one entry per batch, in the order the send first used it. */
  metadata(): Promise<RecordMetadata[]> {
    return Promise.all(
      this.groups.map(async ({ batch, first, count }) => {
        const result = await batch.promise
        return {
          topicName: this.topic,
          partition: batch.partition,
          errorCode: 0,
          baseOffset: String(result.offsetOf(first)),
          recordCount: count,
          logAppendTime: String(result.logAppendTime),
          logStartOffset: String(result.logStartOffset),
        }
      }),
    )
  }
}
