import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { multiaddr } from '@multiformats/multiaddr'
import { Broker } from '@tributary/client'
import { createMeshNode, type MeshNode } from '@tributary/mesh/node'
import {
  decodeRecordBatch,
  encodeRecordBatchSync,
  iterateBatches,
  NotLeaderOrFollowerError,
  UnknownTopicOrPartitionError,
} from '@tributary/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  health,
  type PeerProcess,
  startPeerProcess,
  startSeededPeers,
  stopAll,
  waitFor,
} from '../helpers/peer-process.ts'

const enc = new TextEncoder()
const dec = new TextDecoder()
let root: string
let client: MeshNode
const peers: PeerProcess[] = []
const brokers = new Map<string, Broker>()

function broker(peer: PeerProcess): Broker {
  let b = brokers.get(peer.peerId)
  if (b === undefined) {
    b = new Broker(client, multiaddr(peer.address), { requestTimeoutMs: 10_000 })
    brokers.set(peer.peerId, b)
  }
  return b
}

function batch(values: string[], timestamp = Date.now()): Uint8Array {
  return encodeRecordBatchSync({
    records: values.map((v, i) => ({ key: enc.encode(`k${i}`), value: enc.encode(v), timestamp })),
  })
}

/** Values of the data records; control batches (a leader's epoch-start marker) are skipped, as consumers do. */
async function values(records: Uint8Array): Promise<string[]> {
  const out: string[] = []
  for (const { pos, header } of iterateBatches(records)) {
    if (header.control) continue
    for (const r of (await decodeRecordBatch(records, pos)).records) out.push(dec.decode(r.value!))
  }
  return out
}

/** Waits until a peer's metadata names a leader for every partition of a topic. */
/** Index in `peers` of the peer the restart test restarted (-1: none yet). */
let restarted = -1

async function leadersKnown(peer: PeerProcess, topic: string) {
  return waitFor(async () => {
    const meta = await broker(peer).metadata([topic])
    const partitions = meta.topics[0]?.partitions ?? []
    return partitions.length > 0 && partitions.every((p) => p.leader !== '') ? partitions : undefined
  }, `leaders of ${topic} on ${peer.dataDir}`)
}

async function topicIdsEverywhere(name: string): Promise<string[]> {
  const ids: string[] = []
  for (const peer of peers) {
    const meta = await broker(peer).metadata([name])
    ids.push(meta.topics[0]?.error === undefined ? (meta.topics[0]?.topicId ?? '') : '')
  }
  return ids
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tributary-mesh-'))
  client = await createMeshNode({ tcpPort: 0, wsPort: false })
  peers.push(...(await startSeededPeers(root, 3)))
}, 60_000)

afterAll(async () => {
  for (const b of brokers.values()) b.close()
  await client?.stop()
  await stopAll('SIGKILL')
  await rm(root, { recursive: true, force: true })
})

describe('mesh > peers as processes', () => {
  it('membership converges to every peer on every peer', async () => {
    for (const peer of peers)
      await waitFor(async () => (await health(peer)).peers === 3, `${peer.dataDir} to see 3 peers`)
    const meta = await broker(peers[2]!).metadata()
    expect(meta.peers.map((p) => p.peerId).sort()).toEqual(peers.map((p) => p.peerId).sort())
  })

  it('topic metadata converges, and concurrent creation of one name resolves to one definition', async () => {
    const [a, b, c] = peers as [PeerProcess, PeerProcess, PeerProcess]
    const created = await broker(a).createTopics([{ name: 'orders', partitions: 6, replicationFactor: 1 }])
    expect(created[0]?.error).toBeUndefined()
    const [fromB, fromC] = await Promise.all([
      broker(b).createTopics([{ name: 'race', partitions: 3, replicationFactor: 1 }]),
      broker(c).createTopics([{ name: 'race', partitions: 5, replicationFactor: 1 }]),
    ])
    expect([fromB[0]?.error, fromC[0]?.error].filter((e) => e === undefined).length).toBeGreaterThanOrEqual(1)
    for (const name of ['orders', 'race']) {
      const ids = await waitFor(async () => {
        const found = await topicIdsEverywhere(name)
        return found.every((id) => id !== '' && id === found[0]) ? found : undefined
      }, `${name} to converge`)
      expect(new Set(ids).size).toBe(1)
    }
    const counts = await Promise.all(
      peers.map(async (p) => (await broker(p).metadata(['race'])).topics[0]!.partitions.length),
    )
    expect(new Set(counts).size).toBe(1)
  })

  it('produces to and fetches from whichever peer leads each partition', async () => {
    for (const peer of peers) await leadersKnown(peer, 'orders')
    const partitions = await leadersKnown(peers[0]!, 'orders')
    expect(partitions).toHaveLength(6)
    expect(partitions.every((p) => p.leaderEpoch >= 1 && p.inSync.includes(p.leader))).toBe(true)
    expect(new Set(partitions.map((p) => p.leader)).size).toBeGreaterThan(1)
    for (const { partition, leader } of partitions) {
      const leaderPeer = peers.find((p) => p.peerId === leader)!
      const other = peers.find((p) => p.peerId !== leader)!
      // A non-leader refuses with a typed error naming the partition and the leader.
      const err = await broker(other)
        .produce({ topic: 'orders', partition, acks: 1, records: batch(['x']) })
        .catch((e: unknown) => e)
      expect(err).toBeInstanceOf(NotLeaderOrFollowerError)
      expect((err as NotLeaderOrFollowerError & { leaderHint?: string }).leaderHint).toBe(leader)
      expect((err as Error).message).toContain(`orders-${partition}`)

      const first = await broker(leaderPeer).produce({
        topic: 'orders',
        partition,
        acks: -1,
        records: batch([`p${partition}-a`, `p${partition}-b`]),
      })
      const second = await broker(leaderPeer).produce({
        topic: 'orders',
        partition,
        acks: 1,
        records: batch([`p${partition}-c`]),
      })
      expect(second.baseOffset).toBe(first.baseOffset + 2)
      const [fetched] = await broker(leaderPeer).fetch({
        maxWaitMs: 0,
        minBytes: 1,
        maxBytes: 1 << 20,
        partitions: [{ topic: 'orders', partition, fetchOffset: 0 }],
      })
      expect(fetched!.error).toBeUndefined()
      expect(fetched!.highWatermark).toBe(second.baseOffset + 1)
      expect(await values(fetched!.records)).toEqual([`p${partition}-a`, `p${partition}-b`, `p${partition}-c`])
    }
  })

  it('long-polls a fetch until data arrives', async () => {
    const { leader } = (await leadersKnown(peers[0]!, 'orders'))[0]!
    const leaderPeer = peers.find((p) => p.peerId === leader)!
    const [latest] = await broker(leaderPeer).listOffsets([{ topic: 'orders', partition: 0, timestamp: -1 }])
    const started = Date.now()
    const waiting = broker(leaderPeer).fetch({
      maxWaitMs: 10_000,
      minBytes: 1,
      maxBytes: 1 << 20,
      partitions: [{ topic: 'orders', partition: 0, fetchOffset: latest!.offset }],
    })
    await new Promise((r) => setTimeout(r, 300))
    await broker(leaderPeer).produce({ topic: 'orders', partition: 0, acks: 1, records: batch(['late']) })
    const [result] = await waiting
    expect(await values(result!.records)).toEqual(['late'])
    expect(Date.now() - started).toBeLessThan(10_000)
  })

  it('lists earliest, latest and by-timestamp offsets', async () => {
    const { leader } = (await leadersKnown(peers[0]!, 'orders'))[1]!
    const b = broker(peers.find((p) => p.peerId === leader)!)
    const future = await b.produce({
      topic: 'orders',
      partition: 1,
      acks: -1,
      records: batch(['future'], 4_000_000_000_000),
    })
    const [earliest, latest, byTime] = await b.listOffsets([
      { topic: 'orders', partition: 1, timestamp: -2 },
      { topic: 'orders', partition: 1, timestamp: -1 },
      { topic: 'orders', partition: 1, timestamp: 3_999_999_999_999 },
    ])
    expect([earliest!.offset, latest!.offset, byTime!.offset]).toEqual([0, future.baseOffset + 1, future.baseOffset])
  })

  it('answers unknown topics and partitions with typed errors naming them', async () => {
    const b = broker(peers[0]!)
    const err = await b
      .produce({ topic: 'nope', partition: 0, acks: 1, records: batch(['x']) })
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UnknownTopicOrPartitionError)
    expect((err as Error).message).toContain('nope')
    const [fetched] = await b.fetch({
      maxWaitMs: 0,
      minBytes: 1,
      maxBytes: 1024,
      partitions: [{ topic: 'orders', partition: 99, fetchOffset: 0 }],
    })
    expect(fetched!.error).toBeInstanceOf(UnknownTopicOrPartitionError)
    expect(fetched!.error!.message).toContain('99')
  })

  it('a late joiner converges on members and topics', async () => {
    const late = await startPeerProcess(join(root, 'd'), { bootstrap: [peers[2]!.address] })
    peers.push(late)
    await waitFor(async () => (await health(late)).peers === 4, 'the late joiner to see everyone')
    for (const peer of peers.slice(0, 3))
      await waitFor(async () => (await health(peer)).peers === 4, 'everyone to see the late joiner')
    const ids = await waitFor(async () => {
      const found = await topicIdsEverywhere('orders')
      return found.every((id) => id !== '' && id === found[0]) ? found : undefined
    }, 'the late joiner to learn the topics')
    expect(ids).toHaveLength(4)
  })

  it('a restarted peer serves its partitions again with all their data', async () => {
    const partitions = await leadersKnown(peers[0]!, 'orders')
    // Placement is by peer id, which is random per run: restart a peer that leads a partition,
    // preferably not the seed (the seed holds all six only once in 4,096 runs).
    const led = partitions.find((p) => p.leader !== peers[0]!.peerId) ?? partitions[0]
    const index = peers.findIndex((p) => p.peerId === led?.leader)
    expect(index).toBeGreaterThanOrEqual(0)
    restarted = index
    const before = peers[index]!
    const bootstrap = peers.find((p) => p !== before)!.address
    expect(await before.stop('SIGTERM')).toBe(0)
    brokers.get(before.peerId)?.close()
    brokers.delete(before.peerId)
    const again = await startPeerProcess(before.dataDir, { bootstrap: [bootstrap] })
    expect(again.peerId).toBe(before.peerId)
    peers[index] = again
    const [fetched] = await waitFor(async () => {
      const result = await broker(again).fetch({
        maxWaitMs: 0,
        minBytes: 1,
        maxBytes: 1 << 20,
        partitions: [{ topic: 'orders', partition: led!.partition, fetchOffset: 0 }],
      })
      return result[0]?.error === undefined ? result : undefined
    }, 'the restarted peer to serve its partition')
    expect((await values(fetched!.records)).slice(0, 3)).toEqual([
      `p${led!.partition}-a`,
      `p${led!.partition}-b`,
      `p${led!.partition}-c`,
    ])
  })

  it('deleting a topic removes its data from every peer', async () => {
    const results = await broker(peers[0]!).deleteTopics(['orders'])
    expect(results[0]?.error).toBeUndefined()
    for (const peer of peers) {
      await waitFor(
        async () => (await readdir(join(peer.dataDir, 'logs'))).every((d) => !d.startsWith('orders-')),
        `orders data to vanish from ${peer.dataDir}`,
      )
    }
    const meta = await broker(peers[3]!).metadata(['orders'])
    expect(meta.topics[0]!.error).toBeInstanceOf(UnknownTopicOrPartitionError)
  })

  it('a killed peer is seen as gone by the others', async () => {
    // A peer that has not been restarted in this file: failure detection is what is checked here.
    // (Known issue, see the session note: on a loaded machine a peer restarted after a clean
    // leave can stay 'left' in another peer's view, its new heartbeats not reaching it.)
    const victim = peers.find((_peer, i) => i > 0 && i !== restarted)!
    await victim.stop('SIGKILL')
    await waitFor(
      async () => {
        const meta = await broker(peers[0]!).metadata()
        const seen = meta.peers.find((p) => p.peerId === victim.peerId)
        return seen === undefined || seen.status === 'dead' ? true : undefined
      },
      'the killed peer to be declared dead',
      // Failure timeout 5 s; the rest is room for a loaded machine, where one metadata round
      // trip to a busy peer can take seconds.
      40_000,
    )
    expect((await health(peers[0]!)).peers).toBe(3)
  }, 60_000)
})
