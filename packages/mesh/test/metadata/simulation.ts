/**
 * Deterministic simulation of the metadata layer: N replicas of MetadataStore + TopicRegistry on a
 * fake clock, exchanging encoded entries through a simulated network that delays, duplicates and
 * reorders them, plus occasional full snapshot exchanges. Everything random comes from one seeded
 * PRNG, so a failing seed replays exactly.
 */
import {
  decodeEntry,
  decodeSnapshot,
  type Entry,
  encodeEntry,
  encodeSnapshot,
  HybridLogicalClock,
  MetadataStore,
  type MetadataStoreOptions,
  TopicAlreadyExistsError,
  type TopicDescription,
  TopicRegistry,
} from '../../src/metadata/index.js'

/** mulberry32 (Tommy Ettinger): a tiny, fast, well-distributed 32-bit PRNG. Returns [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export class Rng {
  private readonly next: () => number
  constructor(seed: number) {
    this.next = mulberry32(seed)
  }
  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }
  chance(p: number): boolean {
    return this.next() < p
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)] as T
  }
  bytes(length: number): Uint8Array {
    const out = new Uint8Array(length)
    for (let i = 0; i < length; i++) out[i] = this.int(0, 255)
    return out
  }
}

interface Message {
  at: number
  seq: number
  to: number
  kind: 'entry' | 'snapshot'
  bytes: Uint8Array
}

/** Min-heap of messages by (delivery time, send order): the network's reordering is all in the delays. */
class MessageQueue {
  private readonly heap: Message[] = []
  get size(): number {
    return this.heap.length
  }
  push(message: Message): void {
    const h = this.heap
    h.push(message)
    let i = h.length - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (!before(h[i] as Message, h[parent] as Message)) break
      ;[h[i], h[parent]] = [h[parent] as Message, h[i] as Message]
      i = parent
    }
  }
  peek(): Message | undefined {
    return this.heap[0]
  }
  pop(): Message | undefined {
    const h = this.heap
    const top = h[0]
    const last = h.pop()
    if (h.length > 0 && last !== undefined) {
      h[0] = last
      let i = 0
      for (;;) {
        const l = 2 * i + 1
        const r = l + 1
        let m = i
        if (l < h.length && before(h[l] as Message, h[m] as Message)) m = l
        if (r < h.length && before(h[r] as Message, h[m] as Message)) m = r
        if (m === i) break
        ;[h[i], h[m]] = [h[m] as Message, h[i] as Message]
        i = m
      }
    }
    return top
  }
}

function before(a: Message, b: Message): boolean {
  return a.at !== b.at ? a.at < b.at : a.seq < b.seq
}

export interface Replica {
  peerId: string
  store: MetadataStore
  topics: TopicRegistry
  /** This replica's topics as rebuilt from nothing but its onTopicChange events. */
  viewFromEvents: Map<string, TopicDescription>
}

export interface SimulationOptions {
  seed: number
  /** Local operations to run; default 120. */
  operations?: number
  /** Builds each replica's store; tests pass a deliberately broken subclass here. */
  createStore?: (options: MetadataStoreOptions) => MetadataStore
}

export interface SimulationStats {
  replicas: number
  operations: number
  messages: number
  duplicates: number
  snapshots: number
  concurrentCreates: number
  replacedEvents: number
  clockJumpsBack: number
}

export interface SimulationResult {
  replicas: Replica[]
  stats: SimulationStats
}

const TOPIC_NAMES = ['orders', 'payments', 'clicks', 'audit']
const KEYS = ['k/0', 'k/1', 'k/2', 'k/3', 'k/4', 'k/5']

export function runSimulation(options: SimulationOptions): SimulationResult {
  const rng = new Rng(options.seed)
  const n = rng.int(3, 7)
  const createStore = options.createStore ?? ((o: MetadataStoreOptions) => new MetadataStore(o))
  let now = 1_700_000_000_000
  const skews: number[] = []
  const stats: SimulationStats = {
    replicas: n,
    operations: 0,
    messages: 0,
    duplicates: 0,
    snapshots: 0,
    concurrentCreates: 0,
    replacedEvents: 0,
    clockJumpsBack: 0,
  }

  const replicas: Replica[] = []
  for (let i = 0; i < n; i++) {
    skews.push(rng.int(-3000, 3000))
    const peerId = `peer-${i}`
    const clock = new HybridLogicalClock({ wallClock: () => now + (skews[i] as number) })
    const store = createStore({ peerId, clock })
    const topics = new TopicRegistry(store, { randomBytes: (length) => rng.bytes(length), now: () => now })
    const viewFromEvents = new Map<string, TopicDescription>()
    topics.onTopicChange((change) => {
      if (change.type === 'deleted') viewFromEvents.delete(change.previous.name)
      else viewFromEvents.set(change.topic.name, change.topic)
      if (change.type === 'replaced') stats.replacedEvents++
    })
    replicas.push({ peerId, store, topics, viewFromEvents })
  }
  const voters = replicas.map((r) => r.peerId)

  const queue = new MessageQueue()
  let seq = 0
  const send = (to: number, kind: Message['kind'], bytes: Uint8Array): void => {
    queue.push({ at: now + rng.int(1, 400), seq: seq++, to, kind, bytes })
    stats.messages++
    if (rng.chance(0.15)) {
      queue.push({ at: now + rng.int(1, 800), seq: seq++, to, kind, bytes })
      stats.duplicates++
    }
  }
  const broadcast = (from: number, entry: Entry): void => {
    const bytes = encodeEntry(entry)
    for (let to = 0; to < n; to++) if (to !== from) send(to, 'entry', bytes)
  }
  const deliver = (message: Message): void => {
    const store = (replicas[message.to] as Replica).store
    if (message.kind === 'entry') store.merge(decodeEntry(message.bytes))
    else store.mergeSnapshot(decodeSnapshot(message.bytes))
  }
  const deliverUntil = (time: number): void => {
    for (let m = queue.peek(); m !== undefined && m.at <= time; m = queue.peek()) {
      queue.pop()
      deliver(m)
    }
  }
  // Local writes are published from the store's change feed, as the gossip wiring does; changes
  // caused by merges are not re-sent (their writer already published them).
  let merging = false
  replicas.forEach((replica, i) => {
    replica.store.onChange((_key, entry) => {
      if (!merging) broadcast(i, entry)
    })
  })

  const createTopic = (i: number, name: string): boolean => {
    try {
      ;(replicas[i] as Replica).topics.createTopic(
        {
          name,
          partitions: rng.int(1, 6),
          replicationFactor: rng.int(1, Math.min(3, n)),
          configs: rng.chance(0.5) ? { 'retention.ms': String(rng.int(1, 1000) * 1000) } : {},
        },
        voters,
      )
      return true
    } catch (err) {
      if (err instanceof TopicAlreadyExistsError) return false
      throw err
    }
  }

  const operations = options.operations ?? 120
  for (let op = 0; op < operations; op++) {
    now += rng.int(0, 60)
    merging = true
    deliverUntil(now)
    merging = false
    stats.operations++
    const i = rng.int(0, n - 1)
    const replica = replicas[i] as Replica
    const roll = rng.int(0, 99)
    if (roll < 25) {
      replica.store.set(rng.pick(KEYS), rng.bytes(rng.int(0, 8)))
    } else if (roll < 35) {
      replica.store.delete(rng.pick(KEYS))
    } else if (roll < 55) {
      const name = rng.pick(TOPIC_NAMES)
      createTopic(i, name)
      if (rng.chance(0.4)) {
        // Another replica creates the same name before either hears of the other.
        const j = (i + rng.int(1, n - 1)) % n
        if (createTopic(j, name)) stats.concurrentCreates++
      }
    } else if (roll < 70) {
      const topic = rng.pick(TOPIC_NAMES)
      if (replica.topics.getTopic(topic) !== undefined) {
        const value = rng.chance(0.3) ? null : String(rng.int(1, 1000) * 60_000)
        replica.topics.alterConfigs(topic, { 'retention.ms': value })
      }
    } else if (roll < 82) {
      const topic = rng.pick(TOPIC_NAMES)
      if (replica.topics.getTopic(topic) !== undefined) replica.topics.deleteTopic(topic)
    } else if (roll < 92) {
      // Anti-entropy: two replicas exchange full state, as on a new connection.
      const j = (i + rng.int(1, n - 1)) % n
      send(j, 'snapshot', encodeSnapshot(replica.store.snapshot()))
      send(i, 'snapshot', encodeSnapshot((replicas[j] as Replica).store.snapshot()))
      stats.snapshots += 2
    } else {
      // A wall clock stepping back (NTP correction) or forward.
      const step = rng.int(-4000, 2000)
      skews[i] = (skews[i] as number) + step
      if (step < 0) stats.clockJumpsBack++
    }
  }

  // Quiesce: let the network deliver everything still in flight.
  merging = true
  while (queue.size > 0) {
    const m = queue.pop() as Message
    now = Math.max(now, m.at)
    deliver(m)
  }
  merging = false
  return { replicas, stats }
}

/** Differences between replicas after quiescence; empty when they converged. */
export function divergences(replicas: readonly Replica[]): string[] {
  const problems: string[] = []
  const reference = replicas[0] as Replica
  const referenceSnapshot = Buffer.from(encodeSnapshot(reference.store.snapshot()))
  const referenceTopics = JSON.stringify(reference.topics.listTopics())
  for (const replica of replicas) {
    if (!Buffer.from(encodeSnapshot(replica.store.snapshot())).equals(referenceSnapshot)) {
      problems.push(`${replica.peerId}: snapshot differs from ${reference.peerId}`)
    }
    const topics = replica.topics.listTopics()
    if (JSON.stringify(topics) !== referenceTopics) problems.push(`${replica.peerId}: topic view differs`)
    const fromEvents = [...replica.viewFromEvents.values()].sort((a, b) => (a.name < b.name ? -1 : 1))
    if (JSON.stringify(fromEvents) !== JSON.stringify(topics)) {
      problems.push(`${replica.peerId}: topic change events do not add up to listTopics()`)
    }
  }
  return problems
}
