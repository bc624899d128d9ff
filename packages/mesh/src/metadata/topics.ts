/**
 * Topics as records in the metadata map (`topic/<name>` → `TopicRecord`): creation with Kafka's
 * validation rules and rendezvous placement, deletion (a tombstone), config changes, and a change
 * feed the partition hosts follow.
 *
 * Two peers may create the same name before hearing of each other. Both records travel; the map's
 * order (HLC, then peer id) keeps the same one everywhere, and a peer that had applied the other
 * one sees `replaced` with the loser's topic id, so it can drop data written under it. A whole
 * record is the unit of last-writer-wins: of two concurrent `alterConfigs`, one is lost.
 */
import { InvalidConfigError, TributaryError, UnknownTopicOrPartitionError } from '@tributary/wire'
import { type Logger, silentLogger } from '../logger.js'
import { placeReplicas } from '../placement.js'
import { type Entry, MAX_VALUE_BYTES } from './entry.js'
import {
  InvalidMetadataError,
  InvalidPartitionsError,
  InvalidReplicationFactorError,
  TopicAlreadyExistsError,
} from './errors.js'
import type { MetadataStore } from './metadata-store.js'
import { validateTopicConfigs } from './topic-configs.js'
import {
  decodeTopicRecord,
  encodeTopicRecord,
  MAX_PARTITIONS,
  MAX_REPLICATION_FACTOR,
  MAX_TOPIC_CONFIGS,
  TOPIC_ID_BYTES,
  TOPIC_KEY_PREFIX,
  type TopicDescription,
  topicIdToHex,
  topicKey,
  validateTopicName,
} from './topic-record.js'

export interface CreateTopicSpec {
  name: string
  partitions: number
  replicationFactor: number
  /** Topic-level config overrides, Kafka spelling: `{ 'retention.ms': '86400000' }`. */
  configs?: Readonly<Record<string, string>>
}

/** Throws (`InvalidConfigError`) if a topic may not have these configs. */
export type ConfigValidator = (configs: Readonly<Record<string, string>>) => void

/** The default validator: the mesh's topic configs and the partition log's rules, unknown names refused. */
export const validateLogTopicConfigs: ConfigValidator = (configs) => {
  validateTopicConfigs(configs)
}

export type TopicChange =
  | { type: 'created'; topic: TopicDescription }
  | { type: 'changed'; topic: TopicDescription; previous: TopicDescription }
  | { type: 'deleted'; previous: TopicDescription }
  /** Same name, another topic id: `previous.topicId` lost (a concurrent creation, or delete + re-create). */
  | { type: 'replaced'; topic: TopicDescription; previous: TopicDescription }

export type TopicChangeListener = (change: TopicChange) => void

export interface TopicRegistryOptions {
  /** Validates the configs of topics created or altered here. Default `validateLogTopicConfigs`. */
  validateConfigs?: ConfigValidator
  /** Source of topic ids; default `crypto.getRandomValues`. Simulations inject a seeded one. */
  randomBytes?: (length: number) => Uint8Array
  /** Clock for `createdAtMs`; default `Date.now`. */
  now?: () => number
  /** Warned about records from peers that do not decode (they are then treated as absent). */
  logger?: Logger
}

export class TopicRegistry {
  private readonly store: MetadataStore
  private readonly validateConfigs: ConfigValidator
  private readonly randomBytes: (length: number) => Uint8Array
  private readonly now: () => number
  private readonly logger: Logger
  private readonly listeners = new Set<TopicChangeListener>()
  /** Decoded form of each stored entry (entries are immutable); null if it is a tombstone or invalid. */
  private readonly decoded = new WeakMap<Entry, TopicDescription | null>()
  private unsubscribe: (() => void) | undefined

  constructor(store: MetadataStore, options: TopicRegistryOptions = {}) {
    this.store = store
    this.validateConfigs = options.validateConfigs ?? validateLogTopicConfigs
    this.randomBytes = options.randomBytes ?? ((length) => crypto.getRandomValues(new Uint8Array(length)))
    this.now = options.now ?? Date.now
    this.logger = options.logger ?? silentLogger
    this.unsubscribe = store.onChange((key, entry, previous) => this.storeChanged(key, entry, previous))
  }

  /**
   * Creates a topic whose partitions are placed over `voters` (the peers that may vote), `servers`
   * among them leading where they hold a replica (see placeReplicas), and returns it. Throws `InvalidTopicError`, `InvalidPartitionsError`, `InvalidReplicationFactorError`,
   * `InvalidConfigError`, or `TopicAlreadyExistsError` if the name holds a live topic here.
   */
  createTopic(spec: CreateTopicSpec, voters: readonly string[], servers?: ReadonlySet<string>): TopicDescription {
    const { name, partitions, replicationFactor } = spec
    validateTopicName(name)
    const existing = this.getTopic(name)
    if (existing !== undefined) {
      throw new TopicAlreadyExistsError(
        `topic '${name}' already exists (id ${existing.topicId}); delete it first or pick another name`,
      )
    }
    if (!Number.isInteger(partitions) || partitions < 1 || partitions > MAX_PARTITIONS) {
      throw new InvalidPartitionsError(
        `topic '${name}' cannot have ${partitions} partitions; use an integer from 1 to ${MAX_PARTITIONS}`,
      )
    }
    const distinctVoters = new Set(voters).size
    const maxRf = Math.min(distinctVoters, MAX_REPLICATION_FACTOR)
    if (!Number.isInteger(replicationFactor) || replicationFactor < 1 || replicationFactor > maxRf) {
      throw new InvalidReplicationFactorError(
        `topic '${name}' cannot have replication factor ${replicationFactor}: ${distinctVoters} voting peers ` +
          `are known, so use 1 to ${maxRf}, or wait for more voting peers to join`,
      )
    }
    const configs = this.checkedConfigs(name, spec.configs ?? {})
    const topicId = topicIdToHex(this.randomBytes(TOPIC_ID_BYTES))
    const replicas: string[][] = []
    for (let partition = 0; partition < partitions; partition++) {
      replicas.push(placeReplicas(topicId, partition, replicationFactor, voters, servers))
    }
    return this.write({ name, topicId, partitions, replicationFactor, configs, replicas, createdAtMs: this.now() })
  }

  /** Deletes a topic (a tombstone every peer keeps); returns what was deleted. */
  deleteTopic(name: string): TopicDescription {
    const topic = this.requireTopic(name)
    this.store.delete(topicKey(name))
    return topic
  }

  /**
   * Changes topic-level configs: a string sets a config, null removes it (back to the default),
   * configs not named stay as they are. Returns the updated topic.
   */
  alterConfigs(name: string, changes: Readonly<Record<string, string | null>>): TopicDescription {
    const topic = this.requireTopic(name)
    const merged: Record<string, string> = { ...topic.configs }
    for (const [config, value] of Object.entries(changes)) {
      if (value === null) delete merged[config]
      else merged[config] = value
    }
    return this.write({ ...topic, configs: this.checkedConfigs(name, merged) })
  }

  /** The live topic called `name`, or undefined (never created, deleted, or its record is invalid). */
  getTopic(name: string): TopicDescription | undefined {
    const entry = this.store.get(topicKey(name))
    return entry === undefined ? undefined : this.describe(name, entry)
  }

  /** Every live topic, sorted by name. */
  listTopics(): TopicDescription[] {
    const topics: TopicDescription[] = []
    for (const entry of this.store.entries(TOPIC_KEY_PREFIX)) {
      const topic = this.describe(entry.key.slice(TOPIC_KEY_PREFIX.length), entry)
      if (topic !== undefined) topics.push(topic)
    }
    return topics
  }

  /** Reports topics created, changed, deleted or replaced, here or by merges from peers. */
  onTopicChange(listener: TopicChangeListener): () => void {
    this.listeners.add(listener)
    return () => {
      this.listeners.delete(listener)
    }
  }

  /** Stops following the store. Idempotent. */
  close(): void {
    this.unsubscribe?.()
    this.unsubscribe = undefined
    this.listeners.clear()
  }

  private requireTopic(name: string): TopicDescription {
    const topic = this.getTopic(name)
    if (topic === undefined) {
      throw new UnknownTopicOrPartitionError(
        `topic '${name}' does not exist (or its creation has not reached this peer yet)`,
      )
    }
    return topic
  }

  private write(topic: TopicDescription): TopicDescription {
    const bytes = encodeTopicRecord(topic)
    if (bytes.length > MAX_VALUE_BYTES) {
      throw new InvalidPartitionsError(
        `topic '${topic.name}' with ${topic.partitions} partitions × replication factor ${topic.replicationFactor} ` +
          `needs a ${bytes.length}-byte record; the metadata limit is ${MAX_VALUE_BYTES}. Use fewer partitions`,
      )
    }
    const entry = this.store.set(topicKey(topic.name), bytes)
    const written = this.describe(topic.name, entry)
    if (written === undefined) throw new InvalidMetadataError(`topic '${topic.name}' did not round-trip`)
    return written
  }

  private checkedConfigs(name: string, configs: Readonly<Record<string, string>>): Record<string, string> {
    const entries = Object.entries(configs)
    if (entries.length > MAX_TOPIC_CONFIGS) {
      throw new InvalidConfigError(`topic '${name}' has ${entries.length} configs; the limit is ${MAX_TOPIC_CONFIGS}`)
    }
    for (const [config, value] of entries) {
      if (typeof value !== 'string') {
        throw new InvalidConfigError(`config '${config}' of topic '${name}' must be a string, got ${typeof value}`)
      }
    }
    const copy = Object.fromEntries(entries)
    try {
      this.validateConfigs(copy)
    } catch (err) {
      if (!(err instanceof TributaryError)) throw err
      throw new InvalidConfigError(`topic '${name}': ${err.message}`, { cause: err })
    }
    return copy
  }

  /** The topic an entry holds, decoded once per entry; tombstones and invalid records are undefined. */
  private describe(name: string, entry: Entry): TopicDescription | undefined {
    let topic = this.decoded.get(entry)
    if (topic === undefined) {
      topic = null
      if (entry.value !== null) {
        try {
          topic = decodeTopicRecord(name, entry.value)
        } catch (err) {
          if (!(err instanceof InvalidMetadataError)) throw err
          // Every peer decodes the same bytes the same way, so treating it as absent stays convergent.
          this.logger.warn({ err, topic: name, origin: entry.origin }, 'ignoring an invalid topic record')
        }
      }
      this.decoded.set(entry, topic)
    }
    return topic ?? undefined
  }

  private storeChanged(key: string, entry: Entry, previousEntry: Entry | undefined): void {
    if (this.listeners.size === 0 || !key.startsWith(TOPIC_KEY_PREFIX)) return
    const name = key.slice(TOPIC_KEY_PREFIX.length)
    const previous = previousEntry === undefined ? undefined : this.describe(name, previousEntry)
    const topic = this.describe(name, entry)
    let change: TopicChange
    if (topic === undefined) {
      if (previous === undefined) return
      change = { type: 'deleted', previous }
    } else if (previous === undefined) {
      change = { type: 'created', topic }
    } else if (previous.topicId === topic.topicId) {
      change = { type: 'changed', topic, previous }
    } else {
      change = { type: 'replaced', topic, previous }
    }
    for (const listener of [...this.listeners]) {
      try {
        listener(change)
      } catch (err) {
        this.logger.error({ err, topic: name, change: change.type }, 'topic change listener threw')
      }
    }
  }
}
