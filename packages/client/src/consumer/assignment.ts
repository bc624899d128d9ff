/**
 * Which partitions a consumer reads, and where each stands. Subscriptions (topic names and
 * RegExps, re-resolved against metadata) and `assign` both end in `sync(target)`, the one place
 * the assigned set changes: new partitions start from their reset policy, dropped ones lose
 * their fetched data. A group consumer feeds `sync` from its coordinator's assignments.
 */
import type { Cluster } from '../cluster/cluster.js'
import { InvalidArgumentError } from '../errors.js'
import { PartitionState, partitionKey } from './partition-state.js'

export type StartPolicy = 'earliest' | 'latest'

export interface Subscription {
  pattern: string | RegExp
  reset: StartPolicy
}

export interface AssignedPartition {
  topic: string
  partition: number
  reset: StartPolicy
}

export class Assignment {
  readonly states = new Map<string, PartitionState>()
  private readonly subscriptions: Subscription[] = []
  mode: 'subscribe' | 'assign' | undefined
  /** A group consumer: subscriptions name the topics, the group's coordinator picks the partitions. */
  grouped = false
  /** When subscriptions were last resolved against metadata. */
  lastResolved = 0

  constructor(private readonly cluster: Cluster) {}

  get(topic: string, partition: number): PartitionState | undefined {
    return this.states.get(partitionKey(topic, partition))
  }

  subscribe(added: Subscription[]): void {
    this.mode = 'subscribe'
    this.subscriptions.push(...added)
  }

  sync(target: AssignedPartition[]): void {
    const keep = new Set<string>()
    for (const t of target) {
      const key = partitionKey(t.topic, t.partition)
      keep.add(key)
      if (!this.states.has(key)) {
        const state = new PartitionState(t.topic, t.partition)
        state.reset = t.reset
        this.states.set(key, state)
      }
    }
    for (const [key, state] of this.states) {
      if (keep.has(key)) continue
      state.removed = true
      state.seek(undefined)
      this.states.delete(key)
    }
  }

  /**
   * The subscribed topics as metadata has them now (RegExps matched against every topic, internal
   * `__…` topics never), with their partition counts and start policies.
   */
  async resolveTopics(signal?: AbortSignal): Promise<Map<string, { partitions: number[]; reset: StartPolicy }>> {
    const opts = signal === undefined ? {} : { signal }
    const topics = new Map<string, { partitions: number[]; reset: StartPolicy }>()
    const add = (topic: string, count: number, reset: StartPolicy): void => {
      if (!topics.has(topic)) topics.set(topic, { partitions: Array.from({ length: count }, (_, p) => p), reset })
    }
    const patterns = this.subscriptions.filter((s) => s.pattern instanceof RegExp)
    if (patterns.length > 0) {
      const all = await this.cluster.metadata(undefined, opts)
      for (const topic of all.topics) {
        // Internal topics (`__…`) are never matched by a pattern, as in Kafka.
        if (topic.error !== undefined || topic.name.startsWith('__')) continue
        const match = patterns.find((s) => {
          const re = s.pattern as RegExp
          re.lastIndex = 0
          return re.test(topic.name)
        })
        if (match !== undefined) add(topic.name, topic.partitions.length, match.reset)
      }
    }
    for (const s of this.subscriptions) {
      if (typeof s.pattern !== 'string') continue
      try {
        add(s.pattern, (await this.cluster.topic(s.pattern, opts)).partitions.length, s.reset)
      } catch {
        // A named topic that vanished keeps its partitions; their fetches report it and back off.
        const kept = [...this.states.values()].filter((state) => state.topic === s.pattern).map((st) => st.partition)
        if (kept.length > 0 && !topics.has(s.pattern)) topics.set(s.pattern, { partitions: kept, reset: s.reset })
      }
    }
    return topics
  }

  /**
   * Every partition of the subscribed topics, as metadata has them now. In a group, the
   * coordinator decides the partitions instead (the consumer feeds `sync` from its assignments).
   */
  async resolve(signal?: AbortSignal): Promise<void> {
    if (this.mode !== 'subscribe' || this.grouped) return
    const target: AssignedPartition[] = []
    for (const [topic, { partitions, reset }] of await this.resolveTopics(signal)) {
      for (const partition of partitions) target.push({ topic, partition, reset })
    }
    this.sync(target)
    this.lastResolved = Date.now()
  }

  /** The assigned partitions `topics` names (all of a topic's when it lists none). */
  matching(topics: Array<{ topic: string; partitions?: number[] }>, verb: string): PartitionState[] {
    if (!Array.isArray(topics)) throw new InvalidArgumentError(`${verb} takes an array of { topic, partitions? }`)
    const out: PartitionState[] = []
    for (const t of topics) {
      if (typeof t?.topic !== 'string') throw new InvalidArgumentError(`${verb}: ${JSON.stringify(t)} names no topic`)
      for (const state of this.states.values()) {
        if (state.topic === t.topic && (t.partitions === undefined || t.partitions.includes(state.partition))) {
          out.push(state)
        }
      }
    }
    return out
  }

  /** Partitions (those passing `filter`), by topic. */
  byTopic(filter: (state: PartitionState) => boolean = () => true): Array<{ topic: string; partitions: number[] }> {
    const byTopic = new Map<string, number[]>()
    for (const s of this.states.values()) {
      if (!filter(s)) continue
      const list = byTopic.get(s.topic)
      if (list === undefined) byTopic.set(s.topic, [s.partition])
      else list.push(s.partition)
    }
    return [...byTopic].map(([topic, partitions]) => ({ topic, partitions: partitions.sort((a, b) => a - b) }))
  }
}
