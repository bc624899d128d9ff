/**
 * Group messages to and from bytes (`@tributary/wire/pb/groups`). Decoding validates every field
 * and the envelope (version, exactly one body); anything malformed is an InvalidRequestError and
 * nothing else happens. Encoding validates too, so this side never sends what the other refuses.
 */
import { InvalidRequestError } from '@tributary/wire'
import * as pb from '@tributary/wire/pb/groups'
import {
  MAX_CLIENT_ID_LENGTH,
  MAX_ERROR_MESSAGE_LENGTH,
  MAX_GROUP_ID_LENGTH,
  MAX_GROUP_INSTANCE_ID_LENGTH,
  MAX_GROUP_MESSAGE_BYTES,
  MAX_MEMBER_ID_LENGTH,
  MAX_OFFSET_METADATA_LENGTH,
  MAX_PARTITION_NUMBER,
  MAX_PARTITIONS_PER_MESSAGE,
  MAX_PROTOCOL_NAME_LENGTH,
  MAX_PROTOCOL_TYPE_LENGTH,
  MAX_PROTOCOLS,
  MAX_REASON_LENGTH,
  MAX_SENDER_LENGTH,
  MAX_TIMEOUT_MS,
} from '../constants.js'
import { byTopic, keyOf, type TopicPartition } from '../topic-partition.js'
import type {
  CommitOffset,
  FetchedOffset,
  GroupRequest,
  GroupRequestBody,
  GroupResponse,
  GroupResponseBody,
  PartitionResult,
} from './messages.js'
import {
  checkInt,
  checkOptionalName,
  checkString,
  checkTopic,
  checkTopicPartitions,
  checkTopics,
  checkUnique,
  type Fail,
} from './validate.js'

const VERSION = 1
const INT32_MAX = 2_147_483_647
const OFFSET_MAX = Number.MAX_SAFE_INTEGER
const KINDS = ['join', 'sync', 'heartbeat', 'leave', 'commit', 'fetch'] as const

const failRequest: Fail = (message) => {
  throw new InvalidRequestError(`invalid group request: ${message}`)
}
const failResponse: Fail = (message) => {
  throw new InvalidRequestError(`invalid group response: ${message}`)
}

// ---- requests ----

export function encodeGroupRequest(request: GroupRequest): Uint8Array {
  const checked = validateGroupRequest(request)
  const message: pb.GroupRequest = {
    version: VERSION,
    groupId: checked.groupId,
    sender: checked.sender,
    requestId: BigInt(checked.requestId),
  }
  switch (checked.kind) {
    case 'join':
      message.join = {
        memberId: checked.memberId,
        groupInstanceId: checked.groupInstanceId ?? '',
        clientId: checked.clientId,
        protocolType: checked.protocolType,
        protocols: checked.protocols,
        sessionTimeoutMs: checked.sessionTimeoutMs,
        rebalanceTimeoutMs: checked.rebalanceTimeoutMs,
        topics: checked.topics,
        owned: byTopic(checked.owned),
        ownedGeneration: checked.ownedGeneration,
        reason: checked.reason,
      }
      break
    case 'sync':
    case 'heartbeat':
      message[checked.kind] = {
        memberId: checked.memberId,
        groupInstanceId: checked.groupInstanceId ?? '',
        generation: checked.generation,
      }
      break
    case 'leave':
      message.leave = {
        memberId: checked.memberId,
        groupInstanceId: checked.groupInstanceId ?? '',
        reason: checked.reason,
      }
      break
    case 'commit':
      message.commit = {
        memberId: checked.memberId,
        groupInstanceId: checked.groupInstanceId ?? '',
        generation: checked.generation,
        topics: groupOffsets(checked.offsets),
      }
      break
    case 'fetch':
      message.fetch = { partitions: byTopic(checked.partitions ?? []) }
      break
  }
  return pb.GroupRequest.encode(message)
}

export function decodeGroupRequest(bytes: Uint8Array): GroupRequest {
  if (bytes.byteLength > MAX_GROUP_MESSAGE_BYTES)
    failRequest(`${bytes.byteLength} bytes exceed ${MAX_GROUP_MESSAGE_BYTES}`)
  let message: pb.GroupRequest
  try {
    message = pb.GroupRequest.decode(bytes)
  } catch (err) {
    return failRequest(`undecodable: ${(err as Error).message}`)
  }
  if (message.version !== VERSION) failRequest(`unsupported version ${message.version}`)
  const header = {
    groupId: message.groupId,
    sender: message.sender,
    requestId: checkInt(message.requestId, 'requestId', 1, Number.MAX_SAFE_INTEGER, failRequest),
  }
  const kind = onlyBody(message, failRequest)
  let body: GroupRequestBody
  switch (kind) {
    case 'join': {
      const join = message.join!
      body = {
        kind,
        memberId: join.memberId,
        groupInstanceId: join.groupInstanceId === '' ? undefined : join.groupInstanceId,
        clientId: join.clientId,
        protocolType: join.protocolType,
        protocols: join.protocols,
        sessionTimeoutMs: join.sessionTimeoutMs,
        rebalanceTimeoutMs: join.rebalanceTimeoutMs,
        topics: join.topics,
        owned: checkTopicPartitions(join.owned, 'owned', failRequest),
        ownedGeneration: join.ownedGeneration,
        reason: join.reason,
      }
      break
    }
    case 'sync':
    case 'heartbeat': {
      const m = message[kind]!
      body = { kind, memberId: m.memberId, groupInstanceId: optional(m.groupInstanceId), generation: m.generation }
      break
    }
    case 'leave': {
      const m = message.leave!
      body = { kind, memberId: m.memberId, groupInstanceId: optional(m.groupInstanceId), reason: m.reason }
      break
    }
    case 'commit': {
      const m = message.commit!
      const offsets: CommitOffset[] = []
      for (const topic of m.topics) {
        for (const p of topic.partitions) {
          offsets.push({
            topic: topic.topic,
            partition: p.partition,
            offset: checkInt(p.offset, 'offset', 0, OFFSET_MAX, failRequest),
            leaderEpoch: p.leaderEpoch,
            metadata: p.metadata,
          })
          if (offsets.length > MAX_PARTITIONS_PER_MESSAGE) failRequest('too many partitions in a commit')
        }
      }
      body = {
        kind,
        memberId: m.memberId,
        groupInstanceId: optional(m.groupInstanceId),
        generation: m.generation,
        offsets,
      }
      break
    }
    case 'fetch': {
      const partitions = checkTopicPartitions(message.fetch!.partitions, 'partitions', failRequest)
      body = { kind, partitions: partitions.length === 0 ? undefined : partitions }
      break
    }
  }
  return validateGroupRequest({ ...header, ...body })
}

/** Checks a request built in-process (the coordinator calls it on everything it is handed). */
export function validateGroupRequest(request: GroupRequest): GroupRequest {
  const fail = failRequest
  checkString(request.groupId, 'groupId', MAX_GROUP_ID_LENGTH, fail, 1)
  checkString(request.sender, 'sender', MAX_SENDER_LENGTH, fail, 1)
  checkInt(request.requestId, 'requestId', 1, Number.MAX_SAFE_INTEGER, fail)
  if (!(KINDS as readonly string[]).includes(request.kind)) fail(`unknown kind ${String(request.kind).slice(0, 16)}`)
  if (request.kind === 'fetch') {
    if (request.partitions !== undefined) checkTopicPartitions(byTopic(request.partitions), 'partitions', fail)
    return request
  }
  checkString(request.memberId, 'memberId', MAX_MEMBER_ID_LENGTH, fail)
  if (request.groupInstanceId !== undefined) {
    checkOptionalName(request.groupInstanceId, 'groupInstanceId', MAX_GROUP_INSTANCE_ID_LENGTH, fail)
  }
  switch (request.kind) {
    case 'join':
      checkString(request.clientId, 'clientId', MAX_CLIENT_ID_LENGTH, fail)
      checkString(request.protocolType, 'protocolType', MAX_PROTOCOL_TYPE_LENGTH, fail, 1)
      if (request.protocols.length === 0 || request.protocols.length > MAX_PROTOCOLS) {
        fail(`protocols must list 1 to ${MAX_PROTOCOLS} assignors`)
      }
      for (const name of request.protocols) checkString(name, 'protocol', MAX_PROTOCOL_NAME_LENGTH, fail, 1)
      checkUnique(request.protocols, 'protocols', fail)
      checkInt(request.sessionTimeoutMs, 'sessionTimeoutMs', 1, MAX_TIMEOUT_MS, fail)
      checkInt(request.rebalanceTimeoutMs, 'rebalanceTimeoutMs', 1, MAX_TIMEOUT_MS, fail)
      checkTopics(request.topics, 'topics', fail)
      checkTopicPartitions(byTopic(request.owned), 'owned', fail)
      if (new Set(request.owned.map(keyOf)).size !== request.owned.length) fail('owned lists a partition twice')
      checkInt(request.ownedGeneration, 'ownedGeneration', -1, INT32_MAX, fail)
      checkString(request.reason, 'reason', MAX_REASON_LENGTH, fail)
      break
    case 'sync':
    case 'heartbeat':
      checkString(request.memberId, 'memberId', MAX_MEMBER_ID_LENGTH, fail, 1)
      checkInt(request.generation, 'generation', 0, INT32_MAX, fail)
      break
    case 'leave':
      if (request.memberId === '' && request.groupInstanceId === undefined) fail('leave names no member')
      checkString(request.reason, 'reason', MAX_REASON_LENGTH, fail)
      break
    case 'commit': {
      checkInt(request.generation, 'generation', -1, INT32_MAX, fail)
      if ((request.generation === -1) !== (request.memberId === '')) {
        fail('a commit names both a member and a generation, or neither')
      }
      const seen = new Set<string>()
      if (request.offsets.length > MAX_PARTITIONS_PER_MESSAGE) fail('too many partitions in a commit')
      for (const o of request.offsets) {
        checkTopic(o.topic, 'commit topic', fail)
        checkInt(o.partition, 'commit partition', 0, MAX_PARTITION_NUMBER - 1, fail)
        checkInt(o.offset, 'offset', 0, OFFSET_MAX, fail)
        checkInt(o.leaderEpoch, 'leaderEpoch', -1, INT32_MAX, fail)
        // Over-long metadata is answered per partition (OFFSET_METADATA_TOO_LARGE); only absurd sizes are refused here.
        checkString(o.metadata, 'metadata', MAX_OFFSET_METADATA_LENGTH * 16, fail)
        if (seen.has(keyOf(o))) fail(`commit lists ${o.topic}-${o.partition} twice`)
        seen.add(keyOf(o))
      }
      break
    }
  }
  return request
}

// ---- responses ----

export function encodeGroupResponse(response: GroupResponse): Uint8Array {
  const r = validateGroupResponse(response)
  const message: pb.GroupResponse = {
    version: VERSION,
    groupId: r.groupId,
    recipient: r.recipient,
    requestId: BigInt(r.requestId),
    errorCode: r.errorCode,
    errorMessage: r.errorMessage,
    sessionRenewed: r.sessionRenewed,
  }
  switch (r.kind) {
    case 'join':
      message.join = { generation: r.generation, protocol: r.protocol, memberId: r.memberId }
      break
    case 'sync':
      message.sync = {
        generation: r.generation,
        protocol: r.protocol,
        assignment: byTopic(r.assignment),
        revoke: byTopic(r.revoke),
      }
      break
    case 'heartbeat':
    case 'leave':
      message[r.kind] = {}
      break
    case 'commit':
      message.commit = { topics: groupResults(r.results) }
      break
    case 'fetch':
      message.fetch = { topics: groupFetched(r.offsets) }
      break
  }
  return pb.GroupResponse.encode(message)
}

export function decodeGroupResponse(bytes: Uint8Array): GroupResponse {
  if (bytes.byteLength > MAX_GROUP_MESSAGE_BYTES)
    failResponse(`${bytes.byteLength} bytes exceed ${MAX_GROUP_MESSAGE_BYTES}`)
  let m: pb.GroupResponse
  try {
    m = pb.GroupResponse.decode(bytes)
  } catch (err) {
    return failResponse(`undecodable: ${(err as Error).message}`)
  }
  if (m.version !== VERSION) failResponse(`unsupported version ${m.version}`)
  const header = {
    groupId: m.groupId,
    recipient: m.recipient,
    requestId: checkInt(m.requestId, 'requestId', 1, Number.MAX_SAFE_INTEGER, failResponse),
    errorCode: m.errorCode,
    errorMessage: m.errorMessage,
    sessionRenewed: m.sessionRenewed,
  }
  const kind = onlyBody(m, failResponse)
  let body: GroupResponseBody
  switch (kind) {
    case 'join':
      body = { kind, ...m.join! }
      break
    case 'sync': {
      const s = m.sync!
      body = {
        kind,
        generation: s.generation,
        protocol: s.protocol,
        assignment: checkTopicPartitions(s.assignment, 'assignment', failResponse),
        revoke: checkTopicPartitions(s.revoke, 'revoke', failResponse),
      }
      break
    }
    case 'heartbeat':
    case 'leave':
      body = { kind }
      break
    case 'commit':
      body = {
        kind,
        results: bounded(
          m.commit!.topics.flatMap((t) => t.partitions.map((p) => ({ topic: t.topic, ...p }))),
          failResponse,
        ),
      }
      break
    case 'fetch':
      body = {
        kind,
        offsets: bounded(
          m.fetch!.topics.flatMap((t) =>
            t.partitions.map((p) => ({
              topic: t.topic,
              partition: p.partition,
              offset: checkInt(p.offset, 'offset', -1, OFFSET_MAX, failResponse),
              leaderEpoch: p.leaderEpoch,
              metadata: p.metadata,
            })),
          ),
          failResponse,
        ),
      }
      break
  }
  return validateGroupResponse({ ...header, ...body })
}

export function validateGroupResponse(response: GroupResponse): GroupResponse {
  const fail = failResponse
  checkString(response.groupId, 'groupId', MAX_GROUP_ID_LENGTH, fail, 1)
  checkString(response.recipient, 'recipient', MAX_SENDER_LENGTH, fail, 1)
  checkInt(response.requestId, 'requestId', 1, Number.MAX_SAFE_INTEGER, fail)
  checkInt(response.errorCode, 'errorCode', -1, 32_767, fail)
  checkString(response.errorMessage, 'errorMessage', MAX_ERROR_MESSAGE_LENGTH, fail)
  if (typeof response.sessionRenewed !== 'boolean') fail('sessionRenewed must be a boolean')
  switch (response.kind) {
    case 'join':
      checkInt(response.generation, 'generation', -1, INT32_MAX, fail)
      checkString(response.protocol, 'protocol', MAX_PROTOCOL_NAME_LENGTH, fail)
      checkString(response.memberId, 'memberId', MAX_MEMBER_ID_LENGTH, fail)
      if (response.errorCode === 0 && (response.memberId === '' || response.protocol === '')) {
        fail('a successful join names the member and the protocol')
      }
      break
    case 'sync': {
      checkInt(response.generation, 'generation', -1, INT32_MAX, fail)
      checkString(response.protocol, 'protocol', MAX_PROTOCOL_NAME_LENGTH, fail)
      const assigned = new Set(checkTopicPartitions(byTopic(response.assignment), 'assignment', fail).map(keyOf))
      if (assigned.size !== response.assignment.length) fail('assignment lists a partition twice')
      for (const tp of checkTopicPartitions(byTopic(response.revoke), 'revoke', fail)) {
        if (assigned.has(keyOf(tp))) fail(`${tp.topic}-${tp.partition} is both assigned and revoked`)
      }
      break
    }
    case 'heartbeat':
    case 'leave':
      break
    case 'commit':
      for (const r of response.results) {
        checkTopic(r.topic, 'result topic', fail)
        checkInt(r.partition, 'result partition', 0, MAX_PARTITION_NUMBER - 1, fail)
        checkInt(r.errorCode, 'result errorCode', -1, 32_767, fail)
        checkString(r.errorMessage, 'result errorMessage', MAX_ERROR_MESSAGE_LENGTH, fail)
      }
      break
    case 'fetch':
      for (const o of response.offsets) {
        checkTopic(o.topic, 'offset topic', fail)
        checkInt(o.partition, 'offset partition', 0, MAX_PARTITION_NUMBER - 1, fail)
        checkInt(o.offset, 'offset', -1, OFFSET_MAX, fail)
        checkInt(o.leaderEpoch, 'leaderEpoch', -1, INT32_MAX, fail)
        checkString(o.metadata, 'metadata', MAX_OFFSET_METADATA_LENGTH, fail)
      }
      break
    default:
      fail(`unknown kind ${String((response as { kind: unknown }).kind).slice(0, 16)}`)
  }
  return response
}

// ---- helpers ----

function onlyBody<T extends Record<(typeof KINDS)[number], unknown>>(
  message: Partial<T>,
  fail: Fail,
): (typeof KINDS)[number] {
  const present = KINDS.filter((kind) => message[kind] !== undefined)
  if (present.length !== 1) fail(`carries ${present.length} bodies; exactly one is allowed`)
  return present[0]!
}

function optional(value: string): string | undefined {
  return value === '' ? undefined : value
}

function bounded<T>(list: T[], fail: Fail): T[] {
  if (list.length > MAX_PARTITIONS_PER_MESSAGE) fail(`lists more than ${MAX_PARTITIONS_PER_MESSAGE} partitions`)
  return list
}

function groupOffsets(offsets: CommitOffset[]): pb.CommitTopic[] {
  return groupByTopic(offsets, (o) => ({
    partition: o.partition,
    offset: BigInt(o.offset),
    leaderEpoch: o.leaderEpoch,
    metadata: o.metadata,
  }))
}

function groupResults(results: PartitionResult[]): pb.PartitionResults[] {
  return groupByTopic(results, (r) => ({
    partition: r.partition,
    errorCode: r.errorCode,
    errorMessage: r.errorMessage,
  }))
}

function groupFetched(offsets: FetchedOffset[]): pb.FetchedTopic[] {
  return groupByTopic(offsets, (o) => ({
    partition: o.partition,
    offset: BigInt(o.offset),
    leaderEpoch: o.leaderEpoch,
    metadata: o.metadata,
  }))
}

function groupByTopic<T extends TopicPartition, P>(
  items: T[],
  toPartition: (item: T) => P,
): Array<{ topic: string; partitions: P[] }> {
  const topics = new Map<string, P[]>()
  for (const item of items) {
    const list = topics.get(item.topic)
    if (list === undefined) topics.set(item.topic, [toPartition(item)])
    else list.push(toPartition(item))
  }
  return [...topics].map(([topic, partitions]) => ({ topic, partitions }))
}
