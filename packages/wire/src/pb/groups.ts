/* eslint-disable require-yield */

import { decodeMessage, encodeMessage, MaxLengthError, message, streamMessage } from 'protons-runtime'
import type { Codec, DecodeOptions } from 'protons-runtime'
import type { Uint8ArrayList } from 'uint8arraylist'

export interface TopicPartitions {
  topic: string
  partitions: number[]
}

export namespace TopicPartitions {
  let _codec: Codec<TopicPartitions>

  export const codec = (): Codec<TopicPartitions> => {
    if (_codec == null) {
      _codec = message<TopicPartitions>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.topic != null && obj.topic !== '')) {
          w.uint32(10)
          w.string(obj.topic)
        }

        if (obj.partitions != null && obj.partitions.length > 0) {
          for (const value of obj.partitions) {
            w.uint32(16)
            w.uint32(value)
          }
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          topic: '',
          partitions: []
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.topic = reader.string()
              break
            }
            case 2: {
              if (opts.limits?.partitions != null && obj.partitions.length === opts.limits.partitions) {
                throw new MaxLengthError('Decode error - repeated field "partitions" had too many elements')
              }

              if (obj.partitions.length === 10000) {
                throw new MaxLengthError('Decode error - repeated field "partitions" had too many elements')
              }

              obj.partitions.push(reader.uint32())
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const obj = {
          partitions: 10000
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.topic`,
                value: reader.string()
              }
              break
            }
            case 2: {
              if (opts.limits?.partitions != null && obj.partitions === opts.limits.partitions) {
                throw new MaxLengthError('Streaming decode error - repeated field "partitions" had too many elements')
              }

              if (obj.partitions === 10000) {
                throw new MaxLengthError('Streaming decode error - repeated field "partitions" had too many elements')
              }

              yield {
                field: `${prefix}.partitions[]`,
                index: obj.partitions,
                value: reader.uint32()
              }

              obj.partitions++

              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export interface TopicPartitionsTopicFieldEvent {
    field: '$.topic'
    value: string
  }

  export interface TopicPartitionsPartitionsFieldEvent {
    field: '$.partitions[]'
    index: number
    value: number
  }

  export function encode (obj: Partial<TopicPartitions>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, TopicPartitions.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<TopicPartitions>): TopicPartitions {
    return decodeMessage(buf, TopicPartitions.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<TopicPartitions>): Generator<TopicPartitionsTopicFieldEvent | TopicPartitionsPartitionsFieldEvent> {
    return streamMessage(buf, TopicPartitions.codec(), opts)
  }
}

export interface GroupRequest {
  version: number
  groupId: string
  sender: string
  requestId: bigint
  join?: JoinGroupRequest
  sync?: SyncGroupRequest
  heartbeat?: HeartbeatRequest
  leave?: LeaveGroupRequest
  commit?: OffsetCommitRequest
  fetch?: OffsetFetchRequest
}

export namespace GroupRequest {
  let _codec: Codec<GroupRequest>

  export const codec = (): Codec<GroupRequest> => {
    if (_codec == null) {
      _codec = message<GroupRequest>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.version != null && obj.version !== 0)) {
          w.uint32(8)
          w.uint32(obj.version)
        }

        if ((obj.groupId != null && obj.groupId !== '')) {
          w.uint32(18)
          w.string(obj.groupId)
        }

        if ((obj.sender != null && obj.sender !== '')) {
          w.uint32(26)
          w.string(obj.sender)
        }

        if ((obj.requestId != null && obj.requestId !== 0n)) {
          w.uint32(32)
          w.uint64(obj.requestId)
        }

        if (obj.join != null) {
          w.uint32(82)
          JoinGroupRequest.codec().encode(obj.join, w)
        }

        if (obj.sync != null) {
          w.uint32(90)
          SyncGroupRequest.codec().encode(obj.sync, w)
        }

        if (obj.heartbeat != null) {
          w.uint32(98)
          HeartbeatRequest.codec().encode(obj.heartbeat, w)
        }

        if (obj.leave != null) {
          w.uint32(106)
          LeaveGroupRequest.codec().encode(obj.leave, w)
        }

        if (obj.commit != null) {
          w.uint32(114)
          OffsetCommitRequest.codec().encode(obj.commit, w)
        }

        if (obj.fetch != null) {
          w.uint32(122)
          OffsetFetchRequest.codec().encode(obj.fetch, w)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          version: 0,
          groupId: '',
          sender: '',
          requestId: 0n
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.version = reader.uint32()
              break
            }
            case 2: {
              obj.groupId = reader.string()
              break
            }
            case 3: {
              obj.sender = reader.string()
              break
            }
            case 4: {
              obj.requestId = reader.uint64()
              break
            }
            case 10: {
              obj.join = JoinGroupRequest.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.join
              })
              break
            }
            case 11: {
              obj.sync = SyncGroupRequest.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.sync
              })
              break
            }
            case 12: {
              obj.heartbeat = HeartbeatRequest.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.heartbeat
              })
              break
            }
            case 13: {
              obj.leave = LeaveGroupRequest.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.leave
              })
              break
            }
            case 14: {
              obj.commit = OffsetCommitRequest.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.commit
              })
              break
            }
            case 15: {
              obj.fetch = OffsetFetchRequest.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.fetch
              })
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.version`,
                value: reader.uint32()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.groupId`,
                value: reader.string()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.sender`,
                value: reader.string()
              }
              break
            }
            case 4: {
              yield {
                field: `${prefix}.requestId`,
                value: reader.uint64()
              }
              break
            }
            case 10: {
              yield * JoinGroupRequest.codec().stream(reader, reader.uint32(), `${prefix}.join`, {
                limits: opts.limits?.join
              })

              break
            }
            case 11: {
              yield * SyncGroupRequest.codec().stream(reader, reader.uint32(), `${prefix}.sync`, {
                limits: opts.limits?.sync
              })

              break
            }
            case 12: {
              yield * HeartbeatRequest.codec().stream(reader, reader.uint32(), `${prefix}.heartbeat`, {
                limits: opts.limits?.heartbeat
              })

              break
            }
            case 13: {
              yield * LeaveGroupRequest.codec().stream(reader, reader.uint32(), `${prefix}.leave`, {
                limits: opts.limits?.leave
              })

              break
            }
            case 14: {
              yield * OffsetCommitRequest.codec().stream(reader, reader.uint32(), `${prefix}.commit`, {
                limits: opts.limits?.commit
              })

              break
            }
            case 15: {
              yield * OffsetFetchRequest.codec().stream(reader, reader.uint32(), `${prefix}.fetch`, {
                limits: opts.limits?.fetch
              })

              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export interface GroupRequestVersionFieldEvent {
    field: '$.version'
    value: number
  }

  export interface GroupRequestGroupIdFieldEvent {
    field: '$.groupId'
    value: string
  }

  export interface GroupRequestSenderFieldEvent {
    field: '$.sender'
    value: string
  }

  export interface GroupRequestRequestIdFieldEvent {
    field: '$.requestId'
    value: bigint
  }

  export interface GroupRequestJoinMemberIdFieldEvent {
    field: '$.join.memberId'
    value: string
  }

  export interface GroupRequestJoinGroupInstanceIdFieldEvent {
    field: '$.join.groupInstanceId'
    value: string
  }

  export interface GroupRequestJoinClientIdFieldEvent {
    field: '$.join.clientId'
    value: string
  }

  export interface GroupRequestJoinProtocolTypeFieldEvent {
    field: '$.join.protocolType'
    value: string
  }

  export interface GroupRequestJoinProtocolsFieldEvent {
    field: '$.join.protocols[]'
    index: number
    value: string
  }

  export interface GroupRequestJoinSessionTimeoutMsFieldEvent {
    field: '$.join.sessionTimeoutMs'
    value: number
  }

  export interface GroupRequestJoinRebalanceTimeoutMsFieldEvent {
    field: '$.join.rebalanceTimeoutMs'
    value: number
  }

  export interface GroupRequestJoinTopicsFieldEvent {
    field: '$.join.topics[]'
    index: number
    value: string
  }

  export interface GroupRequestJoinOwnedTopicFieldEvent {
    field: '$.join.owned[].topic'
    value: string
    index: number
  }

  export interface GroupRequestJoinOwnedPartitionsFieldEvent {
    field: '$.join.owned[].partitions[]'
    index: number
    value: number
  }

  export interface GroupRequestJoinOwnedGenerationFieldEvent {
    field: '$.join.ownedGeneration'
    value: number
  }

  export interface GroupRequestJoinReasonFieldEvent {
    field: '$.join.reason'
    value: string
  }

  export interface GroupRequestJoinStartedAtFieldEvent {
    field: '$.join.startedAt'
    value: bigint
  }

  export interface GroupRequestSyncMemberIdFieldEvent {
    field: '$.sync.memberId'
    value: string
  }

  export interface GroupRequestSyncGroupInstanceIdFieldEvent {
    field: '$.sync.groupInstanceId'
    value: string
  }

  export interface GroupRequestSyncGenerationFieldEvent {
    field: '$.sync.generation'
    value: number
  }

  export interface GroupRequestHeartbeatMemberIdFieldEvent {
    field: '$.heartbeat.memberId'
    value: string
  }

  export interface GroupRequestHeartbeatGroupInstanceIdFieldEvent {
    field: '$.heartbeat.groupInstanceId'
    value: string
  }

  export interface GroupRequestHeartbeatGenerationFieldEvent {
    field: '$.heartbeat.generation'
    value: number
  }

  export interface GroupRequestHeartbeatMaxWaitMsFieldEvent {
    field: '$.heartbeat.maxWaitMs'
    value: number
  }

  export interface GroupRequestLeaveMemberIdFieldEvent {
    field: '$.leave.memberId'
    value: string
  }

  export interface GroupRequestLeaveGroupInstanceIdFieldEvent {
    field: '$.leave.groupInstanceId'
    value: string
  }

  export interface GroupRequestLeaveReasonFieldEvent {
    field: '$.leave.reason'
    value: string
  }

  export interface GroupRequestCommitMemberIdFieldEvent {
    field: '$.commit.memberId'
    value: string
  }

  export interface GroupRequestCommitGroupInstanceIdFieldEvent {
    field: '$.commit.groupInstanceId'
    value: string
  }

  export interface GroupRequestCommitGenerationFieldEvent {
    field: '$.commit.generation'
    value: number
  }

  export interface GroupRequestCommitTopicsTopicFieldEvent {
    field: '$.commit.topics[].topic'
    value: string
    index: number
  }

  export interface GroupRequestCommitTopicsPartitionsPartitionFieldEvent {
    field: '$.commit.topics[].partitions[].partition'
    value: number
    index: number
  }

  export interface GroupRequestCommitTopicsPartitionsOffsetFieldEvent {
    field: '$.commit.topics[].partitions[].offset'
    value: bigint
    index: number
  }

  export interface GroupRequestCommitTopicsPartitionsLeaderEpochFieldEvent {
    field: '$.commit.topics[].partitions[].leaderEpoch'
    value: number
    index: number
  }

  export interface GroupRequestCommitTopicsPartitionsMetadataFieldEvent {
    field: '$.commit.topics[].partitions[].metadata'
    value: string
    index: number
  }

  export interface GroupRequestFetchPartitionsTopicFieldEvent {
    field: '$.fetch.partitions[].topic'
    value: string
    index: number
  }

  export interface GroupRequestFetchPartitionsPartitionsFieldEvent {
    field: '$.fetch.partitions[].partitions[]'
    index: number
    value: number
  }

  export function encode (obj: Partial<GroupRequest>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, GroupRequest.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<GroupRequest>): GroupRequest {
    return decodeMessage(buf, GroupRequest.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<GroupRequest>): Generator<GroupRequestVersionFieldEvent | GroupRequestGroupIdFieldEvent | GroupRequestSenderFieldEvent | GroupRequestRequestIdFieldEvent | GroupRequestJoinMemberIdFieldEvent | GroupRequestJoinGroupInstanceIdFieldEvent | GroupRequestJoinClientIdFieldEvent | GroupRequestJoinProtocolTypeFieldEvent | GroupRequestJoinProtocolsFieldEvent | GroupRequestJoinSessionTimeoutMsFieldEvent | GroupRequestJoinRebalanceTimeoutMsFieldEvent | GroupRequestJoinTopicsFieldEvent | GroupRequestJoinOwnedTopicFieldEvent | GroupRequestJoinOwnedPartitionsFieldEvent | GroupRequestJoinOwnedGenerationFieldEvent | GroupRequestJoinReasonFieldEvent | GroupRequestJoinStartedAtFieldEvent | GroupRequestSyncMemberIdFieldEvent | GroupRequestSyncGroupInstanceIdFieldEvent | GroupRequestSyncGenerationFieldEvent | GroupRequestHeartbeatMemberIdFieldEvent | GroupRequestHeartbeatGroupInstanceIdFieldEvent | GroupRequestHeartbeatGenerationFieldEvent | GroupRequestHeartbeatMaxWaitMsFieldEvent | GroupRequestLeaveMemberIdFieldEvent | GroupRequestLeaveGroupInstanceIdFieldEvent | GroupRequestLeaveReasonFieldEvent | GroupRequestCommitMemberIdFieldEvent | GroupRequestCommitGroupInstanceIdFieldEvent | GroupRequestCommitGenerationFieldEvent | GroupRequestCommitTopicsTopicFieldEvent | GroupRequestCommitTopicsPartitionsPartitionFieldEvent | GroupRequestCommitTopicsPartitionsOffsetFieldEvent | GroupRequestCommitTopicsPartitionsLeaderEpochFieldEvent | GroupRequestCommitTopicsPartitionsMetadataFieldEvent | GroupRequestFetchPartitionsTopicFieldEvent | GroupRequestFetchPartitionsPartitionsFieldEvent> {
    return streamMessage(buf, GroupRequest.codec(), opts)
  }
}

export interface JoinGroupRequest {
  memberId: string
  groupInstanceId: string
  clientId: string
  protocolType: string
  protocols: string[]
  sessionTimeoutMs: number
  rebalanceTimeoutMs: number
  topics: string[]
  owned: TopicPartitions[]
  ownedGeneration: number
  reason: string
  startedAt: bigint
}

export namespace JoinGroupRequest {
  let _codec: Codec<JoinGroupRequest>

  export const codec = (): Codec<JoinGroupRequest> => {
    if (_codec == null) {
      _codec = message<JoinGroupRequest>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.memberId != null && obj.memberId !== '')) {
          w.uint32(10)
          w.string(obj.memberId)
        }

        if ((obj.groupInstanceId != null && obj.groupInstanceId !== '')) {
          w.uint32(18)
          w.string(obj.groupInstanceId)
        }

        if ((obj.clientId != null && obj.clientId !== '')) {
          w.uint32(26)
          w.string(obj.clientId)
        }

        if ((obj.protocolType != null && obj.protocolType !== '')) {
          w.uint32(34)
          w.string(obj.protocolType)
        }

        if (obj.protocols != null && obj.protocols.length > 0) {
          for (const value of obj.protocols) {
            w.uint32(42)
            w.string(value)
          }
        }

        if ((obj.sessionTimeoutMs != null && obj.sessionTimeoutMs !== 0)) {
          w.uint32(48)
          w.uint32(obj.sessionTimeoutMs)
        }

        if ((obj.rebalanceTimeoutMs != null && obj.rebalanceTimeoutMs !== 0)) {
          w.uint32(56)
          w.uint32(obj.rebalanceTimeoutMs)
        }

        if (obj.topics != null && obj.topics.length > 0) {
          for (const value of obj.topics) {
            w.uint32(66)
            w.string(value)
          }
        }

        if (obj.owned != null && obj.owned.length > 0) {
          for (const value of obj.owned) {
            w.uint32(74)
            TopicPartitions.codec().encode(value, w)
          }
        }

        if ((obj.ownedGeneration != null && obj.ownedGeneration !== 0)) {
          w.uint32(80)
          w.sint32(obj.ownedGeneration)
        }

        if ((obj.reason != null && obj.reason !== '')) {
          w.uint32(90)
          w.string(obj.reason)
        }

        if ((obj.startedAt != null && obj.startedAt !== 0n)) {
          w.uint32(96)
          w.uint64(obj.startedAt)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          memberId: '',
          groupInstanceId: '',
          clientId: '',
          protocolType: '',
          protocols: [],
          sessionTimeoutMs: 0,
          rebalanceTimeoutMs: 0,
          topics: [],
          owned: [],
          ownedGeneration: 0,
          reason: '',
          startedAt: 0n
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.memberId = reader.string()
              break
            }
            case 2: {
              obj.groupInstanceId = reader.string()
              break
            }
            case 3: {
              obj.clientId = reader.string()
              break
            }
            case 4: {
              obj.protocolType = reader.string()
              break
            }
            case 5: {
              if (opts.limits?.protocols != null && obj.protocols.length === opts.limits.protocols) {
                throw new MaxLengthError('Decode error - repeated field "protocols" had too many elements')
              }

              if (obj.protocols.length === 16) {
                throw new MaxLengthError('Decode error - repeated field "protocols" had too many elements')
              }

              obj.protocols.push(reader.string())
              break
            }
            case 6: {
              obj.sessionTimeoutMs = reader.uint32()
              break
            }
            case 7: {
              obj.rebalanceTimeoutMs = reader.uint32()
              break
            }
            case 8: {
              if (opts.limits?.topics != null && obj.topics.length === opts.limits.topics) {
                throw new MaxLengthError('Decode error - repeated field "topics" had too many elements')
              }

              if (obj.topics.length === 10000) {
                throw new MaxLengthError('Decode error - repeated field "topics" had too many elements')
              }

              obj.topics.push(reader.string())
              break
            }
            case 9: {
              if (opts.limits?.owned != null && obj.owned.length === opts.limits.owned) {
                throw new MaxLengthError('Decode error - repeated field "owned" had too many elements')
              }

              if (obj.owned.length === 10000) {
                throw new MaxLengthError('Decode error - repeated field "owned" had too many elements')
              }

              obj.owned.push(TopicPartitions.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.owned$
              }))
              break
            }
            case 10: {
              obj.ownedGeneration = reader.sint32()
              break
            }
            case 11: {
              obj.reason = reader.string()
              break
            }
            case 12: {
              obj.startedAt = reader.uint64()
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const obj = {
          protocols: 16,
          topics: 10000,
          owned: 10000
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.memberId`,
                value: reader.string()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.groupInstanceId`,
                value: reader.string()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.clientId`,
                value: reader.string()
              }
              break
            }
            case 4: {
              yield {
                field: `${prefix}.protocolType`,
                value: reader.string()
              }
              break
            }
            case 5: {
              if (opts.limits?.protocols != null && obj.protocols === opts.limits.protocols) {
                throw new MaxLengthError('Streaming decode error - repeated field "protocols" had too many elements')
              }

              if (obj.protocols === 16) {
                throw new MaxLengthError('Streaming decode error - repeated field "protocols" had too many elements')
              }

              yield {
                field: `${prefix}.protocols[]`,
                index: obj.protocols,
                value: reader.string()
              }

              obj.protocols++

              break
            }
            case 6: {
              yield {
                field: `${prefix}.sessionTimeoutMs`,
                value: reader.uint32()
              }
              break
            }
            case 7: {
              yield {
                field: `${prefix}.rebalanceTimeoutMs`,
                value: reader.uint32()
              }
              break
            }
            case 8: {
              if (opts.limits?.topics != null && obj.topics === opts.limits.topics) {
                throw new MaxLengthError('Streaming decode error - repeated field "topics" had too many elements')
              }

              if (obj.topics === 10000) {
                throw new MaxLengthError('Streaming decode error - repeated field "topics" had too many elements')
              }

              yield {
                field: `${prefix}.topics[]`,
                index: obj.topics,
                value: reader.string()
              }

              obj.topics++

              break
            }
            case 9: {
              if (opts.limits?.owned != null && obj.owned === opts.limits.owned) {
                throw new MaxLengthError('Streaming decode error - repeated field "owned" had too many elements')
              }

              if (obj.owned === 10000) {
                throw new MaxLengthError('Streaming decode error - repeated field "owned" had too many elements')
              }

              for (const evt of TopicPartitions.codec().stream(reader, reader.uint32(), `${prefix}.owned[]`, {
                limits: opts.limits?.owned$
              })) {
                yield {
                  ...evt,
                  index: obj.owned
                }
              }

              obj.owned++

              break
            }
            case 10: {
              yield {
                field: `${prefix}.ownedGeneration`,
                value: reader.sint32()
              }
              break
            }
            case 11: {
              yield {
                field: `${prefix}.reason`,
                value: reader.string()
              }
              break
            }
            case 12: {
              yield {
                field: `${prefix}.startedAt`,
                value: reader.uint64()
              }
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export interface JoinGroupRequestMemberIdFieldEvent {
    field: '$.memberId'
    value: string
  }

  export interface JoinGroupRequestGroupInstanceIdFieldEvent {
    field: '$.groupInstanceId'
    value: string
  }

  export interface JoinGroupRequestClientIdFieldEvent {
    field: '$.clientId'
    value: string
  }

  export interface JoinGroupRequestProtocolTypeFieldEvent {
    field: '$.protocolType'
    value: string
  }

  export interface JoinGroupRequestProtocolsFieldEvent {
    field: '$.protocols[]'
    index: number
    value: string
  }

  export interface JoinGroupRequestSessionTimeoutMsFieldEvent {
    field: '$.sessionTimeoutMs'
    value: number
  }

  export interface JoinGroupRequestRebalanceTimeoutMsFieldEvent {
    field: '$.rebalanceTimeoutMs'
    value: number
  }

  export interface JoinGroupRequestTopicsFieldEvent {
    field: '$.topics[]'
    index: number
    value: string
  }

  export interface JoinGroupRequestOwnedTopicFieldEvent {
    field: '$.owned[].topic'
    value: string
    index: number
  }

  export interface JoinGroupRequestOwnedPartitionsFieldEvent {
    field: '$.owned[].partitions[]'
    index: number
    value: number
  }

  export interface JoinGroupRequestOwnedGenerationFieldEvent {
    field: '$.ownedGeneration'
    value: number
  }

  export interface JoinGroupRequestReasonFieldEvent {
    field: '$.reason'
    value: string
  }

  export interface JoinGroupRequestStartedAtFieldEvent {
    field: '$.startedAt'
    value: bigint
  }

  export function encode (obj: Partial<JoinGroupRequest>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, JoinGroupRequest.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<JoinGroupRequest>): JoinGroupRequest {
    return decodeMessage(buf, JoinGroupRequest.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<JoinGroupRequest>): Generator<JoinGroupRequestMemberIdFieldEvent | JoinGroupRequestGroupInstanceIdFieldEvent | JoinGroupRequestClientIdFieldEvent | JoinGroupRequestProtocolTypeFieldEvent | JoinGroupRequestProtocolsFieldEvent | JoinGroupRequestSessionTimeoutMsFieldEvent | JoinGroupRequestRebalanceTimeoutMsFieldEvent | JoinGroupRequestTopicsFieldEvent | JoinGroupRequestOwnedTopicFieldEvent | JoinGroupRequestOwnedPartitionsFieldEvent | JoinGroupRequestOwnedGenerationFieldEvent | JoinGroupRequestReasonFieldEvent | JoinGroupRequestStartedAtFieldEvent> {
    return streamMessage(buf, JoinGroupRequest.codec(), opts)
  }
}

export interface SyncGroupRequest {
  memberId: string
  groupInstanceId: string
  generation: number
}

export namespace SyncGroupRequest {
  let _codec: Codec<SyncGroupRequest>

  export const codec = (): Codec<SyncGroupRequest> => {
    if (_codec == null) {
      _codec = message<SyncGroupRequest>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.memberId != null && obj.memberId !== '')) {
          w.uint32(10)
          w.string(obj.memberId)
        }

        if ((obj.groupInstanceId != null && obj.groupInstanceId !== '')) {
          w.uint32(18)
          w.string(obj.groupInstanceId)
        }

        if ((obj.generation != null && obj.generation !== 0)) {
          w.uint32(24)
          w.sint32(obj.generation)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          memberId: '',
          groupInstanceId: '',
          generation: 0
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.memberId = reader.string()
              break
            }
            case 2: {
              obj.groupInstanceId = reader.string()
              break
            }
            case 3: {
              obj.generation = reader.sint32()
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.memberId`,
                value: reader.string()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.groupInstanceId`,
                value: reader.string()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.generation`,
                value: reader.sint32()
              }
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export interface SyncGroupRequestMemberIdFieldEvent {
    field: '$.memberId'
    value: string
  }

  export interface SyncGroupRequestGroupInstanceIdFieldEvent {
    field: '$.groupInstanceId'
    value: string
  }

  export interface SyncGroupRequestGenerationFieldEvent {
    field: '$.generation'
    value: number
  }

  export function encode (obj: Partial<SyncGroupRequest>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, SyncGroupRequest.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<SyncGroupRequest>): SyncGroupRequest {
    return decodeMessage(buf, SyncGroupRequest.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<SyncGroupRequest>): Generator<SyncGroupRequestMemberIdFieldEvent | SyncGroupRequestGroupInstanceIdFieldEvent | SyncGroupRequestGenerationFieldEvent> {
    return streamMessage(buf, SyncGroupRequest.codec(), opts)
  }
}

export interface HeartbeatRequest {
  memberId: string
  groupInstanceId: string
  generation: number
  maxWaitMs: number
}

export namespace HeartbeatRequest {
  let _codec: Codec<HeartbeatRequest>

  export const codec = (): Codec<HeartbeatRequest> => {
    if (_codec == null) {
      _codec = message<HeartbeatRequest>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.memberId != null && obj.memberId !== '')) {
          w.uint32(10)
          w.string(obj.memberId)
        }

        if ((obj.groupInstanceId != null && obj.groupInstanceId !== '')) {
          w.uint32(18)
          w.string(obj.groupInstanceId)
        }

        if ((obj.generation != null && obj.generation !== 0)) {
          w.uint32(24)
          w.sint32(obj.generation)
        }

        if ((obj.maxWaitMs != null && obj.maxWaitMs !== 0)) {
          w.uint32(32)
          w.uint32(obj.maxWaitMs)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          memberId: '',
          groupInstanceId: '',
          generation: 0,
          maxWaitMs: 0
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.memberId = reader.string()
              break
            }
            case 2: {
              obj.groupInstanceId = reader.string()
              break
            }
            case 3: {
              obj.generation = reader.sint32()
              break
            }
            case 4: {
              obj.maxWaitMs = reader.uint32()
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.memberId`,
                value: reader.string()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.groupInstanceId`,
                value: reader.string()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.generation`,
                value: reader.sint32()
              }
              break
            }
            case 4: {
              yield {
                field: `${prefix}.maxWaitMs`,
                value: reader.uint32()
              }
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export interface HeartbeatRequestMemberIdFieldEvent {
    field: '$.memberId'
    value: string
  }

  export interface HeartbeatRequestGroupInstanceIdFieldEvent {
    field: '$.groupInstanceId'
    value: string
  }

  export interface HeartbeatRequestGenerationFieldEvent {
    field: '$.generation'
    value: number
  }

  export interface HeartbeatRequestMaxWaitMsFieldEvent {
    field: '$.maxWaitMs'
    value: number
  }

  export function encode (obj: Partial<HeartbeatRequest>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, HeartbeatRequest.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<HeartbeatRequest>): HeartbeatRequest {
    return decodeMessage(buf, HeartbeatRequest.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<HeartbeatRequest>): Generator<HeartbeatRequestMemberIdFieldEvent | HeartbeatRequestGroupInstanceIdFieldEvent | HeartbeatRequestGenerationFieldEvent | HeartbeatRequestMaxWaitMsFieldEvent> {
    return streamMessage(buf, HeartbeatRequest.codec(), opts)
  }
}

export interface LeaveGroupRequest {
  memberId: string
  groupInstanceId: string
  reason: string
}

export namespace LeaveGroupRequest {
  let _codec: Codec<LeaveGroupRequest>

  export const codec = (): Codec<LeaveGroupRequest> => {
    if (_codec == null) {
      _codec = message<LeaveGroupRequest>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.memberId != null && obj.memberId !== '')) {
          w.uint32(10)
          w.string(obj.memberId)
        }

        if ((obj.groupInstanceId != null && obj.groupInstanceId !== '')) {
          w.uint32(18)
          w.string(obj.groupInstanceId)
        }

        if ((obj.reason != null && obj.reason !== '')) {
          w.uint32(26)
          w.string(obj.reason)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          memberId: '',
          groupInstanceId: '',
          reason: ''
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.memberId = reader.string()
              break
            }
            case 2: {
              obj.groupInstanceId = reader.string()
              break
            }
            case 3: {
              obj.reason = reader.string()
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.memberId`,
                value: reader.string()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.groupInstanceId`,
                value: reader.string()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.reason`,
                value: reader.string()
              }
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export interface LeaveGroupRequestMemberIdFieldEvent {
    field: '$.memberId'
    value: string
  }

  export interface LeaveGroupRequestGroupInstanceIdFieldEvent {
    field: '$.groupInstanceId'
    value: string
  }

  export interface LeaveGroupRequestReasonFieldEvent {
    field: '$.reason'
    value: string
  }

  export function encode (obj: Partial<LeaveGroupRequest>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, LeaveGroupRequest.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<LeaveGroupRequest>): LeaveGroupRequest {
    return decodeMessage(buf, LeaveGroupRequest.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<LeaveGroupRequest>): Generator<LeaveGroupRequestMemberIdFieldEvent | LeaveGroupRequestGroupInstanceIdFieldEvent | LeaveGroupRequestReasonFieldEvent> {
    return streamMessage(buf, LeaveGroupRequest.codec(), opts)
  }
}

export interface OffsetCommitRequest {
  memberId: string
  groupInstanceId: string
  generation: number
  topics: CommitTopic[]
}

export namespace OffsetCommitRequest {
  let _codec: Codec<OffsetCommitRequest>

  export const codec = (): Codec<OffsetCommitRequest> => {
    if (_codec == null) {
      _codec = message<OffsetCommitRequest>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.memberId != null && obj.memberId !== '')) {
          w.uint32(10)
          w.string(obj.memberId)
        }

        if ((obj.groupInstanceId != null && obj.groupInstanceId !== '')) {
          w.uint32(18)
          w.string(obj.groupInstanceId)
        }

        if ((obj.generation != null && obj.generation !== 0)) {
          w.uint32(24)
          w.sint32(obj.generation)
        }

        if (obj.topics != null && obj.topics.length > 0) {
          for (const value of obj.topics) {
            w.uint32(34)
            CommitTopic.codec().encode(value, w)
          }
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          memberId: '',
          groupInstanceId: '',
          generation: 0,
          topics: []
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.memberId = reader.string()
              break
            }
            case 2: {
              obj.groupInstanceId = reader.string()
              break
            }
            case 3: {
              obj.generation = reader.sint32()
              break
            }
            case 4: {
              if (opts.limits?.topics != null && obj.topics.length === opts.limits.topics) {
                throw new MaxLengthError('Decode error - repeated field "topics" had too many elements')
              }

              if (obj.topics.length === 10000) {
                throw new MaxLengthError('Decode error - repeated field "topics" had too many elements')
              }

              obj.topics.push(CommitTopic.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.topics$
              }))
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const obj = {
          topics: 10000
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.memberId`,
                value: reader.string()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.groupInstanceId`,
                value: reader.string()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.generation`,
                value: reader.sint32()
              }
              break
            }
            case 4: {
              if (opts.limits?.topics != null && obj.topics === opts.limits.topics) {
                throw new MaxLengthError('Streaming decode error - repeated field "topics" had too many elements')
              }

              if (obj.topics === 10000) {
                throw new MaxLengthError('Streaming decode error - repeated field "topics" had too many elements')
              }

              for (const evt of CommitTopic.codec().stream(reader, reader.uint32(), `${prefix}.topics[]`, {
                limits: opts.limits?.topics$
              })) {
                yield {
                  ...evt,
                  index: obj.topics
                }
              }

              obj.topics++

              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export interface OffsetCommitRequestMemberIdFieldEvent {
    field: '$.memberId'
    value: string
  }

  export interface OffsetCommitRequestGroupInstanceIdFieldEvent {
    field: '$.groupInstanceId'
    value: string
  }

  export interface OffsetCommitRequestGenerationFieldEvent {
    field: '$.generation'
    value: number
  }

  export interface OffsetCommitRequestTopicsTopicFieldEvent {
    field: '$.topics[].topic'
    value: string
    index: number
  }

  export interface OffsetCommitRequestTopicsPartitionsPartitionFieldEvent {
    field: '$.topics[].partitions[].partition'
    value: number
    index: number
  }

  export interface OffsetCommitRequestTopicsPartitionsOffsetFieldEvent {
    field: '$.topics[].partitions[].offset'
    value: bigint
    index: number
  }

  export interface OffsetCommitRequestTopicsPartitionsLeaderEpochFieldEvent {
    field: '$.topics[].partitions[].leaderEpoch'
    value: number
    index: number
  }

  export interface OffsetCommitRequestTopicsPartitionsMetadataFieldEvent {
    field: '$.topics[].partitions[].metadata'
    value: string
    index: number
  }

  export function encode (obj: Partial<OffsetCommitRequest>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, OffsetCommitRequest.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<OffsetCommitRequest>): OffsetCommitRequest {
    return decodeMessage(buf, OffsetCommitRequest.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<OffsetCommitRequest>): Generator<OffsetCommitRequestMemberIdFieldEvent | OffsetCommitRequestGroupInstanceIdFieldEvent | OffsetCommitRequestGenerationFieldEvent | OffsetCommitRequestTopicsTopicFieldEvent | OffsetCommitRequestTopicsPartitionsPartitionFieldEvent | OffsetCommitRequestTopicsPartitionsOffsetFieldEvent | OffsetCommitRequestTopicsPartitionsLeaderEpochFieldEvent | OffsetCommitRequestTopicsPartitionsMetadataFieldEvent> {
    return streamMessage(buf, OffsetCommitRequest.codec(), opts)
  }
}

export interface CommitTopic {
  topic: string
  partitions: CommitPartition[]
}

export namespace CommitTopic {
  let _codec: Codec<CommitTopic>

  export const codec = (): Codec<CommitTopic> => {
    if (_codec == null) {
      _codec = message<CommitTopic>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.topic != null && obj.topic !== '')) {
          w.uint32(10)
          w.string(obj.topic)
        }

        if (obj.partitions != null && obj.partitions.length > 0) {
          for (const value of obj.partitions) {
            w.uint32(18)
            CommitPartition.codec().encode(value, w)
          }
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          topic: '',
          partitions: []
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.topic = reader.string()
              break
            }
            case 2: {
              if (opts.limits?.partitions != null && obj.partitions.length === opts.limits.partitions) {
                throw new MaxLengthError('Decode error - repeated field "partitions" had too many elements')
              }

              if (obj.partitions.length === 10000) {
                throw new MaxLengthError('Decode error - repeated field "partitions" had too many elements')
              }

              obj.partitions.push(CommitPartition.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.partitions$
              }))
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const obj = {
          partitions: 10000
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.topic`,
                value: reader.string()
              }
              break
            }
            case 2: {
              if (opts.limits?.partitions != null && obj.partitions === opts.limits.partitions) {
                throw new MaxLengthError('Streaming decode error - repeated field "partitions" had too many elements')
              }

              if (obj.partitions === 10000) {
                throw new MaxLengthError('Streaming decode error - repeated field "partitions" had too many elements')
              }

              for (const evt of CommitPartition.codec().stream(reader, reader.uint32(), `${prefix}.partitions[]`, {
                limits: opts.limits?.partitions$
              })) {
                yield {
                  ...evt,
                  index: obj.partitions
                }
              }

              obj.partitions++

              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export interface CommitTopicTopicFieldEvent {
    field: '$.topic'
    value: string
  }

  export interface CommitTopicPartitionsPartitionFieldEvent {
    field: '$.partitions[].partition'
    value: number
    index: number
  }

  export interface CommitTopicPartitionsOffsetFieldEvent {
    field: '$.partitions[].offset'
    value: bigint
    index: number
  }

  export interface CommitTopicPartitionsLeaderEpochFieldEvent {
    field: '$.partitions[].leaderEpoch'
    value: number
    index: number
  }

  export interface CommitTopicPartitionsMetadataFieldEvent {
    field: '$.partitions[].metadata'
    value: string
    index: number
  }

  export function encode (obj: Partial<CommitTopic>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, CommitTopic.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<CommitTopic>): CommitTopic {
    return decodeMessage(buf, CommitTopic.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<CommitTopic>): Generator<CommitTopicTopicFieldEvent | CommitTopicPartitionsPartitionFieldEvent | CommitTopicPartitionsOffsetFieldEvent | CommitTopicPartitionsLeaderEpochFieldEvent | CommitTopicPartitionsMetadataFieldEvent> {
    return streamMessage(buf, CommitTopic.codec(), opts)
  }
}

export interface CommitPartition {
  partition: number
  offset: bigint
  leaderEpoch: number
  metadata: string
}

export namespace CommitPartition {
  let _codec: Codec<CommitPartition>

  export const codec = (): Codec<CommitPartition> => {
    if (_codec == null) {
      _codec = message<CommitPartition>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.partition != null && obj.partition !== 0)) {
          w.uint32(8)
          w.uint32(obj.partition)
        }

        if ((obj.offset != null && obj.offset !== 0n)) {
          w.uint32(16)
          w.sint64(obj.offset)
        }

        if ((obj.leaderEpoch != null && obj.leaderEpoch !== 0)) {
          w.uint32(24)
          w.sint32(obj.leaderEpoch)
        }

        if ((obj.metadata != null && obj.metadata !== '')) {
          w.uint32(34)
          w.string(obj.metadata)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          partition: 0,
          offset: 0n,
          leaderEpoch: 0,
          metadata: ''
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.partition = reader.uint32()
              break
            }
            case 2: {
              obj.offset = reader.sint64()
              break
            }
            case 3: {
              obj.leaderEpoch = reader.sint32()
              break
            }
            case 4: {
              obj.metadata = reader.string()
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.partition`,
                value: reader.uint32()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.offset`,
                value: reader.sint64()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.leaderEpoch`,
                value: reader.sint32()
              }
              break
            }
            case 4: {
              yield {
                field: `${prefix}.metadata`,
                value: reader.string()
              }
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export interface CommitPartitionPartitionFieldEvent {
    field: '$.partition'
    value: number
  }

  export interface CommitPartitionOffsetFieldEvent {
    field: '$.offset'
    value: bigint
  }

  export interface CommitPartitionLeaderEpochFieldEvent {
    field: '$.leaderEpoch'
    value: number
  }

  export interface CommitPartitionMetadataFieldEvent {
    field: '$.metadata'
    value: string
  }

  export function encode (obj: Partial<CommitPartition>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, CommitPartition.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<CommitPartition>): CommitPartition {
    return decodeMessage(buf, CommitPartition.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<CommitPartition>): Generator<CommitPartitionPartitionFieldEvent | CommitPartitionOffsetFieldEvent | CommitPartitionLeaderEpochFieldEvent | CommitPartitionMetadataFieldEvent> {
    return streamMessage(buf, CommitPartition.codec(), opts)
  }
}

export interface OffsetFetchRequest {
  partitions: TopicPartitions[]
}

export namespace OffsetFetchRequest {
  let _codec: Codec<OffsetFetchRequest>

  export const codec = (): Codec<OffsetFetchRequest> => {
    if (_codec == null) {
      _codec = message<OffsetFetchRequest>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if (obj.partitions != null && obj.partitions.length > 0) {
          for (const value of obj.partitions) {
            w.uint32(10)
            TopicPartitions.codec().encode(value, w)
          }
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          partitions: []
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              if (opts.limits?.partitions != null && obj.partitions.length === opts.limits.partitions) {
                throw new MaxLengthError('Decode error - repeated field "partitions" had too many elements')
              }

              if (obj.partitions.length === 10000) {
                throw new MaxLengthError('Decode error - repeated field "partitions" had too many elements')
              }

              obj.partitions.push(TopicPartitions.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.partitions$
              }))
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const obj = {
          partitions: 10000
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              if (opts.limits?.partitions != null && obj.partitions === opts.limits.partitions) {
                throw new MaxLengthError('Streaming decode error - repeated field "partitions" had too many elements')
              }

              if (obj.partitions === 10000) {
                throw new MaxLengthError('Streaming decode error - repeated field "partitions" had too many elements')
              }

              for (const evt of TopicPartitions.codec().stream(reader, reader.uint32(), `${prefix}.partitions[]`, {
                limits: opts.limits?.partitions$
              })) {
                yield {
                  ...evt,
                  index: obj.partitions
                }
              }

              obj.partitions++

              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export interface OffsetFetchRequestPartitionsTopicFieldEvent {
    field: '$.partitions[].topic'
    value: string
    index: number
  }

  export interface OffsetFetchRequestPartitionsPartitionsFieldEvent {
    field: '$.partitions[].partitions[]'
    index: number
    value: number
  }

  export function encode (obj: Partial<OffsetFetchRequest>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, OffsetFetchRequest.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<OffsetFetchRequest>): OffsetFetchRequest {
    return decodeMessage(buf, OffsetFetchRequest.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<OffsetFetchRequest>): Generator<OffsetFetchRequestPartitionsTopicFieldEvent | OffsetFetchRequestPartitionsPartitionsFieldEvent> {
    return streamMessage(buf, OffsetFetchRequest.codec(), opts)
  }
}

export interface GroupResponse {
  version: number
  groupId: string
  recipient: string
  requestId: bigint
  errorCode: number
  errorMessage: string
  sessionRenewed: boolean
  coordinatorHint: string
  join?: JoinGroupResponse
  sync?: SyncGroupResponse
  heartbeat?: HeartbeatResponse
  leave?: LeaveGroupResponse
  commit?: OffsetCommitResponse
  fetch?: OffsetFetchResponse
}

export namespace GroupResponse {
  let _codec: Codec<GroupResponse>

  export const codec = (): Codec<GroupResponse> => {
    if (_codec == null) {
      _codec = message<GroupResponse>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.version != null && obj.version !== 0)) {
          w.uint32(8)
          w.uint32(obj.version)
        }

        if ((obj.groupId != null && obj.groupId !== '')) {
          w.uint32(18)
          w.string(obj.groupId)
        }

        if ((obj.recipient != null && obj.recipient !== '')) {
          w.uint32(26)
          w.string(obj.recipient)
        }

        if ((obj.requestId != null && obj.requestId !== 0n)) {
          w.uint32(32)
          w.uint64(obj.requestId)
        }

        if ((obj.errorCode != null && obj.errorCode !== 0)) {
          w.uint32(40)
          w.sint32(obj.errorCode)
        }

        if ((obj.errorMessage != null && obj.errorMessage !== '')) {
          w.uint32(50)
          w.string(obj.errorMessage)
        }

        if ((obj.sessionRenewed != null && obj.sessionRenewed !== false)) {
          w.uint32(56)
          w.bool(obj.sessionRenewed)
        }

        if ((obj.coordinatorHint != null && obj.coordinatorHint !== '')) {
          w.uint32(66)
          w.string(obj.coordinatorHint)
        }

        if (obj.join != null) {
          w.uint32(82)
          JoinGroupResponse.codec().encode(obj.join, w)
        }

        if (obj.sync != null) {
          w.uint32(90)
          SyncGroupResponse.codec().encode(obj.sync, w)
        }

        if (obj.heartbeat != null) {
          w.uint32(98)
          HeartbeatResponse.codec().encode(obj.heartbeat, w)
        }

        if (obj.leave != null) {
          w.uint32(106)
          LeaveGroupResponse.codec().encode(obj.leave, w)
        }

        if (obj.commit != null) {
          w.uint32(114)
          OffsetCommitResponse.codec().encode(obj.commit, w)
        }

        if (obj.fetch != null) {
          w.uint32(122)
          OffsetFetchResponse.codec().encode(obj.fetch, w)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          version: 0,
          groupId: '',
          recipient: '',
          requestId: 0n,
          errorCode: 0,
          errorMessage: '',
          sessionRenewed: false,
          coordinatorHint: ''
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.version = reader.uint32()
              break
            }
            case 2: {
              obj.groupId = reader.string()
              break
            }
            case 3: {
              obj.recipient = reader.string()
              break
            }
            case 4: {
              obj.requestId = reader.uint64()
              break
            }
            case 5: {
              obj.errorCode = reader.sint32()
              break
            }
            case 6: {
              obj.errorMessage = reader.string()
              break
            }
            case 7: {
              obj.sessionRenewed = reader.bool()
              break
            }
            case 8: {
              obj.coordinatorHint = reader.string()
              break
            }
            case 10: {
              obj.join = JoinGroupResponse.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.join
              })
              break
            }
            case 11: {
              obj.sync = SyncGroupResponse.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.sync
              })
              break
            }
            case 12: {
              obj.heartbeat = HeartbeatResponse.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.heartbeat
              })
              break
            }
            case 13: {
              obj.leave = LeaveGroupResponse.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.leave
              })
              break
            }
            case 14: {
              obj.commit = OffsetCommitResponse.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.commit
              })
              break
            }
            case 15: {
              obj.fetch = OffsetFetchResponse.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.fetch
              })
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.version`,
                value: reader.uint32()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.groupId`,
                value: reader.string()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.recipient`,
                value: reader.string()
              }
              break
            }
            case 4: {
              yield {
                field: `${prefix}.requestId`,
                value: reader.uint64()
              }
              break
            }
            case 5: {
              yield {
                field: `${prefix}.errorCode`,
                value: reader.sint32()
              }
              break
            }
            case 6: {
              yield {
                field: `${prefix}.errorMessage`,
                value: reader.string()
              }
              break
            }
            case 7: {
              yield {
                field: `${prefix}.sessionRenewed`,
                value: reader.bool()
              }
              break
            }
            case 8: {
              yield {
                field: `${prefix}.coordinatorHint`,
                value: reader.string()
              }
              break
            }
            case 10: {
              yield * JoinGroupResponse.codec().stream(reader, reader.uint32(), `${prefix}.join`, {
                limits: opts.limits?.join
              })

              break
            }
            case 11: {
              yield * SyncGroupResponse.codec().stream(reader, reader.uint32(), `${prefix}.sync`, {
                limits: opts.limits?.sync
              })

              break
            }
            case 12: {
              yield * HeartbeatResponse.codec().stream(reader, reader.uint32(), `${prefix}.heartbeat`, {
                limits: opts.limits?.heartbeat
              })

              break
            }
            case 13: {
              yield * LeaveGroupResponse.codec().stream(reader, reader.uint32(), `${prefix}.leave`, {
                limits: opts.limits?.leave
              })

              break
            }
            case 14: {
              yield * OffsetCommitResponse.codec().stream(reader, reader.uint32(), `${prefix}.commit`, {
                limits: opts.limits?.commit
              })

              break
            }
            case 15: {
              yield * OffsetFetchResponse.codec().stream(reader, reader.uint32(), `${prefix}.fetch`, {
                limits: opts.limits?.fetch
              })

              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export interface GroupResponseVersionFieldEvent {
    field: '$.version'
    value: number
  }

  export interface GroupResponseGroupIdFieldEvent {
    field: '$.groupId'
    value: string
  }

  export interface GroupResponseRecipientFieldEvent {
    field: '$.recipient'
    value: string
  }

  export interface GroupResponseRequestIdFieldEvent {
    field: '$.requestId'
    value: bigint
  }

  export interface GroupResponseErrorCodeFieldEvent {
    field: '$.errorCode'
    value: number
  }

  export interface GroupResponseErrorMessageFieldEvent {
    field: '$.errorMessage'
    value: string
  }

  export interface GroupResponseSessionRenewedFieldEvent {
    field: '$.sessionRenewed'
    value: boolean
  }

  export interface GroupResponseCoordinatorHintFieldEvent {
    field: '$.coordinatorHint'
    value: string
  }

  export interface GroupResponseJoinGenerationFieldEvent {
    field: '$.join.generation'
    value: number
  }

  export interface GroupResponseJoinProtocolFieldEvent {
    field: '$.join.protocol'
    value: string
  }

  export interface GroupResponseJoinMemberIdFieldEvent {
    field: '$.join.memberId'
    value: string
  }

  export interface GroupResponseSyncGenerationFieldEvent {
    field: '$.sync.generation'
    value: number
  }

  export interface GroupResponseSyncProtocolFieldEvent {
    field: '$.sync.protocol'
    value: string
  }

  export interface GroupResponseSyncAssignmentTopicFieldEvent {
    field: '$.sync.assignment[].topic'
    value: string
    index: number
  }

  export interface GroupResponseSyncAssignmentPartitionsFieldEvent {
    field: '$.sync.assignment[].partitions[]'
    index: number
    value: number
  }

  export interface GroupResponseSyncRevokeTopicFieldEvent {
    field: '$.sync.revoke[].topic'
    value: string
    index: number
  }

  export interface GroupResponseSyncRevokePartitionsFieldEvent {
    field: '$.sync.revoke[].partitions[]'
    index: number
    value: number
  }

  export interface GroupResponseCommitTopicsTopicFieldEvent {
    field: '$.commit.topics[].topic'
    value: string
    index: number
  }

  export interface GroupResponseCommitTopicsPartitionsPartitionFieldEvent {
    field: '$.commit.topics[].partitions[].partition'
    value: number
    index: number
  }

  export interface GroupResponseCommitTopicsPartitionsErrorCodeFieldEvent {
    field: '$.commit.topics[].partitions[].errorCode'
    value: number
    index: number
  }

  export interface GroupResponseCommitTopicsPartitionsErrorMessageFieldEvent {
    field: '$.commit.topics[].partitions[].errorMessage'
    value: string
    index: number
  }

  export interface GroupResponseFetchTopicsTopicFieldEvent {
    field: '$.fetch.topics[].topic'
    value: string
    index: number
  }

  export interface GroupResponseFetchTopicsPartitionsPartitionFieldEvent {
    field: '$.fetch.topics[].partitions[].partition'
    value: number
    index: number
  }

  export interface GroupResponseFetchTopicsPartitionsOffsetFieldEvent {
    field: '$.fetch.topics[].partitions[].offset'
    value: bigint
    index: number
  }

  export interface GroupResponseFetchTopicsPartitionsLeaderEpochFieldEvent {
    field: '$.fetch.topics[].partitions[].leaderEpoch'
    value: number
    index: number
  }

  export interface GroupResponseFetchTopicsPartitionsMetadataFieldEvent {
    field: '$.fetch.topics[].partitions[].metadata'
    value: string
    index: number
  }

  export function encode (obj: Partial<GroupResponse>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, GroupResponse.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<GroupResponse>): GroupResponse {
    return decodeMessage(buf, GroupResponse.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<GroupResponse>): Generator<GroupResponseVersionFieldEvent | GroupResponseGroupIdFieldEvent | GroupResponseRecipientFieldEvent | GroupResponseRequestIdFieldEvent | GroupResponseErrorCodeFieldEvent | GroupResponseErrorMessageFieldEvent | GroupResponseSessionRenewedFieldEvent | GroupResponseCoordinatorHintFieldEvent | GroupResponseJoinGenerationFieldEvent | GroupResponseJoinProtocolFieldEvent | GroupResponseJoinMemberIdFieldEvent | GroupResponseSyncGenerationFieldEvent | GroupResponseSyncProtocolFieldEvent | GroupResponseSyncAssignmentTopicFieldEvent | GroupResponseSyncAssignmentPartitionsFieldEvent | GroupResponseSyncRevokeTopicFieldEvent | GroupResponseSyncRevokePartitionsFieldEvent | GroupResponseCommitTopicsTopicFieldEvent | GroupResponseCommitTopicsPartitionsPartitionFieldEvent | GroupResponseCommitTopicsPartitionsErrorCodeFieldEvent | GroupResponseCommitTopicsPartitionsErrorMessageFieldEvent | GroupResponseFetchTopicsTopicFieldEvent | GroupResponseFetchTopicsPartitionsPartitionFieldEvent | GroupResponseFetchTopicsPartitionsOffsetFieldEvent | GroupResponseFetchTopicsPartitionsLeaderEpochFieldEvent | GroupResponseFetchTopicsPartitionsMetadataFieldEvent> {
    return streamMessage(buf, GroupResponse.codec(), opts)
  }
}

export interface JoinGroupResponse {
  generation: number
  protocol: string
  memberId: string
}

export namespace JoinGroupResponse {
  let _codec: Codec<JoinGroupResponse>

  export const codec = (): Codec<JoinGroupResponse> => {
    if (_codec == null) {
      _codec = message<JoinGroupResponse>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.generation != null && obj.generation !== 0)) {
          w.uint32(8)
          w.sint32(obj.generation)
        }

        if ((obj.protocol != null && obj.protocol !== '')) {
          w.uint32(18)
          w.string(obj.protocol)
        }

        if ((obj.memberId != null && obj.memberId !== '')) {
          w.uint32(26)
          w.string(obj.memberId)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          generation: 0,
          protocol: '',
          memberId: ''
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.generation = reader.sint32()
              break
            }
            case 2: {
              obj.protocol = reader.string()
              break
            }
            case 3: {
              obj.memberId = reader.string()
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.generation`,
                value: reader.sint32()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.protocol`,
                value: reader.string()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.memberId`,
                value: reader.string()
              }
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export interface JoinGroupResponseGenerationFieldEvent {
    field: '$.generation'
    value: number
  }

  export interface JoinGroupResponseProtocolFieldEvent {
    field: '$.protocol'
    value: string
  }

  export interface JoinGroupResponseMemberIdFieldEvent {
    field: '$.memberId'
    value: string
  }

  export function encode (obj: Partial<JoinGroupResponse>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, JoinGroupResponse.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<JoinGroupResponse>): JoinGroupResponse {
    return decodeMessage(buf, JoinGroupResponse.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<JoinGroupResponse>): Generator<JoinGroupResponseGenerationFieldEvent | JoinGroupResponseProtocolFieldEvent | JoinGroupResponseMemberIdFieldEvent> {
    return streamMessage(buf, JoinGroupResponse.codec(), opts)
  }
}

export interface SyncGroupResponse {
  generation: number
  protocol: string
  assignment: TopicPartitions[]
  revoke: TopicPartitions[]
}

export namespace SyncGroupResponse {
  let _codec: Codec<SyncGroupResponse>

  export const codec = (): Codec<SyncGroupResponse> => {
    if (_codec == null) {
      _codec = message<SyncGroupResponse>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.generation != null && obj.generation !== 0)) {
          w.uint32(8)
          w.sint32(obj.generation)
        }

        if ((obj.protocol != null && obj.protocol !== '')) {
          w.uint32(18)
          w.string(obj.protocol)
        }

        if (obj.assignment != null && obj.assignment.length > 0) {
          for (const value of obj.assignment) {
            w.uint32(26)
            TopicPartitions.codec().encode(value, w)
          }
        }

        if (obj.revoke != null && obj.revoke.length > 0) {
          for (const value of obj.revoke) {
            w.uint32(34)
            TopicPartitions.codec().encode(value, w)
          }
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          generation: 0,
          protocol: '',
          assignment: [],
          revoke: []
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.generation = reader.sint32()
              break
            }
            case 2: {
              obj.protocol = reader.string()
              break
            }
            case 3: {
              if (opts.limits?.assignment != null && obj.assignment.length === opts.limits.assignment) {
                throw new MaxLengthError('Decode error - repeated field "assignment" had too many elements')
              }

              if (obj.assignment.length === 10000) {
                throw new MaxLengthError('Decode error - repeated field "assignment" had too many elements')
              }

              obj.assignment.push(TopicPartitions.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.assignment$
              }))
              break
            }
            case 4: {
              if (opts.limits?.revoke != null && obj.revoke.length === opts.limits.revoke) {
                throw new MaxLengthError('Decode error - repeated field "revoke" had too many elements')
              }

              if (obj.revoke.length === 10000) {
                throw new MaxLengthError('Decode error - repeated field "revoke" had too many elements')
              }

              obj.revoke.push(TopicPartitions.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.revoke$
              }))
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const obj = {
          assignment: 10000,
          revoke: 10000
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.generation`,
                value: reader.sint32()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.protocol`,
                value: reader.string()
              }
              break
            }
            case 3: {
              if (opts.limits?.assignment != null && obj.assignment === opts.limits.assignment) {
                throw new MaxLengthError('Streaming decode error - repeated field "assignment" had too many elements')
              }

              if (obj.assignment === 10000) {
                throw new MaxLengthError('Streaming decode error - repeated field "assignment" had too many elements')
              }

              for (const evt of TopicPartitions.codec().stream(reader, reader.uint32(), `${prefix}.assignment[]`, {
                limits: opts.limits?.assignment$
              })) {
                yield {
                  ...evt,
                  index: obj.assignment
                }
              }

              obj.assignment++

              break
            }
            case 4: {
              if (opts.limits?.revoke != null && obj.revoke === opts.limits.revoke) {
                throw new MaxLengthError('Streaming decode error - repeated field "revoke" had too many elements')
              }

              if (obj.revoke === 10000) {
                throw new MaxLengthError('Streaming decode error - repeated field "revoke" had too many elements')
              }

              for (const evt of TopicPartitions.codec().stream(reader, reader.uint32(), `${prefix}.revoke[]`, {
                limits: opts.limits?.revoke$
              })) {
                yield {
                  ...evt,
                  index: obj.revoke
                }
              }

              obj.revoke++

              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export interface SyncGroupResponseGenerationFieldEvent {
    field: '$.generation'
    value: number
  }

  export interface SyncGroupResponseProtocolFieldEvent {
    field: '$.protocol'
    value: string
  }

  export interface SyncGroupResponseAssignmentTopicFieldEvent {
    field: '$.assignment[].topic'
    value: string
    index: number
  }

  export interface SyncGroupResponseAssignmentPartitionsFieldEvent {
    field: '$.assignment[].partitions[]'
    index: number
    value: number
  }

  export interface SyncGroupResponseRevokeTopicFieldEvent {
    field: '$.revoke[].topic'
    value: string
    index: number
  }

  export interface SyncGroupResponseRevokePartitionsFieldEvent {
    field: '$.revoke[].partitions[]'
    index: number
    value: number
  }

  export function encode (obj: Partial<SyncGroupResponse>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, SyncGroupResponse.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<SyncGroupResponse>): SyncGroupResponse {
    return decodeMessage(buf, SyncGroupResponse.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<SyncGroupResponse>): Generator<SyncGroupResponseGenerationFieldEvent | SyncGroupResponseProtocolFieldEvent | SyncGroupResponseAssignmentTopicFieldEvent | SyncGroupResponseAssignmentPartitionsFieldEvent | SyncGroupResponseRevokeTopicFieldEvent | SyncGroupResponseRevokePartitionsFieldEvent> {
    return streamMessage(buf, SyncGroupResponse.codec(), opts)
  }
}

export interface HeartbeatResponse {}

export namespace HeartbeatResponse {
  let _codec: Codec<HeartbeatResponse>

  export const codec = (): Codec<HeartbeatResponse> => {
    if (_codec == null) {
      _codec = message<HeartbeatResponse>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {}

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export function encode (obj: Partial<HeartbeatResponse>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, HeartbeatResponse.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<HeartbeatResponse>): HeartbeatResponse {
    return decodeMessage(buf, HeartbeatResponse.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<HeartbeatResponse>): Generator<{}> {
    return streamMessage(buf, HeartbeatResponse.codec(), opts)
  }
}

export interface LeaveGroupResponse {}

export namespace LeaveGroupResponse {
  let _codec: Codec<LeaveGroupResponse>

  export const codec = (): Codec<LeaveGroupResponse> => {
    if (_codec == null) {
      _codec = message<LeaveGroupResponse>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {}

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export function encode (obj: Partial<LeaveGroupResponse>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, LeaveGroupResponse.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<LeaveGroupResponse>): LeaveGroupResponse {
    return decodeMessage(buf, LeaveGroupResponse.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<LeaveGroupResponse>): Generator<{}> {
    return streamMessage(buf, LeaveGroupResponse.codec(), opts)
  }
}

export interface OffsetCommitResponse {
  topics: PartitionResults[]
}

export namespace OffsetCommitResponse {
  let _codec: Codec<OffsetCommitResponse>

  export const codec = (): Codec<OffsetCommitResponse> => {
    if (_codec == null) {
      _codec = message<OffsetCommitResponse>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if (obj.topics != null && obj.topics.length > 0) {
          for (const value of obj.topics) {
            w.uint32(10)
            PartitionResults.codec().encode(value, w)
          }
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          topics: []
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              if (opts.limits?.topics != null && obj.topics.length === opts.limits.topics) {
                throw new MaxLengthError('Decode error - repeated field "topics" had too many elements')
              }

              if (obj.topics.length === 10000) {
                throw new MaxLengthError('Decode error - repeated field "topics" had too many elements')
              }

              obj.topics.push(PartitionResults.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.topics$
              }))
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const obj = {
          topics: 10000
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              if (opts.limits?.topics != null && obj.topics === opts.limits.topics) {
                throw new MaxLengthError('Streaming decode error - repeated field "topics" had too many elements')
              }

              if (obj.topics === 10000) {
                throw new MaxLengthError('Streaming decode error - repeated field "topics" had too many elements')
              }

              for (const evt of PartitionResults.codec().stream(reader, reader.uint32(), `${prefix}.topics[]`, {
                limits: opts.limits?.topics$
              })) {
                yield {
                  ...evt,
                  index: obj.topics
                }
              }

              obj.topics++

              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export interface OffsetCommitResponseTopicsTopicFieldEvent {
    field: '$.topics[].topic'
    value: string
    index: number
  }

  export interface OffsetCommitResponseTopicsPartitionsPartitionFieldEvent {
    field: '$.topics[].partitions[].partition'
    value: number
    index: number
  }

  export interface OffsetCommitResponseTopicsPartitionsErrorCodeFieldEvent {
    field: '$.topics[].partitions[].errorCode'
    value: number
    index: number
  }

  export interface OffsetCommitResponseTopicsPartitionsErrorMessageFieldEvent {
    field: '$.topics[].partitions[].errorMessage'
    value: string
    index: number
  }

  export function encode (obj: Partial<OffsetCommitResponse>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, OffsetCommitResponse.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<OffsetCommitResponse>): OffsetCommitResponse {
    return decodeMessage(buf, OffsetCommitResponse.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<OffsetCommitResponse>): Generator<OffsetCommitResponseTopicsTopicFieldEvent | OffsetCommitResponseTopicsPartitionsPartitionFieldEvent | OffsetCommitResponseTopicsPartitionsErrorCodeFieldEvent | OffsetCommitResponseTopicsPartitionsErrorMessageFieldEvent> {
    return streamMessage(buf, OffsetCommitResponse.codec(), opts)
  }
}

export interface PartitionResults {
  topic: string
  partitions: PartitionResult[]
}

export namespace PartitionResults {
  let _codec: Codec<PartitionResults>

  export const codec = (): Codec<PartitionResults> => {
    if (_codec == null) {
      _codec = message<PartitionResults>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.topic != null && obj.topic !== '')) {
          w.uint32(10)
          w.string(obj.topic)
        }

        if (obj.partitions != null && obj.partitions.length > 0) {
          for (const value of obj.partitions) {
            w.uint32(18)
            PartitionResult.codec().encode(value, w)
          }
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          topic: '',
          partitions: []
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.topic = reader.string()
              break
            }
            case 2: {
              if (opts.limits?.partitions != null && obj.partitions.length === opts.limits.partitions) {
                throw new MaxLengthError('Decode error - repeated field "partitions" had too many elements')
              }

              if (obj.partitions.length === 10000) {
                throw new MaxLengthError('Decode error - repeated field "partitions" had too many elements')
              }

              obj.partitions.push(PartitionResult.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.partitions$
              }))
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const obj = {
          partitions: 10000
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.topic`,
                value: reader.string()
              }
              break
            }
            case 2: {
              if (opts.limits?.partitions != null && obj.partitions === opts.limits.partitions) {
                throw new MaxLengthError('Streaming decode error - repeated field "partitions" had too many elements')
              }

              if (obj.partitions === 10000) {
                throw new MaxLengthError('Streaming decode error - repeated field "partitions" had too many elements')
              }

              for (const evt of PartitionResult.codec().stream(reader, reader.uint32(), `${prefix}.partitions[]`, {
                limits: opts.limits?.partitions$
              })) {
                yield {
                  ...evt,
                  index: obj.partitions
                }
              }

              obj.partitions++

              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export interface PartitionResultsTopicFieldEvent {
    field: '$.topic'
    value: string
  }

  export interface PartitionResultsPartitionsPartitionFieldEvent {
    field: '$.partitions[].partition'
    value: number
    index: number
  }

  export interface PartitionResultsPartitionsErrorCodeFieldEvent {
    field: '$.partitions[].errorCode'
    value: number
    index: number
  }

  export interface PartitionResultsPartitionsErrorMessageFieldEvent {
    field: '$.partitions[].errorMessage'
    value: string
    index: number
  }

  export function encode (obj: Partial<PartitionResults>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, PartitionResults.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<PartitionResults>): PartitionResults {
    return decodeMessage(buf, PartitionResults.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<PartitionResults>): Generator<PartitionResultsTopicFieldEvent | PartitionResultsPartitionsPartitionFieldEvent | PartitionResultsPartitionsErrorCodeFieldEvent | PartitionResultsPartitionsErrorMessageFieldEvent> {
    return streamMessage(buf, PartitionResults.codec(), opts)
  }
}

export interface PartitionResult {
  partition: number
  errorCode: number
  errorMessage: string
}

export namespace PartitionResult {
  let _codec: Codec<PartitionResult>

  export const codec = (): Codec<PartitionResult> => {
    if (_codec == null) {
      _codec = message<PartitionResult>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.partition != null && obj.partition !== 0)) {
          w.uint32(8)
          w.uint32(obj.partition)
        }

        if ((obj.errorCode != null && obj.errorCode !== 0)) {
          w.uint32(16)
          w.sint32(obj.errorCode)
        }

        if ((obj.errorMessage != null && obj.errorMessage !== '')) {
          w.uint32(26)
          w.string(obj.errorMessage)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          partition: 0,
          errorCode: 0,
          errorMessage: ''
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.partition = reader.uint32()
              break
            }
            case 2: {
              obj.errorCode = reader.sint32()
              break
            }
            case 3: {
              obj.errorMessage = reader.string()
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.partition`,
                value: reader.uint32()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.errorCode`,
                value: reader.sint32()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.errorMessage`,
                value: reader.string()
              }
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export interface PartitionResultPartitionFieldEvent {
    field: '$.partition'
    value: number
  }

  export interface PartitionResultErrorCodeFieldEvent {
    field: '$.errorCode'
    value: number
  }

  export interface PartitionResultErrorMessageFieldEvent {
    field: '$.errorMessage'
    value: string
  }

  export function encode (obj: Partial<PartitionResult>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, PartitionResult.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<PartitionResult>): PartitionResult {
    return decodeMessage(buf, PartitionResult.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<PartitionResult>): Generator<PartitionResultPartitionFieldEvent | PartitionResultErrorCodeFieldEvent | PartitionResultErrorMessageFieldEvent> {
    return streamMessage(buf, PartitionResult.codec(), opts)
  }
}

export interface OffsetFetchResponse {
  topics: FetchedTopic[]
}

export namespace OffsetFetchResponse {
  let _codec: Codec<OffsetFetchResponse>

  export const codec = (): Codec<OffsetFetchResponse> => {
    if (_codec == null) {
      _codec = message<OffsetFetchResponse>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if (obj.topics != null && obj.topics.length > 0) {
          for (const value of obj.topics) {
            w.uint32(10)
            FetchedTopic.codec().encode(value, w)
          }
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          topics: []
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              if (opts.limits?.topics != null && obj.topics.length === opts.limits.topics) {
                throw new MaxLengthError('Decode error - repeated field "topics" had too many elements')
              }

              if (obj.topics.length === 10000) {
                throw new MaxLengthError('Decode error - repeated field "topics" had too many elements')
              }

              obj.topics.push(FetchedTopic.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.topics$
              }))
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const obj = {
          topics: 10000
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              if (opts.limits?.topics != null && obj.topics === opts.limits.topics) {
                throw new MaxLengthError('Streaming decode error - repeated field "topics" had too many elements')
              }

              if (obj.topics === 10000) {
                throw new MaxLengthError('Streaming decode error - repeated field "topics" had too many elements')
              }

              for (const evt of FetchedTopic.codec().stream(reader, reader.uint32(), `${prefix}.topics[]`, {
                limits: opts.limits?.topics$
              })) {
                yield {
                  ...evt,
                  index: obj.topics
                }
              }

              obj.topics++

              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export interface OffsetFetchResponseTopicsTopicFieldEvent {
    field: '$.topics[].topic'
    value: string
    index: number
  }

  export interface OffsetFetchResponseTopicsPartitionsPartitionFieldEvent {
    field: '$.topics[].partitions[].partition'
    value: number
    index: number
  }

  export interface OffsetFetchResponseTopicsPartitionsOffsetFieldEvent {
    field: '$.topics[].partitions[].offset'
    value: bigint
    index: number
  }

  export interface OffsetFetchResponseTopicsPartitionsLeaderEpochFieldEvent {
    field: '$.topics[].partitions[].leaderEpoch'
    value: number
    index: number
  }

  export interface OffsetFetchResponseTopicsPartitionsMetadataFieldEvent {
    field: '$.topics[].partitions[].metadata'
    value: string
    index: number
  }

  export function encode (obj: Partial<OffsetFetchResponse>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, OffsetFetchResponse.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<OffsetFetchResponse>): OffsetFetchResponse {
    return decodeMessage(buf, OffsetFetchResponse.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<OffsetFetchResponse>): Generator<OffsetFetchResponseTopicsTopicFieldEvent | OffsetFetchResponseTopicsPartitionsPartitionFieldEvent | OffsetFetchResponseTopicsPartitionsOffsetFieldEvent | OffsetFetchResponseTopicsPartitionsLeaderEpochFieldEvent | OffsetFetchResponseTopicsPartitionsMetadataFieldEvent> {
    return streamMessage(buf, OffsetFetchResponse.codec(), opts)
  }
}

export interface FetchedTopic {
  topic: string
  partitions: FetchedPartition[]
}

export namespace FetchedTopic {
  let _codec: Codec<FetchedTopic>

  export const codec = (): Codec<FetchedTopic> => {
    if (_codec == null) {
      _codec = message<FetchedTopic>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.topic != null && obj.topic !== '')) {
          w.uint32(10)
          w.string(obj.topic)
        }

        if (obj.partitions != null && obj.partitions.length > 0) {
          for (const value of obj.partitions) {
            w.uint32(18)
            FetchedPartition.codec().encode(value, w)
          }
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          topic: '',
          partitions: []
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.topic = reader.string()
              break
            }
            case 2: {
              if (opts.limits?.partitions != null && obj.partitions.length === opts.limits.partitions) {
                throw new MaxLengthError('Decode error - repeated field "partitions" had too many elements')
              }

              if (obj.partitions.length === 10000) {
                throw new MaxLengthError('Decode error - repeated field "partitions" had too many elements')
              }

              obj.partitions.push(FetchedPartition.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.partitions$
              }))
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const obj = {
          partitions: 10000
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.topic`,
                value: reader.string()
              }
              break
            }
            case 2: {
              if (opts.limits?.partitions != null && obj.partitions === opts.limits.partitions) {
                throw new MaxLengthError('Streaming decode error - repeated field "partitions" had too many elements')
              }

              if (obj.partitions === 10000) {
                throw new MaxLengthError('Streaming decode error - repeated field "partitions" had too many elements')
              }

              for (const evt of FetchedPartition.codec().stream(reader, reader.uint32(), `${prefix}.partitions[]`, {
                limits: opts.limits?.partitions$
              })) {
                yield {
                  ...evt,
                  index: obj.partitions
                }
              }

              obj.partitions++

              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export interface FetchedTopicTopicFieldEvent {
    field: '$.topic'
    value: string
  }

  export interface FetchedTopicPartitionsPartitionFieldEvent {
    field: '$.partitions[].partition'
    value: number
    index: number
  }

  export interface FetchedTopicPartitionsOffsetFieldEvent {
    field: '$.partitions[].offset'
    value: bigint
    index: number
  }

  export interface FetchedTopicPartitionsLeaderEpochFieldEvent {
    field: '$.partitions[].leaderEpoch'
    value: number
    index: number
  }

  export interface FetchedTopicPartitionsMetadataFieldEvent {
    field: '$.partitions[].metadata'
    value: string
    index: number
  }

  export function encode (obj: Partial<FetchedTopic>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, FetchedTopic.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<FetchedTopic>): FetchedTopic {
    return decodeMessage(buf, FetchedTopic.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<FetchedTopic>): Generator<FetchedTopicTopicFieldEvent | FetchedTopicPartitionsPartitionFieldEvent | FetchedTopicPartitionsOffsetFieldEvent | FetchedTopicPartitionsLeaderEpochFieldEvent | FetchedTopicPartitionsMetadataFieldEvent> {
    return streamMessage(buf, FetchedTopic.codec(), opts)
  }
}

export interface FetchedPartition {
  partition: number
  offset: bigint
  leaderEpoch: number
  metadata: string
}

export namespace FetchedPartition {
  let _codec: Codec<FetchedPartition>

  export const codec = (): Codec<FetchedPartition> => {
    if (_codec == null) {
      _codec = message<FetchedPartition>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.partition != null && obj.partition !== 0)) {
          w.uint32(8)
          w.uint32(obj.partition)
        }

        if ((obj.offset != null && obj.offset !== 0n)) {
          w.uint32(16)
          w.sint64(obj.offset)
        }

        if ((obj.leaderEpoch != null && obj.leaderEpoch !== 0)) {
          w.uint32(24)
          w.sint32(obj.leaderEpoch)
        }

        if ((obj.metadata != null && obj.metadata !== '')) {
          w.uint32(34)
          w.string(obj.metadata)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          partition: 0,
          offset: 0n,
          leaderEpoch: 0,
          metadata: ''
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.partition = reader.uint32()
              break
            }
            case 2: {
              obj.offset = reader.sint64()
              break
            }
            case 3: {
              obj.leaderEpoch = reader.sint32()
              break
            }
            case 4: {
              obj.metadata = reader.string()
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.partition`,
                value: reader.uint32()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.offset`,
                value: reader.sint64()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.leaderEpoch`,
                value: reader.sint32()
              }
              break
            }
            case 4: {
              yield {
                field: `${prefix}.metadata`,
                value: reader.string()
              }
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export interface FetchedPartitionPartitionFieldEvent {
    field: '$.partition'
    value: number
  }

  export interface FetchedPartitionOffsetFieldEvent {
    field: '$.offset'
    value: bigint
  }

  export interface FetchedPartitionLeaderEpochFieldEvent {
    field: '$.leaderEpoch'
    value: number
  }

  export interface FetchedPartitionMetadataFieldEvent {
    field: '$.metadata'
    value: string
  }

  export function encode (obj: Partial<FetchedPartition>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, FetchedPartition.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<FetchedPartition>): FetchedPartition {
    return decodeMessage(buf, FetchedPartition.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<FetchedPartition>): Generator<FetchedPartitionPartitionFieldEvent | FetchedPartitionOffsetFieldEvent | FetchedPartitionLeaderEpochFieldEvent | FetchedPartitionMetadataFieldEvent> {
    return streamMessage(buf, FetchedPartition.codec(), opts)
  }
}

export interface OffsetsKey {
  type: number
  groupId: string
  topic: string
  partition: number
}

export namespace OffsetsKey {
  let _codec: Codec<OffsetsKey>

  export const codec = (): Codec<OffsetsKey> => {
    if (_codec == null) {
      _codec = message<OffsetsKey>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.type != null && obj.type !== 0)) {
          w.uint32(8)
          w.uint32(obj.type)
        }

        if ((obj.groupId != null && obj.groupId !== '')) {
          w.uint32(18)
          w.string(obj.groupId)
        }

        if ((obj.topic != null && obj.topic !== '')) {
          w.uint32(26)
          w.string(obj.topic)
        }

        if ((obj.partition != null && obj.partition !== 0)) {
          w.uint32(32)
          w.uint32(obj.partition)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          type: 0,
          groupId: '',
          topic: '',
          partition: 0
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.type = reader.uint32()
              break
            }
            case 2: {
              obj.groupId = reader.string()
              break
            }
            case 3: {
              obj.topic = reader.string()
              break
            }
            case 4: {
              obj.partition = reader.uint32()
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.type`,
                value: reader.uint32()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.groupId`,
                value: reader.string()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.topic`,
                value: reader.string()
              }
              break
            }
            case 4: {
              yield {
                field: `${prefix}.partition`,
                value: reader.uint32()
              }
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export interface OffsetsKeyTypeFieldEvent {
    field: '$.type'
    value: number
  }

  export interface OffsetsKeyGroupIdFieldEvent {
    field: '$.groupId'
    value: string
  }

  export interface OffsetsKeyTopicFieldEvent {
    field: '$.topic'
    value: string
  }

  export interface OffsetsKeyPartitionFieldEvent {
    field: '$.partition'
    value: number
  }

  export function encode (obj: Partial<OffsetsKey>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, OffsetsKey.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<OffsetsKey>): OffsetsKey {
    return decodeMessage(buf, OffsetsKey.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<OffsetsKey>): Generator<OffsetsKeyTypeFieldEvent | OffsetsKeyGroupIdFieldEvent | OffsetsKeyTopicFieldEvent | OffsetsKeyPartitionFieldEvent> {
    return streamMessage(buf, OffsetsKey.codec(), opts)
  }
}

export interface OffsetCommitValue {
  version: number
  offset: bigint
  leaderEpoch: number
  metadata: string
  commitTimestamp: bigint
  generation: number
  memberId: string
}

export namespace OffsetCommitValue {
  let _codec: Codec<OffsetCommitValue>

  export const codec = (): Codec<OffsetCommitValue> => {
    if (_codec == null) {
      _codec = message<OffsetCommitValue>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.version != null && obj.version !== 0)) {
          w.uint32(8)
          w.uint32(obj.version)
        }

        if ((obj.offset != null && obj.offset !== 0n)) {
          w.uint32(16)
          w.sint64(obj.offset)
        }

        if ((obj.leaderEpoch != null && obj.leaderEpoch !== 0)) {
          w.uint32(24)
          w.sint32(obj.leaderEpoch)
        }

        if ((obj.metadata != null && obj.metadata !== '')) {
          w.uint32(34)
          w.string(obj.metadata)
        }

        if ((obj.commitTimestamp != null && obj.commitTimestamp !== 0n)) {
          w.uint32(40)
          w.sint64(obj.commitTimestamp)
        }

        if ((obj.generation != null && obj.generation !== 0)) {
          w.uint32(48)
          w.sint32(obj.generation)
        }

        if ((obj.memberId != null && obj.memberId !== '')) {
          w.uint32(58)
          w.string(obj.memberId)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          version: 0,
          offset: 0n,
          leaderEpoch: 0,
          metadata: '',
          commitTimestamp: 0n,
          generation: 0,
          memberId: ''
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.version = reader.uint32()
              break
            }
            case 2: {
              obj.offset = reader.sint64()
              break
            }
            case 3: {
              obj.leaderEpoch = reader.sint32()
              break
            }
            case 4: {
              obj.metadata = reader.string()
              break
            }
            case 5: {
              obj.commitTimestamp = reader.sint64()
              break
            }
            case 6: {
              obj.generation = reader.sint32()
              break
            }
            case 7: {
              obj.memberId = reader.string()
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.version`,
                value: reader.uint32()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.offset`,
                value: reader.sint64()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.leaderEpoch`,
                value: reader.sint32()
              }
              break
            }
            case 4: {
              yield {
                field: `${prefix}.metadata`,
                value: reader.string()
              }
              break
            }
            case 5: {
              yield {
                field: `${prefix}.commitTimestamp`,
                value: reader.sint64()
              }
              break
            }
            case 6: {
              yield {
                field: `${prefix}.generation`,
                value: reader.sint32()
              }
              break
            }
            case 7: {
              yield {
                field: `${prefix}.memberId`,
                value: reader.string()
              }
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export interface OffsetCommitValueVersionFieldEvent {
    field: '$.version'
    value: number
  }

  export interface OffsetCommitValueOffsetFieldEvent {
    field: '$.offset'
    value: bigint
  }

  export interface OffsetCommitValueLeaderEpochFieldEvent {
    field: '$.leaderEpoch'
    value: number
  }

  export interface OffsetCommitValueMetadataFieldEvent {
    field: '$.metadata'
    value: string
  }

  export interface OffsetCommitValueCommitTimestampFieldEvent {
    field: '$.commitTimestamp'
    value: bigint
  }

  export interface OffsetCommitValueGenerationFieldEvent {
    field: '$.generation'
    value: number
  }

  export interface OffsetCommitValueMemberIdFieldEvent {
    field: '$.memberId'
    value: string
  }

  export function encode (obj: Partial<OffsetCommitValue>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, OffsetCommitValue.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<OffsetCommitValue>): OffsetCommitValue {
    return decodeMessage(buf, OffsetCommitValue.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<OffsetCommitValue>): Generator<OffsetCommitValueVersionFieldEvent | OffsetCommitValueOffsetFieldEvent | OffsetCommitValueLeaderEpochFieldEvent | OffsetCommitValueMetadataFieldEvent | OffsetCommitValueCommitTimestampFieldEvent | OffsetCommitValueGenerationFieldEvent | OffsetCommitValueMemberIdFieldEvent> {
    return streamMessage(buf, OffsetCommitValue.codec(), opts)
  }
}

export interface GroupMetadataValue {
  version: number
  protocolType: string
  generation: number
  protocol: string
  stateTimestamp: bigint
  members: GroupMemberValue[]
  fenced: FencedPartitionsValue[]
  partitionCounts: TopicPartitionCount[]
}

export namespace GroupMetadataValue {
  let _codec: Codec<GroupMetadataValue>

  export const codec = (): Codec<GroupMetadataValue> => {
    if (_codec == null) {
      _codec = message<GroupMetadataValue>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.version != null && obj.version !== 0)) {
          w.uint32(8)
          w.uint32(obj.version)
        }

        if ((obj.protocolType != null && obj.protocolType !== '')) {
          w.uint32(18)
          w.string(obj.protocolType)
        }

        if ((obj.generation != null && obj.generation !== 0)) {
          w.uint32(24)
          w.sint32(obj.generation)
        }

        if ((obj.protocol != null && obj.protocol !== '')) {
          w.uint32(34)
          w.string(obj.protocol)
        }

        if ((obj.stateTimestamp != null && obj.stateTimestamp !== 0n)) {
          w.uint32(40)
          w.sint64(obj.stateTimestamp)
        }

        if (obj.members != null && obj.members.length > 0) {
          for (const value of obj.members) {
            w.uint32(50)
            GroupMemberValue.codec().encode(value, w)
          }
        }

        if (obj.fenced != null && obj.fenced.length > 0) {
          for (const value of obj.fenced) {
            w.uint32(58)
            FencedPartitionsValue.codec().encode(value, w)
          }
        }

        if (obj.partitionCounts != null && obj.partitionCounts.length > 0) {
          for (const value of obj.partitionCounts) {
            w.uint32(66)
            TopicPartitionCount.codec().encode(value, w)
          }
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          version: 0,
          protocolType: '',
          generation: 0,
          protocol: '',
          stateTimestamp: 0n,
          members: [],
          fenced: [],
          partitionCounts: []
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.version = reader.uint32()
              break
            }
            case 2: {
              obj.protocolType = reader.string()
              break
            }
            case 3: {
              obj.generation = reader.sint32()
              break
            }
            case 4: {
              obj.protocol = reader.string()
              break
            }
            case 5: {
              obj.stateTimestamp = reader.sint64()
              break
            }
            case 6: {
              if (opts.limits?.members != null && obj.members.length === opts.limits.members) {
                throw new MaxLengthError('Decode error - repeated field "members" had too many elements')
              }

              if (obj.members.length === 10000) {
                throw new MaxLengthError('Decode error - repeated field "members" had too many elements')
              }

              obj.members.push(GroupMemberValue.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.members$
              }))
              break
            }
            case 7: {
              if (opts.limits?.fenced != null && obj.fenced.length === opts.limits.fenced) {
                throw new MaxLengthError('Decode error - repeated field "fenced" had too many elements')
              }

              if (obj.fenced.length === 10000) {
                throw new MaxLengthError('Decode error - repeated field "fenced" had too many elements')
              }

              obj.fenced.push(FencedPartitionsValue.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.fenced$
              }))
              break
            }
            case 8: {
              if (opts.limits?.partitionCounts != null && obj.partitionCounts.length === opts.limits.partitionCounts) {
                throw new MaxLengthError('Decode error - repeated field "partitionCounts" had too many elements')
              }

              if (obj.partitionCounts.length === 10000) {
                throw new MaxLengthError('Decode error - repeated field "partitionCounts" had too many elements')
              }

              obj.partitionCounts.push(TopicPartitionCount.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.partitionCounts$
              }))
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const obj = {
          members: 10000,
          fenced: 10000,
          partitionCounts: 10000
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.version`,
                value: reader.uint32()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.protocolType`,
                value: reader.string()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.generation`,
                value: reader.sint32()
              }
              break
            }
            case 4: {
              yield {
                field: `${prefix}.protocol`,
                value: reader.string()
              }
              break
            }
            case 5: {
              yield {
                field: `${prefix}.stateTimestamp`,
                value: reader.sint64()
              }
              break
            }
            case 6: {
              if (opts.limits?.members != null && obj.members === opts.limits.members) {
                throw new MaxLengthError('Streaming decode error - repeated field "members" had too many elements')
              }

              if (obj.members === 10000) {
                throw new MaxLengthError('Streaming decode error - repeated field "members" had too many elements')
              }

              for (const evt of GroupMemberValue.codec().stream(reader, reader.uint32(), `${prefix}.members[]`, {
                limits: opts.limits?.members$
              })) {
                yield {
                  ...evt,
                  index: obj.members
                }
              }

              obj.members++

              break
            }
            case 7: {
              if (opts.limits?.fenced != null && obj.fenced === opts.limits.fenced) {
                throw new MaxLengthError('Streaming decode error - repeated field "fenced" had too many elements')
              }

              if (obj.fenced === 10000) {
                throw new MaxLengthError('Streaming decode error - repeated field "fenced" had too many elements')
              }

              for (const evt of FencedPartitionsValue.codec().stream(reader, reader.uint32(), `${prefix}.fenced[]`, {
                limits: opts.limits?.fenced$
              })) {
                yield {
                  ...evt,
                  index: obj.fenced
                }
              }

              obj.fenced++

              break
            }
            case 8: {
              if (opts.limits?.partitionCounts != null && obj.partitionCounts === opts.limits.partitionCounts) {
                throw new MaxLengthError('Streaming decode error - repeated field "partitionCounts" had too many elements')
              }

              if (obj.partitionCounts === 10000) {
                throw new MaxLengthError('Streaming decode error - repeated field "partitionCounts" had too many elements')
              }

              for (const evt of TopicPartitionCount.codec().stream(reader, reader.uint32(), `${prefix}.partitionCounts[]`, {
                limits: opts.limits?.partitionCounts$
              })) {
                yield {
                  ...evt,
                  index: obj.partitionCounts
                }
              }

              obj.partitionCounts++

              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export interface GroupMetadataValueVersionFieldEvent {
    field: '$.version'
    value: number
  }

  export interface GroupMetadataValueProtocolTypeFieldEvent {
    field: '$.protocolType'
    value: string
  }

  export interface GroupMetadataValueGenerationFieldEvent {
    field: '$.generation'
    value: number
  }

  export interface GroupMetadataValueProtocolFieldEvent {
    field: '$.protocol'
    value: string
  }

  export interface GroupMetadataValueStateTimestampFieldEvent {
    field: '$.stateTimestamp'
    value: bigint
  }

  export interface GroupMetadataValueMembersMemberIdFieldEvent {
    field: '$.members[].memberId'
    value: string
    index: number
  }

  export interface GroupMetadataValueMembersGroupInstanceIdFieldEvent {
    field: '$.members[].groupInstanceId'
    value: string
    index: number
  }

  export interface GroupMetadataValueMembersClientIdFieldEvent {
    field: '$.members[].clientId'
    value: string
    index: number
  }

  export interface GroupMetadataValueMembersSessionTimeoutMsFieldEvent {
    field: '$.members[].sessionTimeoutMs'
    value: number
    index: number
  }

  export interface GroupMetadataValueMembersRebalanceTimeoutMsFieldEvent {
    field: '$.members[].rebalanceTimeoutMs'
    value: number
    index: number
  }

  export interface GroupMetadataValueMembersProtocolsFieldEvent {
    field: '$.members[].protocols[]'
    index: number
    value: string
  }

  export interface GroupMetadataValueMembersTopicsFieldEvent {
    field: '$.members[].topics[]'
    index: number
    value: string
  }

  export interface GroupMetadataValueMembersAssignmentTopicFieldEvent {
    field: '$.members[].assignment[].topic'
    value: string
    index: number
  }

  export interface GroupMetadataValueMembersAssignmentPartitionsFieldEvent {
    field: '$.members[].assignment[].partitions[]'
    index: number
    value: number
  }

  export interface GroupMetadataValueMembersHeldTopicFieldEvent {
    field: '$.members[].held[].topic'
    value: string
    index: number
  }

  export interface GroupMetadataValueMembersHeldPartitionsFieldEvent {
    field: '$.members[].held[].partitions[]'
    index: number
    value: number
  }

  export interface GroupMetadataValueMembersStartedAtFieldEvent {
    field: '$.members[].startedAt'
    value: bigint
    index: number
  }

  export interface GroupMetadataValueFencedMemberIdFieldEvent {
    field: '$.fenced[].memberId'
    value: string
    index: number
  }

  export interface GroupMetadataValueFencedPartitionsTopicFieldEvent {
    field: '$.fenced[].partitions[].topic'
    value: string
    index: number
  }

  export interface GroupMetadataValueFencedPartitionsPartitionsFieldEvent {
    field: '$.fenced[].partitions[].partitions[]'
    index: number
    value: number
  }

  export interface GroupMetadataValueFencedLeaseMsFieldEvent {
    field: '$.fenced[].leaseMs'
    value: number
    index: number
  }

  export interface GroupMetadataValuePartitionCountsTopicFieldEvent {
    field: '$.partitionCounts[].topic'
    value: string
    index: number
  }

  export interface GroupMetadataValuePartitionCountsPartitionsFieldEvent {
    field: '$.partitionCounts[].partitions'
    value: number
    index: number
  }

  export function encode (obj: Partial<GroupMetadataValue>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, GroupMetadataValue.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<GroupMetadataValue>): GroupMetadataValue {
    return decodeMessage(buf, GroupMetadataValue.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<GroupMetadataValue>): Generator<GroupMetadataValueVersionFieldEvent | GroupMetadataValueProtocolTypeFieldEvent | GroupMetadataValueGenerationFieldEvent | GroupMetadataValueProtocolFieldEvent | GroupMetadataValueStateTimestampFieldEvent | GroupMetadataValueMembersMemberIdFieldEvent | GroupMetadataValueMembersGroupInstanceIdFieldEvent | GroupMetadataValueMembersClientIdFieldEvent | GroupMetadataValueMembersSessionTimeoutMsFieldEvent | GroupMetadataValueMembersRebalanceTimeoutMsFieldEvent | GroupMetadataValueMembersProtocolsFieldEvent | GroupMetadataValueMembersTopicsFieldEvent | GroupMetadataValueMembersAssignmentTopicFieldEvent | GroupMetadataValueMembersAssignmentPartitionsFieldEvent | GroupMetadataValueMembersHeldTopicFieldEvent | GroupMetadataValueMembersHeldPartitionsFieldEvent | GroupMetadataValueMembersStartedAtFieldEvent | GroupMetadataValueFencedMemberIdFieldEvent | GroupMetadataValueFencedPartitionsTopicFieldEvent | GroupMetadataValueFencedPartitionsPartitionsFieldEvent | GroupMetadataValueFencedLeaseMsFieldEvent | GroupMetadataValuePartitionCountsTopicFieldEvent | GroupMetadataValuePartitionCountsPartitionsFieldEvent> {
    return streamMessage(buf, GroupMetadataValue.codec(), opts)
  }
}

export interface TopicPartitionCount {
  topic: string
  partitions: number
}

export namespace TopicPartitionCount {
  let _codec: Codec<TopicPartitionCount>

  export const codec = (): Codec<TopicPartitionCount> => {
    if (_codec == null) {
      _codec = message<TopicPartitionCount>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.topic != null && obj.topic !== '')) {
          w.uint32(10)
          w.string(obj.topic)
        }

        if ((obj.partitions != null && obj.partitions !== 0)) {
          w.uint32(16)
          w.uint32(obj.partitions)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          topic: '',
          partitions: 0
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.topic = reader.string()
              break
            }
            case 2: {
              obj.partitions = reader.uint32()
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.topic`,
                value: reader.string()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.partitions`,
                value: reader.uint32()
              }
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export interface TopicPartitionCountTopicFieldEvent {
    field: '$.topic'
    value: string
  }

  export interface TopicPartitionCountPartitionsFieldEvent {
    field: '$.partitions'
    value: number
  }

  export function encode (obj: Partial<TopicPartitionCount>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, TopicPartitionCount.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<TopicPartitionCount>): TopicPartitionCount {
    return decodeMessage(buf, TopicPartitionCount.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<TopicPartitionCount>): Generator<TopicPartitionCountTopicFieldEvent | TopicPartitionCountPartitionsFieldEvent> {
    return streamMessage(buf, TopicPartitionCount.codec(), opts)
  }
}

export interface GroupMemberValue {
  memberId: string
  groupInstanceId: string
  clientId: string
  sessionTimeoutMs: number
  rebalanceTimeoutMs: number
  protocols: string[]
  topics: string[]
  assignment: TopicPartitions[]
  held: TopicPartitions[]
  startedAt: bigint
}

export namespace GroupMemberValue {
  let _codec: Codec<GroupMemberValue>

  export const codec = (): Codec<GroupMemberValue> => {
    if (_codec == null) {
      _codec = message<GroupMemberValue>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.memberId != null && obj.memberId !== '')) {
          w.uint32(10)
          w.string(obj.memberId)
        }

        if ((obj.groupInstanceId != null && obj.groupInstanceId !== '')) {
          w.uint32(18)
          w.string(obj.groupInstanceId)
        }

        if ((obj.clientId != null && obj.clientId !== '')) {
          w.uint32(26)
          w.string(obj.clientId)
        }

        if ((obj.sessionTimeoutMs != null && obj.sessionTimeoutMs !== 0)) {
          w.uint32(32)
          w.uint32(obj.sessionTimeoutMs)
        }

        if ((obj.rebalanceTimeoutMs != null && obj.rebalanceTimeoutMs !== 0)) {
          w.uint32(40)
          w.uint32(obj.rebalanceTimeoutMs)
        }

        if (obj.protocols != null && obj.protocols.length > 0) {
          for (const value of obj.protocols) {
            w.uint32(50)
            w.string(value)
          }
        }

        if (obj.topics != null && obj.topics.length > 0) {
          for (const value of obj.topics) {
            w.uint32(58)
            w.string(value)
          }
        }

        if (obj.assignment != null && obj.assignment.length > 0) {
          for (const value of obj.assignment) {
            w.uint32(66)
            TopicPartitions.codec().encode(value, w)
          }
        }

        if (obj.held != null && obj.held.length > 0) {
          for (const value of obj.held) {
            w.uint32(74)
            TopicPartitions.codec().encode(value, w)
          }
        }

        if ((obj.startedAt != null && obj.startedAt !== 0n)) {
          w.uint32(80)
          w.uint64(obj.startedAt)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          memberId: '',
          groupInstanceId: '',
          clientId: '',
          sessionTimeoutMs: 0,
          rebalanceTimeoutMs: 0,
          protocols: [],
          topics: [],
          assignment: [],
          held: [],
          startedAt: 0n
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.memberId = reader.string()
              break
            }
            case 2: {
              obj.groupInstanceId = reader.string()
              break
            }
            case 3: {
              obj.clientId = reader.string()
              break
            }
            case 4: {
              obj.sessionTimeoutMs = reader.uint32()
              break
            }
            case 5: {
              obj.rebalanceTimeoutMs = reader.uint32()
              break
            }
            case 6: {
              if (opts.limits?.protocols != null && obj.protocols.length === opts.limits.protocols) {
                throw new MaxLengthError('Decode error - repeated field "protocols" had too many elements')
              }

              if (obj.protocols.length === 16) {
                throw new MaxLengthError('Decode error - repeated field "protocols" had too many elements')
              }

              obj.protocols.push(reader.string())
              break
            }
            case 7: {
              if (opts.limits?.topics != null && obj.topics.length === opts.limits.topics) {
                throw new MaxLengthError('Decode error - repeated field "topics" had too many elements')
              }

              if (obj.topics.length === 10000) {
                throw new MaxLengthError('Decode error - repeated field "topics" had too many elements')
              }

              obj.topics.push(reader.string())
              break
            }
            case 8: {
              if (opts.limits?.assignment != null && obj.assignment.length === opts.limits.assignment) {
                throw new MaxLengthError('Decode error - repeated field "assignment" had too many elements')
              }

              if (obj.assignment.length === 10000) {
                throw new MaxLengthError('Decode error - repeated field "assignment" had too many elements')
              }

              obj.assignment.push(TopicPartitions.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.assignment$
              }))
              break
            }
            case 9: {
              if (opts.limits?.held != null && obj.held.length === opts.limits.held) {
                throw new MaxLengthError('Decode error - repeated field "held" had too many elements')
              }

              if (obj.held.length === 10000) {
                throw new MaxLengthError('Decode error - repeated field "held" had too many elements')
              }

              obj.held.push(TopicPartitions.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.held$
              }))
              break
            }
            case 10: {
              obj.startedAt = reader.uint64()
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const obj = {
          protocols: 16,
          topics: 10000,
          assignment: 10000,
          held: 10000
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.memberId`,
                value: reader.string()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.groupInstanceId`,
                value: reader.string()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.clientId`,
                value: reader.string()
              }
              break
            }
            case 4: {
              yield {
                field: `${prefix}.sessionTimeoutMs`,
                value: reader.uint32()
              }
              break
            }
            case 5: {
              yield {
                field: `${prefix}.rebalanceTimeoutMs`,
                value: reader.uint32()
              }
              break
            }
            case 6: {
              if (opts.limits?.protocols != null && obj.protocols === opts.limits.protocols) {
                throw new MaxLengthError('Streaming decode error - repeated field "protocols" had too many elements')
              }

              if (obj.protocols === 16) {
                throw new MaxLengthError('Streaming decode error - repeated field "protocols" had too many elements')
              }

              yield {
                field: `${prefix}.protocols[]`,
                index: obj.protocols,
                value: reader.string()
              }

              obj.protocols++

              break
            }
            case 7: {
              if (opts.limits?.topics != null && obj.topics === opts.limits.topics) {
                throw new MaxLengthError('Streaming decode error - repeated field "topics" had too many elements')
              }

              if (obj.topics === 10000) {
                throw new MaxLengthError('Streaming decode error - repeated field "topics" had too many elements')
              }

              yield {
                field: `${prefix}.topics[]`,
                index: obj.topics,
                value: reader.string()
              }

              obj.topics++

              break
            }
            case 8: {
              if (opts.limits?.assignment != null && obj.assignment === opts.limits.assignment) {
                throw new MaxLengthError('Streaming decode error - repeated field "assignment" had too many elements')
              }

              if (obj.assignment === 10000) {
                throw new MaxLengthError('Streaming decode error - repeated field "assignment" had too many elements')
              }

              for (const evt of TopicPartitions.codec().stream(reader, reader.uint32(), `${prefix}.assignment[]`, {
                limits: opts.limits?.assignment$
              })) {
                yield {
                  ...evt,
                  index: obj.assignment
                }
              }

              obj.assignment++

              break
            }
            case 9: {
              if (opts.limits?.held != null && obj.held === opts.limits.held) {
                throw new MaxLengthError('Streaming decode error - repeated field "held" had too many elements')
              }

              if (obj.held === 10000) {
                throw new MaxLengthError('Streaming decode error - repeated field "held" had too many elements')
              }

              for (const evt of TopicPartitions.codec().stream(reader, reader.uint32(), `${prefix}.held[]`, {
                limits: opts.limits?.held$
              })) {
                yield {
                  ...evt,
                  index: obj.held
                }
              }

              obj.held++

              break
            }
            case 10: {
              yield {
                field: `${prefix}.startedAt`,
                value: reader.uint64()
              }
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export interface GroupMemberValueMemberIdFieldEvent {
    field: '$.memberId'
    value: string
  }

  export interface GroupMemberValueGroupInstanceIdFieldEvent {
    field: '$.groupInstanceId'
    value: string
  }

  export interface GroupMemberValueClientIdFieldEvent {
    field: '$.clientId'
    value: string
  }

  export interface GroupMemberValueSessionTimeoutMsFieldEvent {
    field: '$.sessionTimeoutMs'
    value: number
  }

  export interface GroupMemberValueRebalanceTimeoutMsFieldEvent {
    field: '$.rebalanceTimeoutMs'
    value: number
  }

  export interface GroupMemberValueProtocolsFieldEvent {
    field: '$.protocols[]'
    index: number
    value: string
  }

  export interface GroupMemberValueTopicsFieldEvent {
    field: '$.topics[]'
    index: number
    value: string
  }

  export interface GroupMemberValueAssignmentTopicFieldEvent {
    field: '$.assignment[].topic'
    value: string
    index: number
  }

  export interface GroupMemberValueAssignmentPartitionsFieldEvent {
    field: '$.assignment[].partitions[]'
    index: number
    value: number
  }

  export interface GroupMemberValueHeldTopicFieldEvent {
    field: '$.held[].topic'
    value: string
    index: number
  }

  export interface GroupMemberValueHeldPartitionsFieldEvent {
    field: '$.held[].partitions[]'
    index: number
    value: number
  }

  export interface GroupMemberValueStartedAtFieldEvent {
    field: '$.startedAt'
    value: bigint
  }

  export function encode (obj: Partial<GroupMemberValue>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, GroupMemberValue.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<GroupMemberValue>): GroupMemberValue {
    return decodeMessage(buf, GroupMemberValue.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<GroupMemberValue>): Generator<GroupMemberValueMemberIdFieldEvent | GroupMemberValueGroupInstanceIdFieldEvent | GroupMemberValueClientIdFieldEvent | GroupMemberValueSessionTimeoutMsFieldEvent | GroupMemberValueRebalanceTimeoutMsFieldEvent | GroupMemberValueProtocolsFieldEvent | GroupMemberValueTopicsFieldEvent | GroupMemberValueAssignmentTopicFieldEvent | GroupMemberValueAssignmentPartitionsFieldEvent | GroupMemberValueHeldTopicFieldEvent | GroupMemberValueHeldPartitionsFieldEvent | GroupMemberValueStartedAtFieldEvent> {
    return streamMessage(buf, GroupMemberValue.codec(), opts)
  }
}

export interface FencedPartitionsValue {
  memberId: string
  partitions: TopicPartitions[]
  leaseMs: number
}

export namespace FencedPartitionsValue {
  let _codec: Codec<FencedPartitionsValue>

  export const codec = (): Codec<FencedPartitionsValue> => {
    if (_codec == null) {
      _codec = message<FencedPartitionsValue>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.memberId != null && obj.memberId !== '')) {
          w.uint32(10)
          w.string(obj.memberId)
        }

        if (obj.partitions != null && obj.partitions.length > 0) {
          for (const value of obj.partitions) {
            w.uint32(18)
            TopicPartitions.codec().encode(value, w)
          }
        }

        if ((obj.leaseMs != null && obj.leaseMs !== 0)) {
          w.uint32(24)
          w.uint32(obj.leaseMs)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          memberId: '',
          partitions: [],
          leaseMs: 0
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.memberId = reader.string()
              break
            }
            case 2: {
              if (opts.limits?.partitions != null && obj.partitions.length === opts.limits.partitions) {
                throw new MaxLengthError('Decode error - repeated field "partitions" had too many elements')
              }

              if (obj.partitions.length === 10000) {
                throw new MaxLengthError('Decode error - repeated field "partitions" had too many elements')
              }

              obj.partitions.push(TopicPartitions.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.partitions$
              }))
              break
            }
            case 3: {
              obj.leaseMs = reader.uint32()
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const obj = {
          partitions: 10000
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.memberId`,
                value: reader.string()
              }
              break
            }
            case 2: {
              if (opts.limits?.partitions != null && obj.partitions === opts.limits.partitions) {
                throw new MaxLengthError('Streaming decode error - repeated field "partitions" had too many elements')
              }

              if (obj.partitions === 10000) {
                throw new MaxLengthError('Streaming decode error - repeated field "partitions" had too many elements')
              }

              for (const evt of TopicPartitions.codec().stream(reader, reader.uint32(), `${prefix}.partitions[]`, {
                limits: opts.limits?.partitions$
              })) {
                yield {
                  ...evt,
                  index: obj.partitions
                }
              }

              obj.partitions++

              break
            }
            case 3: {
              yield {
                field: `${prefix}.leaseMs`,
                value: reader.uint32()
              }
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export interface FencedPartitionsValueMemberIdFieldEvent {
    field: '$.memberId'
    value: string
  }

  export interface FencedPartitionsValuePartitionsTopicFieldEvent {
    field: '$.partitions[].topic'
    value: string
    index: number
  }

  export interface FencedPartitionsValuePartitionsPartitionsFieldEvent {
    field: '$.partitions[].partitions[]'
    index: number
    value: number
  }

  export interface FencedPartitionsValueLeaseMsFieldEvent {
    field: '$.leaseMs'
    value: number
  }

  export function encode (obj: Partial<FencedPartitionsValue>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, FencedPartitionsValue.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<FencedPartitionsValue>): FencedPartitionsValue {
    return decodeMessage(buf, FencedPartitionsValue.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<FencedPartitionsValue>): Generator<FencedPartitionsValueMemberIdFieldEvent | FencedPartitionsValuePartitionsTopicFieldEvent | FencedPartitionsValuePartitionsPartitionsFieldEvent | FencedPartitionsValueLeaseMsFieldEvent> {
    return streamMessage(buf, FencedPartitionsValue.codec(), opts)
  }
}

export interface GroupAdminRequest {
  version: number
  groupId: string
  list?: ListGroupsRequest
  describe?: DescribeGroupRequest
  delete?: DeleteGroupRequest
  alterOffsets?: AlterOffsetsRequest
}

export namespace GroupAdminRequest {
  let _codec: Codec<GroupAdminRequest>

  export const codec = (): Codec<GroupAdminRequest> => {
    if (_codec == null) {
      _codec = message<GroupAdminRequest>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.version != null && obj.version !== 0)) {
          w.uint32(8)
          w.uint32(obj.version)
        }

        if ((obj.groupId != null && obj.groupId !== '')) {
          w.uint32(18)
          w.string(obj.groupId)
        }

        if (obj.list != null) {
          w.uint32(82)
          ListGroupsRequest.codec().encode(obj.list, w)
        }

        if (obj.describe != null) {
          w.uint32(90)
          DescribeGroupRequest.codec().encode(obj.describe, w)
        }

        if (obj.delete != null) {
          w.uint32(98)
          DeleteGroupRequest.codec().encode(obj.delete, w)
        }

        if (obj.alterOffsets != null) {
          w.uint32(106)
          AlterOffsetsRequest.codec().encode(obj.alterOffsets, w)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          version: 0,
          groupId: ''
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.version = reader.uint32()
              break
            }
            case 2: {
              obj.groupId = reader.string()
              break
            }
            case 10: {
              obj.list = ListGroupsRequest.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.list
              })
              break
            }
            case 11: {
              obj.describe = DescribeGroupRequest.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.describe
              })
              break
            }
            case 12: {
              obj.delete = DeleteGroupRequest.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.delete
              })
              break
            }
            case 13: {
              obj.alterOffsets = AlterOffsetsRequest.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.alterOffsets
              })
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.version`,
                value: reader.uint32()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.groupId`,
                value: reader.string()
              }
              break
            }
            case 10: {
              yield * ListGroupsRequest.codec().stream(reader, reader.uint32(), `${prefix}.list`, {
                limits: opts.limits?.list
              })

              break
            }
            case 11: {
              yield * DescribeGroupRequest.codec().stream(reader, reader.uint32(), `${prefix}.describe`, {
                limits: opts.limits?.describe
              })

              break
            }
            case 12: {
              yield * DeleteGroupRequest.codec().stream(reader, reader.uint32(), `${prefix}.delete`, {
                limits: opts.limits?.delete
              })

              break
            }
            case 13: {
              yield * AlterOffsetsRequest.codec().stream(reader, reader.uint32(), `${prefix}.alterOffsets`, {
                limits: opts.limits?.alterOffsets
              })

              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export interface GroupAdminRequestVersionFieldEvent {
    field: '$.version'
    value: number
  }

  export interface GroupAdminRequestGroupIdFieldEvent {
    field: '$.groupId'
    value: string
  }

  export interface GroupAdminRequestAlterOffsetsTopicsTopicFieldEvent {
    field: '$.alterOffsets.topics[].topic'
    value: string
    index: number
  }

  export interface GroupAdminRequestAlterOffsetsTopicsPartitionsPartitionFieldEvent {
    field: '$.alterOffsets.topics[].partitions[].partition'
    value: number
    index: number
  }

  export interface GroupAdminRequestAlterOffsetsTopicsPartitionsOffsetFieldEvent {
    field: '$.alterOffsets.topics[].partitions[].offset'
    value: bigint
    index: number
  }

  export interface GroupAdminRequestAlterOffsetsTopicsPartitionsLeaderEpochFieldEvent {
    field: '$.alterOffsets.topics[].partitions[].leaderEpoch'
    value: number
    index: number
  }

  export interface GroupAdminRequestAlterOffsetsTopicsPartitionsMetadataFieldEvent {
    field: '$.alterOffsets.topics[].partitions[].metadata'
    value: string
    index: number
  }

  export function encode (obj: Partial<GroupAdminRequest>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, GroupAdminRequest.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<GroupAdminRequest>): GroupAdminRequest {
    return decodeMessage(buf, GroupAdminRequest.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<GroupAdminRequest>): Generator<GroupAdminRequestVersionFieldEvent | GroupAdminRequestGroupIdFieldEvent | GroupAdminRequestAlterOffsetsTopicsTopicFieldEvent | GroupAdminRequestAlterOffsetsTopicsPartitionsPartitionFieldEvent | GroupAdminRequestAlterOffsetsTopicsPartitionsOffsetFieldEvent | GroupAdminRequestAlterOffsetsTopicsPartitionsLeaderEpochFieldEvent | GroupAdminRequestAlterOffsetsTopicsPartitionsMetadataFieldEvent> {
    return streamMessage(buf, GroupAdminRequest.codec(), opts)
  }
}

export interface ListGroupsRequest {}

export namespace ListGroupsRequest {
  let _codec: Codec<ListGroupsRequest>

  export const codec = (): Codec<ListGroupsRequest> => {
    if (_codec == null) {
      _codec = message<ListGroupsRequest>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {}

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export function encode (obj: Partial<ListGroupsRequest>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, ListGroupsRequest.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<ListGroupsRequest>): ListGroupsRequest {
    return decodeMessage(buf, ListGroupsRequest.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<ListGroupsRequest>): Generator<{}> {
    return streamMessage(buf, ListGroupsRequest.codec(), opts)
  }
}

export interface DescribeGroupRequest {}

export namespace DescribeGroupRequest {
  let _codec: Codec<DescribeGroupRequest>

  export const codec = (): Codec<DescribeGroupRequest> => {
    if (_codec == null) {
      _codec = message<DescribeGroupRequest>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {}

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export function encode (obj: Partial<DescribeGroupRequest>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, DescribeGroupRequest.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<DescribeGroupRequest>): DescribeGroupRequest {
    return decodeMessage(buf, DescribeGroupRequest.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<DescribeGroupRequest>): Generator<{}> {
    return streamMessage(buf, DescribeGroupRequest.codec(), opts)
  }
}

export interface DeleteGroupRequest {}

export namespace DeleteGroupRequest {
  let _codec: Codec<DeleteGroupRequest>

  export const codec = (): Codec<DeleteGroupRequest> => {
    if (_codec == null) {
      _codec = message<DeleteGroupRequest>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {}

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export function encode (obj: Partial<DeleteGroupRequest>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, DeleteGroupRequest.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<DeleteGroupRequest>): DeleteGroupRequest {
    return decodeMessage(buf, DeleteGroupRequest.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<DeleteGroupRequest>): Generator<{}> {
    return streamMessage(buf, DeleteGroupRequest.codec(), opts)
  }
}

export interface AlterOffsetsRequest {
  topics: CommitTopic[]
}

export namespace AlterOffsetsRequest {
  let _codec: Codec<AlterOffsetsRequest>

  export const codec = (): Codec<AlterOffsetsRequest> => {
    if (_codec == null) {
      _codec = message<AlterOffsetsRequest>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if (obj.topics != null && obj.topics.length > 0) {
          for (const value of obj.topics) {
            w.uint32(10)
            CommitTopic.codec().encode(value, w)
          }
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          topics: []
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              if (opts.limits?.topics != null && obj.topics.length === opts.limits.topics) {
                throw new MaxLengthError('Decode error - repeated field "topics" had too many elements')
              }

              if (obj.topics.length === 10000) {
                throw new MaxLengthError('Decode error - repeated field "topics" had too many elements')
              }

              obj.topics.push(CommitTopic.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.topics$
              }))
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const obj = {
          topics: 10000
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              if (opts.limits?.topics != null && obj.topics === opts.limits.topics) {
                throw new MaxLengthError('Streaming decode error - repeated field "topics" had too many elements')
              }

              if (obj.topics === 10000) {
                throw new MaxLengthError('Streaming decode error - repeated field "topics" had too many elements')
              }

              for (const evt of CommitTopic.codec().stream(reader, reader.uint32(), `${prefix}.topics[]`, {
                limits: opts.limits?.topics$
              })) {
                yield {
                  ...evt,
                  index: obj.topics
                }
              }

              obj.topics++

              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export interface AlterOffsetsRequestTopicsTopicFieldEvent {
    field: '$.topics[].topic'
    value: string
    index: number
  }

  export interface AlterOffsetsRequestTopicsPartitionsPartitionFieldEvent {
    field: '$.topics[].partitions[].partition'
    value: number
    index: number
  }

  export interface AlterOffsetsRequestTopicsPartitionsOffsetFieldEvent {
    field: '$.topics[].partitions[].offset'
    value: bigint
    index: number
  }

  export interface AlterOffsetsRequestTopicsPartitionsLeaderEpochFieldEvent {
    field: '$.topics[].partitions[].leaderEpoch'
    value: number
    index: number
  }

  export interface AlterOffsetsRequestTopicsPartitionsMetadataFieldEvent {
    field: '$.topics[].partitions[].metadata'
    value: string
    index: number
  }

  export function encode (obj: Partial<AlterOffsetsRequest>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, AlterOffsetsRequest.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<AlterOffsetsRequest>): AlterOffsetsRequest {
    return decodeMessage(buf, AlterOffsetsRequest.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<AlterOffsetsRequest>): Generator<AlterOffsetsRequestTopicsTopicFieldEvent | AlterOffsetsRequestTopicsPartitionsPartitionFieldEvent | AlterOffsetsRequestTopicsPartitionsOffsetFieldEvent | AlterOffsetsRequestTopicsPartitionsLeaderEpochFieldEvent | AlterOffsetsRequestTopicsPartitionsMetadataFieldEvent> {
    return streamMessage(buf, AlterOffsetsRequest.codec(), opts)
  }
}

export interface GroupAdminResponse {
  version: number
  errorCode: number
  errorMessage: string
  coordinatorHint: string
  groups: ListedGroup[]
  group?: DescribedGroup
}

export namespace GroupAdminResponse {
  let _codec: Codec<GroupAdminResponse>

  export const codec = (): Codec<GroupAdminResponse> => {
    if (_codec == null) {
      _codec = message<GroupAdminResponse>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.version != null && obj.version !== 0)) {
          w.uint32(8)
          w.uint32(obj.version)
        }

        if ((obj.errorCode != null && obj.errorCode !== 0)) {
          w.uint32(16)
          w.sint32(obj.errorCode)
        }

        if ((obj.errorMessage != null && obj.errorMessage !== '')) {
          w.uint32(26)
          w.string(obj.errorMessage)
        }

        if ((obj.coordinatorHint != null && obj.coordinatorHint !== '')) {
          w.uint32(34)
          w.string(obj.coordinatorHint)
        }

        if (obj.groups != null && obj.groups.length > 0) {
          for (const value of obj.groups) {
            w.uint32(42)
            ListedGroup.codec().encode(value, w)
          }
        }

        if (obj.group != null) {
          w.uint32(50)
          DescribedGroup.codec().encode(obj.group, w)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          version: 0,
          errorCode: 0,
          errorMessage: '',
          coordinatorHint: '',
          groups: []
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.version = reader.uint32()
              break
            }
            case 2: {
              obj.errorCode = reader.sint32()
              break
            }
            case 3: {
              obj.errorMessage = reader.string()
              break
            }
            case 4: {
              obj.coordinatorHint = reader.string()
              break
            }
            case 5: {
              if (opts.limits?.groups != null && obj.groups.length === opts.limits.groups) {
                throw new MaxLengthError('Decode error - repeated field "groups" had too many elements')
              }

              if (obj.groups.length === 100000) {
                throw new MaxLengthError('Decode error - repeated field "groups" had too many elements')
              }

              obj.groups.push(ListedGroup.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.groups$
              }))
              break
            }
            case 6: {
              obj.group = DescribedGroup.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.group
              })
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const obj = {
          groups: 100000
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.version`,
                value: reader.uint32()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.errorCode`,
                value: reader.sint32()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.errorMessage`,
                value: reader.string()
              }
              break
            }
            case 4: {
              yield {
                field: `${prefix}.coordinatorHint`,
                value: reader.string()
              }
              break
            }
            case 5: {
              if (opts.limits?.groups != null && obj.groups === opts.limits.groups) {
                throw new MaxLengthError('Streaming decode error - repeated field "groups" had too many elements')
              }

              if (obj.groups === 100000) {
                throw new MaxLengthError('Streaming decode error - repeated field "groups" had too many elements')
              }

              for (const evt of ListedGroup.codec().stream(reader, reader.uint32(), `${prefix}.groups[]`, {
                limits: opts.limits?.groups$
              })) {
                yield {
                  ...evt,
                  index: obj.groups
                }
              }

              obj.groups++

              break
            }
            case 6: {
              yield * DescribedGroup.codec().stream(reader, reader.uint32(), `${prefix}.group`, {
                limits: opts.limits?.group
              })

              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export interface GroupAdminResponseVersionFieldEvent {
    field: '$.version'
    value: number
  }

  export interface GroupAdminResponseErrorCodeFieldEvent {
    field: '$.errorCode'
    value: number
  }

  export interface GroupAdminResponseErrorMessageFieldEvent {
    field: '$.errorMessage'
    value: string
  }

  export interface GroupAdminResponseCoordinatorHintFieldEvent {
    field: '$.coordinatorHint'
    value: string
  }

  export interface GroupAdminResponseGroupsGroupIdFieldEvent {
    field: '$.groups[].groupId'
    value: string
    index: number
  }

  export interface GroupAdminResponseGroupsStateFieldEvent {
    field: '$.groups[].state'
    value: string
    index: number
  }

  export interface GroupAdminResponseGroupsProtocolTypeFieldEvent {
    field: '$.groups[].protocolType'
    value: string
    index: number
  }

  export interface GroupAdminResponseGroupsMembersFieldEvent {
    field: '$.groups[].members'
    value: number
    index: number
  }

  export interface GroupAdminResponseGroupGroupIdFieldEvent {
    field: '$.group.groupId'
    value: string
  }

  export interface GroupAdminResponseGroupStateFieldEvent {
    field: '$.group.state'
    value: string
  }

  export interface GroupAdminResponseGroupGenerationFieldEvent {
    field: '$.group.generation'
    value: number
  }

  export interface GroupAdminResponseGroupProtocolTypeFieldEvent {
    field: '$.group.protocolType'
    value: string
  }

  export interface GroupAdminResponseGroupProtocolFieldEvent {
    field: '$.group.protocol'
    value: string
  }

  export interface GroupAdminResponseGroupMembersMemberIdFieldEvent {
    field: '$.group.members[].memberId'
    value: string
    index: number
  }

  export interface GroupAdminResponseGroupMembersGroupInstanceIdFieldEvent {
    field: '$.group.members[].groupInstanceId'
    value: string
    index: number
  }

  export interface GroupAdminResponseGroupMembersClientIdFieldEvent {
    field: '$.group.members[].clientId'
    value: string
    index: number
  }

  export interface GroupAdminResponseGroupMembersAssignmentTopicFieldEvent {
    field: '$.group.members[].assignment[].topic'
    value: string
    index: number
  }

  export interface GroupAdminResponseGroupMembersAssignmentPartitionsFieldEvent {
    field: '$.group.members[].assignment[].partitions[]'
    index: number
    value: number
  }

  export interface GroupAdminResponseGroupOffsetsTopicFieldEvent {
    field: '$.group.offsets[].topic'
    value: string
    index: number
  }

  export interface GroupAdminResponseGroupOffsetsPartitionsPartitionFieldEvent {
    field: '$.group.offsets[].partitions[].partition'
    value: number
    index: number
  }

  export interface GroupAdminResponseGroupOffsetsPartitionsOffsetFieldEvent {
    field: '$.group.offsets[].partitions[].offset'
    value: bigint
    index: number
  }

  export interface GroupAdminResponseGroupOffsetsPartitionsLeaderEpochFieldEvent {
    field: '$.group.offsets[].partitions[].leaderEpoch'
    value: number
    index: number
  }

  export interface GroupAdminResponseGroupOffsetsPartitionsMetadataFieldEvent {
    field: '$.group.offsets[].partitions[].metadata'
    value: string
    index: number
  }

  export function encode (obj: Partial<GroupAdminResponse>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, GroupAdminResponse.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<GroupAdminResponse>): GroupAdminResponse {
    return decodeMessage(buf, GroupAdminResponse.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<GroupAdminResponse>): Generator<GroupAdminResponseVersionFieldEvent | GroupAdminResponseErrorCodeFieldEvent | GroupAdminResponseErrorMessageFieldEvent | GroupAdminResponseCoordinatorHintFieldEvent | GroupAdminResponseGroupsGroupIdFieldEvent | GroupAdminResponseGroupsStateFieldEvent | GroupAdminResponseGroupsProtocolTypeFieldEvent | GroupAdminResponseGroupsMembersFieldEvent | GroupAdminResponseGroupGroupIdFieldEvent | GroupAdminResponseGroupStateFieldEvent | GroupAdminResponseGroupGenerationFieldEvent | GroupAdminResponseGroupProtocolTypeFieldEvent | GroupAdminResponseGroupProtocolFieldEvent | GroupAdminResponseGroupMembersMemberIdFieldEvent | GroupAdminResponseGroupMembersGroupInstanceIdFieldEvent | GroupAdminResponseGroupMembersClientIdFieldEvent | GroupAdminResponseGroupMembersAssignmentTopicFieldEvent | GroupAdminResponseGroupMembersAssignmentPartitionsFieldEvent | GroupAdminResponseGroupOffsetsTopicFieldEvent | GroupAdminResponseGroupOffsetsPartitionsPartitionFieldEvent | GroupAdminResponseGroupOffsetsPartitionsOffsetFieldEvent | GroupAdminResponseGroupOffsetsPartitionsLeaderEpochFieldEvent | GroupAdminResponseGroupOffsetsPartitionsMetadataFieldEvent> {
    return streamMessage(buf, GroupAdminResponse.codec(), opts)
  }
}

export interface ListedGroup {
  groupId: string
  state: string
  protocolType: string
  members: number
}

export namespace ListedGroup {
  let _codec: Codec<ListedGroup>

  export const codec = (): Codec<ListedGroup> => {
    if (_codec == null) {
      _codec = message<ListedGroup>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.groupId != null && obj.groupId !== '')) {
          w.uint32(10)
          w.string(obj.groupId)
        }

        if ((obj.state != null && obj.state !== '')) {
          w.uint32(18)
          w.string(obj.state)
        }

        if ((obj.protocolType != null && obj.protocolType !== '')) {
          w.uint32(26)
          w.string(obj.protocolType)
        }

        if ((obj.members != null && obj.members !== 0)) {
          w.uint32(32)
          w.uint32(obj.members)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          groupId: '',
          state: '',
          protocolType: '',
          members: 0
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.groupId = reader.string()
              break
            }
            case 2: {
              obj.state = reader.string()
              break
            }
            case 3: {
              obj.protocolType = reader.string()
              break
            }
            case 4: {
              obj.members = reader.uint32()
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.groupId`,
                value: reader.string()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.state`,
                value: reader.string()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.protocolType`,
                value: reader.string()
              }
              break
            }
            case 4: {
              yield {
                field: `${prefix}.members`,
                value: reader.uint32()
              }
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export interface ListedGroupGroupIdFieldEvent {
    field: '$.groupId'
    value: string
  }

  export interface ListedGroupStateFieldEvent {
    field: '$.state'
    value: string
  }

  export interface ListedGroupProtocolTypeFieldEvent {
    field: '$.protocolType'
    value: string
  }

  export interface ListedGroupMembersFieldEvent {
    field: '$.members'
    value: number
  }

  export function encode (obj: Partial<ListedGroup>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, ListedGroup.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<ListedGroup>): ListedGroup {
    return decodeMessage(buf, ListedGroup.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<ListedGroup>): Generator<ListedGroupGroupIdFieldEvent | ListedGroupStateFieldEvent | ListedGroupProtocolTypeFieldEvent | ListedGroupMembersFieldEvent> {
    return streamMessage(buf, ListedGroup.codec(), opts)
  }
}

export interface DescribedGroup {
  groupId: string
  state: string
  generation: number
  protocolType: string
  protocol: string
  members: DescribedMember[]
  offsets: FetchedTopic[]
}

export namespace DescribedGroup {
  let _codec: Codec<DescribedGroup>

  export const codec = (): Codec<DescribedGroup> => {
    if (_codec == null) {
      _codec = message<DescribedGroup>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.groupId != null && obj.groupId !== '')) {
          w.uint32(10)
          w.string(obj.groupId)
        }

        if ((obj.state != null && obj.state !== '')) {
          w.uint32(18)
          w.string(obj.state)
        }

        if ((obj.generation != null && obj.generation !== 0)) {
          w.uint32(24)
          w.sint32(obj.generation)
        }

        if ((obj.protocolType != null && obj.protocolType !== '')) {
          w.uint32(34)
          w.string(obj.protocolType)
        }

        if ((obj.protocol != null && obj.protocol !== '')) {
          w.uint32(42)
          w.string(obj.protocol)
        }

        if (obj.members != null && obj.members.length > 0) {
          for (const value of obj.members) {
            w.uint32(50)
            DescribedMember.codec().encode(value, w)
          }
        }

        if (obj.offsets != null && obj.offsets.length > 0) {
          for (const value of obj.offsets) {
            w.uint32(58)
            FetchedTopic.codec().encode(value, w)
          }
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          groupId: '',
          state: '',
          generation: 0,
          protocolType: '',
          protocol: '',
          members: [],
          offsets: []
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.groupId = reader.string()
              break
            }
            case 2: {
              obj.state = reader.string()
              break
            }
            case 3: {
              obj.generation = reader.sint32()
              break
            }
            case 4: {
              obj.protocolType = reader.string()
              break
            }
            case 5: {
              obj.protocol = reader.string()
              break
            }
            case 6: {
              if (opts.limits?.members != null && obj.members.length === opts.limits.members) {
                throw new MaxLengthError('Decode error - repeated field "members" had too many elements')
              }

              if (obj.members.length === 100000) {
                throw new MaxLengthError('Decode error - repeated field "members" had too many elements')
              }

              obj.members.push(DescribedMember.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.members$
              }))
              break
            }
            case 7: {
              if (opts.limits?.offsets != null && obj.offsets.length === opts.limits.offsets) {
                throw new MaxLengthError('Decode error - repeated field "offsets" had too many elements')
              }

              if (obj.offsets.length === 10000) {
                throw new MaxLengthError('Decode error - repeated field "offsets" had too many elements')
              }

              obj.offsets.push(FetchedTopic.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.offsets$
              }))
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const obj = {
          members: 100000,
          offsets: 10000
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.groupId`,
                value: reader.string()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.state`,
                value: reader.string()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.generation`,
                value: reader.sint32()
              }
              break
            }
            case 4: {
              yield {
                field: `${prefix}.protocolType`,
                value: reader.string()
              }
              break
            }
            case 5: {
              yield {
                field: `${prefix}.protocol`,
                value: reader.string()
              }
              break
            }
            case 6: {
              if (opts.limits?.members != null && obj.members === opts.limits.members) {
                throw new MaxLengthError('Streaming decode error - repeated field "members" had too many elements')
              }

              if (obj.members === 100000) {
                throw new MaxLengthError('Streaming decode error - repeated field "members" had too many elements')
              }

              for (const evt of DescribedMember.codec().stream(reader, reader.uint32(), `${prefix}.members[]`, {
                limits: opts.limits?.members$
              })) {
                yield {
                  ...evt,
                  index: obj.members
                }
              }

              obj.members++

              break
            }
            case 7: {
              if (opts.limits?.offsets != null && obj.offsets === opts.limits.offsets) {
                throw new MaxLengthError('Streaming decode error - repeated field "offsets" had too many elements')
              }

              if (obj.offsets === 10000) {
                throw new MaxLengthError('Streaming decode error - repeated field "offsets" had too many elements')
              }

              for (const evt of FetchedTopic.codec().stream(reader, reader.uint32(), `${prefix}.offsets[]`, {
                limits: opts.limits?.offsets$
              })) {
                yield {
                  ...evt,
                  index: obj.offsets
                }
              }

              obj.offsets++

              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export interface DescribedGroupGroupIdFieldEvent {
    field: '$.groupId'
    value: string
  }

  export interface DescribedGroupStateFieldEvent {
    field: '$.state'
    value: string
  }

  export interface DescribedGroupGenerationFieldEvent {
    field: '$.generation'
    value: number
  }

  export interface DescribedGroupProtocolTypeFieldEvent {
    field: '$.protocolType'
    value: string
  }

  export interface DescribedGroupProtocolFieldEvent {
    field: '$.protocol'
    value: string
  }

  export interface DescribedGroupMembersMemberIdFieldEvent {
    field: '$.members[].memberId'
    value: string
    index: number
  }

  export interface DescribedGroupMembersGroupInstanceIdFieldEvent {
    field: '$.members[].groupInstanceId'
    value: string
    index: number
  }

  export interface DescribedGroupMembersClientIdFieldEvent {
    field: '$.members[].clientId'
    value: string
    index: number
  }

  export interface DescribedGroupMembersAssignmentTopicFieldEvent {
    field: '$.members[].assignment[].topic'
    value: string
    index: number
  }

  export interface DescribedGroupMembersAssignmentPartitionsFieldEvent {
    field: '$.members[].assignment[].partitions[]'
    index: number
    value: number
  }

  export interface DescribedGroupOffsetsTopicFieldEvent {
    field: '$.offsets[].topic'
    value: string
    index: number
  }

  export interface DescribedGroupOffsetsPartitionsPartitionFieldEvent {
    field: '$.offsets[].partitions[].partition'
    value: number
    index: number
  }

  export interface DescribedGroupOffsetsPartitionsOffsetFieldEvent {
    field: '$.offsets[].partitions[].offset'
    value: bigint
    index: number
  }

  export interface DescribedGroupOffsetsPartitionsLeaderEpochFieldEvent {
    field: '$.offsets[].partitions[].leaderEpoch'
    value: number
    index: number
  }

  export interface DescribedGroupOffsetsPartitionsMetadataFieldEvent {
    field: '$.offsets[].partitions[].metadata'
    value: string
    index: number
  }

  export function encode (obj: Partial<DescribedGroup>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, DescribedGroup.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<DescribedGroup>): DescribedGroup {
    return decodeMessage(buf, DescribedGroup.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<DescribedGroup>): Generator<DescribedGroupGroupIdFieldEvent | DescribedGroupStateFieldEvent | DescribedGroupGenerationFieldEvent | DescribedGroupProtocolTypeFieldEvent | DescribedGroupProtocolFieldEvent | DescribedGroupMembersMemberIdFieldEvent | DescribedGroupMembersGroupInstanceIdFieldEvent | DescribedGroupMembersClientIdFieldEvent | DescribedGroupMembersAssignmentTopicFieldEvent | DescribedGroupMembersAssignmentPartitionsFieldEvent | DescribedGroupOffsetsTopicFieldEvent | DescribedGroupOffsetsPartitionsPartitionFieldEvent | DescribedGroupOffsetsPartitionsOffsetFieldEvent | DescribedGroupOffsetsPartitionsLeaderEpochFieldEvent | DescribedGroupOffsetsPartitionsMetadataFieldEvent> {
    return streamMessage(buf, DescribedGroup.codec(), opts)
  }
}

export interface DescribedMember {
  memberId: string
  groupInstanceId: string
  clientId: string
  assignment: TopicPartitions[]
}

export namespace DescribedMember {
  let _codec: Codec<DescribedMember>

  export const codec = (): Codec<DescribedMember> => {
    if (_codec == null) {
      _codec = message<DescribedMember>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.memberId != null && obj.memberId !== '')) {
          w.uint32(10)
          w.string(obj.memberId)
        }

        if ((obj.groupInstanceId != null && obj.groupInstanceId !== '')) {
          w.uint32(18)
          w.string(obj.groupInstanceId)
        }

        if ((obj.clientId != null && obj.clientId !== '')) {
          w.uint32(26)
          w.string(obj.clientId)
        }

        if (obj.assignment != null && obj.assignment.length > 0) {
          for (const value of obj.assignment) {
            w.uint32(34)
            TopicPartitions.codec().encode(value, w)
          }
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          memberId: '',
          groupInstanceId: '',
          clientId: '',
          assignment: []
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.memberId = reader.string()
              break
            }
            case 2: {
              obj.groupInstanceId = reader.string()
              break
            }
            case 3: {
              obj.clientId = reader.string()
              break
            }
            case 4: {
              if (opts.limits?.assignment != null && obj.assignment.length === opts.limits.assignment) {
                throw new MaxLengthError('Decode error - repeated field "assignment" had too many elements')
              }

              if (obj.assignment.length === 10000) {
                throw new MaxLengthError('Decode error - repeated field "assignment" had too many elements')
              }

              obj.assignment.push(TopicPartitions.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.assignment$
              }))
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const obj = {
          assignment: 10000
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.memberId`,
                value: reader.string()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.groupInstanceId`,
                value: reader.string()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.clientId`,
                value: reader.string()
              }
              break
            }
            case 4: {
              if (opts.limits?.assignment != null && obj.assignment === opts.limits.assignment) {
                throw new MaxLengthError('Streaming decode error - repeated field "assignment" had too many elements')
              }

              if (obj.assignment === 10000) {
                throw new MaxLengthError('Streaming decode error - repeated field "assignment" had too many elements')
              }

              for (const evt of TopicPartitions.codec().stream(reader, reader.uint32(), `${prefix}.assignment[]`, {
                limits: opts.limits?.assignment$
              })) {
                yield {
                  ...evt,
                  index: obj.assignment
                }
              }

              obj.assignment++

              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }
      })
    }

    return _codec
  }

  export interface DescribedMemberMemberIdFieldEvent {
    field: '$.memberId'
    value: string
  }

  export interface DescribedMemberGroupInstanceIdFieldEvent {
    field: '$.groupInstanceId'
    value: string
  }

  export interface DescribedMemberClientIdFieldEvent {
    field: '$.clientId'
    value: string
  }

  export interface DescribedMemberAssignmentTopicFieldEvent {
    field: '$.assignment[].topic'
    value: string
    index: number
  }

  export interface DescribedMemberAssignmentPartitionsFieldEvent {
    field: '$.assignment[].partitions[]'
    index: number
    value: number
  }

  export function encode (obj: Partial<DescribedMember>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, DescribedMember.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<DescribedMember>): DescribedMember {
    return decodeMessage(buf, DescribedMember.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<DescribedMember>): Generator<DescribedMemberMemberIdFieldEvent | DescribedMemberGroupInstanceIdFieldEvent | DescribedMemberClientIdFieldEvent | DescribedMemberAssignmentTopicFieldEvent | DescribedMemberAssignmentPartitionsFieldEvent> {
    return streamMessage(buf, DescribedMember.codec(), opts)
  }
}
