/**
 * The value stored under `topic/<name>`: a protobuf `TopicRecord`, and its in-memory form
 * `TopicDescription`. Records come from other peers, so decoding bounds every repeated field and
 * checks every invariant the rest of the mesh relies on (one replica list per partition, RF
 * distinct peers in each, ...).
 */
import { InvalidTopicError } from '@tributary/wire'
import { TopicRecord } from '@tributary/wire/pb/metadata'
import { InvalidMetadataError } from './errors.js'

export interface TopicDescription {
  readonly name: string
  /** 16 random bytes as 32 lowercase hex digits; a re-created topic gets a new one. */
  readonly topicId: string
  readonly partitions: number
  readonly replicationFactor: number
  /** Topic-level config overrides, Kafka spelling (`retention.ms`). */
  readonly configs: Readonly<Record<string, string>>
  /** Per partition, its replicas' peer ids; the first is the preferred leader. */
  readonly replicas: readonly (readonly string[])[]
  readonly createdAtMs: number
}

export const TOPIC_KEY_PREFIX = 'topic/'
export const TOPIC_ID_BYTES = 16
export const MAX_TOPIC_NAME_LENGTH = 249
export const MAX_PARTITIONS = 10_000
/** Far above any sensible replication factor; it bounds what a peer's record can make us allocate. */
export const MAX_REPLICATION_FACTOR = 255
/** Kafka has a few dozen topic configs; this bounds the map a peer's record can make us build. */
export const MAX_TOPIC_CONFIGS = 1000
/** Distinct peers one record may reference (its peer table). */
export const MAX_TOPIC_PEERS = 65_536

const LEGAL_NAME = /^[a-zA-Z0-9._-]+$/

export function topicKey(name: string): string {
  return TOPIC_KEY_PREFIX + name
}

/** Kafka's rules (`org.apache.kafka.common.internals.Topic.validate`); throws `InvalidTopicError`. */
export function validateTopicName(name: string): void {
  const problem = topicNameProblem(name)
  if (problem !== undefined) throw new InvalidTopicError(`topic name '${name}' is invalid: ${problem}`)
}

function topicNameProblem(name: string): string | undefined {
  if (typeof name !== 'string' || name.length === 0) return 'it is empty'
  if (name === '.' || name === '..') return "'.' and '..' are reserved"
  if (name.length > MAX_TOPIC_NAME_LENGTH) {
    return `it is ${name.length} characters long; the limit is ${MAX_TOPIC_NAME_LENGTH}`
  }
  if (!LEGAL_NAME.test(name)) return "use only ASCII letters, digits, '.', '_' and '-'"
  return undefined
}

export function topicIdToHex(id: Uint8Array): string {
  let hex = ''
  for (const byte of id) hex += byte.toString(16).padStart(2, '0')
  return hex
}

export function topicIdFromHex(hex: string): Uint8Array {
  if (!/^[0-9a-f]{32}$/.test(hex)) throw new InvalidMetadataError(`topic id '${hex}' is not 32 lowercase hex digits`)
  const id = new Uint8Array(TOPIC_ID_BYTES)
  for (let i = 0; i < TOPIC_ID_BYTES; i++) id[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16)
  return id
}

/** Encodes a description; the replica lists become indexes into one table of distinct peer ids. */
export function encodeTopicRecord(topic: TopicDescription): Uint8Array {
  const peers: string[] = []
  const index = new Map<string, number>()
  const replicas = topic.replicas.map((list) => ({
    peers: list.map((peerId) => {
      let i = index.get(peerId)
      if (i === undefined) {
        i = peers.length
        index.set(peerId, i)
        peers.push(peerId)
      }
      return i
    }),
  }))
  return TopicRecord.encode({
    name: topic.name,
    topicId: topicIdFromHex(topic.topicId) as Uint8Array<ArrayBuffer>,
    partitions: topic.partitions,
    replicationFactor: topic.replicationFactor,
    configs: new Map(Object.entries(topic.configs).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    peers,
    replicas,
    createdAtMs: topic.createdAtMs,
  })
}

/**
 * Decodes the record stored under `topic/<name>` and checks it; throws `InvalidMetadataError` if it
 * is malformed or names a different topic than its key.
 */
export function decodeTopicRecord(name: string, bytes: Uint8Array): TopicDescription {
  let record: TopicRecord
  try {
    record = TopicRecord.decode(bytes, {
      limits: {
        configs: MAX_TOPIC_CONFIGS,
        peers: MAX_TOPIC_PEERS,
        replicas: MAX_PARTITIONS,
        replicas$: { peers: MAX_REPLICATION_FACTOR },
      },
    })
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err)
    throw new InvalidMetadataError(`record of topic '${name}' does not decode: ${reason}`, { cause: err })
  }
  const bad = (problem: string): InvalidMetadataError =>
    new InvalidMetadataError(`record of topic '${name}' is invalid: ${problem}`)

  if (record.name !== name) throw bad(`it names topic '${record.name}'`)
  if (topicNameProblem(name) !== undefined) throw bad('the name breaks the topic naming rules')
  if (record.topicId.length !== TOPIC_ID_BYTES) throw bad(`topic id has ${record.topicId.length} bytes`)
  if (record.partitions < 1 || record.partitions > MAX_PARTITIONS) throw bad(`${record.partitions} partitions`)
  const rf = record.replicationFactor
  if (rf < 1 || rf > MAX_REPLICATION_FACTOR) throw bad(`replication factor ${rf}`)
  if (record.replicas.length !== record.partitions) {
    throw bad(`${record.replicas.length} replica lists for ${record.partitions} partitions`)
  }
  if (!Number.isSafeInteger(record.createdAtMs)) throw bad(`creation time ${record.createdAtMs}`)
  if (new Set(record.peers).size !== record.peers.length || record.peers.includes('')) {
    throw bad('its peer table has duplicate or empty peer ids')
  }
  const replicas = record.replicas.map((list, partition) => {
    const ids = list.peers.map((i) => record.peers[i])
    if (ids.length !== rf || new Set(ids).size !== rf || ids.includes(undefined)) {
      throw bad(`partition ${partition} does not list ${rf} distinct known peers`)
    }
    return Object.freeze(ids as string[])
  })
  return Object.freeze({
    name,
    topicId: topicIdToHex(record.topicId),
    partitions: record.partitions,
    replicationFactor: rf,
    configs: Object.freeze(Object.fromEntries([...record.configs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))),
    replicas: Object.freeze(replicas),
    createdAtMs: record.createdAtMs,
  })
}
