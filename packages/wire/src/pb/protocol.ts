import { decodeMessage, encodeMessage, MaxLengthError, MaxSizeError, message, streamMessage } from 'protons-runtime'
import { alloc as uint8ArrayAlloc } from 'uint8arrays/alloc'
import type { Codec, DecodeOptions } from 'protons-runtime'
import type { Uint8ArrayList } from 'uint8arraylist'

export interface ProduceRequest {
  topic: string
  partition: number
  acks: number
  timeoutMs: number
  records: Uint8Array<ArrayBuffer>
}

export namespace ProduceRequest {
  let _codec: Codec<ProduceRequest>

  export const codec = (): Codec<ProduceRequest> => {
    if (_codec == null) {
      _codec = message<ProduceRequest>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.topic != null && obj.topic !== '')) {
          w.uint32(10)
          w.string(obj.topic)
        }

        if ((obj.partition != null && obj.partition !== 0)) {
          w.uint32(16)
          w.uint32(obj.partition)
        }

        if ((obj.acks != null && obj.acks !== 0)) {
          w.uint32(24)
          w.sint32(obj.acks)
        }

        if ((obj.timeoutMs != null && obj.timeoutMs !== 0)) {
          w.uint32(32)
          w.uint32(obj.timeoutMs)
        }

        if ((obj.records != null && obj.records.byteLength > 0)) {
          w.uint32(42)
          w.bytes(obj.records)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          topic: '',
          partition: 0,
          acks: 0,
          timeoutMs: 0,
          records: uint8ArrayAlloc(0)
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
              obj.partition = reader.uint32()
              break
            }
            case 3: {
              obj.acks = reader.sint32()
              break
            }
            case 4: {
              obj.timeoutMs = reader.uint32()
              break
            }
            case 5: {
              obj.records = reader.bytes()
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
                field: `${prefix}.partition`,
                value: reader.uint32()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.acks`,
                value: reader.sint32()
              }
              break
            }
            case 4: {
              yield {
                field: `${prefix}.timeoutMs`,
                value: reader.uint32()
              }
              break
            }
            case 5: {
              yield {
                field: `${prefix}.records`,
                value: reader.bytes()
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

  export interface ProduceRequestTopicFieldEvent {
    field: '$.topic'
    value: string
  }

  export interface ProduceRequestPartitionFieldEvent {
    field: '$.partition'
    value: number
  }

  export interface ProduceRequestAcksFieldEvent {
    field: '$.acks'
    value: number
  }

  export interface ProduceRequestTimeoutMsFieldEvent {
    field: '$.timeoutMs'
    value: number
  }

  export interface ProduceRequestRecordsFieldEvent {
    field: '$.records'
    value: Uint8Array<ArrayBuffer>
  }

  export function encode (obj: Partial<ProduceRequest>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, ProduceRequest.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<ProduceRequest>): ProduceRequest {
    return decodeMessage(buf, ProduceRequest.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<ProduceRequest>): Generator<ProduceRequestTopicFieldEvent | ProduceRequestPartitionFieldEvent | ProduceRequestAcksFieldEvent | ProduceRequestTimeoutMsFieldEvent | ProduceRequestRecordsFieldEvent> {
    return streamMessage(buf, ProduceRequest.codec(), opts)
  }
}

export interface ProduceResponse {
  errorCode: number
  errorMessage: string
  baseOffset: bigint
  logAppendTime: bigint
  logStartOffset: bigint
  leaderHint: string
}

export namespace ProduceResponse {
  let _codec: Codec<ProduceResponse>

  export const codec = (): Codec<ProduceResponse> => {
    if (_codec == null) {
      _codec = message<ProduceResponse>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.errorCode != null && obj.errorCode !== 0)) {
          w.uint32(8)
          w.sint32(obj.errorCode)
        }

        if ((obj.errorMessage != null && obj.errorMessage !== '')) {
          w.uint32(18)
          w.string(obj.errorMessage)
        }

        if ((obj.baseOffset != null && obj.baseOffset !== 0n)) {
          w.uint32(24)
          w.sint64(obj.baseOffset)
        }

        if ((obj.logAppendTime != null && obj.logAppendTime !== 0n)) {
          w.uint32(32)
          w.sint64(obj.logAppendTime)
        }

        if ((obj.logStartOffset != null && obj.logStartOffset !== 0n)) {
          w.uint32(40)
          w.sint64(obj.logStartOffset)
        }

        if ((obj.leaderHint != null && obj.leaderHint !== '')) {
          w.uint32(50)
          w.string(obj.leaderHint)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          errorCode: 0,
          errorMessage: '',
          baseOffset: 0n,
          logAppendTime: 0n,
          logStartOffset: 0n,
          leaderHint: ''
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.errorCode = reader.sint32()
              break
            }
            case 2: {
              obj.errorMessage = reader.string()
              break
            }
            case 3: {
              obj.baseOffset = reader.sint64()
              break
            }
            case 4: {
              obj.logAppendTime = reader.sint64()
              break
            }
            case 5: {
              obj.logStartOffset = reader.sint64()
              break
            }
            case 6: {
              obj.leaderHint = reader.string()
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
                field: `${prefix}.errorCode`,
                value: reader.sint32()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.errorMessage`,
                value: reader.string()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.baseOffset`,
                value: reader.sint64()
              }
              break
            }
            case 4: {
              yield {
                field: `${prefix}.logAppendTime`,
                value: reader.sint64()
              }
              break
            }
            case 5: {
              yield {
                field: `${prefix}.logStartOffset`,
                value: reader.sint64()
              }
              break
            }
            case 6: {
              yield {
                field: `${prefix}.leaderHint`,
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

  export interface ProduceResponseErrorCodeFieldEvent {
    field: '$.errorCode'
    value: number
  }

  export interface ProduceResponseErrorMessageFieldEvent {
    field: '$.errorMessage'
    value: string
  }

  export interface ProduceResponseBaseOffsetFieldEvent {
    field: '$.baseOffset'
    value: bigint
  }

  export interface ProduceResponseLogAppendTimeFieldEvent {
    field: '$.logAppendTime'
    value: bigint
  }

  export interface ProduceResponseLogStartOffsetFieldEvent {
    field: '$.logStartOffset'
    value: bigint
  }

  export interface ProduceResponseLeaderHintFieldEvent {
    field: '$.leaderHint'
    value: string
  }

  export function encode (obj: Partial<ProduceResponse>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, ProduceResponse.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<ProduceResponse>): ProduceResponse {
    return decodeMessage(buf, ProduceResponse.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<ProduceResponse>): Generator<ProduceResponseErrorCodeFieldEvent | ProduceResponseErrorMessageFieldEvent | ProduceResponseBaseOffsetFieldEvent | ProduceResponseLogAppendTimeFieldEvent | ProduceResponseLogStartOffsetFieldEvent | ProduceResponseLeaderHintFieldEvent> {
    return streamMessage(buf, ProduceResponse.codec(), opts)
  }
}

export interface FetchRequest {
  maxWaitMs: number
  minBytes: number
  maxBytes: number
  partitions: FetchPartition[]
  replicaId: string
}

export namespace FetchRequest {
  let _codec: Codec<FetchRequest>

  export const codec = (): Codec<FetchRequest> => {
    if (_codec == null) {
      _codec = message<FetchRequest>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.maxWaitMs != null && obj.maxWaitMs !== 0)) {
          w.uint32(8)
          w.uint32(obj.maxWaitMs)
        }

        if ((obj.minBytes != null && obj.minBytes !== 0)) {
          w.uint32(16)
          w.uint32(obj.minBytes)
        }

        if ((obj.maxBytes != null && obj.maxBytes !== 0)) {
          w.uint32(24)
          w.uint32(obj.maxBytes)
        }

        if (obj.partitions != null && obj.partitions.length > 0) {
          for (const value of obj.partitions) {
            w.uint32(34)
            FetchPartition.codec().encode(value, w)
          }
        }

        if ((obj.replicaId != null && obj.replicaId !== '')) {
          w.uint32(42)
          w.string(obj.replicaId)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          maxWaitMs: 0,
          minBytes: 0,
          maxBytes: 0,
          partitions: [],
          replicaId: ''
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.maxWaitMs = reader.uint32()
              break
            }
            case 2: {
              obj.minBytes = reader.uint32()
              break
            }
            case 3: {
              obj.maxBytes = reader.uint32()
              break
            }
            case 4: {
              if (opts.limits?.partitions != null && obj.partitions.length === opts.limits.partitions) {
                throw new MaxLengthError('Decode error - repeated field "partitions" had too many elements')
              }

              obj.partitions.push(FetchPartition.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.partitions$
              }))
              break
            }
            case 5: {
              obj.replicaId = reader.string()
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
          partitions: 0
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.maxWaitMs`,
                value: reader.uint32()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.minBytes`,
                value: reader.uint32()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.maxBytes`,
                value: reader.uint32()
              }
              break
            }
            case 4: {
              if (opts.limits?.partitions != null && obj.partitions === opts.limits.partitions) {
                throw new MaxLengthError('Streaming decode error - repeated field "partitions" had too many elements')
              }

              for (const evt of FetchPartition.codec().stream(reader, reader.uint32(), `${prefix}.partitions[]`, {
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
            case 5: {
              yield {
                field: `${prefix}.replicaId`,
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

  export interface FetchRequestMaxWaitMsFieldEvent {
    field: '$.maxWaitMs'
    value: number
  }

  export interface FetchRequestMinBytesFieldEvent {
    field: '$.minBytes'
    value: number
  }

  export interface FetchRequestMaxBytesFieldEvent {
    field: '$.maxBytes'
    value: number
  }

  export interface FetchRequestPartitionsTopicFieldEvent {
    field: '$.partitions[].topic'
    value: string
    index: number
  }

  export interface FetchRequestPartitionsPartitionFieldEvent {
    field: '$.partitions[].partition'
    value: number
    index: number
  }

  export interface FetchRequestPartitionsFetchOffsetFieldEvent {
    field: '$.partitions[].fetchOffset'
    value: bigint
    index: number
  }

  export interface FetchRequestPartitionsPartitionMaxBytesFieldEvent {
    field: '$.partitions[].partitionMaxBytes'
    value: number
    index: number
  }

  export interface FetchRequestReplicaIdFieldEvent {
    field: '$.replicaId'
    value: string
  }

  export function encode (obj: Partial<FetchRequest>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, FetchRequest.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<FetchRequest>): FetchRequest {
    return decodeMessage(buf, FetchRequest.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<FetchRequest>): Generator<FetchRequestMaxWaitMsFieldEvent | FetchRequestMinBytesFieldEvent | FetchRequestMaxBytesFieldEvent | FetchRequestPartitionsTopicFieldEvent | FetchRequestPartitionsPartitionFieldEvent | FetchRequestPartitionsFetchOffsetFieldEvent | FetchRequestPartitionsPartitionMaxBytesFieldEvent | FetchRequestReplicaIdFieldEvent> {
    return streamMessage(buf, FetchRequest.codec(), opts)
  }
}

export interface FetchPartition {
  topic: string
  partition: number
  fetchOffset: bigint
  partitionMaxBytes: number
}

export namespace FetchPartition {
  let _codec: Codec<FetchPartition>

  export const codec = (): Codec<FetchPartition> => {
    if (_codec == null) {
      _codec = message<FetchPartition>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.topic != null && obj.topic !== '')) {
          w.uint32(10)
          w.string(obj.topic)
        }

        if ((obj.partition != null && obj.partition !== 0)) {
          w.uint32(16)
          w.uint32(obj.partition)
        }

        if ((obj.fetchOffset != null && obj.fetchOffset !== 0n)) {
          w.uint32(24)
          w.sint64(obj.fetchOffset)
        }

        if ((obj.partitionMaxBytes != null && obj.partitionMaxBytes !== 0)) {
          w.uint32(32)
          w.uint32(obj.partitionMaxBytes)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          topic: '',
          partition: 0,
          fetchOffset: 0n,
          partitionMaxBytes: 0
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
              obj.partition = reader.uint32()
              break
            }
            case 3: {
              obj.fetchOffset = reader.sint64()
              break
            }
            case 4: {
              obj.partitionMaxBytes = reader.uint32()
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
                field: `${prefix}.partition`,
                value: reader.uint32()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.fetchOffset`,
                value: reader.sint64()
              }
              break
            }
            case 4: {
              yield {
                field: `${prefix}.partitionMaxBytes`,
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

  export interface FetchPartitionTopicFieldEvent {
    field: '$.topic'
    value: string
  }

  export interface FetchPartitionPartitionFieldEvent {
    field: '$.partition'
    value: number
  }

  export interface FetchPartitionFetchOffsetFieldEvent {
    field: '$.fetchOffset'
    value: bigint
  }

  export interface FetchPartitionPartitionMaxBytesFieldEvent {
    field: '$.partitionMaxBytes'
    value: number
  }

  export function encode (obj: Partial<FetchPartition>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, FetchPartition.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<FetchPartition>): FetchPartition {
    return decodeMessage(buf, FetchPartition.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<FetchPartition>): Generator<FetchPartitionTopicFieldEvent | FetchPartitionPartitionFieldEvent | FetchPartitionFetchOffsetFieldEvent | FetchPartitionPartitionMaxBytesFieldEvent> {
    return streamMessage(buf, FetchPartition.codec(), opts)
  }
}

export interface FetchResponse {
  partitions: FetchPartitionResponse[]
}

export namespace FetchResponse {
  let _codec: Codec<FetchResponse>

  export const codec = (): Codec<FetchResponse> => {
    if (_codec == null) {
      _codec = message<FetchResponse>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if (obj.partitions != null && obj.partitions.length > 0) {
          for (const value of obj.partitions) {
            w.uint32(10)
            FetchPartitionResponse.codec().encode(value, w)
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

              obj.partitions.push(FetchPartitionResponse.codec().decode(reader, reader.uint32(), {
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
          partitions: 0
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              if (opts.limits?.partitions != null && obj.partitions === opts.limits.partitions) {
                throw new MaxLengthError('Streaming decode error - repeated field "partitions" had too many elements')
              }

              for (const evt of FetchPartitionResponse.codec().stream(reader, reader.uint32(), `${prefix}.partitions[]`, {
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

  export interface FetchResponsePartitionsTopicFieldEvent {
    field: '$.partitions[].topic'
    value: string
    index: number
  }

  export interface FetchResponsePartitionsPartitionFieldEvent {
    field: '$.partitions[].partition'
    value: number
    index: number
  }

  export interface FetchResponsePartitionsErrorCodeFieldEvent {
    field: '$.partitions[].errorCode'
    value: number
    index: number
  }

  export interface FetchResponsePartitionsErrorMessageFieldEvent {
    field: '$.partitions[].errorMessage'
    value: string
    index: number
  }

  export interface FetchResponsePartitionsHighWatermarkFieldEvent {
    field: '$.partitions[].highWatermark'
    value: bigint
    index: number
  }

  export interface FetchResponsePartitionsLogStartOffsetFieldEvent {
    field: '$.partitions[].logStartOffset'
    value: bigint
    index: number
  }

  export interface FetchResponsePartitionsLogEndOffsetFieldEvent {
    field: '$.partitions[].logEndOffset'
    value: bigint
    index: number
  }

  export interface FetchResponsePartitionsRecordsFieldEvent {
    field: '$.partitions[].records'
    value: Uint8Array<ArrayBuffer>
    index: number
  }

  export interface FetchResponsePartitionsLeaderHintFieldEvent {
    field: '$.partitions[].leaderHint'
    value: string
    index: number
  }

  export function encode (obj: Partial<FetchResponse>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, FetchResponse.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<FetchResponse>): FetchResponse {
    return decodeMessage(buf, FetchResponse.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<FetchResponse>): Generator<FetchResponsePartitionsTopicFieldEvent | FetchResponsePartitionsPartitionFieldEvent | FetchResponsePartitionsErrorCodeFieldEvent | FetchResponsePartitionsErrorMessageFieldEvent | FetchResponsePartitionsHighWatermarkFieldEvent | FetchResponsePartitionsLogStartOffsetFieldEvent | FetchResponsePartitionsLogEndOffsetFieldEvent | FetchResponsePartitionsRecordsFieldEvent | FetchResponsePartitionsLeaderHintFieldEvent> {
    return streamMessage(buf, FetchResponse.codec(), opts)
  }
}

export interface FetchPartitionResponse {
  topic: string
  partition: number
  errorCode: number
  errorMessage: string
  highWatermark: bigint
  logStartOffset: bigint
  logEndOffset: bigint
  records: Uint8Array<ArrayBuffer>
  leaderHint: string
}

export namespace FetchPartitionResponse {
  let _codec: Codec<FetchPartitionResponse>

  export const codec = (): Codec<FetchPartitionResponse> => {
    if (_codec == null) {
      _codec = message<FetchPartitionResponse>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.topic != null && obj.topic !== '')) {
          w.uint32(10)
          w.string(obj.topic)
        }

        if ((obj.partition != null && obj.partition !== 0)) {
          w.uint32(16)
          w.uint32(obj.partition)
        }

        if ((obj.errorCode != null && obj.errorCode !== 0)) {
          w.uint32(24)
          w.sint32(obj.errorCode)
        }

        if ((obj.errorMessage != null && obj.errorMessage !== '')) {
          w.uint32(34)
          w.string(obj.errorMessage)
        }

        if ((obj.highWatermark != null && obj.highWatermark !== 0n)) {
          w.uint32(40)
          w.sint64(obj.highWatermark)
        }

        if ((obj.logStartOffset != null && obj.logStartOffset !== 0n)) {
          w.uint32(48)
          w.sint64(obj.logStartOffset)
        }

        if ((obj.logEndOffset != null && obj.logEndOffset !== 0n)) {
          w.uint32(56)
          w.sint64(obj.logEndOffset)
        }

        if ((obj.records != null && obj.records.byteLength > 0)) {
          w.uint32(66)
          w.bytes(obj.records)
        }

        if ((obj.leaderHint != null && obj.leaderHint !== '')) {
          w.uint32(74)
          w.string(obj.leaderHint)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          topic: '',
          partition: 0,
          errorCode: 0,
          errorMessage: '',
          highWatermark: 0n,
          logStartOffset: 0n,
          logEndOffset: 0n,
          records: uint8ArrayAlloc(0),
          leaderHint: ''
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
              obj.partition = reader.uint32()
              break
            }
            case 3: {
              obj.errorCode = reader.sint32()
              break
            }
            case 4: {
              obj.errorMessage = reader.string()
              break
            }
            case 5: {
              obj.highWatermark = reader.sint64()
              break
            }
            case 6: {
              obj.logStartOffset = reader.sint64()
              break
            }
            case 7: {
              obj.logEndOffset = reader.sint64()
              break
            }
            case 8: {
              obj.records = reader.bytes()
              break
            }
            case 9: {
              obj.leaderHint = reader.string()
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
                field: `${prefix}.partition`,
                value: reader.uint32()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.errorCode`,
                value: reader.sint32()
              }
              break
            }
            case 4: {
              yield {
                field: `${prefix}.errorMessage`,
                value: reader.string()
              }
              break
            }
            case 5: {
              yield {
                field: `${prefix}.highWatermark`,
                value: reader.sint64()
              }
              break
            }
            case 6: {
              yield {
                field: `${prefix}.logStartOffset`,
                value: reader.sint64()
              }
              break
            }
            case 7: {
              yield {
                field: `${prefix}.logEndOffset`,
                value: reader.sint64()
              }
              break
            }
            case 8: {
              yield {
                field: `${prefix}.records`,
                value: reader.bytes()
              }
              break
            }
            case 9: {
              yield {
                field: `${prefix}.leaderHint`,
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

  export interface FetchPartitionResponseTopicFieldEvent {
    field: '$.topic'
    value: string
  }

  export interface FetchPartitionResponsePartitionFieldEvent {
    field: '$.partition'
    value: number
  }

  export interface FetchPartitionResponseErrorCodeFieldEvent {
    field: '$.errorCode'
    value: number
  }

  export interface FetchPartitionResponseErrorMessageFieldEvent {
    field: '$.errorMessage'
    value: string
  }

  export interface FetchPartitionResponseHighWatermarkFieldEvent {
    field: '$.highWatermark'
    value: bigint
  }

  export interface FetchPartitionResponseLogStartOffsetFieldEvent {
    field: '$.logStartOffset'
    value: bigint
  }

  export interface FetchPartitionResponseLogEndOffsetFieldEvent {
    field: '$.logEndOffset'
    value: bigint
  }

  export interface FetchPartitionResponseRecordsFieldEvent {
    field: '$.records'
    value: Uint8Array<ArrayBuffer>
  }

  export interface FetchPartitionResponseLeaderHintFieldEvent {
    field: '$.leaderHint'
    value: string
  }

  export function encode (obj: Partial<FetchPartitionResponse>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, FetchPartitionResponse.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<FetchPartitionResponse>): FetchPartitionResponse {
    return decodeMessage(buf, FetchPartitionResponse.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<FetchPartitionResponse>): Generator<FetchPartitionResponseTopicFieldEvent | FetchPartitionResponsePartitionFieldEvent | FetchPartitionResponseErrorCodeFieldEvent | FetchPartitionResponseErrorMessageFieldEvent | FetchPartitionResponseHighWatermarkFieldEvent | FetchPartitionResponseLogStartOffsetFieldEvent | FetchPartitionResponseLogEndOffsetFieldEvent | FetchPartitionResponseRecordsFieldEvent | FetchPartitionResponseLeaderHintFieldEvent> {
    return streamMessage(buf, FetchPartitionResponse.codec(), opts)
  }
}

export interface ListOffsetsRequest {
  partitions: ListOffsetsPartition[]
}

export namespace ListOffsetsRequest {
  let _codec: Codec<ListOffsetsRequest>

  export const codec = (): Codec<ListOffsetsRequest> => {
    if (_codec == null) {
      _codec = message<ListOffsetsRequest>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if (obj.partitions != null && obj.partitions.length > 0) {
          for (const value of obj.partitions) {
            w.uint32(10)
            ListOffsetsPartition.codec().encode(value, w)
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

              obj.partitions.push(ListOffsetsPartition.codec().decode(reader, reader.uint32(), {
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
          partitions: 0
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              if (opts.limits?.partitions != null && obj.partitions === opts.limits.partitions) {
                throw new MaxLengthError('Streaming decode error - repeated field "partitions" had too many elements')
              }

              for (const evt of ListOffsetsPartition.codec().stream(reader, reader.uint32(), `${prefix}.partitions[]`, {
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

  export interface ListOffsetsRequestPartitionsTopicFieldEvent {
    field: '$.partitions[].topic'
    value: string
    index: number
  }

  export interface ListOffsetsRequestPartitionsPartitionFieldEvent {
    field: '$.partitions[].partition'
    value: number
    index: number
  }

  export interface ListOffsetsRequestPartitionsTimestampFieldEvent {
    field: '$.partitions[].timestamp'
    value: bigint
    index: number
  }

  export function encode (obj: Partial<ListOffsetsRequest>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, ListOffsetsRequest.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<ListOffsetsRequest>): ListOffsetsRequest {
    return decodeMessage(buf, ListOffsetsRequest.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<ListOffsetsRequest>): Generator<ListOffsetsRequestPartitionsTopicFieldEvent | ListOffsetsRequestPartitionsPartitionFieldEvent | ListOffsetsRequestPartitionsTimestampFieldEvent> {
    return streamMessage(buf, ListOffsetsRequest.codec(), opts)
  }
}

export interface ListOffsetsPartition {
  topic: string
  partition: number
  timestamp: bigint
}

export namespace ListOffsetsPartition {
  let _codec: Codec<ListOffsetsPartition>

  export const codec = (): Codec<ListOffsetsPartition> => {
    if (_codec == null) {
      _codec = message<ListOffsetsPartition>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.topic != null && obj.topic !== '')) {
          w.uint32(10)
          w.string(obj.topic)
        }

        if ((obj.partition != null && obj.partition !== 0)) {
          w.uint32(16)
          w.uint32(obj.partition)
        }

        if ((obj.timestamp != null && obj.timestamp !== 0n)) {
          w.uint32(24)
          w.sint64(obj.timestamp)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          topic: '',
          partition: 0,
          timestamp: 0n
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
              obj.partition = reader.uint32()
              break
            }
            case 3: {
              obj.timestamp = reader.sint64()
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
                field: `${prefix}.partition`,
                value: reader.uint32()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.timestamp`,
                value: reader.sint64()
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

  export interface ListOffsetsPartitionTopicFieldEvent {
    field: '$.topic'
    value: string
  }

  export interface ListOffsetsPartitionPartitionFieldEvent {
    field: '$.partition'
    value: number
  }

  export interface ListOffsetsPartitionTimestampFieldEvent {
    field: '$.timestamp'
    value: bigint
  }

  export function encode (obj: Partial<ListOffsetsPartition>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, ListOffsetsPartition.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<ListOffsetsPartition>): ListOffsetsPartition {
    return decodeMessage(buf, ListOffsetsPartition.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<ListOffsetsPartition>): Generator<ListOffsetsPartitionTopicFieldEvent | ListOffsetsPartitionPartitionFieldEvent | ListOffsetsPartitionTimestampFieldEvent> {
    return streamMessage(buf, ListOffsetsPartition.codec(), opts)
  }
}

export interface ListOffsetsResponse {
  partitions: ListOffsetsPartitionResponse[]
}

export namespace ListOffsetsResponse {
  let _codec: Codec<ListOffsetsResponse>

  export const codec = (): Codec<ListOffsetsResponse> => {
    if (_codec == null) {
      _codec = message<ListOffsetsResponse>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if (obj.partitions != null && obj.partitions.length > 0) {
          for (const value of obj.partitions) {
            w.uint32(10)
            ListOffsetsPartitionResponse.codec().encode(value, w)
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

              obj.partitions.push(ListOffsetsPartitionResponse.codec().decode(reader, reader.uint32(), {
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
          partitions: 0
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              if (opts.limits?.partitions != null && obj.partitions === opts.limits.partitions) {
                throw new MaxLengthError('Streaming decode error - repeated field "partitions" had too many elements')
              }

              for (const evt of ListOffsetsPartitionResponse.codec().stream(reader, reader.uint32(), `${prefix}.partitions[]`, {
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

  export interface ListOffsetsResponsePartitionsTopicFieldEvent {
    field: '$.partitions[].topic'
    value: string
    index: number
  }

  export interface ListOffsetsResponsePartitionsPartitionFieldEvent {
    field: '$.partitions[].partition'
    value: number
    index: number
  }

  export interface ListOffsetsResponsePartitionsErrorCodeFieldEvent {
    field: '$.partitions[].errorCode'
    value: number
    index: number
  }

  export interface ListOffsetsResponsePartitionsErrorMessageFieldEvent {
    field: '$.partitions[].errorMessage'
    value: string
    index: number
  }

  export interface ListOffsetsResponsePartitionsOffsetFieldEvent {
    field: '$.partitions[].offset'
    value: bigint
    index: number
  }

  export interface ListOffsetsResponsePartitionsTimestampFieldEvent {
    field: '$.partitions[].timestamp'
    value: bigint
    index: number
  }

  export interface ListOffsetsResponsePartitionsLeaderHintFieldEvent {
    field: '$.partitions[].leaderHint'
    value: string
    index: number
  }

  export function encode (obj: Partial<ListOffsetsResponse>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, ListOffsetsResponse.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<ListOffsetsResponse>): ListOffsetsResponse {
    return decodeMessage(buf, ListOffsetsResponse.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<ListOffsetsResponse>): Generator<ListOffsetsResponsePartitionsTopicFieldEvent | ListOffsetsResponsePartitionsPartitionFieldEvent | ListOffsetsResponsePartitionsErrorCodeFieldEvent | ListOffsetsResponsePartitionsErrorMessageFieldEvent | ListOffsetsResponsePartitionsOffsetFieldEvent | ListOffsetsResponsePartitionsTimestampFieldEvent | ListOffsetsResponsePartitionsLeaderHintFieldEvent> {
    return streamMessage(buf, ListOffsetsResponse.codec(), opts)
  }
}

export interface ListOffsetsPartitionResponse {
  topic: string
  partition: number
  errorCode: number
  errorMessage: string
  offset: bigint
  timestamp: bigint
  leaderHint: string
}

export namespace ListOffsetsPartitionResponse {
  let _codec: Codec<ListOffsetsPartitionResponse>

  export const codec = (): Codec<ListOffsetsPartitionResponse> => {
    if (_codec == null) {
      _codec = message<ListOffsetsPartitionResponse>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.topic != null && obj.topic !== '')) {
          w.uint32(10)
          w.string(obj.topic)
        }

        if ((obj.partition != null && obj.partition !== 0)) {
          w.uint32(16)
          w.uint32(obj.partition)
        }

        if ((obj.errorCode != null && obj.errorCode !== 0)) {
          w.uint32(24)
          w.sint32(obj.errorCode)
        }

        if ((obj.errorMessage != null && obj.errorMessage !== '')) {
          w.uint32(34)
          w.string(obj.errorMessage)
        }

        if ((obj.offset != null && obj.offset !== 0n)) {
          w.uint32(40)
          w.sint64(obj.offset)
        }

        if ((obj.timestamp != null && obj.timestamp !== 0n)) {
          w.uint32(48)
          w.sint64(obj.timestamp)
        }

        if ((obj.leaderHint != null && obj.leaderHint !== '')) {
          w.uint32(58)
          w.string(obj.leaderHint)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          topic: '',
          partition: 0,
          errorCode: 0,
          errorMessage: '',
          offset: 0n,
          timestamp: 0n,
          leaderHint: ''
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
              obj.partition = reader.uint32()
              break
            }
            case 3: {
              obj.errorCode = reader.sint32()
              break
            }
            case 4: {
              obj.errorMessage = reader.string()
              break
            }
            case 5: {
              obj.offset = reader.sint64()
              break
            }
            case 6: {
              obj.timestamp = reader.sint64()
              break
            }
            case 7: {
              obj.leaderHint = reader.string()
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
                field: `${prefix}.partition`,
                value: reader.uint32()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.errorCode`,
                value: reader.sint32()
              }
              break
            }
            case 4: {
              yield {
                field: `${prefix}.errorMessage`,
                value: reader.string()
              }
              break
            }
            case 5: {
              yield {
                field: `${prefix}.offset`,
                value: reader.sint64()
              }
              break
            }
            case 6: {
              yield {
                field: `${prefix}.timestamp`,
                value: reader.sint64()
              }
              break
            }
            case 7: {
              yield {
                field: `${prefix}.leaderHint`,
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

  export interface ListOffsetsPartitionResponseTopicFieldEvent {
    field: '$.topic'
    value: string
  }

  export interface ListOffsetsPartitionResponsePartitionFieldEvent {
    field: '$.partition'
    value: number
  }

  export interface ListOffsetsPartitionResponseErrorCodeFieldEvent {
    field: '$.errorCode'
    value: number
  }

  export interface ListOffsetsPartitionResponseErrorMessageFieldEvent {
    field: '$.errorMessage'
    value: string
  }

  export interface ListOffsetsPartitionResponseOffsetFieldEvent {
    field: '$.offset'
    value: bigint
  }

  export interface ListOffsetsPartitionResponseTimestampFieldEvent {
    field: '$.timestamp'
    value: bigint
  }

  export interface ListOffsetsPartitionResponseLeaderHintFieldEvent {
    field: '$.leaderHint'
    value: string
  }

  export function encode (obj: Partial<ListOffsetsPartitionResponse>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, ListOffsetsPartitionResponse.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<ListOffsetsPartitionResponse>): ListOffsetsPartitionResponse {
    return decodeMessage(buf, ListOffsetsPartitionResponse.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<ListOffsetsPartitionResponse>): Generator<ListOffsetsPartitionResponseTopicFieldEvent | ListOffsetsPartitionResponsePartitionFieldEvent | ListOffsetsPartitionResponseErrorCodeFieldEvent | ListOffsetsPartitionResponseErrorMessageFieldEvent | ListOffsetsPartitionResponseOffsetFieldEvent | ListOffsetsPartitionResponseTimestampFieldEvent | ListOffsetsPartitionResponseLeaderHintFieldEvent> {
    return streamMessage(buf, ListOffsetsPartitionResponse.codec(), opts)
  }
}

export interface MetadataRequest {
  topics: string[]
  allTopics: boolean
}

export namespace MetadataRequest {
  let _codec: Codec<MetadataRequest>

  export const codec = (): Codec<MetadataRequest> => {
    if (_codec == null) {
      _codec = message<MetadataRequest>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if (obj.topics != null && obj.topics.length > 0) {
          for (const value of obj.topics) {
            w.uint32(10)
            w.string(value)
          }
        }

        if ((obj.allTopics != null && obj.allTopics !== false)) {
          w.uint32(16)
          w.bool(obj.allTopics)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          topics: [],
          allTopics: false
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              if (opts.limits?.topics != null && obj.topics.length === opts.limits.topics) {
                throw new MaxLengthError('Decode error - repeated field "topics" had too many elements')
              }

              obj.topics.push(reader.string())
              break
            }
            case 2: {
              obj.allTopics = reader.bool()
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
          topics: 0
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              if (opts.limits?.topics != null && obj.topics === opts.limits.topics) {
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
            case 2: {
              yield {
                field: `${prefix}.allTopics`,
                value: reader.bool()
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

  export interface MetadataRequestTopicsFieldEvent {
    field: '$.topics[]'
    index: number
    value: string
  }

  export interface MetadataRequestAllTopicsFieldEvent {
    field: '$.allTopics'
    value: boolean
  }

  export function encode (obj: Partial<MetadataRequest>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, MetadataRequest.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<MetadataRequest>): MetadataRequest {
    return decodeMessage(buf, MetadataRequest.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<MetadataRequest>): Generator<MetadataRequestTopicsFieldEvent | MetadataRequestAllTopicsFieldEvent> {
    return streamMessage(buf, MetadataRequest.codec(), opts)
  }
}

export interface MetadataResponse {
  peers: PeerInfo[]
  topics: TopicInfo[]
  peerId: string
}

export namespace MetadataResponse {
  let _codec: Codec<MetadataResponse>

  export const codec = (): Codec<MetadataResponse> => {
    if (_codec == null) {
      _codec = message<MetadataResponse>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if (obj.peers != null && obj.peers.length > 0) {
          for (const value of obj.peers) {
            w.uint32(10)
            PeerInfo.codec().encode(value, w)
          }
        }

        if (obj.topics != null && obj.topics.length > 0) {
          for (const value of obj.topics) {
            w.uint32(18)
            TopicInfo.codec().encode(value, w)
          }
        }

        if ((obj.peerId != null && obj.peerId !== '')) {
          w.uint32(26)
          w.string(obj.peerId)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          peers: [],
          topics: [],
          peerId: ''
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              if (opts.limits?.peers != null && obj.peers.length === opts.limits.peers) {
                throw new MaxLengthError('Decode error - repeated field "peers" had too many elements')
              }

              obj.peers.push(PeerInfo.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.peers$
              }))
              break
            }
            case 2: {
              if (opts.limits?.topics != null && obj.topics.length === opts.limits.topics) {
                throw new MaxLengthError('Decode error - repeated field "topics" had too many elements')
              }

              obj.topics.push(TopicInfo.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.topics$
              }))
              break
            }
            case 3: {
              obj.peerId = reader.string()
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
          peers: 0,
          topics: 0
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              if (opts.limits?.peers != null && obj.peers === opts.limits.peers) {
                throw new MaxLengthError('Streaming decode error - repeated field "peers" had too many elements')
              }

              for (const evt of PeerInfo.codec().stream(reader, reader.uint32(), `${prefix}.peers[]`, {
                limits: opts.limits?.peers$
              })) {
                yield {
                  ...evt,
                  index: obj.peers
                }
              }

              obj.peers++

              break
            }
            case 2: {
              if (opts.limits?.topics != null && obj.topics === opts.limits.topics) {
                throw new MaxLengthError('Streaming decode error - repeated field "topics" had too many elements')
              }

              for (const evt of TopicInfo.codec().stream(reader, reader.uint32(), `${prefix}.topics[]`, {
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
            case 3: {
              yield {
                field: `${prefix}.peerId`,
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

  export interface MetadataResponsePeersPeerIdFieldEvent {
    field: '$.peers[].peerId'
    value: string
    index: number
  }

  export interface MetadataResponsePeersAddressesFieldEvent {
    field: '$.peers[].addresses[]'
    index: number
    value: string
  }

  export interface MetadataResponsePeersVoterFieldEvent {
    field: '$.peers[].voter'
    value: boolean
    index: number
  }

  export interface MetadataResponsePeersStorageFieldEvent {
    field: '$.peers[].storage'
    value: string
    index: number
  }

  export interface MetadataResponsePeersStatusFieldEvent {
    field: '$.peers[].status'
    value: string
    index: number
  }

  export interface MetadataResponsePeersVersionFieldEvent {
    field: '$.peers[].version'
    value: string
    index: number
  }

  export interface MetadataResponseTopicsNameFieldEvent {
    field: '$.topics[].name'
    value: string
    index: number
  }

  export interface MetadataResponseTopicsTopicIdFieldEvent {
    field: '$.topics[].topicId'
    value: string
    index: number
  }

  export interface MetadataResponseTopicsErrorCodeFieldEvent {
    field: '$.topics[].errorCode'
    value: number
    index: number
  }

  export interface MetadataResponseTopicsErrorMessageFieldEvent {
    field: '$.topics[].errorMessage'
    value: string
    index: number
  }

  export interface MetadataResponseTopicsReplicationFactorFieldEvent {
    field: '$.topics[].replicationFactor'
    value: number
    index: number
  }

  export interface MetadataResponseTopicsConfigsFieldEvent {
    field: '$.topics[].configs{}'
    key: string
    value: string
    index: number
  }

  export interface MetadataResponseTopicsPartitionsPartitionFieldEvent {
    field: '$.topics[].partitions[].partition'
    value: number
    index: number
  }

  export interface MetadataResponseTopicsPartitionsLeaderFieldEvent {
    field: '$.topics[].partitions[].leader'
    value: string
    index: number
  }

  export interface MetadataResponseTopicsPartitionsLeaderEpochFieldEvent {
    field: '$.topics[].partitions[].leaderEpoch'
    value: number
    index: number
  }

  export interface MetadataResponseTopicsPartitionsReplicasFieldEvent {
    field: '$.topics[].partitions[].replicas[]'
    index: number
    value: string
  }

  export interface MetadataResponseTopicsPartitionsInSyncFieldEvent {
    field: '$.topics[].partitions[].inSync[]'
    index: number
    value: string
  }

  export interface MetadataResponseTopicsPartitionsObserversFieldEvent {
    field: '$.topics[].partitions[].observers[]'
    index: number
    value: string
  }

  export interface MetadataResponseTopicsPartitionsLogStartOffsetFieldEvent {
    field: '$.topics[].partitions[].logStartOffset'
    value: bigint
    index: number
  }

  export interface MetadataResponseTopicsPartitionsHighWatermarkFieldEvent {
    field: '$.topics[].partitions[].highWatermark'
    value: bigint
    index: number
  }

  export interface MetadataResponseTopicsPartitionsLogEndOffsetFieldEvent {
    field: '$.topics[].partitions[].logEndOffset'
    value: bigint
    index: number
  }

  export interface MetadataResponseTopicsPartitionsReplicaStatesPeerIdFieldEvent {
    field: '$.topics[].partitions[].replicaStates[].peerId'
    value: string
    index: number
  }

  export interface MetadataResponseTopicsPartitionsReplicaStatesVoterFieldEvent {
    field: '$.topics[].partitions[].replicaStates[].voter'
    value: boolean
    index: number
  }

  export interface MetadataResponseTopicsPartitionsReplicaStatesLogEndOffsetFieldEvent {
    field: '$.topics[].partitions[].replicaStates[].logEndOffset'
    value: bigint
    index: number
  }

  export interface MetadataResponseTopicsPartitionsReplicaStatesCaughtUpMsAgoFieldEvent {
    field: '$.topics[].partitions[].replicaStates[].caughtUpMsAgo'
    value: bigint
    index: number
  }

  export interface MetadataResponsePeerIdFieldEvent {
    field: '$.peerId'
    value: string
  }

  export function encode (obj: Partial<MetadataResponse>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, MetadataResponse.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<MetadataResponse>): MetadataResponse {
    return decodeMessage(buf, MetadataResponse.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<MetadataResponse>): Generator<MetadataResponsePeersPeerIdFieldEvent | MetadataResponsePeersAddressesFieldEvent | MetadataResponsePeersVoterFieldEvent | MetadataResponsePeersStorageFieldEvent | MetadataResponsePeersStatusFieldEvent | MetadataResponsePeersVersionFieldEvent | MetadataResponseTopicsNameFieldEvent | MetadataResponseTopicsTopicIdFieldEvent | MetadataResponseTopicsErrorCodeFieldEvent | MetadataResponseTopicsErrorMessageFieldEvent | MetadataResponseTopicsReplicationFactorFieldEvent | MetadataResponseTopicsConfigsFieldEvent | MetadataResponseTopicsPartitionsPartitionFieldEvent | MetadataResponseTopicsPartitionsLeaderFieldEvent | MetadataResponseTopicsPartitionsLeaderEpochFieldEvent | MetadataResponseTopicsPartitionsReplicasFieldEvent | MetadataResponseTopicsPartitionsInSyncFieldEvent | MetadataResponseTopicsPartitionsObserversFieldEvent | MetadataResponseTopicsPartitionsLogStartOffsetFieldEvent | MetadataResponseTopicsPartitionsHighWatermarkFieldEvent | MetadataResponseTopicsPartitionsLogEndOffsetFieldEvent | MetadataResponseTopicsPartitionsReplicaStatesPeerIdFieldEvent | MetadataResponseTopicsPartitionsReplicaStatesVoterFieldEvent | MetadataResponseTopicsPartitionsReplicaStatesLogEndOffsetFieldEvent | MetadataResponseTopicsPartitionsReplicaStatesCaughtUpMsAgoFieldEvent | MetadataResponsePeerIdFieldEvent> {
    return streamMessage(buf, MetadataResponse.codec(), opts)
  }
}

export interface PeerInfo {
  peerId: string
  addresses: string[]
  voter: boolean
  storage: string
  status: string
  version: string
}

export namespace PeerInfo {
  let _codec: Codec<PeerInfo>

  export const codec = (): Codec<PeerInfo> => {
    if (_codec == null) {
      _codec = message<PeerInfo>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.peerId != null && obj.peerId !== '')) {
          w.uint32(10)
          w.string(obj.peerId)
        }

        if (obj.addresses != null && obj.addresses.length > 0) {
          for (const value of obj.addresses) {
            w.uint32(18)
            w.string(value)
          }
        }

        if ((obj.voter != null && obj.voter !== false)) {
          w.uint32(24)
          w.bool(obj.voter)
        }

        if ((obj.storage != null && obj.storage !== '')) {
          w.uint32(34)
          w.string(obj.storage)
        }

        if ((obj.status != null && obj.status !== '')) {
          w.uint32(42)
          w.string(obj.status)
        }

        if ((obj.version != null && obj.version !== '')) {
          w.uint32(50)
          w.string(obj.version)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          peerId: '',
          addresses: [],
          voter: false,
          storage: '',
          status: '',
          version: ''
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.peerId = reader.string()
              break
            }
            case 2: {
              if (opts.limits?.addresses != null && obj.addresses.length === opts.limits.addresses) {
                throw new MaxLengthError('Decode error - repeated field "addresses" had too many elements')
              }

              obj.addresses.push(reader.string())
              break
            }
            case 3: {
              obj.voter = reader.bool()
              break
            }
            case 4: {
              obj.storage = reader.string()
              break
            }
            case 5: {
              obj.status = reader.string()
              break
            }
            case 6: {
              obj.version = reader.string()
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
          addresses: 0
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.peerId`,
                value: reader.string()
              }
              break
            }
            case 2: {
              if (opts.limits?.addresses != null && obj.addresses === opts.limits.addresses) {
                throw new MaxLengthError('Streaming decode error - repeated field "addresses" had too many elements')
              }

              yield {
                field: `${prefix}.addresses[]`,
                index: obj.addresses,
                value: reader.string()
              }

              obj.addresses++

              break
            }
            case 3: {
              yield {
                field: `${prefix}.voter`,
                value: reader.bool()
              }
              break
            }
            case 4: {
              yield {
                field: `${prefix}.storage`,
                value: reader.string()
              }
              break
            }
            case 5: {
              yield {
                field: `${prefix}.status`,
                value: reader.string()
              }
              break
            }
            case 6: {
              yield {
                field: `${prefix}.version`,
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

  export interface PeerInfoPeerIdFieldEvent {
    field: '$.peerId'
    value: string
  }

  export interface PeerInfoAddressesFieldEvent {
    field: '$.addresses[]'
    index: number
    value: string
  }

  export interface PeerInfoVoterFieldEvent {
    field: '$.voter'
    value: boolean
  }

  export interface PeerInfoStorageFieldEvent {
    field: '$.storage'
    value: string
  }

  export interface PeerInfoStatusFieldEvent {
    field: '$.status'
    value: string
  }

  export interface PeerInfoVersionFieldEvent {
    field: '$.version'
    value: string
  }

  export function encode (obj: Partial<PeerInfo>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, PeerInfo.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<PeerInfo>): PeerInfo {
    return decodeMessage(buf, PeerInfo.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<PeerInfo>): Generator<PeerInfoPeerIdFieldEvent | PeerInfoAddressesFieldEvent | PeerInfoVoterFieldEvent | PeerInfoStorageFieldEvent | PeerInfoStatusFieldEvent | PeerInfoVersionFieldEvent> {
    return streamMessage(buf, PeerInfo.codec(), opts)
  }
}

export interface TopicInfo {
  name: string
  topicId: string
  errorCode: number
  errorMessage: string
  replicationFactor: number
  configs: Map<string, string>
  partitions: PartitionInfo[]
}

export namespace TopicInfo {
  export interface TopicInfo$configsEntry {
    key: string
    value: string
  }

  export namespace TopicInfo$configsEntry {
    let _codec: Codec<TopicInfo$configsEntry>

    export const codec = (): Codec<TopicInfo$configsEntry> => {
      if (_codec == null) {
        _codec = message<TopicInfo$configsEntry>((obj, w, opts = {}) => {
          if (opts.lengthDelimited !== false) {
            w.fork()
          }

          if ((obj.key != null && obj.key !== '')) {
            w.uint32(10)
            w.string(obj.key)
          }

          if ((obj.value != null && obj.value !== '')) {
            w.uint32(18)
            w.string(obj.value)
          }

          if (opts.lengthDelimited !== false) {
            w.ldelim()
          }
        }, (reader, length, opts = {}) => {
          const obj: any = {
            key: '',
            value: ''
          }

          const end = length == null ? reader.len : reader.pos + length

          while (reader.pos < end) {
            const tag = reader.uint32()

            switch (tag >>> 3) {
              case 1: {
                obj.key = reader.string()
                break
              }
              case 2: {
                obj.value = reader.string()
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
                  field: `${prefix}.key`,
                  value: reader.string()
                }
                break
              }
              case 2: {
                yield {
                  field: `${prefix}.value`,
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

    export interface TopicInfo$configsEntryKeyFieldEvent {
      field: '$.key'
      value: string
    }

    export interface TopicInfo$configsEntryValueFieldEvent {
      field: '$.value'
      value: string
    }

    export function encode (obj: Partial<TopicInfo$configsEntry>): Uint8Array<ArrayBuffer> {
      return encodeMessage(obj, TopicInfo$configsEntry.codec())
    }

    export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<TopicInfo$configsEntry>): TopicInfo$configsEntry {
      return decodeMessage(buf, TopicInfo$configsEntry.codec(), opts)
    }

    export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<TopicInfo$configsEntry>): Generator<TopicInfo$configsEntryKeyFieldEvent | TopicInfo$configsEntryValueFieldEvent> {
      return streamMessage(buf, TopicInfo$configsEntry.codec(), opts)
    }
  }

  let _codec: Codec<TopicInfo>

  export const codec = (): Codec<TopicInfo> => {
    if (_codec == null) {
      _codec = message<TopicInfo>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.name != null && obj.name !== '')) {
          w.uint32(10)
          w.string(obj.name)
        }

        if ((obj.topicId != null && obj.topicId !== '')) {
          w.uint32(18)
          w.string(obj.topicId)
        }

        if ((obj.errorCode != null && obj.errorCode !== 0)) {
          w.uint32(24)
          w.sint32(obj.errorCode)
        }

        if ((obj.errorMessage != null && obj.errorMessage !== '')) {
          w.uint32(34)
          w.string(obj.errorMessage)
        }

        if ((obj.replicationFactor != null && obj.replicationFactor !== 0)) {
          w.uint32(40)
          w.uint32(obj.replicationFactor)
        }

        if (obj.configs != null && obj.configs.size > 0) {
          for (const [key, value] of obj.configs.entries()) {
            w.uint32(50)
            TopicInfo.TopicInfo$configsEntry.codec().encode({ key, value }, w)
          }
        }

        if (obj.partitions != null && obj.partitions.length > 0) {
          for (const value of obj.partitions) {
            w.uint32(58)
            PartitionInfo.codec().encode(value, w)
          }
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          name: '',
          topicId: '',
          errorCode: 0,
          errorMessage: '',
          replicationFactor: 0,
          configs: new Map<string, string>(),
          partitions: []
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.name = reader.string()
              break
            }
            case 2: {
              obj.topicId = reader.string()
              break
            }
            case 3: {
              obj.errorCode = reader.sint32()
              break
            }
            case 4: {
              obj.errorMessage = reader.string()
              break
            }
            case 5: {
              obj.replicationFactor = reader.uint32()
              break
            }
            case 6: {
              if (opts.limits?.configs != null && obj.configs.size === opts.limits.configs) {
                throw new MaxSizeError('Decode error - map field "configs" had too many elements')
              }

              const entry = TopicInfo.TopicInfo$configsEntry.codec().decode(reader, reader.uint32(), {
                limits: {
                  value: opts.limits?.configs$value
                }
              })
              obj.configs.set(entry.key, entry.value)
              break
            }
            case 7: {
              if (opts.limits?.partitions != null && obj.partitions.length === opts.limits.partitions) {
                throw new MaxLengthError('Decode error - repeated field "partitions" had too many elements')
              }

              obj.partitions.push(PartitionInfo.codec().decode(reader, reader.uint32(), {
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
          configs: 0,
          partitions: 0
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.name`,
                value: reader.string()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.topicId`,
                value: reader.string()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.errorCode`,
                value: reader.sint32()
              }
              break
            }
            case 4: {
              yield {
                field: `${prefix}.errorMessage`,
                value: reader.string()
              }
              break
            }
            case 5: {
              yield {
                field: `${prefix}.replicationFactor`,
                value: reader.uint32()
              }
              break
            }
            case 6: {
              if (opts.limits?.configs != null && obj.configs === opts.limits.configs) {
                throw new MaxLengthError('Decode error - map field "configs" had too many elements')
              }

              yield * TopicInfo.TopicInfo$configsEntry.codec().stream(reader, reader.uint32(), `${prefix}.configs{}`, {
                limits: {
                  value: opts.limits?.configs$value
                }
              })

              obj.configs++

              break
            }
            case 7: {
              if (opts.limits?.partitions != null && obj.partitions === opts.limits.partitions) {
                throw new MaxLengthError('Streaming decode error - repeated field "partitions" had too many elements')
              }

              for (const evt of PartitionInfo.codec().stream(reader, reader.uint32(), `${prefix}.partitions[]`, {
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

  export interface TopicInfoNameFieldEvent {
    field: '$.name'
    value: string
  }

  export interface TopicInfoTopicIdFieldEvent {
    field: '$.topicId'
    value: string
  }

  export interface TopicInfoErrorCodeFieldEvent {
    field: '$.errorCode'
    value: number
  }

  export interface TopicInfoErrorMessageFieldEvent {
    field: '$.errorMessage'
    value: string
  }

  export interface TopicInfoReplicationFactorFieldEvent {
    field: '$.replicationFactor'
    value: number
  }

  export interface TopicInfoConfigsFieldEvent {
    field: '$.configs{}'
    key: string
    value: string
  }

  export interface TopicInfoPartitionsPartitionFieldEvent {
    field: '$.partitions[].partition'
    value: number
    index: number
  }

  export interface TopicInfoPartitionsLeaderFieldEvent {
    field: '$.partitions[].leader'
    value: string
    index: number
  }

  export interface TopicInfoPartitionsLeaderEpochFieldEvent {
    field: '$.partitions[].leaderEpoch'
    value: number
    index: number
  }

  export interface TopicInfoPartitionsReplicasFieldEvent {
    field: '$.partitions[].replicas[]'
    index: number
    value: string
  }

  export interface TopicInfoPartitionsInSyncFieldEvent {
    field: '$.partitions[].inSync[]'
    index: number
    value: string
  }

  export interface TopicInfoPartitionsObserversFieldEvent {
    field: '$.partitions[].observers[]'
    index: number
    value: string
  }

  export interface TopicInfoPartitionsLogStartOffsetFieldEvent {
    field: '$.partitions[].logStartOffset'
    value: bigint
    index: number
  }

  export interface TopicInfoPartitionsHighWatermarkFieldEvent {
    field: '$.partitions[].highWatermark'
    value: bigint
    index: number
  }

  export interface TopicInfoPartitionsLogEndOffsetFieldEvent {
    field: '$.partitions[].logEndOffset'
    value: bigint
    index: number
  }

  export interface TopicInfoPartitionsReplicaStatesPeerIdFieldEvent {
    field: '$.partitions[].replicaStates[].peerId'
    value: string
    index: number
  }

  export interface TopicInfoPartitionsReplicaStatesVoterFieldEvent {
    field: '$.partitions[].replicaStates[].voter'
    value: boolean
    index: number
  }

  export interface TopicInfoPartitionsReplicaStatesLogEndOffsetFieldEvent {
    field: '$.partitions[].replicaStates[].logEndOffset'
    value: bigint
    index: number
  }

  export interface TopicInfoPartitionsReplicaStatesCaughtUpMsAgoFieldEvent {
    field: '$.partitions[].replicaStates[].caughtUpMsAgo'
    value: bigint
    index: number
  }

  export function encode (obj: Partial<TopicInfo>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, TopicInfo.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<TopicInfo>): TopicInfo {
    return decodeMessage(buf, TopicInfo.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<TopicInfo>): Generator<TopicInfoNameFieldEvent | TopicInfoTopicIdFieldEvent | TopicInfoErrorCodeFieldEvent | TopicInfoErrorMessageFieldEvent | TopicInfoReplicationFactorFieldEvent | TopicInfoConfigsFieldEvent | TopicInfoPartitionsPartitionFieldEvent | TopicInfoPartitionsLeaderFieldEvent | TopicInfoPartitionsLeaderEpochFieldEvent | TopicInfoPartitionsReplicasFieldEvent | TopicInfoPartitionsInSyncFieldEvent | TopicInfoPartitionsObserversFieldEvent | TopicInfoPartitionsLogStartOffsetFieldEvent | TopicInfoPartitionsHighWatermarkFieldEvent | TopicInfoPartitionsLogEndOffsetFieldEvent | TopicInfoPartitionsReplicaStatesPeerIdFieldEvent | TopicInfoPartitionsReplicaStatesVoterFieldEvent | TopicInfoPartitionsReplicaStatesLogEndOffsetFieldEvent | TopicInfoPartitionsReplicaStatesCaughtUpMsAgoFieldEvent> {
    return streamMessage(buf, TopicInfo.codec(), opts)
  }
}

export interface PartitionInfo {
  partition: number
  leader: string
  leaderEpoch: number
  replicas: string[]
  inSync: string[]
  observers: string[]
  logStartOffset: bigint
  highWatermark: bigint
  logEndOffset: bigint
  replicaStates: ReplicaState[]
}

export namespace PartitionInfo {
  let _codec: Codec<PartitionInfo>

  export const codec = (): Codec<PartitionInfo> => {
    if (_codec == null) {
      _codec = message<PartitionInfo>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.partition != null && obj.partition !== 0)) {
          w.uint32(8)
          w.uint32(obj.partition)
        }

        if ((obj.leader != null && obj.leader !== '')) {
          w.uint32(18)
          w.string(obj.leader)
        }

        if ((obj.leaderEpoch != null && obj.leaderEpoch !== 0)) {
          w.uint32(24)
          w.sint32(obj.leaderEpoch)
        }

        if (obj.replicas != null && obj.replicas.length > 0) {
          for (const value of obj.replicas) {
            w.uint32(34)
            w.string(value)
          }
        }

        if (obj.inSync != null && obj.inSync.length > 0) {
          for (const value of obj.inSync) {
            w.uint32(42)
            w.string(value)
          }
        }

        if (obj.observers != null && obj.observers.length > 0) {
          for (const value of obj.observers) {
            w.uint32(50)
            w.string(value)
          }
        }

        if ((obj.logStartOffset != null && obj.logStartOffset !== 0n)) {
          w.uint32(56)
          w.sint64(obj.logStartOffset)
        }

        if ((obj.highWatermark != null && obj.highWatermark !== 0n)) {
          w.uint32(64)
          w.sint64(obj.highWatermark)
        }

        if ((obj.logEndOffset != null && obj.logEndOffset !== 0n)) {
          w.uint32(72)
          w.sint64(obj.logEndOffset)
        }

        if (obj.replicaStates != null && obj.replicaStates.length > 0) {
          for (const value of obj.replicaStates) {
            w.uint32(82)
            ReplicaState.codec().encode(value, w)
          }
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          partition: 0,
          leader: '',
          leaderEpoch: 0,
          replicas: [],
          inSync: [],
          observers: [],
          logStartOffset: 0n,
          highWatermark: 0n,
          logEndOffset: 0n,
          replicaStates: []
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
              obj.leader = reader.string()
              break
            }
            case 3: {
              obj.leaderEpoch = reader.sint32()
              break
            }
            case 4: {
              if (opts.limits?.replicas != null && obj.replicas.length === opts.limits.replicas) {
                throw new MaxLengthError('Decode error - repeated field "replicas" had too many elements')
              }

              obj.replicas.push(reader.string())
              break
            }
            case 5: {
              if (opts.limits?.inSync != null && obj.inSync.length === opts.limits.inSync) {
                throw new MaxLengthError('Decode error - repeated field "inSync" had too many elements')
              }

              obj.inSync.push(reader.string())
              break
            }
            case 6: {
              if (opts.limits?.observers != null && obj.observers.length === opts.limits.observers) {
                throw new MaxLengthError('Decode error - repeated field "observers" had too many elements')
              }

              obj.observers.push(reader.string())
              break
            }
            case 7: {
              obj.logStartOffset = reader.sint64()
              break
            }
            case 8: {
              obj.highWatermark = reader.sint64()
              break
            }
            case 9: {
              obj.logEndOffset = reader.sint64()
              break
            }
            case 10: {
              if (opts.limits?.replicaStates != null && obj.replicaStates.length === opts.limits.replicaStates) {
                throw new MaxLengthError('Decode error - repeated field "replicaStates" had too many elements')
              }

              obj.replicaStates.push(ReplicaState.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.replicaStates$
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
          replicas: 0,
          inSync: 0,
          observers: 0,
          replicaStates: 0
        }

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
                field: `${prefix}.leader`,
                value: reader.string()
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
              if (opts.limits?.replicas != null && obj.replicas === opts.limits.replicas) {
                throw new MaxLengthError('Streaming decode error - repeated field "replicas" had too many elements')
              }

              yield {
                field: `${prefix}.replicas[]`,
                index: obj.replicas,
                value: reader.string()
              }

              obj.replicas++

              break
            }
            case 5: {
              if (opts.limits?.inSync != null && obj.inSync === opts.limits.inSync) {
                throw new MaxLengthError('Streaming decode error - repeated field "inSync" had too many elements')
              }

              yield {
                field: `${prefix}.inSync[]`,
                index: obj.inSync,
                value: reader.string()
              }

              obj.inSync++

              break
            }
            case 6: {
              if (opts.limits?.observers != null && obj.observers === opts.limits.observers) {
                throw new MaxLengthError('Streaming decode error - repeated field "observers" had too many elements')
              }

              yield {
                field: `${prefix}.observers[]`,
                index: obj.observers,
                value: reader.string()
              }

              obj.observers++

              break
            }
            case 7: {
              yield {
                field: `${prefix}.logStartOffset`,
                value: reader.sint64()
              }
              break
            }
            case 8: {
              yield {
                field: `${prefix}.highWatermark`,
                value: reader.sint64()
              }
              break
            }
            case 9: {
              yield {
                field: `${prefix}.logEndOffset`,
                value: reader.sint64()
              }
              break
            }
            case 10: {
              if (opts.limits?.replicaStates != null && obj.replicaStates === opts.limits.replicaStates) {
                throw new MaxLengthError('Streaming decode error - repeated field "replicaStates" had too many elements')
              }

              for (const evt of ReplicaState.codec().stream(reader, reader.uint32(), `${prefix}.replicaStates[]`, {
                limits: opts.limits?.replicaStates$
              })) {
                yield {
                  ...evt,
                  index: obj.replicaStates
                }
              }

              obj.replicaStates++

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

  export interface PartitionInfoPartitionFieldEvent {
    field: '$.partition'
    value: number
  }

  export interface PartitionInfoLeaderFieldEvent {
    field: '$.leader'
    value: string
  }

  export interface PartitionInfoLeaderEpochFieldEvent {
    field: '$.leaderEpoch'
    value: number
  }

  export interface PartitionInfoReplicasFieldEvent {
    field: '$.replicas[]'
    index: number
    value: string
  }

  export interface PartitionInfoInSyncFieldEvent {
    field: '$.inSync[]'
    index: number
    value: string
  }

  export interface PartitionInfoObserversFieldEvent {
    field: '$.observers[]'
    index: number
    value: string
  }

  export interface PartitionInfoLogStartOffsetFieldEvent {
    field: '$.logStartOffset'
    value: bigint
  }

  export interface PartitionInfoHighWatermarkFieldEvent {
    field: '$.highWatermark'
    value: bigint
  }

  export interface PartitionInfoLogEndOffsetFieldEvent {
    field: '$.logEndOffset'
    value: bigint
  }

  export interface PartitionInfoReplicaStatesPeerIdFieldEvent {
    field: '$.replicaStates[].peerId'
    value: string
    index: number
  }

  export interface PartitionInfoReplicaStatesVoterFieldEvent {
    field: '$.replicaStates[].voter'
    value: boolean
    index: number
  }

  export interface PartitionInfoReplicaStatesLogEndOffsetFieldEvent {
    field: '$.replicaStates[].logEndOffset'
    value: bigint
    index: number
  }

  export interface PartitionInfoReplicaStatesCaughtUpMsAgoFieldEvent {
    field: '$.replicaStates[].caughtUpMsAgo'
    value: bigint
    index: number
  }

  export function encode (obj: Partial<PartitionInfo>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, PartitionInfo.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<PartitionInfo>): PartitionInfo {
    return decodeMessage(buf, PartitionInfo.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<PartitionInfo>): Generator<PartitionInfoPartitionFieldEvent | PartitionInfoLeaderFieldEvent | PartitionInfoLeaderEpochFieldEvent | PartitionInfoReplicasFieldEvent | PartitionInfoInSyncFieldEvent | PartitionInfoObserversFieldEvent | PartitionInfoLogStartOffsetFieldEvent | PartitionInfoHighWatermarkFieldEvent | PartitionInfoLogEndOffsetFieldEvent | PartitionInfoReplicaStatesPeerIdFieldEvent | PartitionInfoReplicaStatesVoterFieldEvent | PartitionInfoReplicaStatesLogEndOffsetFieldEvent | PartitionInfoReplicaStatesCaughtUpMsAgoFieldEvent> {
    return streamMessage(buf, PartitionInfo.codec(), opts)
  }
}

export interface ReplicaState {
  peerId: string
  voter: boolean
  logEndOffset: bigint
  caughtUpMsAgo: bigint
}

export namespace ReplicaState {
  let _codec: Codec<ReplicaState>

  export const codec = (): Codec<ReplicaState> => {
    if (_codec == null) {
      _codec = message<ReplicaState>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.peerId != null && obj.peerId !== '')) {
          w.uint32(10)
          w.string(obj.peerId)
        }

        if ((obj.voter != null && obj.voter !== false)) {
          w.uint32(16)
          w.bool(obj.voter)
        }

        if ((obj.logEndOffset != null && obj.logEndOffset !== 0n)) {
          w.uint32(24)
          w.sint64(obj.logEndOffset)
        }

        if ((obj.caughtUpMsAgo != null && obj.caughtUpMsAgo !== 0n)) {
          w.uint32(32)
          w.sint64(obj.caughtUpMsAgo)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          peerId: '',
          voter: false,
          logEndOffset: 0n,
          caughtUpMsAgo: 0n
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.peerId = reader.string()
              break
            }
            case 2: {
              obj.voter = reader.bool()
              break
            }
            case 3: {
              obj.logEndOffset = reader.sint64()
              break
            }
            case 4: {
              obj.caughtUpMsAgo = reader.sint64()
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
                field: `${prefix}.peerId`,
                value: reader.string()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.voter`,
                value: reader.bool()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.logEndOffset`,
                value: reader.sint64()
              }
              break
            }
            case 4: {
              yield {
                field: `${prefix}.caughtUpMsAgo`,
                value: reader.sint64()
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

  export interface ReplicaStatePeerIdFieldEvent {
    field: '$.peerId'
    value: string
  }

  export interface ReplicaStateVoterFieldEvent {
    field: '$.voter'
    value: boolean
  }

  export interface ReplicaStateLogEndOffsetFieldEvent {
    field: '$.logEndOffset'
    value: bigint
  }

  export interface ReplicaStateCaughtUpMsAgoFieldEvent {
    field: '$.caughtUpMsAgo'
    value: bigint
  }

  export function encode (obj: Partial<ReplicaState>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, ReplicaState.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<ReplicaState>): ReplicaState {
    return decodeMessage(buf, ReplicaState.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<ReplicaState>): Generator<ReplicaStatePeerIdFieldEvent | ReplicaStateVoterFieldEvent | ReplicaStateLogEndOffsetFieldEvent | ReplicaStateCaughtUpMsAgoFieldEvent> {
    return streamMessage(buf, ReplicaState.codec(), opts)
  }
}

export interface AdminRequest {
  createTopics?: CreateTopicsRequest
  deleteTopics?: DeleteTopicsRequest
  alterConfigs?: AlterConfigsRequest
}

export namespace AdminRequest {
  let _codec: Codec<AdminRequest>

  export const codec = (): Codec<AdminRequest> => {
    if (_codec == null) {
      _codec = message<AdminRequest>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        obj = { ...obj }

        if (obj.alterConfigs != null) {
          obj.deleteTopics = undefined
          obj.createTopics = undefined
        }

        if (obj.deleteTopics != null) {
          obj.alterConfigs = undefined
          obj.createTopics = undefined
        }

        if (obj.createTopics != null) {
          obj.alterConfigs = undefined
          obj.deleteTopics = undefined
        }

        if (obj.createTopics != null) {
          w.uint32(10)
          CreateTopicsRequest.codec().encode(obj.createTopics, w)
        }

        if (obj.deleteTopics != null) {
          w.uint32(18)
          DeleteTopicsRequest.codec().encode(obj.deleteTopics, w)
        }

        if (obj.alterConfigs != null) {
          w.uint32(26)
          AlterConfigsRequest.codec().encode(obj.alterConfigs, w)
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
            case 1: {
              obj.createTopics = CreateTopicsRequest.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.createTopics
              })
              break
            }
            case 2: {
              obj.deleteTopics = DeleteTopicsRequest.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.deleteTopics
              })
              break
            }
            case 3: {
              obj.alterConfigs = AlterConfigsRequest.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.alterConfigs
              })
              break
            }
            default: {
              reader.skipType(tag & 7)
              break
            }
          }
        }

        if (obj.alterConfigs != null) {
          delete obj.deleteTopics
          delete obj.createTopics
        }

        if (obj.deleteTopics != null) {
          delete obj.alterConfigs
          delete obj.createTopics
        }

        if (obj.createTopics != null) {
          delete obj.alterConfigs
          delete obj.deleteTopics
        }

        return obj
      }, function * (reader, length, prefix, opts = {}) {
        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield * CreateTopicsRequest.codec().stream(reader, reader.uint32(), `${prefix}.createTopics`, {
                limits: opts.limits?.createTopics
              })

              break
            }
            case 2: {
              yield * DeleteTopicsRequest.codec().stream(reader, reader.uint32(), `${prefix}.deleteTopics`, {
                limits: opts.limits?.deleteTopics
              })

              break
            }
            case 3: {
              yield * AlterConfigsRequest.codec().stream(reader, reader.uint32(), `${prefix}.alterConfigs`, {
                limits: opts.limits?.alterConfigs
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

  export interface AdminRequestCreateTopicsTopicsNameFieldEvent {
    field: '$.createTopics.topics[].name'
    value: string
    index: number
  }

  export interface AdminRequestCreateTopicsTopicsPartitionsFieldEvent {
    field: '$.createTopics.topics[].partitions'
    value: number
    index: number
  }

  export interface AdminRequestCreateTopicsTopicsReplicationFactorFieldEvent {
    field: '$.createTopics.topics[].replicationFactor'
    value: number
    index: number
  }

  export interface AdminRequestCreateTopicsTopicsConfigsFieldEvent {
    field: '$.createTopics.topics[].configs{}'
    key: string
    value: string
    index: number
  }

  export interface AdminRequestCreateTopicsTimeoutMsFieldEvent {
    field: '$.createTopics.timeoutMs'
    value: number
  }

  export interface AdminRequestDeleteTopicsNamesFieldEvent {
    field: '$.deleteTopics.names[]'
    index: number
    value: string
  }

  export interface AdminRequestDeleteTopicsTimeoutMsFieldEvent {
    field: '$.deleteTopics.timeoutMs'
    value: number
  }

  export interface AdminRequestAlterConfigsNameFieldEvent {
    field: '$.alterConfigs.name'
    value: string
  }

  export interface AdminRequestAlterConfigsConfigsFieldEvent {
    field: '$.alterConfigs.configs{}'
    key: string
    value: string
  }

  export function encode (obj: Partial<AdminRequest>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, AdminRequest.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<AdminRequest>): AdminRequest {
    return decodeMessage(buf, AdminRequest.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<AdminRequest>): Generator<AdminRequestCreateTopicsTopicsNameFieldEvent | AdminRequestCreateTopicsTopicsPartitionsFieldEvent | AdminRequestCreateTopicsTopicsReplicationFactorFieldEvent | AdminRequestCreateTopicsTopicsConfigsFieldEvent | AdminRequestCreateTopicsTimeoutMsFieldEvent | AdminRequestDeleteTopicsNamesFieldEvent | AdminRequestDeleteTopicsTimeoutMsFieldEvent | AdminRequestAlterConfigsNameFieldEvent | AdminRequestAlterConfigsConfigsFieldEvent> {
    return streamMessage(buf, AdminRequest.codec(), opts)
  }
}

export interface AdminResponse {
  results: TopicResult[]
}

export namespace AdminResponse {
  let _codec: Codec<AdminResponse>

  export const codec = (): Codec<AdminResponse> => {
    if (_codec == null) {
      _codec = message<AdminResponse>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if (obj.results != null && obj.results.length > 0) {
          for (const value of obj.results) {
            w.uint32(10)
            TopicResult.codec().encode(value, w)
          }
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          results: []
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              if (opts.limits?.results != null && obj.results.length === opts.limits.results) {
                throw new MaxLengthError('Decode error - repeated field "results" had too many elements')
              }

              obj.results.push(TopicResult.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.results$
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
          results: 0
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              if (opts.limits?.results != null && obj.results === opts.limits.results) {
                throw new MaxLengthError('Streaming decode error - repeated field "results" had too many elements')
              }

              for (const evt of TopicResult.codec().stream(reader, reader.uint32(), `${prefix}.results[]`, {
                limits: opts.limits?.results$
              })) {
                yield {
                  ...evt,
                  index: obj.results
                }
              }

              obj.results++

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

  export interface AdminResponseResultsNameFieldEvent {
    field: '$.results[].name'
    value: string
    index: number
  }

  export interface AdminResponseResultsErrorCodeFieldEvent {
    field: '$.results[].errorCode'
    value: number
    index: number
  }

  export interface AdminResponseResultsErrorMessageFieldEvent {
    field: '$.results[].errorMessage'
    value: string
    index: number
  }

  export interface AdminResponseResultsTopicIdFieldEvent {
    field: '$.results[].topicId'
    value: string
    index: number
  }

  export function encode (obj: Partial<AdminResponse>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, AdminResponse.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<AdminResponse>): AdminResponse {
    return decodeMessage(buf, AdminResponse.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<AdminResponse>): Generator<AdminResponseResultsNameFieldEvent | AdminResponseResultsErrorCodeFieldEvent | AdminResponseResultsErrorMessageFieldEvent | AdminResponseResultsTopicIdFieldEvent> {
    return streamMessage(buf, AdminResponse.codec(), opts)
  }
}

export interface CreateTopicsRequest {
  topics: CreatableTopic[]
  timeoutMs: number
}

export namespace CreateTopicsRequest {
  let _codec: Codec<CreateTopicsRequest>

  export const codec = (): Codec<CreateTopicsRequest> => {
    if (_codec == null) {
      _codec = message<CreateTopicsRequest>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if (obj.topics != null && obj.topics.length > 0) {
          for (const value of obj.topics) {
            w.uint32(10)
            CreatableTopic.codec().encode(value, w)
          }
        }

        if ((obj.timeoutMs != null && obj.timeoutMs !== 0)) {
          w.uint32(16)
          w.uint32(obj.timeoutMs)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          topics: [],
          timeoutMs: 0
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              if (opts.limits?.topics != null && obj.topics.length === opts.limits.topics) {
                throw new MaxLengthError('Decode error - repeated field "topics" had too many elements')
              }

              obj.topics.push(CreatableTopic.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.topics$
              }))
              break
            }
            case 2: {
              obj.timeoutMs = reader.uint32()
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
          topics: 0
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              if (opts.limits?.topics != null && obj.topics === opts.limits.topics) {
                throw new MaxLengthError('Streaming decode error - repeated field "topics" had too many elements')
              }

              for (const evt of CreatableTopic.codec().stream(reader, reader.uint32(), `${prefix}.topics[]`, {
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
            case 2: {
              yield {
                field: `${prefix}.timeoutMs`,
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

  export interface CreateTopicsRequestTopicsNameFieldEvent {
    field: '$.topics[].name'
    value: string
    index: number
  }

  export interface CreateTopicsRequestTopicsPartitionsFieldEvent {
    field: '$.topics[].partitions'
    value: number
    index: number
  }

  export interface CreateTopicsRequestTopicsReplicationFactorFieldEvent {
    field: '$.topics[].replicationFactor'
    value: number
    index: number
  }

  export interface CreateTopicsRequestTopicsConfigsFieldEvent {
    field: '$.topics[].configs{}'
    key: string
    value: string
    index: number
  }

  export interface CreateTopicsRequestTimeoutMsFieldEvent {
    field: '$.timeoutMs'
    value: number
  }

  export function encode (obj: Partial<CreateTopicsRequest>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, CreateTopicsRequest.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<CreateTopicsRequest>): CreateTopicsRequest {
    return decodeMessage(buf, CreateTopicsRequest.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<CreateTopicsRequest>): Generator<CreateTopicsRequestTopicsNameFieldEvent | CreateTopicsRequestTopicsPartitionsFieldEvent | CreateTopicsRequestTopicsReplicationFactorFieldEvent | CreateTopicsRequestTopicsConfigsFieldEvent | CreateTopicsRequestTimeoutMsFieldEvent> {
    return streamMessage(buf, CreateTopicsRequest.codec(), opts)
  }
}

export interface CreatableTopic {
  name: string
  partitions: number
  replicationFactor: number
  configs: Map<string, string>
}

export namespace CreatableTopic {
  export interface CreatableTopic$configsEntry {
    key: string
    value: string
  }

  export namespace CreatableTopic$configsEntry {
    let _codec: Codec<CreatableTopic$configsEntry>

    export const codec = (): Codec<CreatableTopic$configsEntry> => {
      if (_codec == null) {
        _codec = message<CreatableTopic$configsEntry>((obj, w, opts = {}) => {
          if (opts.lengthDelimited !== false) {
            w.fork()
          }

          if ((obj.key != null && obj.key !== '')) {
            w.uint32(10)
            w.string(obj.key)
          }

          if ((obj.value != null && obj.value !== '')) {
            w.uint32(18)
            w.string(obj.value)
          }

          if (opts.lengthDelimited !== false) {
            w.ldelim()
          }
        }, (reader, length, opts = {}) => {
          const obj: any = {
            key: '',
            value: ''
          }

          const end = length == null ? reader.len : reader.pos + length

          while (reader.pos < end) {
            const tag = reader.uint32()

            switch (tag >>> 3) {
              case 1: {
                obj.key = reader.string()
                break
              }
              case 2: {
                obj.value = reader.string()
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
                  field: `${prefix}.key`,
                  value: reader.string()
                }
                break
              }
              case 2: {
                yield {
                  field: `${prefix}.value`,
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

    export interface CreatableTopic$configsEntryKeyFieldEvent {
      field: '$.key'
      value: string
    }

    export interface CreatableTopic$configsEntryValueFieldEvent {
      field: '$.value'
      value: string
    }

    export function encode (obj: Partial<CreatableTopic$configsEntry>): Uint8Array<ArrayBuffer> {
      return encodeMessage(obj, CreatableTopic$configsEntry.codec())
    }

    export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<CreatableTopic$configsEntry>): CreatableTopic$configsEntry {
      return decodeMessage(buf, CreatableTopic$configsEntry.codec(), opts)
    }

    export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<CreatableTopic$configsEntry>): Generator<CreatableTopic$configsEntryKeyFieldEvent | CreatableTopic$configsEntryValueFieldEvent> {
      return streamMessage(buf, CreatableTopic$configsEntry.codec(), opts)
    }
  }

  let _codec: Codec<CreatableTopic>

  export const codec = (): Codec<CreatableTopic> => {
    if (_codec == null) {
      _codec = message<CreatableTopic>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.name != null && obj.name !== '')) {
          w.uint32(10)
          w.string(obj.name)
        }

        if ((obj.partitions != null && obj.partitions !== 0)) {
          w.uint32(16)
          w.uint32(obj.partitions)
        }

        if ((obj.replicationFactor != null && obj.replicationFactor !== 0)) {
          w.uint32(24)
          w.uint32(obj.replicationFactor)
        }

        if (obj.configs != null && obj.configs.size > 0) {
          for (const [key, value] of obj.configs.entries()) {
            w.uint32(34)
            CreatableTopic.CreatableTopic$configsEntry.codec().encode({ key, value }, w)
          }
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          name: '',
          partitions: 0,
          replicationFactor: 0,
          configs: new Map<string, string>()
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.name = reader.string()
              break
            }
            case 2: {
              obj.partitions = reader.uint32()
              break
            }
            case 3: {
              obj.replicationFactor = reader.uint32()
              break
            }
            case 4: {
              if (opts.limits?.configs != null && obj.configs.size === opts.limits.configs) {
                throw new MaxSizeError('Decode error - map field "configs" had too many elements')
              }

              const entry = CreatableTopic.CreatableTopic$configsEntry.codec().decode(reader, reader.uint32(), {
                limits: {
                  value: opts.limits?.configs$value
                }
              })
              obj.configs.set(entry.key, entry.value)
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
          configs: 0
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.name`,
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
            case 3: {
              yield {
                field: `${prefix}.replicationFactor`,
                value: reader.uint32()
              }
              break
            }
            case 4: {
              if (opts.limits?.configs != null && obj.configs === opts.limits.configs) {
                throw new MaxLengthError('Decode error - map field "configs" had too many elements')
              }

              yield * CreatableTopic.CreatableTopic$configsEntry.codec().stream(reader, reader.uint32(), `${prefix}.configs{}`, {
                limits: {
                  value: opts.limits?.configs$value
                }
              })

              obj.configs++

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

  export interface CreatableTopicNameFieldEvent {
    field: '$.name'
    value: string
  }

  export interface CreatableTopicPartitionsFieldEvent {
    field: '$.partitions'
    value: number
  }

  export interface CreatableTopicReplicationFactorFieldEvent {
    field: '$.replicationFactor'
    value: number
  }

  export interface CreatableTopicConfigsFieldEvent {
    field: '$.configs{}'
    key: string
    value: string
  }

  export function encode (obj: Partial<CreatableTopic>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, CreatableTopic.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<CreatableTopic>): CreatableTopic {
    return decodeMessage(buf, CreatableTopic.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<CreatableTopic>): Generator<CreatableTopicNameFieldEvent | CreatableTopicPartitionsFieldEvent | CreatableTopicReplicationFactorFieldEvent | CreatableTopicConfigsFieldEvent> {
    return streamMessage(buf, CreatableTopic.codec(), opts)
  }
}

export interface DeleteTopicsRequest {
  names: string[]
  timeoutMs: number
}

export namespace DeleteTopicsRequest {
  let _codec: Codec<DeleteTopicsRequest>

  export const codec = (): Codec<DeleteTopicsRequest> => {
    if (_codec == null) {
      _codec = message<DeleteTopicsRequest>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if (obj.names != null && obj.names.length > 0) {
          for (const value of obj.names) {
            w.uint32(10)
            w.string(value)
          }
        }

        if ((obj.timeoutMs != null && obj.timeoutMs !== 0)) {
          w.uint32(16)
          w.uint32(obj.timeoutMs)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          names: [],
          timeoutMs: 0
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              if (opts.limits?.names != null && obj.names.length === opts.limits.names) {
                throw new MaxLengthError('Decode error - repeated field "names" had too many elements')
              }

              obj.names.push(reader.string())
              break
            }
            case 2: {
              obj.timeoutMs = reader.uint32()
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
          names: 0
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              if (opts.limits?.names != null && obj.names === opts.limits.names) {
                throw new MaxLengthError('Streaming decode error - repeated field "names" had too many elements')
              }

              yield {
                field: `${prefix}.names[]`,
                index: obj.names,
                value: reader.string()
              }

              obj.names++

              break
            }
            case 2: {
              yield {
                field: `${prefix}.timeoutMs`,
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

  export interface DeleteTopicsRequestNamesFieldEvent {
    field: '$.names[]'
    index: number
    value: string
  }

  export interface DeleteTopicsRequestTimeoutMsFieldEvent {
    field: '$.timeoutMs'
    value: number
  }

  export function encode (obj: Partial<DeleteTopicsRequest>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, DeleteTopicsRequest.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<DeleteTopicsRequest>): DeleteTopicsRequest {
    return decodeMessage(buf, DeleteTopicsRequest.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<DeleteTopicsRequest>): Generator<DeleteTopicsRequestNamesFieldEvent | DeleteTopicsRequestTimeoutMsFieldEvent> {
    return streamMessage(buf, DeleteTopicsRequest.codec(), opts)
  }
}

export interface AlterConfigsRequest {
  name: string
  configs: Map<string, string>
}

export namespace AlterConfigsRequest {
  export interface AlterConfigsRequest$configsEntry {
    key: string
    value: string
  }

  export namespace AlterConfigsRequest$configsEntry {
    let _codec: Codec<AlterConfigsRequest$configsEntry>

    export const codec = (): Codec<AlterConfigsRequest$configsEntry> => {
      if (_codec == null) {
        _codec = message<AlterConfigsRequest$configsEntry>((obj, w, opts = {}) => {
          if (opts.lengthDelimited !== false) {
            w.fork()
          }

          if ((obj.key != null && obj.key !== '')) {
            w.uint32(10)
            w.string(obj.key)
          }

          if ((obj.value != null && obj.value !== '')) {
            w.uint32(18)
            w.string(obj.value)
          }

          if (opts.lengthDelimited !== false) {
            w.ldelim()
          }
        }, (reader, length, opts = {}) => {
          const obj: any = {
            key: '',
            value: ''
          }

          const end = length == null ? reader.len : reader.pos + length

          while (reader.pos < end) {
            const tag = reader.uint32()

            switch (tag >>> 3) {
              case 1: {
                obj.key = reader.string()
                break
              }
              case 2: {
                obj.value = reader.string()
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
                  field: `${prefix}.key`,
                  value: reader.string()
                }
                break
              }
              case 2: {
                yield {
                  field: `${prefix}.value`,
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

    export interface AlterConfigsRequest$configsEntryKeyFieldEvent {
      field: '$.key'
      value: string
    }

    export interface AlterConfigsRequest$configsEntryValueFieldEvent {
      field: '$.value'
      value: string
    }

    export function encode (obj: Partial<AlterConfigsRequest$configsEntry>): Uint8Array<ArrayBuffer> {
      return encodeMessage(obj, AlterConfigsRequest$configsEntry.codec())
    }

    export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<AlterConfigsRequest$configsEntry>): AlterConfigsRequest$configsEntry {
      return decodeMessage(buf, AlterConfigsRequest$configsEntry.codec(), opts)
    }

    export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<AlterConfigsRequest$configsEntry>): Generator<AlterConfigsRequest$configsEntryKeyFieldEvent | AlterConfigsRequest$configsEntryValueFieldEvent> {
      return streamMessage(buf, AlterConfigsRequest$configsEntry.codec(), opts)
    }
  }

  let _codec: Codec<AlterConfigsRequest>

  export const codec = (): Codec<AlterConfigsRequest> => {
    if (_codec == null) {
      _codec = message<AlterConfigsRequest>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.name != null && obj.name !== '')) {
          w.uint32(10)
          w.string(obj.name)
        }

        if (obj.configs != null && obj.configs.size > 0) {
          for (const [key, value] of obj.configs.entries()) {
            w.uint32(18)
            AlterConfigsRequest.AlterConfigsRequest$configsEntry.codec().encode({ key, value }, w)
          }
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          name: '',
          configs: new Map<string, string>()
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.name = reader.string()
              break
            }
            case 2: {
              if (opts.limits?.configs != null && obj.configs.size === opts.limits.configs) {
                throw new MaxSizeError('Decode error - map field "configs" had too many elements')
              }

              const entry = AlterConfigsRequest.AlterConfigsRequest$configsEntry.codec().decode(reader, reader.uint32(), {
                limits: {
                  value: opts.limits?.configs$value
                }
              })
              obj.configs.set(entry.key, entry.value)
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
          configs: 0
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.name`,
                value: reader.string()
              }
              break
            }
            case 2: {
              if (opts.limits?.configs != null && obj.configs === opts.limits.configs) {
                throw new MaxLengthError('Decode error - map field "configs" had too many elements')
              }

              yield * AlterConfigsRequest.AlterConfigsRequest$configsEntry.codec().stream(reader, reader.uint32(), `${prefix}.configs{}`, {
                limits: {
                  value: opts.limits?.configs$value
                }
              })

              obj.configs++

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

  export interface AlterConfigsRequestNameFieldEvent {
    field: '$.name'
    value: string
  }

  export interface AlterConfigsRequestConfigsFieldEvent {
    field: '$.configs{}'
    key: string
    value: string
  }

  export function encode (obj: Partial<AlterConfigsRequest>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, AlterConfigsRequest.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<AlterConfigsRequest>): AlterConfigsRequest {
    return decodeMessage(buf, AlterConfigsRequest.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<AlterConfigsRequest>): Generator<AlterConfigsRequestNameFieldEvent | AlterConfigsRequestConfigsFieldEvent> {
    return streamMessage(buf, AlterConfigsRequest.codec(), opts)
  }
}

export interface TopicResult {
  name: string
  errorCode: number
  errorMessage: string
  topicId: string
}

export namespace TopicResult {
  let _codec: Codec<TopicResult>

  export const codec = (): Codec<TopicResult> => {
    if (_codec == null) {
      _codec = message<TopicResult>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.name != null && obj.name !== '')) {
          w.uint32(10)
          w.string(obj.name)
        }

        if ((obj.errorCode != null && obj.errorCode !== 0)) {
          w.uint32(16)
          w.sint32(obj.errorCode)
        }

        if ((obj.errorMessage != null && obj.errorMessage !== '')) {
          w.uint32(26)
          w.string(obj.errorMessage)
        }

        if ((obj.topicId != null && obj.topicId !== '')) {
          w.uint32(34)
          w.string(obj.topicId)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          name: '',
          errorCode: 0,
          errorMessage: '',
          topicId: ''
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.name = reader.string()
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
              obj.topicId = reader.string()
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
                field: `${prefix}.name`,
                value: reader.string()
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
                field: `${prefix}.topicId`,
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

  export interface TopicResultNameFieldEvent {
    field: '$.name'
    value: string
  }

  export interface TopicResultErrorCodeFieldEvent {
    field: '$.errorCode'
    value: number
  }

  export interface TopicResultErrorMessageFieldEvent {
    field: '$.errorMessage'
    value: string
  }

  export interface TopicResultTopicIdFieldEvent {
    field: '$.topicId'
    value: string
  }

  export function encode (obj: Partial<TopicResult>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, TopicResult.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<TopicResult>): TopicResult {
    return decodeMessage(buf, TopicResult.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<TopicResult>): Generator<TopicResultNameFieldEvent | TopicResultErrorCodeFieldEvent | TopicResultErrorMessageFieldEvent | TopicResultTopicIdFieldEvent> {
    return streamMessage(buf, TopicResult.codec(), opts)
  }
}
