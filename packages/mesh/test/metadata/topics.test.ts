import { InvalidConfigError, InvalidTopicError, UnknownTopicOrPartitionError } from '@tributary/wire'
import { TopicRecord } from '@tributary/wire/pb/metadata'
import { describe, expect, it } from 'vitest'
import {
  decodeEntry,
  encodeEntry,
  HybridLogicalClock,
  InvalidPartitionsError,
  InvalidReplicationFactorError,
  MetadataStore,
  TopicAlreadyExistsError,
  type TopicChange,
  TopicRegistry,
  type TopicRegistryOptions,
} from '../../src/metadata/index.js'
import { placeReplicas } from '../../src/placement.js'
import { Rng } from './simulation.js'

const VOTERS = ['peer-a', 'peer-b', 'peer-c', 'peer-d']

interface Node {
  store: MetadataStore
  topics: TopicRegistry
  changes: TopicChange[]
}

function node(peerId: string, now = { ms: 1_700_000_000_000 }, options: TopicRegistryOptions = {}): Node {
  const store = new MetadataStore({ peerId, clock: new HybridLogicalClock({ wallClock: () => now.ms }) })
  const rng = new Rng([...peerId].reduce((h, c) => h * 31 + c.charCodeAt(0), 7))
  const topics = new TopicRegistry(store, { randomBytes: (n) => rng.bytes(n), now: () => now.ms, ...options })
  const changes: TopicChange[] = []
  topics.onTopicChange((change) => changes.push(change))
  return { store, topics, changes }
}

function thrown(fn: () => unknown): Error {
  try {
    fn()
  } catch (err) {
    return err as Error
  }
  throw new Error('expected a throw')
}

describe('mesh > metadata > topics', () => {
  it('creates a topic with placed replicas and stores it under topic/<name>', () => {
    const { store, topics, changes } = node('peer-a')
    const topic = topics.createTopic(
      { name: 'orders', partitions: 4, replicationFactor: 3, configs: { 'retention.ms': '60000' } },
      VOTERS,
    )
    expect(topic.name).toBe('orders')
    expect(topic.topicId).toMatch(/^[0-9a-f]{32}$/)
    expect(topic.partitions).toBe(4)
    expect(topic.replicationFactor).toBe(3)
    expect(topic.configs).toEqual({ 'retention.ms': '60000' })
    expect(topic.createdAtMs).toBe(1_700_000_000_000)
    expect(topic.replicas).toHaveLength(4)
    topic.replicas.forEach((replicas, partition) => {
      expect(replicas).toEqual(placeReplicas(topic.topicId, partition, 3, VOTERS))
    })
    expect(store.get('topic/orders')?.value).toBeInstanceOf(Uint8Array)
    expect(topics.getTopic('orders')).toEqual(topic)
    expect(topics.listTopics()).toEqual([topic])
    expect(changes).toEqual([{ type: 'created', topic }])
  })

  it('refuses topic names that break Kafka rules', () => {
    const { topics } = node('peer-a')
    for (const name of ['', '.', '..', 'has space', 'slash/name', 'ünïcode', 'x'.repeat(250)]) {
      const err = thrown(() => topics.createTopic({ name, partitions: 1, replicationFactor: 1 }, VOTERS))
      expect(err, name).toBeInstanceOf(InvalidTopicError)
      expect((err as InvalidTopicError).code).toBe(17)
    }
    for (const name of ['a', 'Orders_v2.eu-west-1', 'x'.repeat(249), '...']) {
      expect(() => topics.createTopic({ name, partitions: 1, replicationFactor: 1 }, VOTERS)).not.toThrow()
    }
  })

  it('refuses partition counts outside 1..10,000', () => {
    const { topics } = node('peer-a')
    for (const partitions of [0, -1, 1.5, 10_001, Number.NaN]) {
      const err = thrown(() => topics.createTopic({ name: 'orders', partitions, replicationFactor: 1 }, VOTERS))
      expect(err).toBeInstanceOf(InvalidPartitionsError)
      expect((err as InvalidPartitionsError).code).toBe(37)
      expect(err.message).toContain("'orders'")
    }
  })

  it('refuses replication factors below 1 or above the number of distinct voters', () => {
    const { topics } = node('peer-a')
    for (const replicationFactor of [0, 2.5, 5]) {
      const err = thrown(() => topics.createTopic({ name: 'orders', partitions: 1, replicationFactor }, VOTERS))
      expect(err).toBeInstanceOf(InvalidReplicationFactorError)
      expect((err as InvalidReplicationFactorError).code).toBe(38)
      expect(err.message).toMatch(/'orders'.*4 voting peers/)
    }
    const duplicates = ['peer-a', 'peer-a', 'peer-b']
    expect(() => topics.createTopic({ name: 'orders', partitions: 1, replicationFactor: 3 }, duplicates)).toThrow(
      InvalidReplicationFactorError,
    )
    expect(() => topics.createTopic({ name: 'orders', partitions: 1, replicationFactor: 1 }, [])).toThrow(
      InvalidReplicationFactorError,
    )
  })

  it('validates configs with the log rules by default, or with the validator given', () => {
    const { topics } = node('peer-a')
    const unknown = thrown(() =>
      topics.createTopic({ name: 'orders', partitions: 1, replicationFactor: 1, configs: { 'no.such': '1' } }, VOTERS),
    )
    expect(unknown).toBeInstanceOf(InvalidConfigError)
    expect(unknown.message).toMatch(/topic 'orders'.*no\.such/)
    expect(() =>
      topics.createTopic(
        { name: 'orders', partitions: 1, replicationFactor: 1, configs: { 'retention.ms': 'soon' } },
        VOTERS,
      ),
    ).toThrow(InvalidConfigError)
    expect(topics.getTopic('orders')).toBeUndefined()

    const seen: Record<string, string>[] = []
    const custom = node('peer-b', undefined, { validateConfigs: (configs) => void seen.push({ ...configs }) })
    custom.topics.createTopic({ name: 'orders', partitions: 1, replicationFactor: 1, configs: { 'x.y': 'z' } }, VOTERS)
    expect(seen).toEqual([{ 'x.y': 'z' }])
  })

  it('refuses to create a topic that exists', () => {
    const { topics } = node('peer-a')
    const first = topics.createTopic({ name: 'orders', partitions: 1, replicationFactor: 1 }, VOTERS)
    const err = thrown(() => topics.createTopic({ name: 'orders', partitions: 2, replicationFactor: 1 }, VOTERS))
    expect(err).toBeInstanceOf(TopicAlreadyExistsError)
    expect((err as TopicAlreadyExistsError).code).toBe(36)
    expect(err.message).toContain(`topic 'orders' already exists (id ${first.topicId})`)
  })

  it('deletes topics, and re-creates a deleted name under a new topic id', () => {
    const { topics, changes } = node('peer-a')
    const first = topics.createTopic({ name: 'orders', partitions: 2, replicationFactor: 2 }, VOTERS)
    expect(topics.deleteTopic('orders')).toEqual(first)
    expect(topics.getTopic('orders')).toBeUndefined()
    expect(topics.listTopics()).toEqual([])
    const err = thrown(() => topics.deleteTopic('orders'))
    expect(err).toBeInstanceOf(UnknownTopicOrPartitionError)
    expect(err.message).toContain("'orders'")
    const second = topics.createTopic({ name: 'orders', partitions: 3, replicationFactor: 2 }, VOTERS)
    expect(second.topicId).not.toBe(first.topicId)
    expect(changes.map((c) => c.type)).toEqual(['created', 'deleted', 'created'])
  })

  it('alterConfigs sets and removes configs, keeping the topic id', () => {
    const { topics, changes } = node('peer-a')
    const created = topics.createTopic(
      { name: 'orders', partitions: 1, replicationFactor: 1, configs: { 'retention.ms': '60000' } },
      VOTERS,
    )
    const altered = topics.alterConfigs('orders', { 'retention.ms': null, 'cleanup.policy': 'compact' })
    expect(altered.configs).toEqual({ 'cleanup.policy': 'compact' })
    expect(altered.topicId).toBe(created.topicId)
    expect(altered.replicas).toEqual(created.replicas)
    expect(changes.at(-1)).toEqual({ type: 'changed', topic: altered, previous: created })

    expect(() => topics.alterConfigs('orders', { 'segment.bytes': '1' })).toThrow(InvalidConfigError)
    expect(topics.getTopic('orders')).toEqual(altered)
    expect(() => topics.alterConfigs('missing', {})).toThrow(UnknownTopicOrPartitionError)
  })

  it('concurrent creation of one name: both peers settle on one definition, the loser hears `replaced`', () => {
    const now = { ms: 1_700_000_000_000 }
    const a = node('peer-a', now)
    const b = node('peer-b', now)
    // Same wall clock, so the HLCs tie and the larger peer id (peer-b) wins.
    const fromA = a.topics.createTopic({ name: 'orders', partitions: 3, replicationFactor: 2 }, VOTERS)
    const fromB = b.topics.createTopic({ name: 'orders', partitions: 5, replicationFactor: 2 }, VOTERS)
    const entryA = a.store.get('topic/orders')!
    const entryB = b.store.get('topic/orders')!

    // Gossip both ways, then the full-state exchange on connect (a no-op by now).
    a.store.merge(decodeEntry(encodeEntry(entryB)))
    b.store.merge(decodeEntry(encodeEntry(entryA)))
    a.store.mergeSnapshot(b.store.snapshot())
    b.store.mergeSnapshot(a.store.snapshot())

    expect(a.topics.getTopic('orders')).toEqual(fromB)
    expect(b.topics.getTopic('orders')).toEqual(fromB)
    expect(a.store.snapshot()).toEqual(b.store.snapshot())
    expect(a.changes).toEqual([
      { type: 'created', topic: fromA },
      { type: 'replaced', topic: fromB, previous: fromA },
    ])
    expect(b.changes).toEqual([{ type: 'created', topic: fromB }])

    // A third peer hears the two gossip messages in either order and ends the same.
    const c1 = node('peer-c', now)
    c1.store.merge(entryA)
    c1.store.merge(entryB)
    const c2 = node('peer-c', now)
    c2.store.merge(entryB)
    c2.store.merge(entryA)
    expect(c1.topics.getTopic('orders')).toEqual(fromB)
    expect(c2.store.snapshot()).toEqual(c1.store.snapshot())
    expect(c1.changes.map((c) => c.type)).toEqual(['created', 'replaced'])
    expect(c2.changes.map((c) => c.type)).toEqual(['created'])
  })

  it('a later write of the losing definition wins again everywhere (whole-record last-writer-wins)', () => {
    const now = { ms: 1_700_000_000_000 }
    const a = node('peer-a', now)
    const b = node('peer-b', now)
    a.topics.createTopic({ name: 'orders', partitions: 3, replicationFactor: 1 }, VOTERS)
    b.topics.createTopic({ name: 'orders', partitions: 5, replicationFactor: 1 }, VOTERS)
    now.ms += 10
    const altered = a.topics.alterConfigs('orders', { 'retention.ms': '1000' }) // before hearing of b
    b.store.mergeSnapshot(a.store.snapshot())
    a.store.mergeSnapshot(b.store.snapshot())
    expect(b.topics.getTopic('orders')).toEqual(altered)
    expect(a.topics.getTopic('orders')).toEqual(altered)
    expect(b.changes.at(-1)?.type).toBe('replaced')
  })

  it('ignores topic records from peers that do not decode or name another topic', () => {
    const { store, topics, changes } = node('peer-a')
    store.merge({
      key: 'topic/junk',
      value: new Uint8Array([0xff, 0xff, 0xff]),
      hlc: { wallMs: 1, logical: 0 },
      origin: 'x',
    })
    const mismatched = TopicRecord.encode({
      name: 'other',
      topicId: new Uint8Array(16),
      partitions: 1,
      replicationFactor: 1,
      configs: new Map(),
      peers: ['p'],
      replicas: [{ peers: [0] }],
      createdAtMs: 1,
    })
    store.merge({ key: 'topic/orders', value: mismatched, hlc: { wallMs: 1, logical: 0 }, origin: 'x' })
    expect(topics.getTopic('junk')).toBeUndefined()
    expect(topics.getTopic('orders')).toBeUndefined()
    expect(topics.listTopics()).toEqual([])
    expect(changes).toEqual([])
  })

  it('refuses records whose replica lists are inconsistent or oversized', () => {
    const { store, topics } = node('peer-a')
    const base = {
      name: 'orders',
      topicId: new Uint8Array(16),
      partitions: 2,
      replicationFactor: 2,
      configs: new Map<string, string>(),
      peers: ['p', 'q'],
      replicas: [{ peers: [0, 1] }, { peers: [1, 0] }],
      createdAtMs: 1,
    }
    const variants: Partial<TopicRecord>[] = [
      { replicas: [{ peers: [0, 1] }] }, // one list for two partitions
      { replicas: [{ peers: [0, 0] }, { peers: [1, 0] }] }, // duplicate replica
      { replicas: [{ peers: [0, 7] }, { peers: [1, 0] }] }, // unknown peer index
      { peers: ['p', 'p'] }, // duplicate peer table entry
      { topicId: new Uint8Array(15) },
      { partitions: 0, replicas: [] },
      { replicationFactor: 300, replicas: [{ peers: [] }, { peers: [] }] },
      // More replica lists, or a longer list, than any valid record has: the decoder's limits stop these.
      { replicas: Array.from({ length: 10_001 }, () => ({ peers: [0, 1] })) },
      { replicas: [{ peers: Array.from({ length: 256 }, () => 0) }, { peers: [1, 0] }] },
    ]
    let wall = 10
    for (const variant of variants) {
      store.merge({
        key: 'topic/orders',
        value: TopicRecord.encode({ ...base, ...variant }),
        hlc: { wallMs: wall++, logical: 0 },
        origin: 'x',
      })
      expect(topics.getTopic('orders'), JSON.stringify(Object.keys(variant))).toBeUndefined()
    }
    store.merge({
      key: 'topic/orders',
      value: TopicRecord.encode(base),
      hlc: { wallMs: wall, logical: 0 },
      origin: 'x',
    })
    expect(topics.getTopic('orders')?.replicas).toEqual([
      ['p', 'q'],
      ['q', 'p'],
    ])
  })

  it('fits a 10,000-partition, RF 3 topic over real-length peer ids in one metadata value', () => {
    const voters = Array.from({ length: 12 }, (_, i) => `12D3KooW${String(i).padStart(44, 'x')}`)
    const { store, topics } = node('peer-a')
    const topic = topics.createTopic({ name: 'big', partitions: 10_000, replicationFactor: 3 }, voters)
    expect(topic.replicas).toHaveLength(10_000)
    expect(store.get('topic/big')?.value?.length).toBeLessThan(150_000)
  })

  it('close() stops reporting changes', () => {
    const { topics, changes } = node('peer-a')
    topics.close()
    topics.close()
    topics.createTopic({ name: 'orders', partitions: 1, replicationFactor: 1 }, VOTERS)
    expect(changes).toEqual([])
  })
})
