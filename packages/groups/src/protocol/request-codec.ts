/**
 * Group requests (member → coordinator) to and from bytes (`@tributary/wire/pb/groups`). Decoding
 * validates every field and the envelope (version, exactly one body); anything malformed is an
 * InvalidRequestError and nothing else happens. Encoding validates too, so a member never sends
 * what the coordinator refuses, and the coordinator validates what it is handed in-process.
 */
import { InvalidRequestError } from '@tributary/wire'
import * as pb from '@tributary/wire/pb/groups'
import {
  MAX_CLIENT_ID_LENGTH,
  MAX_GROUP_ID_LENGTH,
  MAX_GROUP_INSTANCE_ID_LENGTH,
  MAX_GROUP_MESSAGE_BYTES,
  MAX_HEARTBEAT_WAIT_MS,
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
import { byTopic, keyOf } from '../topic-partition.js'
import { groupByTopic, INT32_MAX, KINDS, OFFSET_MAX, onlyBody, optional, VERSION } from './envelope.js'
import type { CommitOffset, GroupRequest, GroupRequestBody } from './messages.js'
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

const failRequest: Fail = (message) => {
  throw new InvalidRequestError(`invalid group request: ${message}`)
}

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
        startedAt: BigInt(checked.startedAt),
      }
      break
    case 'sync':
      message.sync = {
        memberId: checked.memberId,
        groupInstanceId: checked.groupInstanceId ?? '',
        generation: checked.generation,
      }
      break
    case 'heartbeat':
      message.heartbeat = {
        memberId: checked.memberId,
        groupInstanceId: checked.groupInstanceId ?? '',
        generation: checked.generation,
        maxWaitMs: checked.maxWaitMs ?? 0,
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
        startedAt: checkInt(join.startedAt, 'startedAt', 0, Number.MAX_SAFE_INTEGER, failRequest),
      }
      break
    }
    case 'sync': {
      const m = message.sync!
      body = { kind, memberId: m.memberId, groupInstanceId: optional(m.groupInstanceId), generation: m.generation }
      break
    }
    case 'heartbeat': {
      const m = message.heartbeat!
      body = {
        kind,
        memberId: m.memberId,
        groupInstanceId: optional(m.groupInstanceId),
        generation: m.generation,
        ...(m.maxWaitMs === 0 ? {} : { maxWaitMs: m.maxWaitMs }),
      }
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
      checkInt(request.startedAt, 'startedAt', 0, Number.MAX_SAFE_INTEGER, fail)
      break
    case 'sync':
      checkString(request.memberId, 'memberId', MAX_MEMBER_ID_LENGTH, fail, 1)
      checkInt(request.generation, 'generation', 0, INT32_MAX, fail)
      break
    case 'heartbeat':
      checkString(request.memberId, 'memberId', MAX_MEMBER_ID_LENGTH, fail, 1)
      checkInt(request.generation, 'generation', 0, INT32_MAX, fail)
      if (request.maxWaitMs !== undefined) checkInt(request.maxWaitMs, 'maxWaitMs', 0, MAX_HEARTBEAT_WAIT_MS, fail)
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

function groupOffsets(offsets: CommitOffset[]): pb.CommitTopic[] {
  return groupByTopic(offsets, (o) => ({
    partition: o.partition,
    offset: BigInt(o.offset),
    leaderEpoch: o.leaderEpoch,
    metadata: o.metadata,
  }))
}
