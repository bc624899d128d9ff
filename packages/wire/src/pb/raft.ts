import { decodeMessage, encodeMessage, MaxLengthError, message, streamMessage } from 'protons-runtime'
import { alloc as uint8ArrayAlloc } from 'uint8arrays/alloc'
import type { Codec, DecodeOptions } from 'protons-runtime'
import type { Uint8ArrayList } from 'uint8arraylist'

export interface VoteRequest {
  partition: string
  candidateId: string
  candidateEpoch: bigint
  voterId: string
  lastOffsetEpoch: bigint
  lastOffset: bigint
  preVote: boolean
}

export namespace VoteRequest {
  let _codec: Codec<VoteRequest>

  export const codec = (): Codec<VoteRequest> => {
    if (_codec == null) {
      _codec = message<VoteRequest>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.partition != null && obj.partition !== '')) {
          w.uint32(10)
          w.string(obj.partition)
        }

        if ((obj.candidateId != null && obj.candidateId !== '')) {
          w.uint32(18)
          w.string(obj.candidateId)
        }

        if ((obj.candidateEpoch != null && obj.candidateEpoch !== 0n)) {
          w.uint32(24)
          w.sint64(obj.candidateEpoch)
        }

        if ((obj.voterId != null && obj.voterId !== '')) {
          w.uint32(34)
          w.string(obj.voterId)
        }

        if ((obj.lastOffsetEpoch != null && obj.lastOffsetEpoch !== 0n)) {
          w.uint32(40)
          w.sint64(obj.lastOffsetEpoch)
        }

        if ((obj.lastOffset != null && obj.lastOffset !== 0n)) {
          w.uint32(48)
          w.sint64(obj.lastOffset)
        }

        if ((obj.preVote != null && obj.preVote !== false)) {
          w.uint32(56)
          w.bool(obj.preVote)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          partition: '',
          candidateId: '',
          candidateEpoch: 0n,
          voterId: '',
          lastOffsetEpoch: 0n,
          lastOffset: 0n,
          preVote: false
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.partition = reader.string()
              break
            }
            case 2: {
              obj.candidateId = reader.string()
              break
            }
            case 3: {
              obj.candidateEpoch = reader.sint64()
              break
            }
            case 4: {
              obj.voterId = reader.string()
              break
            }
            case 5: {
              obj.lastOffsetEpoch = reader.sint64()
              break
            }
            case 6: {
              obj.lastOffset = reader.sint64()
              break
            }
            case 7: {
              obj.preVote = reader.bool()
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
                value: reader.string()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.candidateId`,
                value: reader.string()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.candidateEpoch`,
                value: reader.sint64()
              }
              break
            }
            case 4: {
              yield {
                field: `${prefix}.voterId`,
                value: reader.string()
              }
              break
            }
            case 5: {
              yield {
                field: `${prefix}.lastOffsetEpoch`,
                value: reader.sint64()
              }
              break
            }
            case 6: {
              yield {
                field: `${prefix}.lastOffset`,
                value: reader.sint64()
              }
              break
            }
            case 7: {
              yield {
                field: `${prefix}.preVote`,
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

  export interface VoteRequestPartitionFieldEvent {
    field: '$.partition'
    value: string
  }

  export interface VoteRequestCandidateIdFieldEvent {
    field: '$.candidateId'
    value: string
  }

  export interface VoteRequestCandidateEpochFieldEvent {
    field: '$.candidateEpoch'
    value: bigint
  }

  export interface VoteRequestVoterIdFieldEvent {
    field: '$.voterId'
    value: string
  }

  export interface VoteRequestLastOffsetEpochFieldEvent {
    field: '$.lastOffsetEpoch'
    value: bigint
  }

  export interface VoteRequestLastOffsetFieldEvent {
    field: '$.lastOffset'
    value: bigint
  }

  export interface VoteRequestPreVoteFieldEvent {
    field: '$.preVote'
    value: boolean
  }

  export function encode (obj: Partial<VoteRequest>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, VoteRequest.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<VoteRequest>): VoteRequest {
    return decodeMessage(buf, VoteRequest.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<VoteRequest>): Generator<VoteRequestPartitionFieldEvent | VoteRequestCandidateIdFieldEvent | VoteRequestCandidateEpochFieldEvent | VoteRequestVoterIdFieldEvent | VoteRequestLastOffsetEpochFieldEvent | VoteRequestLastOffsetFieldEvent | VoteRequestPreVoteFieldEvent> {
    return streamMessage(buf, VoteRequest.codec(), opts)
  }
}

export interface VoteResponse {
  errorCode: number
  errorMessage: string
  voteGranted: boolean
  leaderEpoch: bigint
  leaderId: string
}

export namespace VoteResponse {
  let _codec: Codec<VoteResponse>

  export const codec = (): Codec<VoteResponse> => {
    if (_codec == null) {
      _codec = message<VoteResponse>((obj, w, opts = {}) => {
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

        if ((obj.voteGranted != null && obj.voteGranted !== false)) {
          w.uint32(24)
          w.bool(obj.voteGranted)
        }

        if ((obj.leaderEpoch != null && obj.leaderEpoch !== 0n)) {
          w.uint32(32)
          w.sint64(obj.leaderEpoch)
        }

        if ((obj.leaderId != null && obj.leaderId !== '')) {
          w.uint32(42)
          w.string(obj.leaderId)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          errorCode: 0,
          errorMessage: '',
          voteGranted: false,
          leaderEpoch: 0n,
          leaderId: ''
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
              obj.voteGranted = reader.bool()
              break
            }
            case 4: {
              obj.leaderEpoch = reader.sint64()
              break
            }
            case 5: {
              obj.leaderId = reader.string()
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
                field: `${prefix}.voteGranted`,
                value: reader.bool()
              }
              break
            }
            case 4: {
              yield {
                field: `${prefix}.leaderEpoch`,
                value: reader.sint64()
              }
              break
            }
            case 5: {
              yield {
                field: `${prefix}.leaderId`,
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

  export interface VoteResponseErrorCodeFieldEvent {
    field: '$.errorCode'
    value: number
  }

  export interface VoteResponseErrorMessageFieldEvent {
    field: '$.errorMessage'
    value: string
  }

  export interface VoteResponseVoteGrantedFieldEvent {
    field: '$.voteGranted'
    value: boolean
  }

  export interface VoteResponseLeaderEpochFieldEvent {
    field: '$.leaderEpoch'
    value: bigint
  }

  export interface VoteResponseLeaderIdFieldEvent {
    field: '$.leaderId'
    value: string
  }

  export function encode (obj: Partial<VoteResponse>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, VoteResponse.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<VoteResponse>): VoteResponse {
    return decodeMessage(buf, VoteResponse.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<VoteResponse>): Generator<VoteResponseErrorCodeFieldEvent | VoteResponseErrorMessageFieldEvent | VoteResponseVoteGrantedFieldEvent | VoteResponseLeaderEpochFieldEvent | VoteResponseLeaderIdFieldEvent> {
    return streamMessage(buf, VoteResponse.codec(), opts)
  }
}

export interface BeginQuorumEpochRequest {
  partition: string
  leaderId: string
  leaderEpoch: bigint
}

export namespace BeginQuorumEpochRequest {
  let _codec: Codec<BeginQuorumEpochRequest>

  export const codec = (): Codec<BeginQuorumEpochRequest> => {
    if (_codec == null) {
      _codec = message<BeginQuorumEpochRequest>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.partition != null && obj.partition !== '')) {
          w.uint32(10)
          w.string(obj.partition)
        }

        if ((obj.leaderId != null && obj.leaderId !== '')) {
          w.uint32(18)
          w.string(obj.leaderId)
        }

        if ((obj.leaderEpoch != null && obj.leaderEpoch !== 0n)) {
          w.uint32(24)
          w.sint64(obj.leaderEpoch)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          partition: '',
          leaderId: '',
          leaderEpoch: 0n
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.partition = reader.string()
              break
            }
            case 2: {
              obj.leaderId = reader.string()
              break
            }
            case 3: {
              obj.leaderEpoch = reader.sint64()
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
                value: reader.string()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.leaderId`,
                value: reader.string()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.leaderEpoch`,
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

  export interface BeginQuorumEpochRequestPartitionFieldEvent {
    field: '$.partition'
    value: string
  }

  export interface BeginQuorumEpochRequestLeaderIdFieldEvent {
    field: '$.leaderId'
    value: string
  }

  export interface BeginQuorumEpochRequestLeaderEpochFieldEvent {
    field: '$.leaderEpoch'
    value: bigint
  }

  export function encode (obj: Partial<BeginQuorumEpochRequest>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, BeginQuorumEpochRequest.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<BeginQuorumEpochRequest>): BeginQuorumEpochRequest {
    return decodeMessage(buf, BeginQuorumEpochRequest.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<BeginQuorumEpochRequest>): Generator<BeginQuorumEpochRequestPartitionFieldEvent | BeginQuorumEpochRequestLeaderIdFieldEvent | BeginQuorumEpochRequestLeaderEpochFieldEvent> {
    return streamMessage(buf, BeginQuorumEpochRequest.codec(), opts)
  }
}

export interface BeginQuorumEpochResponse {
  errorCode: number
  errorMessage: string
  leaderEpoch: bigint
  leaderId: string
}

export namespace BeginQuorumEpochResponse {
  let _codec: Codec<BeginQuorumEpochResponse>

  export const codec = (): Codec<BeginQuorumEpochResponse> => {
    if (_codec == null) {
      _codec = message<BeginQuorumEpochResponse>((obj, w, opts = {}) => {
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

        if ((obj.leaderEpoch != null && obj.leaderEpoch !== 0n)) {
          w.uint32(24)
          w.sint64(obj.leaderEpoch)
        }

        if ((obj.leaderId != null && obj.leaderId !== '')) {
          w.uint32(34)
          w.string(obj.leaderId)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          errorCode: 0,
          errorMessage: '',
          leaderEpoch: 0n,
          leaderId: ''
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
              obj.leaderEpoch = reader.sint64()
              break
            }
            case 4: {
              obj.leaderId = reader.string()
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
                field: `${prefix}.leaderEpoch`,
                value: reader.sint64()
              }
              break
            }
            case 4: {
              yield {
                field: `${prefix}.leaderId`,
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

  export interface BeginQuorumEpochResponseErrorCodeFieldEvent {
    field: '$.errorCode'
    value: number
  }

  export interface BeginQuorumEpochResponseErrorMessageFieldEvent {
    field: '$.errorMessage'
    value: string
  }

  export interface BeginQuorumEpochResponseLeaderEpochFieldEvent {
    field: '$.leaderEpoch'
    value: bigint
  }

  export interface BeginQuorumEpochResponseLeaderIdFieldEvent {
    field: '$.leaderId'
    value: string
  }

  export function encode (obj: Partial<BeginQuorumEpochResponse>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, BeginQuorumEpochResponse.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<BeginQuorumEpochResponse>): BeginQuorumEpochResponse {
    return decodeMessage(buf, BeginQuorumEpochResponse.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<BeginQuorumEpochResponse>): Generator<BeginQuorumEpochResponseErrorCodeFieldEvent | BeginQuorumEpochResponseErrorMessageFieldEvent | BeginQuorumEpochResponseLeaderEpochFieldEvent | BeginQuorumEpochResponseLeaderIdFieldEvent> {
    return streamMessage(buf, BeginQuorumEpochResponse.codec(), opts)
  }
}

export interface EndQuorumEpochRequest {
  partition: string
  leaderId: string
  leaderEpoch: bigint
  preferredSuccessors: string[]
}

export namespace EndQuorumEpochRequest {
  let _codec: Codec<EndQuorumEpochRequest>

  export const codec = (): Codec<EndQuorumEpochRequest> => {
    if (_codec == null) {
      _codec = message<EndQuorumEpochRequest>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.partition != null && obj.partition !== '')) {
          w.uint32(10)
          w.string(obj.partition)
        }

        if ((obj.leaderId != null && obj.leaderId !== '')) {
          w.uint32(18)
          w.string(obj.leaderId)
        }

        if ((obj.leaderEpoch != null && obj.leaderEpoch !== 0n)) {
          w.uint32(24)
          w.sint64(obj.leaderEpoch)
        }

        if (obj.preferredSuccessors != null && obj.preferredSuccessors.length > 0) {
          for (const value of obj.preferredSuccessors) {
            w.uint32(34)
            w.string(value)
          }
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          partition: '',
          leaderId: '',
          leaderEpoch: 0n,
          preferredSuccessors: []
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.partition = reader.string()
              break
            }
            case 2: {
              obj.leaderId = reader.string()
              break
            }
            case 3: {
              obj.leaderEpoch = reader.sint64()
              break
            }
            case 4: {
              if (opts.limits?.preferredSuccessors != null && obj.preferredSuccessors.length === opts.limits.preferredSuccessors) {
                throw new MaxLengthError('Decode error - repeated field "preferredSuccessors" had too many elements')
              }

              obj.preferredSuccessors.push(reader.string())
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
          preferredSuccessors: 0
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.partition`,
                value: reader.string()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.leaderId`,
                value: reader.string()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.leaderEpoch`,
                value: reader.sint64()
              }
              break
            }
            case 4: {
              if (opts.limits?.preferredSuccessors != null && obj.preferredSuccessors === opts.limits.preferredSuccessors) {
                throw new MaxLengthError('Streaming decode error - repeated field "preferredSuccessors" had too many elements')
              }

              yield {
                field: `${prefix}.preferredSuccessors[]`,
                index: obj.preferredSuccessors,
                value: reader.string()
              }

              obj.preferredSuccessors++

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

  export interface EndQuorumEpochRequestPartitionFieldEvent {
    field: '$.partition'
    value: string
  }

  export interface EndQuorumEpochRequestLeaderIdFieldEvent {
    field: '$.leaderId'
    value: string
  }

  export interface EndQuorumEpochRequestLeaderEpochFieldEvent {
    field: '$.leaderEpoch'
    value: bigint
  }

  export interface EndQuorumEpochRequestPreferredSuccessorsFieldEvent {
    field: '$.preferredSuccessors[]'
    index: number
    value: string
  }

  export function encode (obj: Partial<EndQuorumEpochRequest>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, EndQuorumEpochRequest.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<EndQuorumEpochRequest>): EndQuorumEpochRequest {
    return decodeMessage(buf, EndQuorumEpochRequest.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<EndQuorumEpochRequest>): Generator<EndQuorumEpochRequestPartitionFieldEvent | EndQuorumEpochRequestLeaderIdFieldEvent | EndQuorumEpochRequestLeaderEpochFieldEvent | EndQuorumEpochRequestPreferredSuccessorsFieldEvent> {
    return streamMessage(buf, EndQuorumEpochRequest.codec(), opts)
  }
}

export interface EndQuorumEpochResponse {
  errorCode: number
  errorMessage: string
  leaderEpoch: bigint
  leaderId: string
}

export namespace EndQuorumEpochResponse {
  let _codec: Codec<EndQuorumEpochResponse>

  export const codec = (): Codec<EndQuorumEpochResponse> => {
    if (_codec == null) {
      _codec = message<EndQuorumEpochResponse>((obj, w, opts = {}) => {
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

        if ((obj.leaderEpoch != null && obj.leaderEpoch !== 0n)) {
          w.uint32(24)
          w.sint64(obj.leaderEpoch)
        }

        if ((obj.leaderId != null && obj.leaderId !== '')) {
          w.uint32(34)
          w.string(obj.leaderId)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          errorCode: 0,
          errorMessage: '',
          leaderEpoch: 0n,
          leaderId: ''
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
              obj.leaderEpoch = reader.sint64()
              break
            }
            case 4: {
              obj.leaderId = reader.string()
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
                field: `${prefix}.leaderEpoch`,
                value: reader.sint64()
              }
              break
            }
            case 4: {
              yield {
                field: `${prefix}.leaderId`,
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

  export interface EndQuorumEpochResponseErrorCodeFieldEvent {
    field: '$.errorCode'
    value: number
  }

  export interface EndQuorumEpochResponseErrorMessageFieldEvent {
    field: '$.errorMessage'
    value: string
  }

  export interface EndQuorumEpochResponseLeaderEpochFieldEvent {
    field: '$.leaderEpoch'
    value: bigint
  }

  export interface EndQuorumEpochResponseLeaderIdFieldEvent {
    field: '$.leaderId'
    value: string
  }

  export function encode (obj: Partial<EndQuorumEpochResponse>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, EndQuorumEpochResponse.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<EndQuorumEpochResponse>): EndQuorumEpochResponse {
    return decodeMessage(buf, EndQuorumEpochResponse.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<EndQuorumEpochResponse>): Generator<EndQuorumEpochResponseErrorCodeFieldEvent | EndQuorumEpochResponseErrorMessageFieldEvent | EndQuorumEpochResponseLeaderEpochFieldEvent | EndQuorumEpochResponseLeaderIdFieldEvent> {
    return streamMessage(buf, EndQuorumEpochResponse.codec(), opts)
  }
}

export interface TimeoutNowRequest {
  partition: string
  leaderId: string
  leaderEpoch: bigint
}

export namespace TimeoutNowRequest {
  let _codec: Codec<TimeoutNowRequest>

  export const codec = (): Codec<TimeoutNowRequest> => {
    if (_codec == null) {
      _codec = message<TimeoutNowRequest>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.partition != null && obj.partition !== '')) {
          w.uint32(10)
          w.string(obj.partition)
        }

        if ((obj.leaderId != null && obj.leaderId !== '')) {
          w.uint32(18)
          w.string(obj.leaderId)
        }

        if ((obj.leaderEpoch != null && obj.leaderEpoch !== 0n)) {
          w.uint32(24)
          w.sint64(obj.leaderEpoch)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          partition: '',
          leaderId: '',
          leaderEpoch: 0n
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.partition = reader.string()
              break
            }
            case 2: {
              obj.leaderId = reader.string()
              break
            }
            case 3: {
              obj.leaderEpoch = reader.sint64()
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
                value: reader.string()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.leaderId`,
                value: reader.string()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.leaderEpoch`,
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

  export interface TimeoutNowRequestPartitionFieldEvent {
    field: '$.partition'
    value: string
  }

  export interface TimeoutNowRequestLeaderIdFieldEvent {
    field: '$.leaderId'
    value: string
  }

  export interface TimeoutNowRequestLeaderEpochFieldEvent {
    field: '$.leaderEpoch'
    value: bigint
  }

  export function encode (obj: Partial<TimeoutNowRequest>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, TimeoutNowRequest.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<TimeoutNowRequest>): TimeoutNowRequest {
    return decodeMessage(buf, TimeoutNowRequest.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<TimeoutNowRequest>): Generator<TimeoutNowRequestPartitionFieldEvent | TimeoutNowRequestLeaderIdFieldEvent | TimeoutNowRequestLeaderEpochFieldEvent> {
    return streamMessage(buf, TimeoutNowRequest.codec(), opts)
  }
}

export interface ReplicaFetchRequest {
  partition: string
  replicaId: string
  currentLeaderEpoch: bigint
  fetchOffset: bigint
  lastFetchedEpoch: bigint
  maxWaitMs: number
  maxBytes: number
}

export namespace ReplicaFetchRequest {
  let _codec: Codec<ReplicaFetchRequest>

  export const codec = (): Codec<ReplicaFetchRequest> => {
    if (_codec == null) {
      _codec = message<ReplicaFetchRequest>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.partition != null && obj.partition !== '')) {
          w.uint32(10)
          w.string(obj.partition)
        }

        if ((obj.replicaId != null && obj.replicaId !== '')) {
          w.uint32(18)
          w.string(obj.replicaId)
        }

        if ((obj.currentLeaderEpoch != null && obj.currentLeaderEpoch !== 0n)) {
          w.uint32(24)
          w.sint64(obj.currentLeaderEpoch)
        }

        if ((obj.fetchOffset != null && obj.fetchOffset !== 0n)) {
          w.uint32(32)
          w.sint64(obj.fetchOffset)
        }

        if ((obj.lastFetchedEpoch != null && obj.lastFetchedEpoch !== 0n)) {
          w.uint32(40)
          w.sint64(obj.lastFetchedEpoch)
        }

        if ((obj.maxWaitMs != null && obj.maxWaitMs !== 0)) {
          w.uint32(48)
          w.uint32(obj.maxWaitMs)
        }

        if ((obj.maxBytes != null && obj.maxBytes !== 0)) {
          w.uint32(56)
          w.uint32(obj.maxBytes)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          partition: '',
          replicaId: '',
          currentLeaderEpoch: 0n,
          fetchOffset: 0n,
          lastFetchedEpoch: 0n,
          maxWaitMs: 0,
          maxBytes: 0
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.partition = reader.string()
              break
            }
            case 2: {
              obj.replicaId = reader.string()
              break
            }
            case 3: {
              obj.currentLeaderEpoch = reader.sint64()
              break
            }
            case 4: {
              obj.fetchOffset = reader.sint64()
              break
            }
            case 5: {
              obj.lastFetchedEpoch = reader.sint64()
              break
            }
            case 6: {
              obj.maxWaitMs = reader.uint32()
              break
            }
            case 7: {
              obj.maxBytes = reader.uint32()
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
                value: reader.string()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.replicaId`,
                value: reader.string()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.currentLeaderEpoch`,
                value: reader.sint64()
              }
              break
            }
            case 4: {
              yield {
                field: `${prefix}.fetchOffset`,
                value: reader.sint64()
              }
              break
            }
            case 5: {
              yield {
                field: `${prefix}.lastFetchedEpoch`,
                value: reader.sint64()
              }
              break
            }
            case 6: {
              yield {
                field: `${prefix}.maxWaitMs`,
                value: reader.uint32()
              }
              break
            }
            case 7: {
              yield {
                field: `${prefix}.maxBytes`,
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

  export interface ReplicaFetchRequestPartitionFieldEvent {
    field: '$.partition'
    value: string
  }

  export interface ReplicaFetchRequestReplicaIdFieldEvent {
    field: '$.replicaId'
    value: string
  }

  export interface ReplicaFetchRequestCurrentLeaderEpochFieldEvent {
    field: '$.currentLeaderEpoch'
    value: bigint
  }

  export interface ReplicaFetchRequestFetchOffsetFieldEvent {
    field: '$.fetchOffset'
    value: bigint
  }

  export interface ReplicaFetchRequestLastFetchedEpochFieldEvent {
    field: '$.lastFetchedEpoch'
    value: bigint
  }

  export interface ReplicaFetchRequestMaxWaitMsFieldEvent {
    field: '$.maxWaitMs'
    value: number
  }

  export interface ReplicaFetchRequestMaxBytesFieldEvent {
    field: '$.maxBytes'
    value: number
  }

  export function encode (obj: Partial<ReplicaFetchRequest>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, ReplicaFetchRequest.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<ReplicaFetchRequest>): ReplicaFetchRequest {
    return decodeMessage(buf, ReplicaFetchRequest.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<ReplicaFetchRequest>): Generator<ReplicaFetchRequestPartitionFieldEvent | ReplicaFetchRequestReplicaIdFieldEvent | ReplicaFetchRequestCurrentLeaderEpochFieldEvent | ReplicaFetchRequestFetchOffsetFieldEvent | ReplicaFetchRequestLastFetchedEpochFieldEvent | ReplicaFetchRequestMaxWaitMsFieldEvent | ReplicaFetchRequestMaxBytesFieldEvent> {
    return streamMessage(buf, ReplicaFetchRequest.codec(), opts)
  }
}

export interface EpochEndOffset {
  epoch: bigint
  endOffset: bigint
}

export namespace EpochEndOffset {
  let _codec: Codec<EpochEndOffset>

  export const codec = (): Codec<EpochEndOffset> => {
    if (_codec == null) {
      _codec = message<EpochEndOffset>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.epoch != null && obj.epoch !== 0n)) {
          w.uint32(8)
          w.sint64(obj.epoch)
        }

        if ((obj.endOffset != null && obj.endOffset !== 0n)) {
          w.uint32(16)
          w.sint64(obj.endOffset)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          epoch: 0n,
          endOffset: 0n
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.epoch = reader.sint64()
              break
            }
            case 2: {
              obj.endOffset = reader.sint64()
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
                field: `${prefix}.epoch`,
                value: reader.sint64()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.endOffset`,
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

  export interface EpochEndOffsetEpochFieldEvent {
    field: '$.epoch'
    value: bigint
  }

  export interface EpochEndOffsetEndOffsetFieldEvent {
    field: '$.endOffset'
    value: bigint
  }

  export function encode (obj: Partial<EpochEndOffset>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, EpochEndOffset.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<EpochEndOffset>): EpochEndOffset {
    return decodeMessage(buf, EpochEndOffset.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<EpochEndOffset>): Generator<EpochEndOffsetEpochFieldEvent | EpochEndOffsetEndOffsetFieldEvent> {
    return streamMessage(buf, EpochEndOffset.codec(), opts)
  }
}

export interface ReplicaFetchResponse {
  errorCode: number
  errorMessage: string
  leaderId: string
  leaderEpoch: bigint
  highWatermark: bigint
  logStartOffset: bigint
  records: Uint8Array<ArrayBuffer>
  divergingEpoch?: EpochEndOffset
}

export namespace ReplicaFetchResponse {
  let _codec: Codec<ReplicaFetchResponse>

  export const codec = (): Codec<ReplicaFetchResponse> => {
    if (_codec == null) {
      _codec = message<ReplicaFetchResponse>((obj, w, opts = {}) => {
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

        if ((obj.leaderId != null && obj.leaderId !== '')) {
          w.uint32(26)
          w.string(obj.leaderId)
        }

        if ((obj.leaderEpoch != null && obj.leaderEpoch !== 0n)) {
          w.uint32(32)
          w.sint64(obj.leaderEpoch)
        }

        if ((obj.highWatermark != null && obj.highWatermark !== 0n)) {
          w.uint32(40)
          w.sint64(obj.highWatermark)
        }

        if ((obj.logStartOffset != null && obj.logStartOffset !== 0n)) {
          w.uint32(48)
          w.sint64(obj.logStartOffset)
        }

        if ((obj.records != null && obj.records.byteLength > 0)) {
          w.uint32(58)
          w.bytes(obj.records)
        }

        if (obj.divergingEpoch != null) {
          w.uint32(66)
          EpochEndOffset.codec().encode(obj.divergingEpoch, w)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          errorCode: 0,
          errorMessage: '',
          leaderId: '',
          leaderEpoch: 0n,
          highWatermark: 0n,
          logStartOffset: 0n,
          records: uint8ArrayAlloc(0)
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
              obj.leaderId = reader.string()
              break
            }
            case 4: {
              obj.leaderEpoch = reader.sint64()
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
              obj.records = reader.bytes()
              break
            }
            case 8: {
              obj.divergingEpoch = EpochEndOffset.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.divergingEpoch
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
                field: `${prefix}.leaderId`,
                value: reader.string()
              }
              break
            }
            case 4: {
              yield {
                field: `${prefix}.leaderEpoch`,
                value: reader.sint64()
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
                field: `${prefix}.records`,
                value: reader.bytes()
              }
              break
            }
            case 8: {
              yield * EpochEndOffset.codec().stream(reader, reader.uint32(), `${prefix}.divergingEpoch`, {
                limits: opts.limits?.divergingEpoch
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

  export interface ReplicaFetchResponseErrorCodeFieldEvent {
    field: '$.errorCode'
    value: number
  }

  export interface ReplicaFetchResponseErrorMessageFieldEvent {
    field: '$.errorMessage'
    value: string
  }

  export interface ReplicaFetchResponseLeaderIdFieldEvent {
    field: '$.leaderId'
    value: string
  }

  export interface ReplicaFetchResponseLeaderEpochFieldEvent {
    field: '$.leaderEpoch'
    value: bigint
  }

  export interface ReplicaFetchResponseHighWatermarkFieldEvent {
    field: '$.highWatermark'
    value: bigint
  }

  export interface ReplicaFetchResponseLogStartOffsetFieldEvent {
    field: '$.logStartOffset'
    value: bigint
  }

  export interface ReplicaFetchResponseRecordsFieldEvent {
    field: '$.records'
    value: Uint8Array<ArrayBuffer>
  }

  export interface ReplicaFetchResponseDivergingEpochEpochFieldEvent {
    field: '$.divergingEpoch.epoch'
    value: bigint
  }

  export interface ReplicaFetchResponseDivergingEpochEndOffsetFieldEvent {
    field: '$.divergingEpoch.endOffset'
    value: bigint
  }

  export function encode (obj: Partial<ReplicaFetchResponse>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, ReplicaFetchResponse.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<ReplicaFetchResponse>): ReplicaFetchResponse {
    return decodeMessage(buf, ReplicaFetchResponse.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<ReplicaFetchResponse>): Generator<ReplicaFetchResponseErrorCodeFieldEvent | ReplicaFetchResponseErrorMessageFieldEvent | ReplicaFetchResponseLeaderIdFieldEvent | ReplicaFetchResponseLeaderEpochFieldEvent | ReplicaFetchResponseHighWatermarkFieldEvent | ReplicaFetchResponseLogStartOffsetFieldEvent | ReplicaFetchResponseRecordsFieldEvent | ReplicaFetchResponseDivergingEpochEpochFieldEvent | ReplicaFetchResponseDivergingEpochEndOffsetFieldEvent> {
    return streamMessage(buf, ReplicaFetchResponse.codec(), opts)
  }
}

export interface LeaderChangeMessage {
  version: number
  leaderId: string
  voters: string[]
  grantingVoters: string[]
}

export namespace LeaderChangeMessage {
  let _codec: Codec<LeaderChangeMessage>

  export const codec = (): Codec<LeaderChangeMessage> => {
    if (_codec == null) {
      _codec = message<LeaderChangeMessage>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.version != null && obj.version !== 0)) {
          w.uint32(8)
          w.uint32(obj.version)
        }

        if ((obj.leaderId != null && obj.leaderId !== '')) {
          w.uint32(18)
          w.string(obj.leaderId)
        }

        if (obj.voters != null && obj.voters.length > 0) {
          for (const value of obj.voters) {
            w.uint32(26)
            w.string(value)
          }
        }

        if (obj.grantingVoters != null && obj.grantingVoters.length > 0) {
          for (const value of obj.grantingVoters) {
            w.uint32(34)
            w.string(value)
          }
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          version: 0,
          leaderId: '',
          voters: [],
          grantingVoters: []
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
              obj.leaderId = reader.string()
              break
            }
            case 3: {
              if (opts.limits?.voters != null && obj.voters.length === opts.limits.voters) {
                throw new MaxLengthError('Decode error - repeated field "voters" had too many elements')
              }

              obj.voters.push(reader.string())
              break
            }
            case 4: {
              if (opts.limits?.grantingVoters != null && obj.grantingVoters.length === opts.limits.grantingVoters) {
                throw new MaxLengthError('Decode error - repeated field "grantingVoters" had too many elements')
              }

              obj.grantingVoters.push(reader.string())
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
          voters: 0,
          grantingVoters: 0
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
                field: `${prefix}.leaderId`,
                value: reader.string()
              }
              break
            }
            case 3: {
              if (opts.limits?.voters != null && obj.voters === opts.limits.voters) {
                throw new MaxLengthError('Streaming decode error - repeated field "voters" had too many elements')
              }

              yield {
                field: `${prefix}.voters[]`,
                index: obj.voters,
                value: reader.string()
              }

              obj.voters++

              break
            }
            case 4: {
              if (opts.limits?.grantingVoters != null && obj.grantingVoters === opts.limits.grantingVoters) {
                throw new MaxLengthError('Streaming decode error - repeated field "grantingVoters" had too many elements')
              }

              yield {
                field: `${prefix}.grantingVoters[]`,
                index: obj.grantingVoters,
                value: reader.string()
              }

              obj.grantingVoters++

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

  export interface LeaderChangeMessageVersionFieldEvent {
    field: '$.version'
    value: number
  }

  export interface LeaderChangeMessageLeaderIdFieldEvent {
    field: '$.leaderId'
    value: string
  }

  export interface LeaderChangeMessageVotersFieldEvent {
    field: '$.voters[]'
    index: number
    value: string
  }

  export interface LeaderChangeMessageGrantingVotersFieldEvent {
    field: '$.grantingVoters[]'
    index: number
    value: string
  }

  export function encode (obj: Partial<LeaderChangeMessage>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, LeaderChangeMessage.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<LeaderChangeMessage>): LeaderChangeMessage {
    return decodeMessage(buf, LeaderChangeMessage.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<LeaderChangeMessage>): Generator<LeaderChangeMessageVersionFieldEvent | LeaderChangeMessageLeaderIdFieldEvent | LeaderChangeMessageVotersFieldEvent | LeaderChangeMessageGrantingVotersFieldEvent> {
    return streamMessage(buf, LeaderChangeMessage.codec(), opts)
  }
}

export interface VotersRecord {
  version: number
  voters: string[]
}

export namespace VotersRecord {
  let _codec: Codec<VotersRecord>

  export const codec = (): Codec<VotersRecord> => {
    if (_codec == null) {
      _codec = message<VotersRecord>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.version != null && obj.version !== 0)) {
          w.uint32(8)
          w.uint32(obj.version)
        }

        if (obj.voters != null && obj.voters.length > 0) {
          for (const value of obj.voters) {
            w.uint32(18)
            w.string(value)
          }
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          version: 0,
          voters: []
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
              if (opts.limits?.voters != null && obj.voters.length === opts.limits.voters) {
                throw new MaxLengthError('Decode error - repeated field "voters" had too many elements')
              }

              obj.voters.push(reader.string())
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
          voters: 0
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
              if (opts.limits?.voters != null && obj.voters === opts.limits.voters) {
                throw new MaxLengthError('Streaming decode error - repeated field "voters" had too many elements')
              }

              yield {
                field: `${prefix}.voters[]`,
                index: obj.voters,
                value: reader.string()
              }

              obj.voters++

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

  export interface VotersRecordVersionFieldEvent {
    field: '$.version'
    value: number
  }

  export interface VotersRecordVotersFieldEvent {
    field: '$.voters[]'
    index: number
    value: string
  }

  export function encode (obj: Partial<VotersRecord>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, VotersRecord.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<VotersRecord>): VotersRecord {
    return decodeMessage(buf, VotersRecord.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<VotersRecord>): Generator<VotersRecordVersionFieldEvent | VotersRecordVotersFieldEvent> {
    return streamMessage(buf, VotersRecord.codec(), opts)
  }
}
