/**
 * The records of the compacted internal topic `__consumer_offsets` (`@tributary/wire/pb/groups`):
 * one key per committed offset (group, topic, partition) and one per group's metadata, so
 * compaction keeps exactly the latest of each; a null value (tombstone) deletes. Keys carry their
 * schema in `type`, values a `version`; both are length-bounded and validated when decoded, and an
 * unknown schema is refused rather than guessed at. Encoding is canonical (same content, same
 * bytes), which compaction relies on for keys.
 */
import { InvalidRecordError } from '@tributary/wire'
import * as pb from '@tributary/wire/pb/groups'
import {
  MAX_CLIENT_ID_LENGTH,
  MAX_GROUP_ID_LENGTH,
  MAX_GROUP_INSTANCE_ID_LENGTH,
  MAX_GROUP_MESSAGE_BYTES,
  MAX_MEMBER_ID_LENGTH,
  MAX_OFFSET_METADATA_LENGTH,
  MAX_OFFSETS_KEY_BYTES,
  MAX_PARTITION_NUMBER,
  MAX_PROTOCOL_NAME_LENGTH,
  MAX_PROTOCOL_TYPE_LENGTH,
  MAX_PROTOCOLS,
  MAX_TIMEOUT_MS,
} from '../constants.js'
import {
  checkInt,
  checkOptionalName,
  checkString,
  checkTopic,
  checkTopicPartitions,
  checkTopics,
  type Fail,
} from '../protocol/validate.js'
import { byTopic, keyOf, type TopicPartition } from '../topic-partition.js'

const KEY_OFFSET = 1
const KEY_GROUP = 2
const VALUE_VERSION = 1
const INT32_MAX = 2_147_483_647

export type OffsetsRecordKey =
  | { type: 'offset'; groupId: string; topic: string; partition: number }
  | { type: 'group'; groupId: string }

export interface OffsetCommitRecord {
  offset: number
  leaderEpoch: number
  metadata: string
  commitTimestamp: number
  /** Generation and member the commit was accepted from; -1 and '' outside any generation. */
  generation: number
  memberId: string
}

export interface GroupMemberRecord {
  memberId: string
  groupInstanceId: string | undefined
  clientId: string
  sessionTimeoutMs: number
  rebalanceTimeoutMs: number
  protocols: string[]
  topics: string[]
  assignment: TopicPartition[]
  /** Partitions beyond its assignment the member may still hold (a revocation not yet confirmed). */
  held: TopicPartition[]
  /** When the member's incarnation started (ms, its clock). */
  startedAt: number
}

export interface FencedRecord {
  memberId: string
  partitions: TopicPartition[]
  /** How long from a coordinator's start the fence must still hold. */
  leaseMs: number
}

export interface GroupMetadataRecord {
  protocolType: string
  generation: number
  /** undefined while the group is empty. */
  protocol: string | undefined
  stateTimestamp: number
  members: GroupMemberRecord[]
  fenced: FencedRecord[]
  /** Partition counts of the subscribed topics the generation was assigned with. */
  partitionCounts: Array<{ topic: string; partitions: number }>
}

/** A record as appended to `__consumer_offsets`; `value: null` is a tombstone. */
export interface OffsetsRecord {
  key: Uint8Array
  value: Uint8Array | null
}

const fail: Fail = (message) => {
  throw new InvalidRecordError(`invalid __consumer_offsets record: ${message}`)
}

export function encodeOffsetsKey(key: OffsetsRecordKey): Uint8Array {
  checkKey(key)
  const bytes =
    key.type === 'offset'
      ? pb.OffsetsKey.encode({ type: KEY_OFFSET, groupId: key.groupId, topic: key.topic, partition: key.partition })
      : pb.OffsetsKey.encode({ type: KEY_GROUP, groupId: key.groupId, topic: '', partition: 0 })
  if (bytes.byteLength > MAX_OFFSETS_KEY_BYTES) fail(`key of ${bytes.byteLength} bytes`)
  return bytes
}

export function decodeOffsetsKey(bytes: Uint8Array): OffsetsRecordKey {
  if (bytes.byteLength > MAX_OFFSETS_KEY_BYTES)
    fail(`key of ${bytes.byteLength} bytes exceeds ${MAX_OFFSETS_KEY_BYTES}`)
  const m = decodeWith(() => pb.OffsetsKey.decode(bytes), 'key')
  let key: OffsetsRecordKey
  if (m.type === KEY_OFFSET) key = { type: 'offset', groupId: m.groupId, topic: m.topic, partition: m.partition }
  else if (m.type === KEY_GROUP) {
    if (m.topic !== '' || m.partition !== 0) fail('a group metadata key names a partition')
    key = { type: 'group', groupId: m.groupId }
  } else return fail(`unknown key type ${m.type}`)
  return checkKey(key)
}

function checkKey(key: OffsetsRecordKey): OffsetsRecordKey {
  checkString(key.groupId, 'groupId', MAX_GROUP_ID_LENGTH, fail, 1)
  if (key.type === 'offset') {
    checkTopic(key.topic, 'topic', fail)
    checkInt(key.partition, 'partition', 0, MAX_PARTITION_NUMBER - 1, fail)
  } else if (key.type !== 'group') fail('unknown key type')
  return key
}

export function encodeOffsetCommitValue(value: OffsetCommitRecord): Uint8Array {
  checkCommitValue(value)
  return pb.OffsetCommitValue.encode({
    version: VALUE_VERSION,
    offset: BigInt(value.offset),
    leaderEpoch: value.leaderEpoch,
    metadata: value.metadata,
    commitTimestamp: BigInt(value.commitTimestamp),
    generation: value.generation,
    memberId: value.memberId,
  })
}

export function decodeOffsetCommitValue(bytes: Uint8Array): OffsetCommitRecord {
  if (bytes.byteLength > MAX_GROUP_MESSAGE_BYTES) fail(`value of ${bytes.byteLength} bytes`)
  const m = decodeWith(() => pb.OffsetCommitValue.decode(bytes), 'offset commit value')
  if (m.version !== VALUE_VERSION) fail(`unknown offset commit value version ${m.version}`)
  return checkCommitValue({
    offset: checkInt(m.offset, 'offset', 0, Number.MAX_SAFE_INTEGER, fail),
    leaderEpoch: m.leaderEpoch,
    metadata: m.metadata,
    commitTimestamp: checkInt(m.commitTimestamp, 'commitTimestamp', 0, Number.MAX_SAFE_INTEGER, fail),
    generation: m.generation,
    memberId: m.memberId,
  })
}

function checkCommitValue(v: OffsetCommitRecord): OffsetCommitRecord {
  checkInt(v.offset, 'offset', 0, Number.MAX_SAFE_INTEGER, fail)
  checkInt(v.leaderEpoch, 'leaderEpoch', -1, INT32_MAX, fail)
  checkString(v.metadata, 'metadata', MAX_OFFSET_METADATA_LENGTH, fail)
  checkInt(v.commitTimestamp, 'commitTimestamp', 0, Number.MAX_SAFE_INTEGER, fail)
  checkInt(v.generation, 'generation', -1, INT32_MAX, fail)
  checkString(v.memberId, 'memberId', MAX_MEMBER_ID_LENGTH, fail)
  return v
}

export function encodeGroupMetadataValue(value: GroupMetadataRecord): Uint8Array {
  checkGroupValue(value)
  const bytes = pb.GroupMetadataValue.encode({
    version: VALUE_VERSION,
    protocolType: value.protocolType,
    generation: value.generation,
    protocol: value.protocol ?? '',
    stateTimestamp: BigInt(value.stateTimestamp),
    members: value.members.map((m) => ({
      memberId: m.memberId,
      groupInstanceId: m.groupInstanceId ?? '',
      clientId: m.clientId,
      sessionTimeoutMs: m.sessionTimeoutMs,
      rebalanceTimeoutMs: m.rebalanceTimeoutMs,
      protocols: m.protocols,
      topics: m.topics,
      assignment: byTopic(m.assignment),
      held: byTopic(m.held),
      startedAt: BigInt(m.startedAt),
    })),
    fenced: value.fenced.map((f) => ({ memberId: f.memberId, partitions: byTopic(f.partitions), leaseMs: f.leaseMs })),
    partitionCounts: value.partitionCounts,
  })
  if (bytes.byteLength > MAX_GROUP_MESSAGE_BYTES) fail(`group metadata of ${bytes.byteLength} bytes`)
  return bytes
}

export function decodeGroupMetadataValue(bytes: Uint8Array): GroupMetadataRecord {
  if (bytes.byteLength > MAX_GROUP_MESSAGE_BYTES) fail(`value of ${bytes.byteLength} bytes`)
  const m = decodeWith(() => pb.GroupMetadataValue.decode(bytes), 'group metadata value')
  if (m.version !== VALUE_VERSION) fail(`unknown group metadata value version ${m.version}`)
  return checkGroupValue({
    protocolType: m.protocolType,
    generation: m.generation,
    protocol: m.protocol === '' ? undefined : m.protocol,
    stateTimestamp: checkInt(m.stateTimestamp, 'stateTimestamp', 0, Number.MAX_SAFE_INTEGER, fail),
    members: m.members.map((member) => ({
      memberId: member.memberId,
      groupInstanceId: member.groupInstanceId === '' ? undefined : member.groupInstanceId,
      clientId: member.clientId,
      sessionTimeoutMs: member.sessionTimeoutMs,
      rebalanceTimeoutMs: member.rebalanceTimeoutMs,
      protocols: member.protocols,
      topics: member.topics,
      assignment: checkTopicPartitions(member.assignment, 'assignment', fail),
      held: checkTopicPartitions(member.held, 'held', fail),
      startedAt: checkInt(member.startedAt, 'startedAt', 0, Number.MAX_SAFE_INTEGER, fail),
    })),
    fenced: m.fenced.map((f) => ({
      memberId: f.memberId,
      partitions: checkTopicPartitions(f.partitions, 'fenced', fail),
      leaseMs: f.leaseMs,
    })),
    partitionCounts: m.partitionCounts,
  })
}

function checkGroupValue(v: GroupMetadataRecord): GroupMetadataRecord {
  checkString(v.protocolType, 'protocolType', MAX_PROTOCOL_TYPE_LENGTH, fail)
  checkInt(v.generation, 'generation', 0, INT32_MAX, fail)
  if (v.protocol !== undefined) checkString(v.protocol, 'protocol', MAX_PROTOCOL_NAME_LENGTH, fail, 1)
  checkInt(v.stateTimestamp, 'stateTimestamp', 0, Number.MAX_SAFE_INTEGER, fail)
  if (v.members.length > 0 && v.protocol === undefined) fail('a group with members has no protocol')
  const memberIds = new Set<string>()
  const instanceIds = new Set<string>()
  const owner = new Set<string>()
  for (const m of v.members) {
    checkString(m.memberId, 'memberId', MAX_MEMBER_ID_LENGTH, fail, 1)
    if (memberIds.has(m.memberId)) fail(`member ${m.memberId} listed twice`)
    memberIds.add(m.memberId)
    if (m.groupInstanceId !== undefined) {
      checkOptionalName(m.groupInstanceId, 'groupInstanceId', MAX_GROUP_INSTANCE_ID_LENGTH, fail)
      if (instanceIds.has(m.groupInstanceId)) fail(`instance ${m.groupInstanceId} listed twice`)
      instanceIds.add(m.groupInstanceId)
    }
    checkString(m.clientId, 'clientId', MAX_CLIENT_ID_LENGTH, fail)
    checkInt(m.sessionTimeoutMs, 'sessionTimeoutMs', 1, MAX_TIMEOUT_MS, fail)
    checkInt(m.rebalanceTimeoutMs, 'rebalanceTimeoutMs', 1, MAX_TIMEOUT_MS, fail)
    if (m.protocols.length === 0 || m.protocols.length > MAX_PROTOCOLS) fail('member protocols out of range')
    for (const p of m.protocols) checkString(p, 'protocol', MAX_PROTOCOL_NAME_LENGTH, fail, 1)
    checkTopics(m.topics, 'topics', fail)
    checkInt(m.startedAt, 'startedAt', 0, Number.MAX_SAFE_INTEGER, fail)
    // A partition held by two members would be two owners: refuse the record outright.
    for (const tp of [...m.assignment, ...m.held]) {
      const key = keyOf(tp)
      if (owner.has(key)) fail(`${tp.topic}-${tp.partition} held by two members`)
      owner.add(key)
    }
  }
  for (const f of v.fenced) {
    checkString(f.memberId, 'fenced memberId', MAX_MEMBER_ID_LENGTH, fail, 1)
    checkInt(f.leaseMs, 'leaseMs', 0, MAX_TIMEOUT_MS, fail)
  }
  checkTopics(
    v.partitionCounts.map((c) => c.topic),
    'partitionCounts',
    fail,
  )
  for (const c of v.partitionCounts) checkInt(c.partitions, 'partition count', 1, MAX_PARTITION_NUMBER, fail)
  return v
}

function decodeWith<T>(decode: () => T, what: string): T {
  try {
    return decode()
  } catch (err) {
    return fail(`undecodable ${what}: ${(err as Error).message}`)
  }
}

// ---- whole records ----

export function offsetCommitRecord(groupId: string, tp: TopicPartition, value: OffsetCommitRecord): OffsetsRecord {
  return {
    key: encodeOffsetsKey({ type: 'offset', groupId, topic: tp.topic, partition: tp.partition }),
    value: encodeOffsetCommitValue(value),
  }
}

export function offsetTombstone(groupId: string, tp: TopicPartition): OffsetsRecord {
  return { key: encodeOffsetsKey({ type: 'offset', groupId, topic: tp.topic, partition: tp.partition }), value: null }
}

export function groupMetadataRecord(groupId: string, value: GroupMetadataRecord): OffsetsRecord {
  return { key: encodeOffsetsKey({ type: 'group', groupId }), value: encodeGroupMetadataValue(value) }
}

export function groupTombstone(groupId: string): OffsetsRecord {
  return { key: encodeOffsetsKey({ type: 'group', groupId }), value: null }
}
