/**
 * The scenario test's background producer: an idempotent SDK producer sending keyed, numbered
 * records (value = sequence number) with acks=all at a modest, bounded rate until stopped. Every
 * record's identity is known (its key and number), and which were acknowledged. The keys are
 * chosen so that each send puts one record on every partition through the default (Kafka's
 * murmur2) partitioner: every partition gets the same steady traffic.
 */
import { murmur2, type Producer, type Tributary, toPositive } from '@tributary/client'

const KEYS_PER_PARTITION = 4
const PAUSE_MS = 100
/** Bounds the loop even if `stop` is never called (about 10 minutes at this pace). */
const MAX_SENDS = 6_000

/** The partition Kafka's default partitioner gives `key`. */
export function partitionOf(key: string, partitions: number): number {
  return toPositive(murmur2(new TextEncoder().encode(key))) % partitions
}

/** Keys such that key i lands on partition i % partitions, `KEYS_PER_PARTITION` per partition. */
function spreadKeys(partitions: number): string[] {
  const byPartition = Array.from({ length: partitions }, () => [] as string[])
  for (let i = 0; i < 100_000 && byPartition.some((ks) => ks.length < KEYS_PER_PARTITION); i++) {
    const key = `key-${i}`
    const keys = byPartition[partitionOf(key, partitions)]!
    if (keys.length < KEYS_PER_PARTITION) keys.push(key)
  }
  if (byPartition.some((ks) => ks.length < KEYS_PER_PARTITION)) throw new Error('no even spread of keys found')
  return Array.from({ length: partitions * KEYS_PER_PARTITION }, (_, i) => {
    const round = Math.floor(i / partitions)
    return byPartition[i % partitions]![round]!
  })
}

export class BackgroundProducer {
  /** Sequence numbers acknowledged (acks=all). */
  readonly acked = new Set<number>()
  /** Sequence numbers whose send failed after the producer's retries (maybe appended, maybe not). */
  readonly failed = new Set<number>()
  /** Why sends failed (the first 20). */
  readonly errors: string[] = []
  private next = 0
  private stopping = false
  private readonly producer: Producer
  private readonly loop: Promise<void>

  private readonly keys: string[]
  private readonly perSend: number

  constructor(
    client: Tributary,
    private readonly topic: string,
    partitions: number,
  ) {
    this.keys = spreadKeys(partitions)
    this.perSend = partitions
    // Retries ride out a partition leader's peer being killed (a Raft election takes a few seconds).
    this.producer = client.producer({
      idempotent: true,
      retry: { retries: 40, initialRetryTime: 100, maxRetryTime: 1_000 },
    })
    this.loop = this.run()
  }

  /** The sequence number the next send starts with: every record numbered from it is sent after now. */
  get nextSeq(): number {
    return this.next
  }

  async stop(): Promise<void> {
    this.stopping = true
    await this.loop
    await this.producer.disconnect()
  }

  private async run(): Promise<void> {
    for (let sends = 0; sends < MAX_SENDS && !this.stopping; sends++) {
      const seqs = Array.from({ length: this.perSend }, (_, i) => this.next + i)
      this.next += this.perSend
      try {
        await this.producer.send({
          topic: this.topic,
          acks: 'all',
          messages: seqs.map((seq) => ({ key: this.keys[seq % this.keys.length]!, value: String(seq) })),
        })
        for (const seq of seqs) this.acked.add(seq)
      } catch (err) {
        for (const seq of seqs) this.failed.add(seq)
        if (this.errors.length < 20) this.errors.push(err instanceof Error ? err.message : String(err))
      }
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS))
    }
  }
}
