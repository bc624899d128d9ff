/**
 * The consumer's fetch loop (Kafka's Fetcher). Partitions that are ready — a known position, not
 * paused, nothing fetched and unprocessed — are grouped by leader, and each leader gets one fetch
 * for all of its ready partitions, with at most `maxInFlightPerLeader` fetches in flight per
 * leader. Fetched data is handed over whole; the partition is not fetched again until it has been
 * processed, so a slow handler slows fetching and memory stays bounded by partitions ×
 * maxBytesPerPartition.
 *
 * Long polls never hold up data. A fetch whose partitions are all caught up (at the high
 * watermark of their last answer, or not yet asked) waits on the leader for up to
 * `maxWaitTimeInMs`; one that includes a partition known to have data is answered at once. So
 * the last free slot to a leader goes to a long poll only when no other partition of that leader
 * is waiting to be handled or to be fetched with data: otherwise a partition whose data has just
 * been processed could find every slot held by long polls and wait out `maxWaitTimeInMs` while
 * its leader holds more records for it (a 200,000-record read of 6 partitions stalled 4.6 s at a
 * 5 s wait). Kafka's consumer, with one fetch per broker, has that wait; KafkaJS avoids it by
 * fetching again only after every partition of the last answer is processed.
 *
 * Errors: NOT_LEADER and other metadata errors fix the map (see Cluster) and back the partition
 * off; an offset out of range applies the reset policy (`none` stops the consumer with a typed
 * error); other non-retriable errors stop the consumer. A partition whose leader moved is asked
 * again soon: at once when the answer names the new leader (KIP-951), and otherwise after the
 * retry options' backoff capped at `LEADER_MOVED_MAX_BACKOFF_MS`, as Kafka's consumer does.
 */
import {
  LeaderNotAvailableError,
  NotLeaderOrFollowerError,
  OffsetOutOfRangeError,
  type TributaryError,
} from '@tributary/wire'
import type { FetchPartitionResult } from '../broker.js'
import type { Cluster } from '../cluster/cluster.js'
import type { Instrumentation } from '../instrumentation.js'
import { isRetriable, type ResolvedRetryOptions, randomizedRetryTime } from '../retry.js'
import type { ConsumerEvents } from './events.js'
import type { PartitionState, ResetPolicy } from './partition-state.js'

export interface FetchSettings {
  maxWaitTimeInMs: number
  minBytes: number
  maxBytes: number
  maxBytesPerPartition: number
  /** Long polls outstanding per leader. */
  maxInFlightPerLeader: number
  /** Out of range: this policy, or (undefined) the partition's own starting policy. */
  autoOffsetReset: ResetPolicy | undefined
}

export interface FetcherOptions {
  cluster: Cluster
  settings: FetchSettings
  retry: ResolvedRetryOptions
  instrumentation: Instrumentation<ConsumerEvents>
  partitions: () => Iterable<PartitionState>
  /** Fetched data for a partition (its `buffered` is set). */
  onFetched: (state: PartitionState) => void
  /** An error the consumer cannot get past: it stops. */
  onFatal: (err: Error) => void
  /** Called once per loop turn (the consumer re-resolves subscriptions from here). */
  onTick?: (signal: AbortSignal) => Promise<void>
  signal: AbortSignal
}

/** Longest the loop sleeps without a wake-up, so backoffs and ticks are noticed. */
const MAX_IDLE_MS = 1000
/**
 * Longest backoff after an answer saying the partition's leader moved (NOT_LEADER, or no leader
 * yet: a hand-over or an election in progress): Kafka's `retry.backoff.max.ms`. A new leader serves
 * within a round trip or two. With the retry options' growth alone (0.3, 0.6, 1.2, 2.4 s…), a
 * partition asked during a hand-over sat idle for seconds after it: in the groups benchmark,
 * where leaders are balanced about 30 s after the topic is created, 3–4 s for a few partitions.
 */
export const LEADER_MOVED_MAX_BACKOFF_MS = 1000

export class Fetcher {
  private readonly inFlight = new Map<string, number>()
  /** Partitions whose current fetch goes to a read replica rather than their leader. */
  private readonly viaReplica = new WeakSet<PartitionState>()
  private wakeUp: (() => void) | undefined
  private woken = false

  constructor(private readonly options: FetcherOptions) {}

  /** Makes the loop look again (a partition became ready, was paused, resumed, seeked…). */
  wake(): void {
    this.woken = true
    this.wakeUp?.()
  }

  get fetchesInFlight(): number {
    let n = 0
    for (const count of this.inFlight.values()) n += count
    return n
  }

  async run(): Promise<void> {
    const { signal } = this.options
    while (!signal.aborted) {
      this.woken = false
      try {
        await this.options.onTick?.(signal)
        await this.resolvePositions()
        await this.startFetches()
      } catch (err) {
        if (signal.aborted) break
        this.options.onFatal(err as Error)
        break
      }
      await this.idle(this.nextDeadline())
    }
  }

  private nextDeadline(): number {
    const now = Date.now()
    let wait = MAX_IDLE_MS
    for (const state of this.options.partitions()) {
      if (state.backoffUntil > now) wait = Math.min(wait, state.backoffUntil - now)
    }
    return wait
  }

  private idle(ms: number): Promise<void> {
    if (this.woken || this.options.signal.aborted) return Promise.resolve()
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer)
        this.options.signal.removeEventListener('abort', done)
        this.wakeUp = undefined
        resolve()
      }
      const timer = setTimeout(done, ms)
      this.options.signal.addEventListener('abort', done, { once: true })
      this.wakeUp = done
    })
  }

  private backoff(state: PartitionState, maxMs = Number.POSITIVE_INFINITY): void {
    const { retry } = this.options
    const grown = retry.initialRetryTime * retry.multiplier ** Math.min(state.failures, 30)
    const base = Math.min(grown, retry.maxRetryTime, maxMs)
    state.failures++
    state.backoffUntil = Date.now() + randomizedRetryTime(retry.factor, base)
  }

  /**
   * Looks up positions (earliest / latest) of partitions that have none, batched per leader. The
   * lookups run beside the loop (a partition is marked busy meanwhile), so a slow peer holds up
   * only its own partitions.
   */
  private async resolvePositions(): Promise<void> {
    const now = Date.now()
    const byLeader = await this.groupByLeader([...this.options.partitions()].filter((s) => s.needsPosition(now)))
    for (const [leader, states] of byLeader) {
      for (const state of states) state.fetching = true
      void this.lookUp(leader, states).finally(() => {
        for (const state of states) state.fetching = false
        this.wake()
      })
    }
  }

  private async lookUp(leader: string, states: PartitionState[]): Promise<void> {
    const generations = states.map((s) => s.generation)
    try {
      const answers = await this.options.cluster.broker(leader).listOffsets(
        states.map((s) => ({ topic: s.topic, partition: s.partition, timestamp: s.reset === 'earliest' ? -2 : -1 })),
        { signal: this.options.signal },
      )
      states.forEach((state, i) => {
        if (state.generation !== generations[i] || state.removed) return
        const answer = answers.find((a) => a.topic === state.topic && a.partition === state.partition)
        if (answer === undefined || answer.error !== undefined) {
          this.partitionFailed(state, answer?.error ?? new Error(`no offsets answer for ${state.name}`))
        } else {
          state.position = answer.offset
          state.failures = 0
        }
      })
    } catch (err) {
      if (this.options.signal.aborted) return
      states.forEach((state, i) => {
        if (state.generation === generations[i] && !state.removed) this.partitionFailed(state, err)
      })
    }
  }

  /**
   * Groups partitions by the peer to read them from: their leader, or a preferred read replica
   * (a browser peer's own replica). Partitions whose leader is unknown back off (the map refreshes).
   */
  private async groupByLeader(states: PartitionState[]): Promise<Map<string, PartitionState[]>> {
    const byLeader = new Map<string, PartitionState[]>()
    for (const state of states) {
      try {
        const { cluster, signal } = this.options
        const replica =
          state.position === undefined
            ? undefined
            : await cluster.readReplicaFor(state.topic, state.partition, state.position, { signal })
        const leader = replica ?? (await cluster.leader(state.topic, state.partition, { signal })).leader
        if (replica === undefined) this.viaReplica.delete(state)
        else this.viaReplica.add(state)
        const group = byLeader.get(leader)
        if (group === undefined) byLeader.set(leader, [state])
        else group.push(state)
      } catch (err) {
        if (this.options.signal.aborted) throw err
        this.partitionFailed(state, err)
      }
    }
    return byLeader
  }

  private async startFetches(): Promise<void> {
    const now = Date.now()
    const partitions = [...this.options.partitions()]
    const byLeader = await this.groupByLeader(partitions.filter((s) => s.fetchable(now)))
    const max = this.options.settings.maxInFlightPerLeader
    const awaitingData = new Set<string | undefined>()
    for (const s of partitions) if (s.pendingData) awaitingData.add(s.leader)
    for (const [leader, states] of byLeader) {
      const running = this.inFlight.get(leader) ?? 0
      if (running >= max) continue
      // A long poll in the last slot only when nothing else of this leader may need the slot soon.
      if (running === max - 1 && max > 1 && awaitingData.has(leader) && !states.some((s) => s.hasData)) continue
      this.inFlight.set(leader, running + 1)
      for (const state of states) {
        state.fetching = true
        state.leader = leader
      }
      void this.fetch(leader, states).finally(() => {
        const left = (this.inFlight.get(leader) ?? 1) - 1
        if (left === 0) this.inFlight.delete(leader)
        else this.inFlight.set(leader, left)
        for (const state of states) state.fetching = false
        this.wake()
      })
    }
  }

  private async fetch(leader: string, states: PartitionState[]): Promise<void> {
    const { settings, instrumentation, cluster, signal } = this.options
    const asked = states.map((s) => ({
      state: s,
      generation: s.generation,
      fetchOffset: s.position!,
      fromReplica: this.viaReplica.has(s),
    }))
    const partitions = asked.map((a) => ({
      topic: a.state.topic,
      partition: a.state.partition,
      fetchOffset: a.fetchOffset,
      partitionMaxBytes: settings.maxBytesPerPartition,
    }))
    instrumentation.emit('consumer.fetch_start', () => ({
      leader,
      partitions: partitions.map(({ topic, partition, fetchOffset }) => ({ topic, partition, fetchOffset })),
    }))
    const started = Date.now()
    let results: FetchPartitionResult[] = []
    let failure: unknown
    try {
      results = await cluster
        .broker(leader)
        .fetch(
          { maxWaitMs: settings.maxWaitTimeInMs, minBytes: settings.minBytes, maxBytes: settings.maxBytes, partitions },
          { signal },
        )
    } catch (err) {
      failure = err
    }
    if (signal.aborted) return
    let batches = 0
    let bytes = 0
    for (const { state, generation, fetchOffset, fromReplica } of asked) {
      if (state.generation !== generation || state.removed) continue
      const result = results.find((r) => r.topic === state.topic && r.partition === state.partition)
      const error =
        failure ??
        result?.error ??
        (result === undefined ? new Error(`the leader did not answer for ${state.name}`) : undefined)
      if (error !== undefined) {
        // A replica that cannot serve the offset (out of its range, gone, not replicating any more)
        // is set aside and the leader asked next, at the same position: no reset, nothing skipped.
        if (fromReplica) cluster.readReplicaFailed(state.topic, state.partition, leader)
        else this.fetchFailed(state, error, result, leader)
        continue
      }
      state.failures = 0
      state.highWatermark = result!.highWatermark
      if (result!.records.length === 0) continue
      batches++
      bytes += result!.records.length
      state.buffered = {
        records: result!.records,
        fetchOffset,
        highWatermark: result!.highWatermark,
        logStartOffset: result!.logStartOffset,
      }
      this.options.onFetched(state)
    }
    instrumentation.emit('consumer.fetch', () => ({
      leader,
      numberOfBatches: batches,
      bytes,
      durationMs: Date.now() - started,
      bufferedPartitions: [...this.options.partitions()].filter((s) => s.buffered !== undefined || s.processing).length,
      fetchesInFlight: this.fetchesInFlight,
      error: failure instanceof Error ? failure : undefined,
    }))
  }

  private fetchFailed(
    state: PartitionState,
    error: unknown,
    result: FetchPartitionResult | undefined,
    asked: string,
  ): void {
    if (error instanceof OffsetOutOfRangeError) {
      const policy = this.options.settings.autoOffsetReset ?? state.reset
      if (policy === 'none') {
        const range =
          result !== undefined && result.logStartOffset >= 0
            ? ` (the log holds [${result.logStartOffset}, ${result.logEndOffset}))`
            : ''
        this.options.onFatal(
          new OffsetOutOfRangeError(
            `offset ${state.position} of ${state.name} is out of range${range} and autoOffsetReset is 'none'; seek to a valid offset`,
            { cause: error },
          ),
        )
        return
      }
      state.seek(undefined, policy)
      return
    }
    this.partitionFailed(state, error, asked)
  }

  /**
   * A retriable failure backs the partition off (and fixes the map); any other stops the consumer.
   * `asked`: the peer whose answer this was, if it answered.
   */
  private partitionFailed(state: PartitionState, error: unknown, asked?: string): void {
    this.options.cluster.onPartitionError(state.topic, state.partition, error)
    if (isRetriable(error)) {
      const hint = error instanceof NotLeaderOrFollowerError ? (error as { leaderHint?: string }).leaderHint : undefined
      if (hint !== undefined && hint !== '' && hint !== asked && state.failures === 0) {
        // The answer names another leader, which the map now holds: ask it at once, once.
        state.failures++
        state.backoffUntil = 0
        return
      }
      const leaderMoved = error instanceof NotLeaderOrFollowerError || error instanceof LeaderNotAvailableError
      this.backoff(state, leaderMoved ? LEADER_MOVED_MAX_BACKOFF_MS : undefined)
      return
    }
    const err = error instanceof Error ? error : new Error(String(error))
    if (!err.message.includes(state.name)) {
      ;(err as TributaryError).message = `${state.name}: ${err.message}`
    }
    this.options.onFatal(err)
  }
}
