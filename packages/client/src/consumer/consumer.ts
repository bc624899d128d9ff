/**
 * The consumer: it reads from each partition's leader and hands records to `eachMessage` /
 * `eachBatch`. Without a group it reads every partition of the topics it subscribes to (names or
 * RegExps), or exactly the partitions it is assigned. With `groupId` it is a member of a consumer
 * group: the group's coordinator divides the subscribed topics' partitions among the members,
 * each partition starts at the group's committed offset, and offsets are committed as records
 * are processed (group-consumer.ts).
 *
 * ```ts
 * const consumer = mesh.consumer({ groupId: 'billing' })
 * await consumer.subscribe({ topics: ['orders', /^audit\./], fromBeginning: true })
 * await consumer.run({ eachMessage: async ({ topic, partition, message }) => { … } })
 * await consumer.disconnect() // commits, then leaves the group
 * ```
 *
 * Which partitions are read is decided in one place (`Assignment.sync`), fed by subscriptions,
 * `assign`, or the group's assignments; a partition without a position starts from its reset policy.
 */
import type { Cluster } from '../cluster/cluster.js'
import { ClientClosedError, InvalidArgumentError } from '../errors.js'
import { Instrumentation, type Listener, type RemoveListener } from '../instrumentation.js'
import { createRetrier, type ResolvedRetryOptions, type RetryOptions, resolveRetryOptions } from '../retry.js'
import { Assignment, type Subscription } from './assignment.js'
import { CONSUMER_EVENTS, type ConsumerEvents } from './events.js'
import { Fetcher, type FetchSettings } from './fetcher.js'
import { GroupConsumer } from './group-consumer.js'
import { type GroupOptions, groupSettings } from './group-options.js'
import type { PartitionState, ResetPolicy } from './partition-state.js'
import { type EachBatchPayload, type EachMessagePayload, Runner } from './runner.js'

export interface ConsumerOptions extends GroupOptions {
  /**
   * Longest a fetch waits on the leader for `minBytes`. Default 500 (Kafka's fetch.max.wait.ms;
   * KafkaJS waits 5,000): it also bounds how long a partition that became ready while every fetch
   * slot to its leader was a long poll (after a seek or resume, say) waits for a slot.
   */
  maxWaitTimeInMs?: number
  /** Bytes a fetch waits for before answering. Default 1. */
  minBytes?: number
  /** Most bytes a fetch answer carries (one whole batch may exceed it). Default 10 MiB. */
  maxBytes?: number
  /** Most bytes per partition in one fetch answer. Default 1 MiB. */
  maxBytesPerPartition?: number
  /**
   * Where to go when a position is out of range: 'earliest', 'latest', or 'none' (the consumer
   * stops with OffsetOutOfRangeError). Default: what the subscription's fromBeginning chose.
   */
  autoOffsetReset?: ResetPolicy
  /**
   * Fetches in flight per leader (1 to 4). Default 2. The last free one is kept for partitions with
   * data while any may need it, so a long poll never holds them up; with 1 (Kafka's one fetch per
   * broker), a partition processed while the long poll waits is fetched when it returns.
   */
  maxInFlightFetchesPerPeer?: number
  /** Backoff for failed fetches, and how often a throwing handler is retried before the consumer stops. */
  retry?: RetryOptions
}

export interface SubscribeOptions {
  topics?: Array<string | RegExp>
  topic?: string | RegExp
  /** Start from the oldest record instead of the next one to arrive. Default false. */
  fromBeginning?: boolean
  signal?: AbortSignal
}

export interface RunOptions {
  eachMessage?: (payload: EachMessagePayload) => Promise<void>
  eachBatch?: (payload: EachBatchPayload) => Promise<void>
  /** With eachBatch: the whole batch counts as processed when the handler returns. Default true. */
  eachBatchAutoResolve?: boolean
  /** Partitions handled at once (each still in order). Default 1. */
  partitionsConsumedConcurrently?: number
}

export interface TopicPartitionOffset {
  topic: string
  partition: number
  /** Where to start; absent: the reset policy (latest unless autoOffsetReset says otherwise). */
  offset?: string | number | bigint
}

export interface TopicPartitions {
  topic: string
  /** Absent: every assigned partition of the topic. */
  partitions?: number[]
}

export interface ConsumerContext {
  cluster: Cluster
  /** How often subscriptions are re-resolved (new partitions, new topics matching a RegExp). */
  metadataMaxAge: number
  onClose?: () => void
}

interface Running {
  controller: AbortController
  fetcher: Fetcher
  done: Promise<void>
}

const DEFAULTS = {
  maxWaitTimeInMs: 500,
  minBytes: 1,
  maxBytes: 10 * 1024 * 1024,
  maxBytesPerPartition: 1024 * 1024,
  maxInFlightFetchesPerPeer: 2,
}

export class Consumer {
  private readonly cluster: Cluster
  private readonly settings: FetchSettings
  private readonly resetPolicy: ResetPolicy | undefined
  private readonly retry: ResolvedRetryOptions
  private readonly instrumentation = new Instrumentation<ConsumerEvents>(CONSUMER_EVENTS)
  private readonly assigned: Assignment
  private readonly group: GroupConsumer | undefined
  private running: Running | undefined
  private closed = false

  constructor(
    private readonly context: ConsumerContext,
    options: ConsumerOptions = {},
  ) {
    if (typeof options !== 'object' || options === null)
      throw new InvalidArgumentError('consumer options must be an object')
    this.cluster = context.cluster
    this.assigned = new Assignment(context.cluster)
    const group = groupSettings(options)
    this.group =
      group === undefined ? undefined : new GroupConsumer(context.cluster, this.assigned, this.instrumentation, group)
    this.assigned.grouped = group !== undefined
    const reset = options.autoOffsetReset
    if (reset !== undefined && reset !== 'earliest' && reset !== 'latest' && reset !== 'none') {
      throw new InvalidArgumentError(`autoOffsetReset must be 'earliest', 'latest' or 'none', got ${String(reset)}`)
    }
    this.resetPolicy = reset
    const inFlight = integer(
      options.maxInFlightFetchesPerPeer ?? DEFAULTS.maxInFlightFetchesPerPeer,
      'maxInFlightFetchesPerPeer',
      1,
    )
    if (inFlight > 4) throw new InvalidArgumentError('maxInFlightFetchesPerPeer may be at most 4')
    this.settings = {
      maxWaitTimeInMs: integer(options.maxWaitTimeInMs ?? DEFAULTS.maxWaitTimeInMs, 'maxWaitTimeInMs', 0, 30_000),
      minBytes: integer(options.minBytes ?? DEFAULTS.minBytes, 'minBytes', 0),
      maxBytes: integer(options.maxBytes ?? DEFAULTS.maxBytes, 'maxBytes', 1, 64 * 1024 * 1024),
      maxBytesPerPartition: integer(
        options.maxBytesPerPartition ?? DEFAULTS.maxBytesPerPartition,
        'maxBytesPerPartition',
        1,
      ),
      maxInFlightPerLeader: inFlight,
      autoOffsetReset: reset,
    }
    this.retry = resolveRetryOptions(options.retry)
  }

  /** Checks that a peer answers (KafkaJS code calls it; nothing else needs it). */
  async connect(): Promise<void> {
    this.assertOpen()
    await createRetrier(this.retry)(() => this.cluster.metadata([]))
    this.instrumentation.emit('consumer.connect', () => ({}))
  }

  /** Adds topics (names or RegExps) whose every partition this consumer reads. Named topics must exist. */
  async subscribe(options: SubscribeOptions): Promise<void> {
    this.assertOpen()
    if (this.running !== undefined) throw new InvalidArgumentError('subscribe before run (or stop the consumer first)')
    if (this.assigned.mode === 'assign')
      throw new InvalidArgumentError('this consumer was given partitions with assign; it cannot also subscribe')
    if (this.assigned.mode === 'subscribe' && this.group !== undefined && this.running !== undefined)
      throw new InvalidArgumentError('a group consumer subscribes before run')
    const patterns = options?.topics ?? (options?.topic === undefined ? [] : [options.topic])
    if (!Array.isArray(patterns) || patterns.length === 0) {
      throw new InvalidArgumentError('subscribe takes { topics: [...] } or { topic }, each a topic name or a RegExp')
    }
    for (const p of patterns) {
      if (!(p instanceof RegExp) && (typeof p !== 'string' || p.length === 0)) {
        throw new InvalidArgumentError(`a subscription must be a topic name or a RegExp, got ${String(p)}`)
      }
    }
    const reset = options.fromBeginning === true ? 'earliest' : 'latest'
    const added = patterns.map((pattern) => ({ pattern, reset }) as Subscription)
    // Named topics must exist now: a typo is reported here, not as a consumer that never reads.
    const retrier = createRetrier(this.retry)
    const opts = options.signal === undefined ? {} : { signal: options.signal }
    for (const s of added)
      if (typeof s.pattern === 'string') await retrier(() => this.cluster.topic(s.pattern as string, opts), opts)
    this.assigned.subscribe(added)
    await this.assigned.resolve(options.signal)
  }

  /** Reads exactly these partitions (replacing any earlier assignment), each from its offset or reset policy. */
  assign(partitions: TopicPartitionOffset[]): void {
    this.assertOpen()
    if (this.assigned.mode === 'subscribe')
      throw new InvalidArgumentError('this consumer subscribed to topics; it cannot also assign')
    if (this.group !== undefined)
      throw new InvalidArgumentError('a group consumer is assigned partitions by its group; subscribe instead')
    if (!Array.isArray(partitions))
      throw new InvalidArgumentError('assign takes an array of { topic, partition, offset? }')
    const wanted = partitions.map((p) => {
      if (typeof p?.topic !== 'string' || p.topic === '' || !Number.isInteger(p.partition) || p.partition < 0) {
        throw new InvalidArgumentError(`assign: ${JSON.stringify(p)} is not { topic, partition, offset? }`)
      }
      const offset = p.offset === undefined ? undefined : parseOffset(p.offset)
      if (offset === undefined && this.resetPolicy === 'none') {
        throw new InvalidArgumentError(`no offset given for ${p.topic}-${p.partition} and autoOffsetReset is 'none'`)
      }
      return { topic: p.topic, partition: p.partition, offset }
    })
    this.assigned.mode = 'assign'
    const reset = this.resetPolicy === 'earliest' ? 'earliest' : 'latest'
    this.assigned.sync(wanted.map((w) => ({ topic: w.topic, partition: w.partition, reset })))
    for (const w of wanted)
      if (w.offset !== undefined) this.applySeek(this.assigned.get(w.topic, w.partition)!, w.offset)
    this.running?.fetcher.wake()
  }

  async run(options: RunOptions): Promise<void> {
    this.assertOpen()
    if (this.running !== undefined) throw new InvalidArgumentError('the consumer is already running')
    const { eachMessage, eachBatch } = options ?? {}
    if ((eachMessage === undefined) === (eachBatch === undefined)) {
      throw new InvalidArgumentError('run takes exactly one of eachMessage or eachBatch')
    }
    if (typeof (eachMessage ?? eachBatch) !== 'function')
      throw new InvalidArgumentError('the handler must be a function')
    if (this.assigned.mode === undefined)
      throw new InvalidArgumentError('subscribe to topics or assign partitions before run')
    const concurrency = integer(options.partitionsConsumedConcurrently ?? 1, 'partitionsConsumedConcurrently', 1, 1000)
    const controller = new AbortController()
    const signal = controller.signal
    const fatal = (err: Error): void => {
      if (signal.aborted) return
      this.instrumentation.emit('consumer.crash', () => ({
        error: err,
        groupId: this.group?.settings.groupId,
        restart: false,
      }))
      controller.abort(err)
    }
    const runner: Runner = new Runner({
      handlers: { eachMessage, eachBatch, eachBatchAutoResolve: options.eachBatchAutoResolve ?? true },
      concurrency,
      retry: this.retry,
      instrumentation: this.instrumentation,
      pause: (state) => {
        this.pause([{ topic: state.topic, partitions: [state.partition] }])
        return () => this.resume([{ topic: state.topic, partitions: [state.partition] }])
      },
      onProcessed: () => {
        this.group?.processed()
        fetcher.wake()
      },
      onProgress: () => this.group?.progress(),
      onFatal: fatal,
      signal,
    })
    const fetcher: Fetcher = new Fetcher({
      cluster: this.cluster,
      settings: this.settings,
      retry: this.retry,
      instrumentation: this.instrumentation,
      partitions: () => this.assigned.states.values(),
      onFetched: (state) => runner.enqueue(state),
      onFatal: fatal,
      onTick: async (tickSignal) => {
        if (this.group !== undefined) {
          await this.group.tick(tickSignal, this.context.metadataMaxAge, runner.handlerRunning)
          return
        }
        if (Date.now() - this.assigned.lastResolved >= this.context.metadataMaxAge) {
          await this.assigned.resolve(tickSignal).catch(() => {
            this.assigned.lastResolved = Date.now() // try again next period; current partitions keep being read
          })
        }
      },
      signal,
    })
    const done = Promise.all([fetcher.run(), runner.run()]).then(() => {
      // Fetched but unhandled data is dropped; positions stay, so a new run continues from them.
      for (const state of this.assigned.states.values()) state.buffered = undefined
      if (this.running?.controller === controller) this.running = undefined
    })
    this.running = { controller, fetcher, done }
    if (this.group !== undefined) {
      await this.group.start({ wake: () => fetcher.wake(), fatal }, signal).catch((err: unknown) => fatal(err as Error))
    }
  }

  /** Stops fetching and waits for the handlers in progress to return. The consumer can run again. */
  async stop(): Promise<void> {
    const running = this.running
    if (running === undefined) return
    running.controller.abort(new ClientClosedError('the consumer stopped'))
    await running.done
    // Handlers have returned: their positions are final, so the group commits them and is left.
    await this.group?.stop()
    this.instrumentation.emit('consumer.stop', () => ({}))
  }

  async disconnect(): Promise<void> {
    if (this.closed) return
    await this.stop()
    this.closed = true
    this.context.onClose?.()
    this.instrumentation.emit('consumer.disconnect', () => ({}))
  }

  /** Moves a partition's position: the next record delivered is at `offset` (-2: earliest, -1: latest). */
  seek({ topic, partition, offset }: TopicPartitionOffset & { offset: string | number | bigint }): void {
    this.assertOpen()
    const state = this.assigned.get(topic, partition)
    if (state === undefined) {
      throw new InvalidArgumentError(
        `${topic}-${partition} is not assigned to this consumer (subscribe or assign it first)`,
      )
    }
    this.applySeek(state, parseOffset(offset))
    this.running?.fetcher.wake()
  }

  private applySeek(state: PartitionState, offset: number): void {
    if (offset === -2) state.seek(undefined, 'earliest')
    else if (offset === -1) state.seek(undefined, 'latest')
    else state.seek(offset)
  }

  /**
   * Commits offsets to the consumer's group (each the next offset to read), or, without
   * arguments, every partition's position that moved since its last commit. Needs a running
   * group consumer; throws the first partition's error if the coordinator refused any.
   */
  async commitOffsets(
    offsets?: Array<{ topic: string; partition: number; offset: string | number | bigint }>,
  ): Promise<void> {
    this.assertOpen()
    if (this.group === undefined) throw new InvalidArgumentError('commitOffsets needs a groupId')
    if (offsets !== undefined && !Array.isArray(offsets))
      throw new InvalidArgumentError('commitOffsets takes an array of { topic, partition, offset }')
    const parsed = offsets?.map((o) => {
      if (typeof o?.topic !== 'string' || o.topic === '' || !Number.isInteger(o.partition) || o.partition < 0) {
        throw new InvalidArgumentError(`commitOffsets: ${JSON.stringify(o)} is not { topic, partition, offset }`)
      }
      const offset = parseOffset(o.offset)
      if (offset < 0) throw new InvalidArgumentError(`commitOffsets: offset ${String(o.offset)} is below 0`)
      return { topic: o.topic, partition: o.partition, offset }
    })
    await this.group.commit(parsed)
  }

  pause(topics: TopicPartitions[]): void {
    for (const state of this.assigned.matching(topics, 'pause')) state.paused = true
    this.running?.fetcher.wake()
  }

  resume(topics: TopicPartitions[]): void {
    for (const state of this.assigned.matching(topics, 'resume')) state.paused = false
    this.running?.fetcher.wake()
  }

  /** Paused partitions, by topic. */
  paused(): Array<{ topic: string; partitions: number[] }> {
    return this.assigned.byTopic((s) => s.paused)
  }

  /** Assigned partitions, by topic. */
  assignment(): Array<{ topic: string; partitions: number[] }> {
    return this.assigned.byTopic()
  }

  /** The next offset to be delivered per assigned partition (undefined until known). */
  positions(): Array<{ topic: string; partition: number; offset: string | undefined }> {
    return [...this.assigned.states.values()].map((s) => ({
      topic: s.topic,
      partition: s.partition,
      offset: s.position === undefined ? undefined : String(s.position),
    }))
  }

  on<E extends keyof ConsumerEvents & string>(event: E, listener: Listener<ConsumerEvents[E]>): RemoveListener {
    return this.instrumentation.on(event, listener)
  }

  get events(): Record<string, string> {
    return Object.fromEntries(CONSUMER_EVENTS.map((e) => [e.slice('consumer.'.length).toUpperCase(), e]))
  }

  private assertOpen(): void {
    if (this.closed) throw new ClientClosedError('the consumer is disconnected; create a new one')
  }
}

/** An offset as KafkaJS passes it (a string), or a number or bigint: an integer ≥ -2, safe as a number. */
export function parseOffset(offset: unknown): number {
  let n: number
  if (typeof offset === 'bigint') n = Number(offset)
  else if (typeof offset === 'string' && /^-?\d+$/.test(offset)) n = Number(offset)
  else if (typeof offset === 'number') n = offset
  else throw new InvalidArgumentError(`an offset must be an integer (string, number or bigint), got ${String(offset)}`)
  if (!Number.isSafeInteger(n) || n < -2) {
    throw new InvalidArgumentError(`offset ${String(offset)} is not an integer ≥ 0 (or -2 earliest, -1 latest)`)
  }
  return n
}

function integer(value: unknown, name: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new InvalidArgumentError(`${name} must be an integer in [${min}, ${max}], got ${String(value)}`)
  }
  return value
}
