/**
 * The scenario test's background producer: an idempotent SDK producer sending keyed, numbered
 * records (value = sequence number, key = one of `KEYS` keys) with acks=all at a modest, bounded
 * rate until stopped. Every record's identity is known: which were acknowledged, and when each
 * was handed to `send`.
 */
import type { Producer, Tributary } from '@tributary/client'

const KEYS = 24
const PER_SEND = 6
const PAUSE_MS = 100
/** Bounds the loop even if `stop` is never called (about 10 minutes at this pace). */
const MAX_SENDS = 6_000

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

  constructor(
    client: Tributary,
    private readonly topic: string,
  ) {
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
      const seqs = Array.from({ length: PER_SEND }, (_, i) => this.next + i)
      this.next += PER_SEND
      try {
        await this.producer.send({
          topic: this.topic,
          acks: 'all',
          messages: seqs.map((seq) => ({ key: `key-${seq % KEYS}`, value: String(seq) })),
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
