/**
 * A test producer for one partition: sends batches of unique, sequence-numbered values one
 * at a time, follows leadership (leader hints, then metadata), and retries a failed batch
 * until it is acknowledged. Its ledger is what the log is checked against afterwards:
 * - acknowledged: the produce of the value's batch resolved (acks=all: committed);
 * - ambiguous: some attempt failed in a way that may have appended it anyway (a lost
 *   acknowledgement, a timeout, leadership lost while waiting for the commit). With no
 *   idempotent producer yet, only these values may appear more than once.
 */

import type { Acks } from '@tributary/client'
import { encodeRecordBatchSync, LeaderNotAvailableError, NotLeaderOrFollowerError } from '@tributary/wire'
import type { Cluster } from './cluster.ts'

const enc = new TextEncoder()
/** Longest a single batch may take to be acknowledged: longer means the partition was unavailable. */
const BATCH_DEADLINE_MS = 30_000
const RETRY_BACKOFF_MS = 100
const PRODUCE_TIMEOUT_MS = 4000
const MAX_RUN_MS = 180_000

export interface Ack {
  values: string[]
  /** The peer that acknowledged it. */
  leader: string
  at: number
}

export class PartitionProducer {
  readonly acked: Ack[] = []
  readonly ambiguous = new Set<string>()
  /** Values sent at least once (acknowledged or not). */
  readonly sent = new Set<string>()
  attempts = 0
  failures = 0
  /** Times the acknowledging peer differed from the previous acknowledgement's. */
  leaderChanges = 0
  private leader: string | undefined
  private seq = 0
  private stopped = false
  private running: Promise<void> | undefined
  /** Why the loop ended early: a batch not acknowledged in time, or a non-retriable error. */
  error: unknown

  constructor(
    private readonly cluster: Cluster,
    readonly topic: string,
    readonly partition: number,
    private readonly options: { acks?: Acks; recordsPerBatch?: number; pauseMs?: number } = {},
  ) {}

  /** Produces batch after batch until `stop()` or a batch fails for good (`error`). */
  start(): void {
    this.running = (async () => {
      // Bounded even if nobody calls stop(): a test's whole run is far shorter than this.
      const until = Date.now() + MAX_RUN_MS
      while (!this.stopped && Date.now() < until) {
        await this.sendNext()
        if (this.options.pauseMs) await sleep(this.options.pauseMs)
      }
    })().catch((err: unknown) => {
      this.error = err
    })
  }

  /** Ends the loop after the batch in flight (which may end unacknowledged); rethrows its failure. */
  async stop(): Promise<void> {
    this.stopped = true
    await this.running
    if (this.error !== undefined) throw this.error
  }

  /** Sends the next batch and resolves once it is acknowledged. */
  async sendNext(): Promise<Ack | undefined> {
    const n = this.options.recordsPerBatch ?? 3
    const seq = this.seq++
    const values = Array.from({ length: n }, (_, i) => `${this.topic}/${this.partition}/${seq}.${i}`)
    return this.send(values)
  }

  ackedValues(): string[] {
    return this.acked.flatMap((a) => a.values)
  }

  lastAck(): Ack | undefined {
    return this.acked.at(-1)
  }

  private async send(values: string[]): Promise<Ack | undefined> {
    for (const v of values) this.sent.add(v)
    const deadline = Date.now() + BATCH_DEADLINE_MS
    while (Date.now() < deadline) {
      // A stopped loop still finishes an ambiguous batch if it can, but does not wait forever for it.
      if (this.stopped && this.ambiguousAll(values)) return undefined
      const target = this.leader ?? (await this.findLeader())
      if (target === undefined) {
        await sleep(RETRY_BACKOFF_MS)
        continue
      }
      this.attempts++
      try {
        await this.cluster.broker(target).produce({
          topic: this.topic,
          partition: this.partition,
          acks: this.options.acks ?? -1,
          timeoutMs: PRODUCE_TIMEOUT_MS,
          records: encodeRecordBatchSync({
            records: values.map((v) => ({ key: null, value: enc.encode(v), timestamp: Date.now() })),
          }),
        })
        const previous = this.lastAck()
        if (previous !== undefined && previous.leader !== target) this.leaderChanges++
        const ack = { values, leader: target, at: Date.now() }
        this.acked.push(ack)
        return ack
      } catch (err) {
        this.failures++
        if (!(err as { retriable?: boolean }).retriable) throw err
        if (!surelyNotAppended(err)) for (const v of values) this.ambiguous.add(v)
        const hint = (err as { leaderHint?: string }).leaderHint
        this.leader = hint !== undefined && hint !== '' && hint !== target ? hint : undefined
        await sleep(RETRY_BACKOFF_MS)
      }
    }
    throw new Error(`${this.topic}-${this.partition}: a batch was not acknowledged within ${BATCH_DEADLINE_MS} ms`)
  }

  private ambiguousAll(values: string[]): boolean {
    return values.every((v) => this.ambiguous.has(v))
  }

  private async findLeader(): Promise<string | undefined> {
    const p = (await this.cluster.partitions(this.topic)).find((q) => q.partition === this.partition)
    const leader = p?.leader
    this.leader = leader !== undefined && leader !== '' && this.cluster.isLive(leader) ? leader : undefined
    return this.leader
  }
}

/**
 * Failures that prove the batch was not appended: the peer was never reached, or it refused
 * before appending because it does not lead (the partition lookup's answers). Anything else
 * — a timeout, a reset stream, leadership lost while waiting for the commit — may follow an
 * append.
 */
function surelyNotAppended(err: unknown): boolean {
  const e = err as Error
  if (e.name === 'PeerUnreachableError') return true
  if (e instanceof LeaderNotAvailableError) return true
  return e instanceof NotLeaderOrFollowerError && / is led by /.test(e.message)
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
