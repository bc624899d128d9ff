import { InvalidConfigError } from '@tributary/wire'
import { MAX_PARTITIONS, validateTopicName } from '../metadata/index.js'

/** Keeps the observed set across restarts (IndexedDB in a browser peer). */
export interface ObservedPersistence {
  load(): Promise<string | undefined>
  save(json: string): Promise<void>
}

/** At most this many topics are followed, so a damaged or hostile stored set stays bounded. */
const MAX_OBSERVED_TOPICS = 10_000

/**
 * The partitions a peer chose to replicate as an observer: per topic, every partition or a
 * list. A peer that reloads must know them before it reopens its replicas, or it would delete
 * replicas no assignment names — so the set is persisted and loaded before the peer starts.
 */
export class ObservedPartitions {
  private readonly topics = new Map<string, 'all' | Set<number>>()
  private saving: Promise<void> = Promise.resolve()

  constructor(private readonly persistence?: ObservedPersistence) {}

  /** Reads the persisted set; a damaged one is an error rather than a silent loss of replicas. */
  async load(): Promise<void> {
    const json = await this.persistence?.load()
    if (json === undefined) return
    let parsed: unknown
    try {
      parsed = JSON.parse(json)
    } catch (err) {
      throw new InvalidConfigError('the stored set of observed partitions is not JSON', { cause: err })
    }
    if (!Array.isArray(parsed) || parsed.length > MAX_OBSERVED_TOPICS) {
      throw new InvalidConfigError('the stored set of observed partitions is damaged')
    }
    for (const entry of parsed as unknown[]) {
      const { topic, partitions } = (entry ?? {}) as { topic?: unknown; partitions?: unknown }
      if (typeof topic !== 'string') throw new InvalidConfigError('the stored set of observed partitions is damaged')
      this.set(topic, partitions === 'all' ? undefined : (partitions as number[]))
    }
  }

  has(topic: string, partition: number): boolean {
    const wanted = this.topics.get(topic)
    return wanted === 'all' || (wanted?.has(partition) ?? false)
  }

  /** Observes `partitions` of `topic` (all of them, present and future, when omitted). */
  async add(topic: string, partitions?: readonly number[]): Promise<void> {
    const current = this.topics.get(topic)
    if (partitions === undefined || current === 'all') this.set(topic, undefined)
    else this.set(topic, [...(current ?? []), ...partitions])
    await this.save()
  }

  /** Stops observing `partitions` of `topic` (the whole topic when omitted). */
  async remove(topic: string, partitions?: readonly number[]): Promise<void> {
    const current = this.topics.get(topic)
    if (partitions === undefined || current === undefined) this.topics.delete(topic)
    else if (current === 'all') {
      throw new InvalidConfigError(
        `${topic} is observed whole; stop observing the topic, then observe single partitions`,
      )
    } else {
      for (const p of partitions) current.delete(p)
      if (current.size === 0) this.topics.delete(topic)
    }
    await this.save()
  }

  list(): Array<{ topic: string; partitions: 'all' | number[] }> {
    return [...this.topics].map(([topic, p]) => ({
      topic,
      partitions: p === 'all' ? 'all' : [...p].sort((a, b) => a - b),
    }))
  }

  private set(topic: string, partitions: readonly number[] | undefined): void {
    validateTopicName(topic)
    if (!this.topics.has(topic) && this.topics.size >= MAX_OBSERVED_TOPICS) {
      throw new InvalidConfigError(`at most ${MAX_OBSERVED_TOPICS} topics can be observed`)
    }
    if (partitions === undefined) {
      this.topics.set(topic, 'all')
      return
    }
    for (const p of partitions) {
      if (!Number.isSafeInteger(p) || p < 0 || p >= MAX_PARTITIONS) {
        throw new InvalidConfigError(`${topic}: partition ${String(p)} is not a partition number`)
      }
    }
    this.topics.set(topic, new Set(partitions))
  }

  private save(): Promise<void> {
    const persistence = this.persistence
    if (persistence === undefined) return Promise.resolve()
    const json = JSON.stringify(this.list())
    // Saves go in order, so the last one written is the latest set.
    this.saving = this.saving.catch(() => {}).then(() => persistence.save(json))
    return this.saving
  }
}
