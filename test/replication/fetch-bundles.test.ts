/**
 * Replica fetches bundled per leader, across real peer processes: three peers, a topic of nine
 * partitions replicated three times (each peer leads about three, and follows about three of
 * each other peer's), so every follower's fetches to a leader travel as bundles. Records written
 * with acks=all to every partition are committed on every replica; the leader of the most
 * partitions is killed, the others take its partitions over through bundled fetches, take more
 * writes, and the killed peer comes back and catches up on all of them.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createMeshNode, type MeshNode } from '@tributary/mesh/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { health, waitFor } from '../helpers/peer-process.ts'
import { Cluster } from './cluster.ts'
import { PartitionProducer } from './producer.ts'

const TOPIC = 'bundled'
const PARTITIONS = 9

let root: string
let client: MeshNode
let cluster: Cluster

/** A peer's replica fetches served as leader, from its /metrics: bundles, and fetches alone or bundled. */
async function fetchesServed(id: string): Promise<{ bundles: number; bundled: number; single: number }> {
  const text = await cluster.metrics(id)
  // A series by name and, when given, its `via` label (every series also carries the peer label).
  const value = (name: string, via?: string): number => {
    const line = text
      .split('\n')
      .find((l) => l.startsWith(`${name}{`) && (via === undefined || l.includes(`via="${via}"`)))
    if (line === undefined) throw new Error(`no ${name} ${via ?? ''} in the metrics of ${id}`)
    return Number(line.split(' ').at(-1))
  }
  return {
    bundles: value('tributary_replica_fetch_bundles_served_total'),
    bundled: value('tributary_replica_fetches_served_total', 'bundle'),
    single: value('tributary_replica_fetches_served_total', 'single'),
  }
}

/** Writes `n` records with acks=all to every partition, each through its current leader. */
async function writeEverywhere(tag: string, n: number): Promise<void> {
  for (let p = 0; p < PARTITIONS; p++) {
    const producer = new PartitionProducer(cluster, TOPIC, p, { pauseMs: 0 })
    for (let i = 0; i < n; i++) {
      const ack = await producer.sendNext()
      expect(ack, `${tag}: partition ${p} acknowledges write ${i}`).toBeDefined()
    }
  }
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tributary-bundles-'))
  client = await createMeshNode({ tcpPort: 0, wsPort: false })
  cluster = await Cluster.start(client, root, 3)
}, 60_000)

afterAll(async () => {
  await cluster?.stopAll()
  cluster?.close()
  await client?.stop()
  await rm(root, { recursive: true, force: true })
}, 60_000)

describe('replication > replica fetches bundled per leader', () => {
  it('replicates, fails over and catches up through bundled fetches', async () => {
    for (const id of cluster.ids) {
      await waitFor(async () => (await health(cluster.peer(id))).peers === 3, `${id} to see 3 peers`)
    }
    const created = await cluster
      .broker(cluster.ids[0]!)
      .createTopics([{ name: TOPIC, partitions: PARTITIONS, replicationFactor: 3 }])
    expect(created.map((t) => t.error)).toEqual([undefined])
    await cluster.waitLeadersInSync(TOPIC, PARTITIONS)

    await writeEverywhere('before', 5)
    await cluster.waitCaughtUp(TOPIC, PARTITIONS)
    // A peer leading several partitions serves its followers' fetches to them as bundles, once
    // their long polls have fallen into step (one long poll after the replicas started).
    const leaders = (await cluster.partitions(TOPIC)).map((p) => p.leader)
    const leadingSeveral = cluster.ids.filter((id) => leaders.filter((l) => l === id).length > 1)
    expect(leadingSeveral.length).toBeGreaterThan(0)
    for (const id of leadingSeveral) {
      const served = await waitFor(
        async () => {
          const s = await fetchesServed(id)
          return s.bundles > 0 ? s : undefined
        },
        `${id} to serve bundled fetches`,
        20_000,
      )
      // Each bundle holds at least two fetches (a lone fetch goes out alone).
      expect(served.bundled, `${id}'s bundles hold its fetches`).toBeGreaterThanOrEqual(2 * served.bundles)
    }

    // The peer leading the most partitions dies: the other two elect leaders for its partitions
    // and keep replicating between them.
    const busiest = cluster.ids.reduce((a, b) =>
      leaders.filter((l) => l === a).length >= leaders.filter((l) => l === b).length ? a : b,
    )
    expect(leaders.filter((l) => l === busiest).length).toBeGreaterThan(1)
    await cluster.kill(busiest)
    await waitFor(
      async () => (await cluster.partitions(TOPIC)).every((p) => p.leader !== '' && cluster.isLive(p.leader)),
      'every partition to be led by a live peer',
      30_000,
    )
    await writeEverywhere('after the kill', 5)

    // Back, it catches up on all of them, and every replica holds the same committed log.
    await cluster.restart(busiest)
    await cluster.waitSettled(TOPIC, PARTITIONS, 60_000)
    const progress = await cluster.progress(busiest, TOPIC)
    // Two rounds of 5 batches of 3 records each (plus the epoch markers of its leaders).
    for (let p = 0; p < PARTITIONS; p++) expect(progress.get(p)?.highWatermark).toBeGreaterThanOrEqual(30)
    expect(cluster.alarms).toEqual([])
  }, 180_000)
})
