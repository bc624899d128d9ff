/**
 * Group responses (coordinator → member) to and from bytes, validated both ways like requests
 * (request-codec.ts): a member never acts on a malformed answer.
 */
import { InvalidRequestError } from '@tributary/wire'
import * as pb from '@tributary/wire/pb/groups'
import {
  MAX_ERROR_MESSAGE_LENGTH,
  MAX_GROUP_ID_LENGTH,
  MAX_GROUP_MESSAGE_BYTES,
  MAX_MEMBER_ID_LENGTH,
  MAX_OFFSET_METADATA_LENGTH,
  MAX_PARTITION_NUMBER,
  MAX_PEER_ID_LENGTH,
  MAX_PROTOCOL_NAME_LENGTH,
  MAX_SENDER_LENGTH,
} from '../constants.js'
import { byTopic, keyOf } from '../topic-partition.js'
import { bounded, groupByTopic, INT32_MAX, OFFSET_MAX, onlyBody, VERSION } from './envelope.js'
import type { FetchedOffset, GroupResponse, GroupResponseBody, PartitionResult } from './messages.js'
import { checkInt, checkString, checkTopic, checkTopicPartitions, type Fail } from './validate.js'

const failResponse: Fail = (message) => {
  throw new InvalidRequestError(`invalid group response: ${message}`)
}

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
    coordinatorHint: r.coordinatorHint ?? '',
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
    ...(m.coordinatorHint === '' ? {} : { coordinatorHint: m.coordinatorHint }),
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
  if (response.coordinatorHint !== undefined)
    checkString(response.coordinatorHint, 'coordinatorHint', MAX_PEER_ID_LENGTH, fail, 0)
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
