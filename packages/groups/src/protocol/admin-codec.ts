/**
 * Group administration messages (`/tributary/group-admin/1.0.0`) to and from bytes, validated
 * both ways: list the groups a peer coordinates, describe one (members, assignments, committed
 * offsets), delete an empty one, or set the committed offsets of an empty one.
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
  MAX_PEER_ID_LENGTH,
  MAX_PROTOCOL_NAME_LENGTH,
  MAX_PROTOCOL_TYPE_LENGTH,
} from '../constants.js'
import { byTopic, type TopicPartition } from '../topic-partition.js'
import { groupByTopic, INT32_MAX, OFFSET_MAX, VERSION } from './envelope.js'
import type { FetchedOffset } from './messages.js'
import { checkInt, checkOptionalName, checkString, checkTopic, checkTopicPartitions, type Fail } from './validate.js'

export type GroupAdminRequest =
  | { kind: 'list' }
  | { kind: 'describe'; groupId: string }
  | { kind: 'delete'; groupId: string }
  | { kind: 'alter-offsets'; groupId: string; offsets: Array<TopicPartition & { offset: number }> }

export interface ListedGroup {
  groupId: string
  state: string
  protocolType: string
  members: number
}

export interface DescribedGroupMember {
  memberId: string
  groupInstanceId: string | undefined
  clientId: string
  assignment: TopicPartition[]
}

export interface DescribedGroup {
  groupId: string
  state: string
  generation: number
  protocolType: string
  protocol: string
  members: DescribedGroupMember[]
  offsets: FetchedOffset[]
}

export interface GroupAdminResponse {
  errorCode: number
  errorMessage: string
  coordinatorHint: string | undefined
  groups: ListedGroup[]
  group: DescribedGroup | undefined
}

const MAX_STATE_LENGTH = 32
const MAX_LISTED_GROUPS = 100_000

const failRequest: Fail = (message) => {
  throw new InvalidRequestError(`invalid group admin request: ${message}`)
}
const failResponse: Fail = (message) => {
  throw new InvalidRequestError(`invalid group admin response: ${message}`)
}

function decodeBounded<T>(bytes: Uint8Array, decode: (b: Uint8Array) => T, fail: Fail): T {
  if (bytes.byteLength > MAX_GROUP_MESSAGE_BYTES) fail(`${bytes.byteLength} bytes exceed ${MAX_GROUP_MESSAGE_BYTES}`)
  try {
    return decode(bytes)
  } catch (err) {
    return fail(`undecodable: ${(err as Error).message}`)
  }
}

export function encodeGroupAdminRequest(request: GroupAdminRequest): Uint8Array {
  const r = validateGroupAdminRequest(request)
  const message: pb.GroupAdminRequest = { version: VERSION, groupId: r.kind === 'list' ? '' : r.groupId }
  if (r.kind === 'list') message.list = {}
  else if (r.kind === 'describe') message.describe = {}
  else if (r.kind === 'delete') message.delete = {}
  else {
    message.alterOffsets = {
      topics: groupByTopic(r.offsets, (o) => ({
        partition: o.partition,
        offset: BigInt(o.offset),
        leaderEpoch: -1,
        metadata: '',
      })),
    }
  }
  return pb.GroupAdminRequest.encode(message)
}

export function decodeGroupAdminRequest(bytes: Uint8Array): GroupAdminRequest {
  const m = decodeBounded(bytes, (b) => pb.GroupAdminRequest.decode(b), failRequest)
  if (m.version !== VERSION) failRequest(`unsupported version ${m.version}`)
  const bodies = [m.list, m.describe, m.delete, m.alterOffsets].filter((b) => b !== undefined)
  if (bodies.length !== 1) failRequest(`carries ${bodies.length} bodies; exactly one is allowed`)
  let request: GroupAdminRequest
  if (m.list !== undefined) request = { kind: 'list' }
  else if (m.describe !== undefined) request = { kind: 'describe', groupId: m.groupId }
  else if (m.delete !== undefined) request = { kind: 'delete', groupId: m.groupId }
  else {
    const offsets: Array<TopicPartition & { offset: number }> = []
    for (const t of m.alterOffsets!.topics) {
      for (const p of t.partitions) {
        offsets.push({
          topic: t.topic,
          partition: p.partition,
          offset: checkInt(p.offset, 'offset', 0, OFFSET_MAX, failRequest),
        })
      }
    }
    request = { kind: 'alter-offsets', groupId: m.groupId, offsets }
  }
  return validateGroupAdminRequest(request)
}

export function validateGroupAdminRequest(request: GroupAdminRequest): GroupAdminRequest {
  if (request.kind === 'list') return request
  if (!['describe', 'delete', 'alter-offsets'].includes(request.kind)) failRequest('unknown kind')
  checkString(request.groupId, 'groupId', MAX_GROUP_ID_LENGTH, failRequest, 1)
  if (request.kind === 'alter-offsets') {
    if (!Array.isArray(request.offsets) || request.offsets.length === 0) failRequest('alter-offsets names no partition')
    checkTopicPartitions(byTopic(request.offsets), 'offsets', failRequest)
    for (const o of request.offsets) checkInt(o.offset, 'offset', 0, OFFSET_MAX, failRequest)
  }
  return request
}

export function encodeGroupAdminResponse(response: GroupAdminResponse): Uint8Array {
  const r = validateGroupAdminResponse(response)
  return pb.GroupAdminResponse.encode({
    version: VERSION,
    errorCode: r.errorCode,
    errorMessage: r.errorMessage,
    coordinatorHint: r.coordinatorHint ?? '',
    groups: r.groups.map((g) => ({ ...g })),
    ...(r.group === undefined
      ? {}
      : {
          group: {
            groupId: r.group.groupId,
            state: r.group.state,
            generation: r.group.generation,
            protocolType: r.group.protocolType,
            protocol: r.group.protocol,
            members: r.group.members.map((m) => ({
              memberId: m.memberId,
              groupInstanceId: m.groupInstanceId ?? '',
              clientId: m.clientId,
              assignment: byTopic(m.assignment),
            })),
            offsets: groupByTopic(r.group.offsets, (o) => ({
              partition: o.partition,
              offset: BigInt(o.offset),
              leaderEpoch: o.leaderEpoch,
              metadata: o.metadata,
            })),
          },
        }),
  })
}

export function decodeGroupAdminResponse(bytes: Uint8Array): GroupAdminResponse {
  const m = decodeBounded(bytes, (b) => pb.GroupAdminResponse.decode(b), failResponse)
  if (m.version !== VERSION) failResponse(`unsupported version ${m.version}`)
  const g = m.group
  return validateGroupAdminResponse({
    errorCode: m.errorCode,
    errorMessage: m.errorMessage,
    coordinatorHint: m.coordinatorHint === '' ? undefined : m.coordinatorHint,
    groups: m.groups.map((x) => ({ ...x })),
    group:
      g === undefined
        ? undefined
        : {
            groupId: g.groupId,
            state: g.state,
            generation: g.generation,
            protocolType: g.protocolType,
            protocol: g.protocol,
            members: g.members.map((x) => ({
              memberId: x.memberId,
              groupInstanceId: x.groupInstanceId === '' ? undefined : x.groupInstanceId,
              clientId: x.clientId,
              assignment: checkTopicPartitions(x.assignment, 'assignment', failResponse),
            })),
            offsets: g.offsets.flatMap((t) =>
              t.partitions.map((p) => ({
                topic: t.topic,
                partition: p.partition,
                offset: checkInt(p.offset, 'offset', -1, OFFSET_MAX, failResponse),
                leaderEpoch: p.leaderEpoch,
                metadata: p.metadata,
              })),
            ),
          },
  })
}

export function validateGroupAdminResponse(response: GroupAdminResponse): GroupAdminResponse {
  const fail = failResponse
  checkInt(response.errorCode, 'errorCode', -1, 32_767, fail)
  checkString(response.errorMessage, 'errorMessage', MAX_ERROR_MESSAGE_LENGTH, fail)
  if (response.coordinatorHint !== undefined)
    checkString(response.coordinatorHint, 'coordinatorHint', MAX_PEER_ID_LENGTH, fail, 1)
  if (response.groups.length > MAX_LISTED_GROUPS) fail(`lists more than ${MAX_LISTED_GROUPS} groups`)
  for (const g of response.groups) {
    checkString(g.groupId, 'groupId', MAX_GROUP_ID_LENGTH, fail, 1)
    checkString(g.state, 'state', MAX_STATE_LENGTH, fail, 1)
    checkString(g.protocolType, 'protocolType', MAX_PROTOCOL_TYPE_LENGTH, fail)
    checkInt(g.members, 'members', 0, INT32_MAX, fail)
  }
  const d = response.group
  if (d !== undefined) {
    checkString(d.groupId, 'groupId', MAX_GROUP_ID_LENGTH, fail, 1)
    checkString(d.state, 'state', MAX_STATE_LENGTH, fail, 1)
    checkInt(d.generation, 'generation', -1, INT32_MAX, fail)
    checkString(d.protocolType, 'protocolType', MAX_PROTOCOL_TYPE_LENGTH, fail)
    checkString(d.protocol, 'protocol', MAX_PROTOCOL_NAME_LENGTH, fail)
    for (const m of d.members) {
      checkString(m.memberId, 'memberId', MAX_MEMBER_ID_LENGTH, fail, 1)
      checkOptionalName(m.groupInstanceId ?? '', 'groupInstanceId', MAX_GROUP_INSTANCE_ID_LENGTH, fail)
      checkString(m.clientId, 'clientId', MAX_CLIENT_ID_LENGTH, fail)
    }
    for (const o of d.offsets) {
      checkTopic(o.topic, 'offset topic', fail)
      checkInt(o.offset, 'offset', -1, OFFSET_MAX, fail)
      checkString(o.metadata, 'metadata', MAX_OFFSET_METADATA_LENGTH, fail)
    }
  }
  return response
}
