/**
 * The fetch loop with a nearby read replica (KIP-392): records come from the replica while it
 * can serve them, and when it cannot — its answer is out of range, or its connection is lost —
 * the next fetch goes to the leader at the same position: no reset, no gap, no record twice.
 * In-memory peers; the choice is the real ReadReplicas.
 */
import { encodeRecordBatchSync, iterateBatches, NetworkError, OffsetOutOfRangeError } from '@tributary/wire'
import { afterEach, describe, expect, it } from 'vitest'
import type { FetchPartitionResult } from '../../src/broker.ts'
import type { Cluster } from '../../src/cluster/cluster.ts'
import { ReadReplicas } from '../../src/cluster/read-replicas.ts'
import { CONSUMER_EVENTS, type ConsumerEvents } from '../../src/consumer/events.ts'
import { Fetcher } from '../../src/consumer/fetcher.ts'
import { PartitionState } from '../../src/consumer/partition-state.ts'
import { Instrumentation } from '../../src/instrumentation.ts'
import { resolveRetryOptions } from '../../src/retry.ts'
import { testFetchSettings } from './fetch-settings.ts'

const TOPIC = 't'
const CHUNK = 10
const END = 100

interface FetchRequest {
  partitions: Array<{ topic: string; partition: number; fetchOffset: number }>
}

/** A peer holding records [0, highWatermark) of partition 0, one per offset, CHUNK per answer. */
class FakePeer {
  readonly served: number[] = []
  /** Answer offsets at or past this with OFFSET_OUT_OF_RANGE (a replica asked beyond what it holds). */
  outOfRangeFrom = Number.POSITIVE_INFINITY
  /** Fail the whole fetch at or past this offset, as a lost connection does. */
  disconnectAt = Number.POSITIVE_INFINITY

  constructor(readonly highWatermark: number) {}

  async fetch(request: FetchRequest, { signal }: { signal?: AbortSignal }): Promise<FetchPartitionResult[]> {
    const { fetchOffset } = request.partitions[0]!
    if (fetchOffset >= this.disconnectAt) throw new NetworkError('the connection closed')
    const base = { topic: TOPIC, partition: 0, highWatermark: this.highWatermark, logStartOffset: 0 }
    if (fetchOffset >= this.outOfRangeFrom) {
      const error = new OffsetOutOfRangeError(`offset ${fetchOffset} is out of range`)
      return [{ ...base, error, logEndOffset: this.highWatermark, records: new Uint8Array(0) }]
    }
    const count = Math.min(CHUNK, this.highWatermark - fetchOffset)
    if (count <= 0) {
      // Caught up: a long poll that lasts until the consumer stops.
      return new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true }))
    }
    this.served.push(fetchOffset)
    const records = encodeRecordBatchSync({
      baseOffset: fetchOffset,
      records: Array.from({ length: count }, () => ({ key: null, value: new Uint8Array(1), headers: [] })),
    })
    return [{ ...base, error: undefined, logEndOffset: this.highWatermark, records }]
  }
}

const controllers: AbortController[] = []
afterEach(() => {
  for (const c of controllers.splice(0)) c.abort()
})

async function until(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

/** A consumer of partition 0 from offset 0 that reads `near` when the choice says so; returns the offsets it handled. */
function consume(leader: FakePeer, near: FakePeer, connected: { near: boolean }) {
  const controller = new AbortController()
  controllers.push(controller)
  const replicas = new ReadReplicas({
    readFrom: 'nearby',
    selfPeerId: 'self',
    connectedDirectly: (peerId) => peerId === 'near' && connected.near,
    // The leader reports the observer caught up to its own log end.
    leaderViews: async () => [
      {
        partition: 0,
        leader: 'leader',
        replicaStates: [{ peerId: 'near', voter: false, logEndOffset: END, caughtUpMsAgo: 0 }],
      },
    ],
    avoidMs: 60_000,
  })
  const peers: Record<string, FakePeer> = { leader, near }
  const listOffsets: string[] = []
  const cluster = {
    leader: async () => ({ leader: 'leader', broker: leader }),
    broker: (peerId: string) => ({
      fetch: peers[peerId]!.fetch.bind(peers[peerId]),
      listOffsets: async () => {
        listOffsets.push(peerId)
        throw new Error('no offset reset was expected')
      },
    }),
    onPartitionError: () => {},
    readReplicaFor: (topic: string, partition: number, offset: number) => replicas.choose(topic, partition, offset),
    readReplicaFailed: (topic: string, partition: number, peerId: string) => replicas.failed(topic, partition, peerId),
  } as unknown as Cluster
  const state = new PartitionState(TOPIC, 0)
  state.position = 0
  const handled: number[] = []
  const fatal: Error[] = []
  const fetcher: Fetcher = new Fetcher({
    cluster,
    settings: testFetchSettings(1),
    retry: resolveRetryOptions({}),
    instrumentation: new Instrumentation<ConsumerEvents>(CONSUMER_EVENTS),
    partitions: () => [state].values(),
    // The handler, at once: every record of the chunk, then the position moves past it.
    onFetched: (s) => {
      const chunk = s.buffered!
      let next = chunk.fetchOffset
      for (const { header } of iterateBatches(chunk.records)) {
        for (let i = 0; i <= header.lastOffsetDelta; i++) handled.push(header.baseOffset + i)
        next = header.baseOffset + header.lastOffsetDelta + 1
      }
      s.buffered = undefined
      s.position = next
      fetcher.wake()
    },
    onFatal: (err) => fatal.push(err),
    signal: controller.signal,
  })
  void fetcher.run()
  return { handled, fatal, listOffsets }
}

const everyOffset = Array.from({ length: END }, (_, i) => i)

describe('client > consumer > reading a nearby replica', () => {
  it('reads the replica, then the leader from where the replica answered out of range', async () => {
    const leader = new FakePeer(END)
    const near = new FakePeer(END)
    near.outOfRangeFrom = 40
    const { handled, fatal, listOffsets } = consume(leader, near, { near: true })
    await until(() => handled.length >= END, 'every record')
    expect(handled).toEqual(everyOffset)
    // The first fetch waits for the leader's view of its replicas, so the replica serves from the start.
    expect(near.served).toEqual([0, 10, 20, 30])
    expect(leader.served).toEqual([40, 50, 60, 70, 80, 90])
    expect(fatal).toEqual([])
    expect(listOffsets).toEqual([])
  })

  it('falls back to the leader at the same position when the replica’s connection is lost', async () => {
    const leader = new FakePeer(END)
    const near = new FakePeer(END)
    const connected = { near: true }
    near.disconnectAt = 60
    const { handled, fatal, listOffsets } = consume(leader, near, connected)
    await until(() => handled.length >= 60, 'the records before the loss')
    connected.near = false
    await until(() => handled.length >= END, 'every record')
    expect(handled).toEqual(everyOffset)
    expect(near.served).toEqual([0, 10, 20, 30, 40, 50])
    expect(leader.served).toEqual([60, 70, 80, 90])
    expect(fatal).toEqual([])
    expect(listOffsets).toEqual([])
  })

  it('never reads a replica it has no direct connection to', async () => {
    const leader = new FakePeer(END)
    const near = new FakePeer(END)
    const { handled } = consume(leader, near, { near: false })
    await until(() => handled.length >= END, 'every record')
    expect(handled).toEqual(everyOffset)
    expect(near.served).toEqual([])
  })
})
