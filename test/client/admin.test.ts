/**
 * The admin client against real peers: topic creation with its validation (typed errors,
 * nothing created), listing, describing partitions (leaders, voters, in-sync voters and the
 * leaders' offsets), offsets by time, configs, the cluster's peers, deletion; and the same API
 * from inside a peer (Tributary.fromPeer).
 */
import {
  type Admin,
  InvalidConfigError,
  InvalidPartitionsError,
  InvalidReplicationFactorError,
  InvalidTopicError,
  Tributary,
} from '@tributary/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMesh, type TestMesh, waitFor } from './mesh.ts'

let mesh: TestMesh
let admin: Admin

beforeAll(async () => {
  mesh = await startMesh(3)
  admin = mesh.client.admin()
}, 60_000)

afterAll(async () => {
  await mesh?.stop()
})

describe('client > admin', () => {
  it('refuses invalid topics with typed errors naming them, and creates none of them', async () => {
    const create = (topic: Record<string, unknown>) =>
      admin
        .createTopics({ topics: [{ topic: 'ok-name', numPartitions: 1, replicationFactor: 1, ...topic } as never] })
        .catch((e: unknown) => e)
    expect(await create({ topic: 'has space' })).toBeInstanceOf(InvalidTopicError)
    expect(await create({ topic: '..' })).toBeInstanceOf(InvalidTopicError)
    expect(await create({ topic: 'x'.repeat(250) })).toBeInstanceOf(InvalidTopicError)
    const zero = await create({ topic: 'zero', numPartitions: 0 })
    expect(zero).toBeInstanceOf(InvalidPartitionsError)
    expect((zero as Error).message).toContain('zero')
    expect(await create({ topic: 'neg', numPartitions: -3 })).toBeInstanceOf(InvalidPartitionsError)
    expect(await create({ topic: 'rf0', replicationFactor: 0 })).toBeInstanceOf(InvalidReplicationFactorError)
    const tooMany = await create({ topic: 'rf5', replicationFactor: 5 })
    expect(tooMany).toBeInstanceOf(InvalidReplicationFactorError) // the peer knows 3 voters
    expect((tooMany as Error).message).toContain('rf5')
    const config = await create({ topic: 'cfg', configEntries: [{ name: 'retention.ms', value: 'soon' }] })
    expect(config).toBeInstanceOf(InvalidConfigError)
    expect(await create({ topic: 'cfg2', configEntries: [{ name: 'no.such.config', value: '1' }] })).toBeInstanceOf(
      InvalidConfigError,
    )
    const names = await admin.listTopics()
    for (const n of ['zero', 'neg', 'rf0', 'rf5', 'cfg', 'cfg2']) expect(names).not.toContain(n)
  })

  it('creates topics once (false when they already exist) and lists them', async () => {
    expect(await admin.createTopics({ topics: [{ topic: 'events', numPartitions: 3, replicationFactor: 3 }] })).toBe(
      true,
    )
    expect(await admin.createTopics({ topics: [{ topic: 'events', numPartitions: 3, replicationFactor: 3 }] })).toBe(
      false,
    )
    expect(await admin.listTopics()).toContain('events')
  })

  it('describes partitions: leader, epoch, voters, in-sync voters, and the leader offsets', async () => {
    const producer = mesh.client.producer()
    const sent = await producer.send({
      topic: 'events',
      messages: [0, 1, 2, 3, 4].map((i) => ({ value: `e${i}`, partition: 1 })),
    })
    const end = Number(sent[0]!.baseOffset) + 5
    const [events] = await admin.describeTopics({ topics: ['events'] })
    expect(events!.name).toBe('events')
    expect(events!.replicationFactor).toBe(3)
    const peerIds = mesh.peers.map((p) => p.peerId).sort()
    for (const p of events!.partitions) {
      expect(p.voters.slice().sort()).toEqual(peerIds)
      expect(p.voters).toContain(p.leader)
      expect(p.leaderEpoch).toBeGreaterThanOrEqual(1)
      expect(p.inSyncVoters).toContain(p.leader)
      expect(p.observers).toEqual([])
      expect(p.logStartOffset).toBe('0')
    }
    const p1 = events!.partitions[1]!
    expect([p1.highWatermark, p1.logEndOffset]).toEqual([String(end), String(end)])
    // The leader reports both followers; acks=all means a majority holds the records, and every
    // follower catches up by its next fetch.
    const followers = peerIds.filter((id) => id !== p1.leader)
    await waitFor(async () => {
      const [again] = await admin.describeTopics({ topics: ['events'] })
      const replicas = again!.partitions[1]!.replicas
      expect(replicas.map((r) => r.peerId).sort()).toEqual(followers)
      for (const r of replicas) expect([r.voter, r.logEndOffset, r.lag]).toEqual([true, String(end), '0'])
      expect(replicas.every((r) => r.caughtUpMsAgo >= 0)).toBe(true)
      return true
    }, 'both followers caught up in the leader report')
    await producer.disconnect()
  })

  it('fetches earliest and latest offsets, and offsets by timestamp', async () => {
    await admin.createTopics({ topics: [{ topic: 'timed', numPartitions: 1, replicationFactor: 1 }] })
    const producer = mesh.client.producer()
    // Later than the leader's epoch-start marker, which carries the time of the election.
    const t = Date.now() + 1_000_000_000
    const [sent] = await producer.send({
      topic: 'timed',
      messages: [
        { value: 'old', timestamp: t },
        { value: 'mid', timestamp: t + 1000 },
        { value: 'new', timestamp: String(t + 2000) },
      ],
    })
    const base = Number(sent!.baseOffset)
    expect(await admin.fetchTopicOffsets('timed')).toEqual([
      { partition: 0, offset: String(base + 3), high: String(base + 3), low: '0' },
    ])
    expect(await admin.fetchTopicOffsetsByTimestamp('timed', t + 500)).toEqual([
      { partition: 0, offset: String(base + 1) },
    ])
    expect(await admin.fetchTopicOffsetsByTimestamp('timed', t - 1)).toEqual([{ partition: 0, offset: String(base) }])
    // Nothing that recent: the latest offset, as KafkaJS answers.
    expect(await admin.fetchTopicOffsetsByTimestamp('timed', t + 5000)).toEqual([
      { partition: 0, offset: String(base + 3) },
    ])
    await producer.disconnect()
  })

  it('describes and alters topic configs', async () => {
    await admin.createTopics({
      topics: [{ topic: 'configured', configEntries: [{ name: 'retention.ms', value: '86400000' }] }],
    })
    const describe = async () => {
      const { resources } = await admin.describeConfigs({ resources: [{ type: 2, name: 'configured' }] })
      return Object.fromEntries(resources[0]!.configEntries.map((e) => [e.configName, e]))
    }
    const before = await describe()
    expect(before['retention.ms']).toMatchObject({
      configValue: '86400000',
      isDefault: false,
      configSource: 'TOPIC_CONFIG',
    })
    expect(before['segment.bytes']).toMatchObject({ isDefault: true, configSource: 'DEFAULT_CONFIG' })

    await admin.alterConfigs({
      validateOnly: true,
      resources: [{ type: 2, name: 'configured', configEntries: [{ name: 'retention.ms', value: '1000' }] }],
    })
    expect((await describe())['retention.ms']!.configValue).toBe('86400000')

    await admin.alterConfigs({
      resources: [{ type: 2, name: 'configured', configEntries: [{ name: 'cleanup.policy', value: 'compact' }] }],
    })
    await waitFor(async () => (await describe())['cleanup.policy']?.configValue === 'compact', 'the altered config')
    expect((await describe())['retention.ms']!.configValue).toBe('86400000')

    const bad = await admin
      .alterConfigs({
        resources: [{ type: 2, name: 'configured', configEntries: [{ name: 'cleanup.policy', value: 'shred' }] }],
      })
      .catch((e: unknown) => e)
    expect(bad).toBeInstanceOf(InvalidConfigError)
  })

  it('describes the cluster: every peer with its addresses and role', async () => {
    const { peers } = await admin.describeCluster()
    expect(peers.map((p) => p.peerId).sort()).toEqual(mesh.peers.map((p) => p.peerId).sort())
    for (const p of peers) {
      expect(p.voter).toBe(true)
      expect(p.status).toBe('alive')
      expect(p.addresses.length).toBeGreaterThan(0)
    }
  })

  it('deletes topics', async () => {
    await admin.createTopics({ topics: [{ topic: 'doomed', numPartitions: 2 }] })
    await admin.deleteTopics({ topics: ['doomed'] })
    expect(await admin.listTopics()).not.toContain('doomed')
  })

  it('serves the same API inside a peer, its own partitions without a network hop', async () => {
    const inside = Tributary.fromPeer(mesh.peers[1]!)
    try {
      const insideAdmin = inside.admin()
      await insideAdmin.createTopics({ topics: [{ topic: 'local', numPartitions: 3, replicationFactor: 1 }] })
      const producer = inside.producer()
      const sent = await producer.send({
        topic: 'local',
        messages: [0, 1, 2].map((p) => ({ value: `p${p}`, partition: p })),
      })
      expect(sent.map((r) => r.partition).sort()).toEqual([0, 1, 2])
      const [local] = await insideAdmin.describeTopics({ topics: ['local'] })
      // RF 1 over 3 voters: some partitions are led here, others elsewhere; all were written.
      expect(local!.partitions.map((p) => p.highWatermark)).not.toContain('-1')

      const consumer = inside.consumer({ maxWaitTimeInMs: 200 })
      const seen: string[] = []
      await consumer.subscribe({ topic: 'local', fromBeginning: true })
      await consumer.run({ eachMessage: async ({ message }) => void seen.push(message.value!.toString()) })
      await waitFor(() => seen.length >= 3, 'the three records, read inside the peer')
      expect(seen.sort()).toEqual(['p0', 'p1', 'p2'])
      expect(inside.peerId).toBe(mesh.peers[1]!.peerId)
    } finally {
      await inside.disconnect()
    }
    // The peer keeps running: disconnecting its client does not stop it.
    expect(await admin.listTopics()).toContain('local')
  })
})
