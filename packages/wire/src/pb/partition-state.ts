import { decodeMessage, encodeMessage, MaxLengthError, message, streamMessage } from 'protons-runtime'
import type { Codec, DecodeOptions } from 'protons-runtime'
import type { Uint8ArrayList } from 'uint8arraylist'

export interface PartitionState {
  topicId: string
  leader: string
  leaderEpoch: number
  voters: string[]
  inSync: string[]
  observers: string[]
  highWatermark: number
  logEndOffset: number
  votersOffset?: number
}

export namespace PartitionState {
  let _codec: Codec<PartitionState>

  export const codec = (): Codec<PartitionState> => {
    if (_codec == null) {
      _codec = message<PartitionState>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.topicId != null && obj.topicId !== '')) {
          w.uint32(10)
          w.string(obj.topicId)
        }

        if ((obj.leader != null && obj.leader !== '')) {
          w.uint32(18)
          w.string(obj.leader)
        }

        if ((obj.leaderEpoch != null && obj.leaderEpoch !== 0)) {
          w.uint32(24)
          w.uint32(obj.leaderEpoch)
        }

        if (obj.voters != null && obj.voters.length > 0) {
          for (const value of obj.voters) {
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

        if ((obj.highWatermark != null && obj.highWatermark !== 0)) {
          w.uint32(56)
          w.uint64Number(obj.highWatermark)
        }

        if ((obj.logEndOffset != null && obj.logEndOffset !== 0)) {
          w.uint32(64)
          w.uint64Number(obj.logEndOffset)
        }

        if (obj.votersOffset != null) {
          w.uint32(72)
          w.sint64Number(obj.votersOffset)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          topicId: '',
          leader: '',
          leaderEpoch: 0,
          voters: [],
          inSync: [],
          observers: [],
          highWatermark: 0,
          logEndOffset: 0
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.topicId = reader.string()
              break
            }
            case 2: {
              obj.leader = reader.string()
              break
            }
            case 3: {
              obj.leaderEpoch = reader.uint32()
              break
            }
            case 4: {
              if (opts.limits?.voters != null && obj.voters.length === opts.limits.voters) {
                throw new MaxLengthError('Decode error - repeated field "voters" had too many elements')
              }

              obj.voters.push(reader.string())
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
              obj.highWatermark = reader.uint64Number()
              break
            }
            case 8: {
              obj.logEndOffset = reader.uint64Number()
              break
            }
            case 9: {
              obj.votersOffset = reader.sint64Number()
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
          inSync: 0,
          observers: 0
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              yield {
                field: `${prefix}.topicId`,
                value: reader.string()
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
                value: reader.uint32()
              }
              break
            }
            case 4: {
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
                field: `${prefix}.highWatermark`,
                value: reader.uint64Number()
              }
              break
            }
            case 8: {
              yield {
                field: `${prefix}.logEndOffset`,
                value: reader.uint64Number()
              }
              break
            }
            case 9: {
              yield {
                field: `${prefix}.votersOffset`,
                value: reader.sint64Number()
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

  export interface PartitionStateTopicIdFieldEvent {
    field: '$.topicId'
    value: string
  }

  export interface PartitionStateLeaderFieldEvent {
    field: '$.leader'
    value: string
  }

  export interface PartitionStateLeaderEpochFieldEvent {
    field: '$.leaderEpoch'
    value: number
  }

  export interface PartitionStateVotersFieldEvent {
    field: '$.voters[]'
    index: number
    value: string
  }

  export interface PartitionStateInSyncFieldEvent {
    field: '$.inSync[]'
    index: number
    value: string
  }

  export interface PartitionStateObserversFieldEvent {
    field: '$.observers[]'
    index: number
    value: string
  }

  export interface PartitionStateHighWatermarkFieldEvent {
    field: '$.highWatermark'
    value: number
  }

  export interface PartitionStateLogEndOffsetFieldEvent {
    field: '$.logEndOffset'
    value: number
  }

  export interface PartitionStateVotersOffsetFieldEvent {
    field: '$.votersOffset'
    value: number
  }

  export function encode (obj: Partial<PartitionState>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, PartitionState.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<PartitionState>): PartitionState {
    return decodeMessage(buf, PartitionState.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<PartitionState>): Generator<PartitionStateTopicIdFieldEvent | PartitionStateLeaderFieldEvent | PartitionStateLeaderEpochFieldEvent | PartitionStateVotersFieldEvent | PartitionStateInSyncFieldEvent | PartitionStateObserversFieldEvent | PartitionStateHighWatermarkFieldEvent | PartitionStateLogEndOffsetFieldEvent | PartitionStateVotersOffsetFieldEvent> {
    return streamMessage(buf, PartitionState.codec(), opts)
  }
}
