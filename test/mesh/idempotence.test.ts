/**
 * Idempotent produce on real peers (libp2p on loopback, in this process so the test can look
 * into the leaders' logs): a lost acknowledgement followed by a retry appends once — on the
 * same leader, and on the new leader after the old one is gone.
 */
import { multiaddr } from '@multiformats/multiaddr'
import { Broker } from '@tributary/client'
import { createPeer, type Peer } from '@tributary/mesh'
import { createMeshNode, type MeshNode } from '@tributary/mesh/node'
import { encodeRecordBatchSync, iterateBatches, OutOfOrderSequenceError } from '@tributary/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { waitFor } from '../helpers/peer-process.ts'

const enc = new TextEncoder()
const PRODUCER_ID = 2 ** 52 + 17 // chosen by the client, any integer in [1, 2^53)
const peers: Peer[] = []
const brokers = new Map<string, Broker>()
let client: MeshNode

function broker(peer: Peer): Broker {
  let b = brokers.get(peer.peerId)
  if (b === undefined) {
    const address = peer.addresses().find((a) => a.includes('/tcp/') && !a.includes('/ws'))!
    b = new Broker(client, multiaddr(address), { requestTimeoutMs: 10_000 })
    brokers.set(peer.peerId, b)
  }
  return b
}

/** The batch with base sequence `seq` of our producer: always the same bytes for the same arguments. */
function idempotentBatch(seq: number, values: string[]): Uint8Array {
  return encodeRecordBatchSync({
    records: values.map((v) => ({ key: enc.encode('k'), value: enc.encode(v), timestamp: 1_700_000_000_000 })),
    producerId: PRODUCER_ID,
    producerEpoch: 0,
    baseSequence: seq,
  })
}

/** Waits until a live peer names a leader for partition 0 of `topic` that is in `among`, with the voters in sync. */
async function leaderOf(topic: string, among: Peer[], inSync: number): Promise<Peer> {
  return waitFor(async () => {
    for (const asked of among) {
      const meta = await broker(asked).metadata([topic])
      const p = meta.topics[0]?.partitions[0]
      const leader = among.find((peer) => peer.peerId === p?.leader)
      if (leader !== undefined && p!.inSync.length >= inSync && leader.partitions.get(topic, 0)?.isLeader) return leader
    }
    return undefined
  }, `a leader of ${topic}-0 among ${among.length} peers`)
}

/** Our producer's batches in a leader's log: [base sequence, base offset] each. */
async function producerBatches(leader: Peer, topic: string): Promise<Array<[number, number]>> {
  const log = leader.partitions.get(topic, 0)!.log
  const { records } = await log.read(log.logStartOffset, { maxOffset: log.logEndOffset, maxBytes: 1 << 20 })
  return [...iterateBatches(records)]
    .filter(({ header }) => header.producerId === PRODUCER_ID)
    .map(({ header }) => [header.baseSequence, header.baseOffset])
}

beforeAll(async () => {
  client = await createMeshNode({ host: '127.0.0.1', tcpPort: 0, wsPort: false })
  const seed = await createPeer({ host: '127.0.0.1', tcpPort: 0, wsPort: false })
  peers.push(seed)
  const bootstrap = seed.addresses().filter((a) => !a.includes('/ws'))
  peers.push(
    ...(await Promise.all([1, 2].map(() => createPeer({ host: '127.0.0.1', tcpPort: 0, wsPort: false, bootstrap })))),
  )
  await waitFor(async () => {
    for (const peer of peers) if (peer.members().filter((m) => m.status === 'alive').length < 3) return false
    return true
  }, 'three peers to see each other')
}, 60_000)

afterAll(async () => {
  for (const b of brokers.values()) b.close()
  await Promise.all(peers.map((p) => p.stop()))
  await client?.stop()
})

describe('mesh > idempotent produce', () => {
  it('answers a retry after a lost acknowledgement with the original offset, and appends once', async () => {
    const created = await broker(peers[0]!).createTopics([{ name: 'idem-one', partitions: 1, replicationFactor: 1 }])
    expect(created[0]?.error).toBeUndefined()
    const leader = await leaderOf('idem-one', peers, 1)
    const first = await broker(leader).produce({
      topic: 'idem-one',
      partition: 0,
      acks: -1,
      records: idempotentBatch(0, ['a', 'b']),
    })
    // The acknowledgement was lost; the producer sends the very same batch again.
    const retry = await broker(leader).produce({
      topic: 'idem-one',
      partition: 0,
      acks: -1,
      records: idempotentBatch(0, ['a', 'b']),
    })
    expect(retry.baseOffset).toBe(first.baseOffset)
    const next = await broker(leader).produce({
      topic: 'idem-one',
      partition: 0,
      acks: 1,
      records: idempotentBatch(2, ['c']),
    })
    expect(next.baseOffset).toBe(first.baseOffset + 2)
    // A gap in the sequence is a typed error at the client, carried by its wire code.
    const gap = await broker(leader)
      .produce({ topic: 'idem-one', partition: 0, acks: 1, records: idempotentBatch(9, ['z']) })
      .catch((e: unknown) => e)
    expect(gap).toBeInstanceOf(OutOfOrderSequenceError)
    expect((gap as Error).message).toContain('idem-one-0')
    expect(await producerBatches(leader, 'idem-one')).toEqual([
      [0, first.baseOffset],
      [2, next.baseOffset],
    ])
  })

  it('answers the retry on the new leader after the old one stops, and appends once (RF 3)', async () => {
    const created = await broker(peers[0]!).createTopics([{ name: 'idem-rf3', partitions: 1, replicationFactor: 3 }])
    expect(created[0]?.error).toBeUndefined()
    const leader = await leaderOf('idem-rf3', peers, 3)
    const batch = idempotentBatch(0, ['x', 'y', 'z'])
    const original = await broker(leader).produce({ topic: 'idem-rf3', partition: 0, acks: -1, records: batch.slice() })

    // The leader goes away before the producer hears back; the producer retries on the new leader.
    const survivors = peers.filter((p) => p !== leader)
    brokers.get(leader.peerId)?.close()
    brokers.delete(leader.peerId)
    await leader.stop()
    peers.splice(peers.indexOf(leader), 1)
    const successor = await leaderOf('idem-rf3', survivors, 2)
    const retry = await waitFor(
      () =>
        broker(successor)
          .produce({ topic: 'idem-rf3', partition: 0, acks: -1, records: batch.slice() })
          .catch(() => undefined),
      'the new leader to take the retry',
    )
    expect(retry.baseOffset).toBe(original.baseOffset)
    const next = await broker(successor).produce({
      topic: 'idem-rf3',
      partition: 0,
      acks: -1,
      records: idempotentBatch(3, ['w']),
    })
    expect(next.baseOffset).toBeGreaterThan(original.baseOffset + 2)
    expect(await producerBatches(successor, 'idem-rf3')).toEqual([
      [0, original.baseOffset],
      [3, next.baseOffset],
    ])
    // The other survivor, a follower now, holds the same once-only history.
    const follower = survivors.find((p) => p !== successor)!
    await waitFor(
      async () => (await producerBatches(follower, 'idem-rf3')).length === 2,
      'the follower to replicate the new batch',
    )
    expect(await producerBatches(follower, 'idem-rf3')).toEqual(await producerBatches(successor, 'idem-rf3'))
  })
})
