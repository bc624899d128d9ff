/**
 * The fetch loop's scheduling against an in-memory leader whose long polls never answer on their
 * own (as if maxWaitTimeInMs were endless), with the test playing the handler: it decides when
 * each partition's fetched data is processed. In addition to the real-peer test in
 * test/client/fetch-scheduling.test.ts; here the order of events is exact.
 */
import { encodeRecordBatchSync, LeaderNotAvailableError, NotLeaderOrFollowerError } from '@tributary/wire'
import { afterEach, describe, expect, it } from 'vitest'
import type { FetchPartitionResult } from '../../src/broker.ts'
import type { Cluster } from '../../src/cluster/cluster.ts'
import { CONSUMER_EVENTS, type ConsumerEvents } from '../../src/consumer/events.ts'
import { Fetcher, LEADER_MOVED_MAX_BACKOFF_MS } from '../../src/consumer/fetcher.ts'
import { PartitionState } from '../../src/consumer/partition-state.ts'
import { Instrumentation } from '../../src/instrumentation.ts'
import { resolveRetryOptions } from '../../src/retry.ts'
import { testFetchSettings } from './fetch-settings.ts'

const TOPIC = 't'
const CHUNK = 10

interface FetchRequest {
  partitions: Array<{ topic: string; partition: number; fetchOffset: number }>
}

/** One leader holding `ends[p]` records per partition; a fetch answers CHUNK of them per partition. */
class FakeLeader {
  readonly longPolls: FetchRequest[] = []
  readonly leaderCalls: number[] = []

  constructor(readonly ends: number[]) {}

  async fetch(request: FetchRequest, { signal }: { signal?: AbortSignal }): Promise<FetchPartitionResult[]> {
    const results = request.partitions.map(({ partition, fetchOffset }) => {
      const end = this.ends[partition]!
      const count = Math.min(CHUNK, end - fetchOffset)
      const records =
        count <= 0
          ? new Uint8Array(0)
          : encodeRecordBatchSync({
              baseOffset: fetchOffset,
              records: Array.from({ length: count }, () => ({ key: null, value: new Uint8Array(1), headers: [] })),
            })
      return {
        topic: TOPIC,
        partition,
        error: undefined,
        highWatermark: end,
        logStartOffset: 0,
        logEndOffset: end,
        records,
      }
    })
    if (results.some((r) => r.records.length > 0)) return results
    // Nothing to answer with: a long poll that outlasts the test unless aborted.
    this.longPolls.push(request)
    return new Promise((_, reject) => {
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true })
    })
  }

  cluster(): Cluster {
    return {
      leader: async (_topic: string, partition: number) => {
        this.leaderCalls.push(partition)
        return { leader: 'leader-1', broker: this }
      },
      broker: () => this,
      onPartitionError: () => {},
      readReplicaFor: () => undefined,
    } as unknown as Cluster
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

function start(leader: FakeLeader, maxInFlightPerLeader: number) {
  const controller = new AbortController()
  controllers.push(controller)
  const states = leader.ends.map((_, p) => {
    const state = new PartitionState(TOPIC, p)
    state.position = 0
    return state
  })
  const fetcher: Fetcher = new Fetcher({
    cluster: leader.cluster(),
    settings: testFetchSettings(maxInFlightPerLeader),
    retry: resolveRetryOptions({}),
    instrumentation: new Instrumentation<ConsumerEvents>(CONSUMER_EVENTS),
    partitions: () => states.values(),
    onFetched: () => {},
    onFatal: (err) => {
      throw err
    },
    signal: controller.signal,
  })
  void fetcher.run()
  /** The handler: the partition's buffered chunk is done, it may be fetched again. */
  const process = (state: PartitionState): void => {
    const chunk = state.buffered!
    state.buffered = undefined
    state.position = chunk.fetchOffset + CHUNK
    fetcher.wake()
  }
  /** Processes a partition, then lets the loop act on it (it looks up the leader of every fetchable partition). */
  const processAndSettle = async (state: PartitionState): Promise<void> => {
    const looked = leader.leaderCalls.length
    process(state)
    await until(() => leader.leaderCalls.slice(looked).includes(state.partition), 'the loop to see the partition')
    await new Promise((resolve) => setImmediate(resolve))
  }
  return { fetcher, states, process, processAndSettle }
}

describe('client > consumer > fetch scheduling', () => {
  it('fetches a processed partition with data at once, though long polls are outstanding', async () => {
    // p0: one chunk, p1: empty, p2: three chunks.
    const leader = new FakeLeader([CHUNK, 0, 3 * CHUNK])
    const { fetcher, states, processAndSettle } = start(leader, 2)
    const [p0, p1, p2] = states as [PartitionState, PartitionState, PartitionState]
    await until(() => p0.buffered !== undefined && p2.buffered !== undefined, 'the first answer')
    await until(() => leader.longPolls.length === 1, 'a long poll for the empty partition')
    expect(leader.longPolls[0]!.partitions.map((p) => p.partition)).toEqual([1])

    // p0 is caught up now, but p2 still holds data: the last slot is kept for p2.
    await processAndSettle(p0)
    expect(fetcher.fetchesInFlight).toBe(1)
    for (let chunk = 1; chunk < 3; chunk++) {
      await processAndSettle(p2)
      await until(() => p2.buffered?.fetchOffset === chunk * CHUNK, `chunk ${chunk} of p2`)
    }
    await processAndSettle(p2)

    // Everything is caught up and nothing is waiting to be handled: both slots long-poll.
    await until(() => fetcher.fetchesInFlight === 2, 'two long polls')
    expect(leader.longPolls.flatMap((r) => r.partitions.map((p) => `${p.partition}@${p.fetchOffset}`)).sort()).toEqual([
      '0@10',
      '1@0',
      '2@30',
    ])
    expect(p1.fetching && p0.fetching && p2.fetching).toBe(true)
  })

  it('lets another partition long-poll while one is being handled', async () => {
    // p0's handler is stuck; p1 must still be watched for new records.
    const leader = new FakeLeader([CHUNK, 0])
    const { fetcher, states } = start(leader, 2)
    const [p0, p1] = states as [PartitionState, PartitionState]
    await until(() => p0.buffered !== undefined, 'the first answer')
    await until(() => p1.fetching && leader.longPolls.length === 1, 'p1 in a long poll')
    expect(fetcher.fetchesInFlight).toBe(1)
    expect(p0.buffered).toBeDefined()
  })

  it('with one fetch per leader, long-polls in it (Kafka: the processed partition waits for the answer)', async () => {
    const leader = new FakeLeader([CHUNK, 0])
    const { fetcher, states, processAndSettle } = start(leader, 1)
    const [p0, p1] = states as [PartitionState, PartitionState]
    await until(() => p0.buffered !== undefined, 'the first answer')
    await until(() => leader.longPolls.length === 1, 'a long poll for p1 in the only slot')
    expect(leader.longPolls[0]!.partitions.map((p) => p.partition)).toEqual([1])
    await processAndSettle(p0)
    expect(fetcher.fetchesInFlight).toBe(1)
    expect(p0.fetching).toBe(false)
    expect(p1.fetching).toBe(true)
  })
})

/**
 * Partition 0 behind a leadership change: each fetch (to whichever peer the map names) is answered
 * by `answer`, which may fail it. The map starts at 'old' and follows NOT_LEADER hints.
 */
function movingLeader(
  answer: (peer: string, attempt: number) => Error | undefined,
  // Grows tenfold from 10 ms by default: uncapped, the third wait would be 1 s and the fourth 10 s.
  retry = { initialRetryTime: 10, multiplier: 10, maxRetryTime: 60_000, factor: 0.2 },
) {
  const asked: Array<{ peer: string; at: number }> = []
  let leader = 'old'
  const broker = (peer: string) => ({
    fetch: async (request: FetchRequest): Promise<FetchPartitionResult[]> => {
      asked.push({ peer, at: Date.now() })
      const error = answer(peer, asked.length)
      const records =
        error === undefined
          ? encodeRecordBatchSync({ baseOffset: 0, records: [{ key: null, value: new Uint8Array(1), headers: [] }] })
          : new Uint8Array(0)
      return request.partitions.map(({ partition }) => ({
        topic: TOPIC,
        partition,
        error: error as FetchPartitionResult['error'],
        highWatermark: 1,
        logStartOffset: 0,
        logEndOffset: 1,
        records,
      }))
    },
  })
  const cluster = {
    leader: async () => ({ leader, broker: broker(leader) }),
    broker,
    onPartitionError: (_topic: string, _partition: number, err: unknown) => {
      const hint = (err as { leaderHint?: string }).leaderHint
      if (hint !== undefined && hint !== '') leader = hint
    },
    readReplicaFor: () => undefined,
  } as unknown as Cluster
  const controller = new AbortController()
  controllers.push(controller)
  const state = new PartitionState(TOPIC, 0)
  state.position = 0
  const fetcher = new Fetcher({
    cluster,
    settings: testFetchSettings(1),
    retry: resolveRetryOptions(retry),
    instrumentation: new Instrumentation<ConsumerEvents>(CONSUMER_EVENTS),
    partitions: () => [state].values(),
    onFetched: () => {},
    onFatal: (err) => {
      throw err
    },
    signal: controller.signal,
  })
  void fetcher.run()
  return { asked, state }
}

describe('client > consumer > fetch after a leadership change', () => {
  it('asks the leader a NOT_LEADER answer names at once, without a backoff', async () => {
    // A first backoff of a minute: the record arrives within the wait below only if none is taken.
    const { asked, state } = movingLeader(
      (peer) =>
        peer === 'old'
          ? Object.assign(new NotLeaderOrFollowerError('t-0 is led by new, not old'), { leaderHint: 'new' })
          : undefined,
      { initialRetryTime: 60_000, multiplier: 2, maxRetryTime: 60_000, factor: 0 },
    )
    await until(() => state.buffered !== undefined, 'the record from the new leader', 5000)
    expect(asked.map((a) => a.peer)).toEqual(['old', 'new'])
  })

  it('backs off from a second misdirection in a row (two peers naming each other)', async () => {
    // 'old' and 'new' name each other: a ping-pong that must not run without backoffs.
    const { asked, state } = movingLeader((peer, attempt) => {
      if (attempt > 4) return undefined
      const other = peer === 'old' ? 'new' : 'old'
      return Object.assign(new NotLeaderOrFollowerError(`t-0 is led by ${other}`), { leaderHint: other })
    })
    await until(() => state.buffered !== undefined, 'the record after four misdirections')
    const gaps = asked.slice(1).map((a, i) => a.at - asked[i]!.at)
    // The first hint is followed at once; the next ones wait the grown backoff (100 ms, then 1 s capped).
    expect(gaps[1]!).toBeGreaterThanOrEqual(80)
    expect(gaps[2]!).toBeGreaterThanOrEqual(800)
  })

  it('caps the backoff while no leader is known at LEADER_MOVED_MAX_BACKOFF_MS, not the retry options’ growth', async () => {
    const { state } = movingLeader((_peer, attempt) =>
      attempt <= 4 ? new LeaderNotAvailableError('t-0 has no leader yet (election in progress)') : undefined,
    )
    await until(() => state.failures >= 4, 'four answers without a leader', 10_000)
    // After the fourth failure the uncapped wait would be 10 s ± 20%.
    expect(state.backoffUntil - Date.now()).toBeLessThanOrEqual(LEADER_MOVED_MAX_BACKOFF_MS * 1.2 + 5)
    await until(() => state.buffered !== undefined, 'the record once a leader is elected', 10_000)
  })
})
