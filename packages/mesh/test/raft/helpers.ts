/**
 * Helpers for driving one PartitionRaft by hand: the simulation's fake clock, a transport that
 * records every request and lets the test answer it, a quorum store whose saves can be held,
 * and batch builders.
 */
import type { Log } from '@tributary/log'
import { emptyPartitionData, type MemoryPartitionData, openMemoryLog } from '@tributary/log/memory'
import { encodeRecordBatchSync } from '@tributary/wire'
import type { Logger } from '../../src/logger.js'
import {
  MemoryQuorumStateStore,
  PartitionRaft,
  type PersistedQuorumState,
  type RaftConfig,
  type RaftRequestOptions,
  type RaftTransport,
  type ReplicaFetchResponse,
  type ReplicaPlacement,
  type VoteResponse,
} from '../../src/raft/index.js'
import type { SimClock } from './sim-network.js'

export const TEST_CONFIG: Partial<RaftConfig> = {
  electionTimeoutMs: 100,
  fetchTimeoutMs: 200,
  fetchMaxWaitMs: 50,
  requestTimeoutMs: 80,
  retryBackoffMs: 10,
  replicaLagTimeMaxMs: 150,
}

export const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/** Runs the fake clock forward by `ms`, letting every effect of every event settle. */
export async function advance(clock: SimClock, ms: number): Promise<void> {
  const end = clock.now() + ms
  await flush()
  for (let event = clock.next(end); event !== undefined; event = clock.next(end)) {
    event.fn()
    await flush()
  }
  clock.advanceTo(end)
  await flush()
}

export type CallKind = 'vote' | 'beginQuorumEpoch' | 'endQuorumEpoch' | 'fetch' | 'timeoutNow'

export interface Call {
  kind: CallKind
  to: string
  request: Record<string, unknown>
  options: RaftRequestOptions
  resolve: (response: unknown) => void
  reject: (err: unknown) => void
}

/** Records requests; the test answers them (or lets them time out). */
export class ScriptedTransport implements RaftTransport {
  readonly calls: Call[] = []

  private record(kind: CallKind, to: string, request: object, options: RaftRequestOptions): Promise<never> {
    return new Promise((resolve, reject) => {
      this.calls.push({ kind, to, request: { ...request }, options, resolve: resolve as (r: unknown) => void, reject })
    })
  }

  vote = (to: string, request: object, options: RaftRequestOptions) => this.record('vote', to, request, options)
  beginQuorumEpoch = (to: string, request: object, options: RaftRequestOptions) =>
    this.record('beginQuorumEpoch', to, request, options)
  endQuorumEpoch = (to: string, request: object, options: RaftRequestOptions) =>
    this.record('endQuorumEpoch', to, request, options)
  fetch = (to: string, request: object, options: RaftRequestOptions) => this.record('fetch', to, request, options)
  timeoutNow = (to: string, request: object, options: RaftRequestOptions) =>
    this.record('timeoutNow', to, request, options)

  /** Removes and returns the pending calls of one kind (still-open ones only). */
  take(kind: CallKind): Call[] {
    const taken = this.calls.filter((c) => c.kind === kind && !c.options.signal.aborted)
    for (const call of this.calls.filter((c) => c.kind === kind)) this.calls.splice(this.calls.indexOf(call), 1)
    return taken
  }
}

/** The epoch, vote and leader a store holds (without the voter history saved beside them). */
export function persisted(store: MemoryQuorumStateStore): Omit<PersistedQuorumState, 'voterHistory'> | undefined {
  const state = store.peek()
  if (state === undefined) return undefined
  const { voterHistory: _, ...rest } = state
  return rest
}

/** A store whose saves wait until `release()`; `fail` makes the next save reject. */
export class GatedStore extends MemoryQuorumStateStore {
  private gate: Promise<void> | undefined
  private open: (() => void) | undefined
  fail = false

  hold(): void {
    this.gate = new Promise((resolve) => {
      this.open = resolve
    })
  }

  release(): void {
    this.open?.()
    this.gate = undefined
  }

  override async save(state: PersistedQuorumState): Promise<void> {
    if (this.gate !== undefined) await this.gate
    if (this.fail) throw new Error('disk full')
    return super.save(state)
  }
}

export interface ReplicaOptions {
  id: string
  voters: string[]
  observers?: string[]
  clock: SimClock
  transport?: RaftTransport
  store?: MemoryQuorumStateStore
  data?: MemoryPartitionData
  config?: Partial<RaftConfig>
  random?: () => number
  logger?: Logger
  placement?: ReplicaPlacement
}

export interface Replica {
  raft: PartitionRaft
  log: Log
  store: MemoryQuorumStateStore
  data: MemoryPartitionData
  transport: RaftTransport
}

export async function replica(options: ReplicaOptions): Promise<Replica> {
  const data = options.data ?? emptyPartitionData()
  const store = options.store ?? new MemoryQuorumStateStore()
  const transport = options.transport ?? new ScriptedTransport()
  const log = await openMemoryLog({ name: `p@${options.id}`, data, clock: () => options.clock.now() })
  const raft = new PartitionRaft({
    partition: 'p',
    localId: options.id,
    voters: options.voters,
    observers: options.observers,
    log,
    store,
    transport,
    clock: options.clock,
    random: options.random ?? (() => 0),
    logger: options.logger,
    placement: options.placement,
    config: { ...TEST_CONFIG, ...options.config },
  })
  return { raft, log, store, data, transport }
}

/** A granted vote or pre-vote (a pre-vote is answered from the voter's current epoch, one below). */
export function grant(call: Call): VoteResponse {
  const epoch = call.request.candidateEpoch as number
  return {
    errorCode: 0,
    errorMessage: '',
    voteGranted: true,
    leaderEpoch: call.request.preVote === true ? epoch - 1 : epoch,
    leaderId: undefined,
  }
}

/** Starts `raft` and wins its first election by granting every vote request. */
export async function electLeader(clock: SimClock, raft: PartitionRaft, transport: ScriptedTransport): Promise<void> {
  await raft.start()
  for (let i = 0; i < 20 && raft.role !== 'leader'; i++) {
    await advance(clock, 10)
    for (const call of transport.take('vote')) call.resolve(grant(call))
    await flush()
  }
  if (raft.role !== 'leader') throw new Error('not elected')
}

const utf8 = new TextEncoder()

/** One batch of string records, as a producer sends it. */
export function batch(...values: string[]): Uint8Array {
  return encodeRecordBatchSync({ records: values.map((v) => ({ value: utf8.encode(v), timestamp: 1 })) })
}

/** A batch as stored by a leader of `epoch` at `baseOffset` (what a fetch returns). */
export function storedBatch(baseOffset: number, epoch: number, ...values: string[]): Uint8Array {
  return encodeRecordBatchSync({
    baseOffset,
    partitionLeaderEpoch: epoch,
    records: values.map((v) => ({ value: utf8.encode(v), timestamp: 1 })),
  })
}

export function fetchResponse(overrides: Partial<ReplicaFetchResponse>): ReplicaFetchResponse {
  return {
    errorCode: 0,
    errorMessage: '',
    leaderId: 'a',
    leaderEpoch: 1,
    highWatermark: 0,
    logStartOffset: 0,
    records: new Uint8Array(0),
    divergingEpoch: undefined,
    ...overrides,
  }
}
