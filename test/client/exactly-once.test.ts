/**
 * Exactly once under retries, against real peer processes (`tributary peer start` on loopback,
 * three of them, every partition a Raft group of all three). An idempotent producer (acks=all)
 * writes keyed records from several writers while a fault hook between the SDK and its libp2p
 * node loses every 7th produce acknowledgement — the leader appended and committed the batch,
 * the producer sees a dead stream and sends the same bytes again. In the second scenario the
 * leader of a partition being written is also SIGKILLed mid-stream, twice: the first killed peer
 * is restarted on its data dir and catches up before the second kill; the second stays dead, and
 * the topic is read back from the new leaders.
 *
 * Then the whole topic is read back with the SDK consumer: every acknowledged record exactly
 * once, at the offset its acknowledgement named, each key's records in send order; a record
 * whose send failed at most once; nothing else. A producer without retries makes sends fail
 * for good on lost answers (their records are in the log, once, and the producer goes on under
 * a fresh producer id), and a control run without idempotence shows that the hook really makes
 * the producer re-append (it must find duplicates there).
 */
import { cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Producer, Tributary } from '@tributary/client'
import { createMeshNode, type MeshNode } from '@tributary/mesh/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { health, stopAll, waitFor } from '../helpers/peer-process.ts'
import { Cluster } from '../replication/cluster.ts'
import { AckDropper } from './ack-dropper.ts'
import { judge, readBack } from './exactly-once-check.ts'
import { KeyedWriters, type SentRecord } from './keyed-writers.ts'

const PARTITIONS = 4
/** Keys spread over every partition by murmur2 (checked below). */
const KEYS = Array.from({ length: 16 }, (_, i) => `key-${String(i).padStart(2, '0')}`)
const DROP_EVERY = 7
const ACKS_WAIT_MS = 5000
/** Generous enough to ride out a failover (≈ 11 s of backoff in all), bounded so a stuck send fails the test. */
const RETRY = { retries: 15, initialRetryTime: 50, maxRetryTime: 1000 }

/** Three peer processes for one describe block, and the clients its tests made. */
interface Session {
  cluster: Cluster
  clients: Tributary[]
}

/** Starts three peer processes (own temp dir, port 0) before the block's tests and kills every one after. */
function usePeerProcesses(): () => Session {
  let root: string | undefined
  let node: MeshNode | undefined
  let session: Session | undefined
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'tributary-exactly-once-'))
    node = await createMeshNode({ tcpPort: 0, wsPort: false })
    const cluster = await Cluster.start(node, root, 3)
    session = { cluster, clients: [] }
    for (const id of cluster.ids) {
      await waitFor(async () => (await health(cluster.peer(id))).peers === 3, `${id} to see 3 peers`)
    }
  }, 60_000)
  afterEach(async (ctx) => {
    if (session === undefined) return
    await Promise.allSettled(session.clients.splice(0).map((c) => c.disconnect()))
    if (ctx.task.result?.state === 'fail') {
      // The evidence: every peer process's JSON log (debug level), killed ones included.
      const dir = join(tmpdir(), `tributary-exactly-once-fail-${Date.now()}`)
      await cp(session.cluster.logDir, dir, { recursive: true })
      console.error(`peer logs of "${ctx.task.name}": ${dir}`)
    }
  })
  afterAll(async () => {
    session?.cluster.close()
    await node?.stop()
    // Every peer process this file started, killed or not (the helper tracks them all).
    await stopAll('SIGKILL')
    if (root !== undefined) await rm(root, { recursive: true, force: true })
    session = undefined
  })
  return () => {
    if (session === undefined) throw new Error('the peer processes did not start')
    return session
  }
}

async function connect(session: Session, dropper: AckDropper): Promise<Tributary> {
  const c = session.cluster
  const client = await dropper.connect({
    bootstrap: c.ids.map((id) => c.peer(id).address),
    requestTimeout: 5000,
    retry: RETRY,
  })
  session.clients.push(client)
  return client
}

async function createTopic(session: Session, client: Tributary, topic: string): Promise<void> {
  await client.admin().createTopics({ topics: [{ topic, numPartitions: PARTITIONS, replicationFactor: 3 }] })
  await session.cluster.waitLeadersInSync(topic, PARTITIONS)
}

/** One acknowledged record at the end of each partition: reading up to it means reading everything before. */
async function sendSentinels(producer: Producer, topic: string): Promise<SentRecord[]> {
  const sentinels: SentRecord[] = []
  for (let partition = 0; partition < PARTITIONS; partition++) {
    const value = `end-of-${topic}-${partition}`
    const [meta] = await producer.send({
      topic,
      acks: 'all',
      timeout: ACKS_WAIT_MS,
      messages: [{ key: 'sentinel', value, partition }],
    })
    sentinels.push({ key: 'sentinel', value, partition, offset: Number(meta!.baseOffset), error: undefined })
  }
  return sentinels
}

function until(sentinels: SentRecord[]): Map<number, number> {
  return new Map(sentinels.map((s) => [s.partition, s.offset!]))
}

async function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms)
  })
  try {
    return await Promise.race([promise, deadline])
  } finally {
    clearTimeout(timer)
  }
}

/** Counts the produce attempts that failed and were tried again. */
function countRetries(producer: Producer): { retried: number } {
  const counter = { retried: 0 }
  producer.on('producer.request', (event) => {
    if (event.payload.error !== undefined) counter.retried++
  })
  return counter
}

const NO_VIOLATIONS = {
  duplicates: [],
  notSent: [],
  lostAcknowledged: [],
  misplaced: [],
  deliveryOrder: [],
  keyOrder: [],
}

function keyedWriters(producer: Producer, topic: string): KeyedWriters {
  return new KeyedWriters({
    producer,
    topic,
    partitions: PARTITIONS,
    keys: KEYS,
    writers: 4,
    perSend: 20,
    timeoutMs: ACKS_WAIT_MS,
  })
}

describe('client > exactly once under retries > lost acknowledgements (peer processes)', () => {
  const session = usePeerProcesses()

  it('appends every record once, in order, while every 7th acknowledgement is lost', async () => {
    const topic = 'eos-lost-acks'
    const dropper = new AckDropper({ every: DROP_EVERY, limit: 200 })
    const client = await connect(session(), dropper)
    await createTopic(session(), client, topic)
    expect(new Set(KEYS.map((k) => KeyedWriters.partitionOf(k, PARTITIONS))).size).toBe(PARTITIONS)

    const producer = client.producer({ idempotent: true })
    const attempts = countRetries(producer)
    const writers = keyedWriters(producer, topic)
    await writers.write(5000)
    // Lost answers are retried, never given up on, and each drop cost at least one retry.
    expect(writers.failed).toBe(0)
    expect(writers.acked).toBe(5000)
    expect(dropper.dropped).toBeGreaterThanOrEqual(10)
    expect(attempts.retried).toBeGreaterThanOrEqual(dropper.dropped)

    const sentinels = await sendSentinels(producer, topic)
    dropper.disable()
    const consumed = await readBack(client, topic, until(sentinels))
    const verdict = judge([...writers.records, ...sentinels], consumed)
    expect(verdict.violations).toEqual(NO_VIOLATIONS)
    expect(verdict.acknowledged).toBe(5000 + PARTITIONS)
    expect(consumed).toHaveLength(5000 + PARTITIONS)
  }, 60_000)

  it('leaves the records of a send that failed for good (answer lost, no retries left) at most once, and goes on', async () => {
    const topic = 'eos-given-up'
    const dropper = new AckDropper({ every: 5, limit: 200 })
    const client = await connect(session(), dropper)
    await createTopic(session(), client, topic)
    // No retries: a lost answer fails its send at once, with the outcome unknown to the producer,
    // which must then continue that partition under a fresh producer id.
    const producer = client.producer({ idempotent: true, retry: { retries: 0 } })
    const writers = keyedWriters(producer, topic)
    await writers.write(1000)
    expect(dropper.dropped).toBeGreaterThanOrEqual(5)
    expect(writers.failed).toBeGreaterThan(0)
    expect(writers.acked).toBeGreaterThan(0)

    dropper.disable()
    // The sentinels go through a producer that retries: they must arrive.
    const sentinels = await sendSentinels(client.producer({ idempotent: true }), topic)
    const consumed = await readBack(client, topic, until(sentinels))
    const verdict = judge([...writers.records, ...sentinels], consumed)
    expect(verdict.violations).toEqual(NO_VIOLATIONS)
    expect(verdict.acknowledged).toBe(writers.acked + PARTITIONS)
    // Every dropped answer was a success: its batch is in the log (once), though its send failed.
    expect(verdict.failedPresent).toBeGreaterThanOrEqual(dropper.dropped)
    expect(verdict.failedPresent + verdict.failedAbsent).toBe(writers.failed)
  }, 60_000)

  it('control: without idempotence the same lost acknowledgements duplicate records', async () => {
    const topic = 'eos-control'
    const dropper = new AckDropper({ every: DROP_EVERY, limit: 200 })
    const client = await connect(session(), dropper)
    await createTopic(session(), client, topic)
    const producer = client.producer({ idempotent: false, maxInFlightRequests: 1 })
    const writers = keyedWriters(producer, topic)
    await writers.write(1000)
    expect(writers.failed).toBe(0)
    expect(dropper.dropped).toBeGreaterThanOrEqual(2)
    const sentinels = await sendSentinels(producer, topic)
    dropper.disable()
    const consumed = await readBack(client, topic, until(sentinels))
    const verdict = judge([...writers.records, ...sentinels], consumed)
    // The hook loses answers to batches the leader appended: resending them appends them again.
    expect(verdict.violations.duplicates).not.toEqual([])
    expect(verdict.violations.lostAcknowledged).toEqual([])
  }, 60_000)
})

describe('client > exactly once under retries > leader kills (peer processes)', () => {
  const session = usePeerProcesses()

  it('appends every record once, in order, through lost acknowledgements and two leader kills', async () => {
    const c = session().cluster
    const topic = 'eos-leader-kills'
    const dropper = new AckDropper({ every: DROP_EVERY, limit: 200 })
    const client = await connect(session(), dropper)
    await createTopic(session(), client, topic)

    const producer = client.producer({ idempotent: true })
    const writers = keyedWriters(producer, topic)
    const kills: Array<{ peer: string; partition: number; epoch: number; ackedThere: number }> = []
    /** As soon as `afterAcked` records are acknowledged, SIGKILLs the leader of a partition being written. */
    const killLeaderMidStream = async (partition: number, afterAcked: number, phaseEnd: number) => {
      await withDeadline(writers.whenAcked(afterAcked), 30_000, `${afterAcked} records acknowledged`)
      const meta = (await c.partitions(topic))[partition]!
      expect(c.isLive(meta.leader)).toBe(true)
      kills.push({ peer: meta.leader, partition, epoch: meta.leaderEpoch, ackedThere: writers.ackedIn(partition) })
      await c.kill(meta.leader)
      // Mid-stream: a good part of the phase is still to be written when the leader dies.
      expect(writers.acked).toBeLessThan(phaseEnd - 500)
    }

    // Phase 1: the leader of partition 0 dies while the writers are at it; it comes back afterwards.
    const first = writers.write(2000)
    await killLeaderMidStream(0, 800, 2000)
    await first
    const afterPhase1 = writers.acked + writers.failed
    await c.restart(kills[0]!.peer)
    await c.waitCaughtUp(topic, PARTITIONS)

    // Phase 2: the same keys go on; now another peer dies and stays dead — the leader of a partition
    // that the restarted peer does not lead, so the restarted peer (its log cut back and its
    // producer state rebuilt on restart) is one of the two voters every commit now needs.
    const restarted = kills[0]!.peer
    const leaders = await c.partitions(topic)
    const target = [1, 2, 3, 0].find((p) => leaders[p]!.leader !== restarted && leaders[p]!.leader !== '')
    expect(target).toBeDefined()
    const second = writers.write(2000)
    await killLeaderMidStream(target!, writers.acked + 800, afterPhase1 + 2000)
    await second
    // The writers kept going on both partitions past the kills (new leaders found by metadata refresh).
    for (const kill of kills) expect(writers.ackedIn(kill.partition)).toBeGreaterThan(kill.ackedThere)

    const sentinels = await sendSentinels(producer, topic)
    dropper.disable()
    // Both partitions moved to a new leader (a higher epoch); the second killed peer stays dead.
    const after = await c.partitions(topic)
    for (const kill of kills) expect(after[kill.partition]!.leaderEpoch).toBeGreaterThan(kill.epoch)
    expect(kills[1]!.peer).not.toBe(restarted)
    expect(c.isRunning(kills[1]!.peer)).toBe(false)
    expect(after.every((p) => p.leader !== kills[1]!.peer && c.isLive(p.leader))).toBe(true)
    expect(dropper.dropped).toBeGreaterThanOrEqual(10)

    // Read back from the new leaders.
    const consumed = await readBack(client, topic, until(sentinels))
    const verdict = judge([...writers.records, ...sentinels], consumed)
    expect(verdict.violations).toEqual(NO_VIOLATIONS)
    // Only records whose send resolved were required; those that failed are there at most once (above).
    expect(verdict.acknowledged + verdict.failedPresent + verdict.failedAbsent).toBe(4000 + PARTITIONS)
    expect(consumed).toHaveLength(verdict.acknowledged + verdict.failedPresent)
    expect(c.alarms).toEqual([])
  }, 90_000)
})
