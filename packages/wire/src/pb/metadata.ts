import { decodeMessage, encodeMessage, MaxLengthError, MaxSizeError, message, streamMessage } from 'protons-runtime'
import { alloc as uint8ArrayAlloc } from 'uint8arrays/alloc'
import type { Codec, DecodeOptions } from 'protons-runtime'
import type { Uint8ArrayList } from 'uint8arraylist'

export interface MetadataEntry {
  key: string
  value?: Uint8Array<ArrayBuffer>
  wallMs: number
  logical: number
  origin: string
}

export namespace MetadataEntry {
  let _codec: Codec<MetadataEntry>

  export const codec = (): Codec<MetadataEntry> => {
    if (_codec == null) {
      _codec = message<MetadataEntry>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.key != null && obj.key !== '')) {
          w.uint32(10)
          w.string(obj.key)
        }

        if (obj.value != null) {
          w.uint32(18)
          w.bytes(obj.value)
        }

        if ((obj.wallMs != null && obj.wallMs !== 0)) {
          w.uint32(24)
          w.uint64Number(obj.wallMs)
        }

        if ((obj.logical != null && obj.logical !== 0)) {
          w.uint32(32)
          w.uint32(obj.logical)
        }

        if ((obj.origin != null && obj.origin !== '')) {
          w.uint32(42)
          w.string(obj.origin)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          key: '',
          wallMs: 0,
          logical: 0,
          origin: ''
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
              obj.value = reader.bytes()
              break
            }
            case 3: {
              obj.wallMs = reader.uint64Number()
              break
            }
            case 4: {
              obj.logical = reader.uint32()
              break
            }
            case 5: {
              obj.origin = reader.string()
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
                value: reader.bytes()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.wallMs`,
                value: reader.uint64Number()
              }
              break
            }
            case 4: {
              yield {
                field: `${prefix}.logical`,
                value: reader.uint32()
              }
              break
            }
            case 5: {
              yield {
                field: `${prefix}.origin`,
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

  export interface MetadataEntryKeyFieldEvent {
    field: '$.key'
    value: string
  }

  export interface MetadataEntryValueFieldEvent {
    field: '$.value'
    value: Uint8Array<ArrayBuffer>
  }

  export interface MetadataEntryWallMsFieldEvent {
    field: '$.wallMs'
    value: number
  }

  export interface MetadataEntryLogicalFieldEvent {
    field: '$.logical'
    value: number
  }

  export interface MetadataEntryOriginFieldEvent {
    field: '$.origin'
    value: string
  }

  export function encode (obj: Partial<MetadataEntry>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, MetadataEntry.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<MetadataEntry>): MetadataEntry {
    return decodeMessage(buf, MetadataEntry.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<MetadataEntry>): Generator<MetadataEntryKeyFieldEvent | MetadataEntryValueFieldEvent | MetadataEntryWallMsFieldEvent | MetadataEntryLogicalFieldEvent | MetadataEntryOriginFieldEvent> {
    return streamMessage(buf, MetadataEntry.codec(), opts)
  }
}

export interface MetadataSnapshot {
  entries: MetadataEntry[]
}

export namespace MetadataSnapshot {
  let _codec: Codec<MetadataSnapshot>

  export const codec = (): Codec<MetadataSnapshot> => {
    if (_codec == null) {
      _codec = message<MetadataSnapshot>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if (obj.entries != null && obj.entries.length > 0) {
          for (const value of obj.entries) {
            w.uint32(10)
            MetadataEntry.codec().encode(value, w)
          }
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          entries: []
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              if (opts.limits?.entries != null && obj.entries.length === opts.limits.entries) {
                throw new MaxLengthError('Decode error - repeated field "entries" had too many elements')
              }

              obj.entries.push(MetadataEntry.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.entries$
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
          entries: 0
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              if (opts.limits?.entries != null && obj.entries === opts.limits.entries) {
                throw new MaxLengthError('Streaming decode error - repeated field "entries" had too many elements')
              }

              for (const evt of MetadataEntry.codec().stream(reader, reader.uint32(), `${prefix}.entries[]`, {
                limits: opts.limits?.entries$
              })) {
                yield {
                  ...evt,
                  index: obj.entries
                }
              }

              obj.entries++

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

  export interface MetadataSnapshotEntriesKeyFieldEvent {
    field: '$.entries[].key'
    value: string
    index: number
  }

  export interface MetadataSnapshotEntriesValueFieldEvent {
    field: '$.entries[].value'
    value: Uint8Array<ArrayBuffer>
    index: number
  }

  export interface MetadataSnapshotEntriesWallMsFieldEvent {
    field: '$.entries[].wallMs'
    value: number
    index: number
  }

  export interface MetadataSnapshotEntriesLogicalFieldEvent {
    field: '$.entries[].logical'
    value: number
    index: number
  }

  export interface MetadataSnapshotEntriesOriginFieldEvent {
    field: '$.entries[].origin'
    value: string
    index: number
  }

  export function encode (obj: Partial<MetadataSnapshot>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, MetadataSnapshot.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<MetadataSnapshot>): MetadataSnapshot {
    return decodeMessage(buf, MetadataSnapshot.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<MetadataSnapshot>): Generator<MetadataSnapshotEntriesKeyFieldEvent | MetadataSnapshotEntriesValueFieldEvent | MetadataSnapshotEntriesWallMsFieldEvent | MetadataSnapshotEntriesLogicalFieldEvent | MetadataSnapshotEntriesOriginFieldEvent> {
    return streamMessage(buf, MetadataSnapshot.codec(), opts)
  }
}

export interface PartitionReplicas {
  peers: number[]
}

export namespace PartitionReplicas {
  let _codec: Codec<PartitionReplicas>

  export const codec = (): Codec<PartitionReplicas> => {
    if (_codec == null) {
      _codec = message<PartitionReplicas>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if (obj.peers != null && obj.peers.length > 0) {
          for (const value of obj.peers) {
            w.uint32(8)
            w.uint32(value)
          }
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          peers: []
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              if (opts.limits?.peers != null && obj.peers.length === opts.limits.peers) {
                throw new MaxLengthError('Decode error - repeated field "peers" had too many elements')
              }

              obj.peers.push(reader.uint32())
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
          peers: 0
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              if (opts.limits?.peers != null && obj.peers === opts.limits.peers) {
                throw new MaxLengthError('Streaming decode error - repeated field "peers" had too many elements')
              }

              yield {
                field: `${prefix}.peers[]`,
                index: obj.peers,
                value: reader.uint32()
              }

              obj.peers++

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

  export interface PartitionReplicasPeersFieldEvent {
    field: '$.peers[]'
    index: number
    value: number
  }

  export function encode (obj: Partial<PartitionReplicas>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, PartitionReplicas.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<PartitionReplicas>): PartitionReplicas {
    return decodeMessage(buf, PartitionReplicas.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<PartitionReplicas>): Generator<PartitionReplicasPeersFieldEvent> {
    return streamMessage(buf, PartitionReplicas.codec(), opts)
  }
}

export interface TopicRecord {
  name: string
  topicId: Uint8Array<ArrayBuffer>
  partitions: number
  replicationFactor: number
  configs: Map<string, string>
  peers: string[]
  replicas: PartitionReplicas[]
  createdAtMs: number
}

export namespace TopicRecord {
  export interface TopicRecord$configsEntry {
    key: string
    value: string
  }

  export namespace TopicRecord$configsEntry {
    let _codec: Codec<TopicRecord$configsEntry>

    export const codec = (): Codec<TopicRecord$configsEntry> => {
      if (_codec == null) {
        _codec = message<TopicRecord$configsEntry>((obj, w, opts = {}) => {
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

    export interface TopicRecord$configsEntryKeyFieldEvent {
      field: '$.key'
      value: string
    }

    export interface TopicRecord$configsEntryValueFieldEvent {
      field: '$.value'
      value: string
    }

    export function encode (obj: Partial<TopicRecord$configsEntry>): Uint8Array<ArrayBuffer> {
      return encodeMessage(obj, TopicRecord$configsEntry.codec())
    }

    export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<TopicRecord$configsEntry>): TopicRecord$configsEntry {
      return decodeMessage(buf, TopicRecord$configsEntry.codec(), opts)
    }

    export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<TopicRecord$configsEntry>): Generator<TopicRecord$configsEntryKeyFieldEvent | TopicRecord$configsEntryValueFieldEvent> {
      return streamMessage(buf, TopicRecord$configsEntry.codec(), opts)
    }
  }

  let _codec: Codec<TopicRecord>

  export const codec = (): Codec<TopicRecord> => {
    if (_codec == null) {
      _codec = message<TopicRecord>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.name != null && obj.name !== '')) {
          w.uint32(10)
          w.string(obj.name)
        }

        if ((obj.topicId != null && obj.topicId.byteLength > 0)) {
          w.uint32(18)
          w.bytes(obj.topicId)
        }

        if ((obj.partitions != null && obj.partitions !== 0)) {
          w.uint32(24)
          w.uint32(obj.partitions)
        }

        if ((obj.replicationFactor != null && obj.replicationFactor !== 0)) {
          w.uint32(32)
          w.uint32(obj.replicationFactor)
        }

        if (obj.configs != null && obj.configs.size > 0) {
          for (const [key, value] of obj.configs.entries()) {
            w.uint32(42)
            TopicRecord.TopicRecord$configsEntry.codec().encode({ key, value }, w)
          }
        }

        if (obj.peers != null && obj.peers.length > 0) {
          for (const value of obj.peers) {
            w.uint32(50)
            w.string(value)
          }
        }

        if (obj.replicas != null && obj.replicas.length > 0) {
          for (const value of obj.replicas) {
            w.uint32(58)
            PartitionReplicas.codec().encode(value, w)
          }
        }

        if ((obj.createdAtMs != null && obj.createdAtMs !== 0)) {
          w.uint32(64)
          w.uint64Number(obj.createdAtMs)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          name: '',
          topicId: uint8ArrayAlloc(0),
          partitions: 0,
          replicationFactor: 0,
          configs: new Map<string, string>(),
          peers: [],
          replicas: [],
          createdAtMs: 0
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
              obj.topicId = reader.bytes()
              break
            }
            case 3: {
              obj.partitions = reader.uint32()
              break
            }
            case 4: {
              obj.replicationFactor = reader.uint32()
              break
            }
            case 5: {
              if (opts.limits?.configs != null && obj.configs.size === opts.limits.configs) {
                throw new MaxSizeError('Decode error - map field "configs" had too many elements')
              }

              const entry = TopicRecord.TopicRecord$configsEntry.codec().decode(reader, reader.uint32(), {
                limits: {
                  value: opts.limits?.configs$value
                }
              })
              obj.configs.set(entry.key, entry.value)
              break
            }
            case 6: {
              if (opts.limits?.peers != null && obj.peers.length === opts.limits.peers) {
                throw new MaxLengthError('Decode error - repeated field "peers" had too many elements')
              }

              obj.peers.push(reader.string())
              break
            }
            case 7: {
              if (opts.limits?.replicas != null && obj.replicas.length === opts.limits.replicas) {
                throw new MaxLengthError('Decode error - repeated field "replicas" had too many elements')
              }

              obj.replicas.push(PartitionReplicas.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.replicas$
              }))
              break
            }
            case 8: {
              obj.createdAtMs = reader.uint64Number()
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
          peers: 0,
          replicas: 0
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
                value: reader.bytes()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.partitions`,
                value: reader.uint32()
              }
              break
            }
            case 4: {
              yield {
                field: `${prefix}.replicationFactor`,
                value: reader.uint32()
              }
              break
            }
            case 5: {
              if (opts.limits?.configs != null && obj.configs === opts.limits.configs) {
                throw new MaxLengthError('Decode error - map field "configs" had too many elements')
              }

              yield * TopicRecord.TopicRecord$configsEntry.codec().stream(reader, reader.uint32(), `${prefix}.configs{}`, {
                limits: {
                  value: opts.limits?.configs$value
                }
              })

              obj.configs++

              break
            }
            case 6: {
              if (opts.limits?.peers != null && obj.peers === opts.limits.peers) {
                throw new MaxLengthError('Streaming decode error - repeated field "peers" had too many elements')
              }

              yield {
                field: `${prefix}.peers[]`,
                index: obj.peers,
                value: reader.string()
              }

              obj.peers++

              break
            }
            case 7: {
              if (opts.limits?.replicas != null && obj.replicas === opts.limits.replicas) {
                throw new MaxLengthError('Streaming decode error - repeated field "replicas" had too many elements')
              }

              for (const evt of PartitionReplicas.codec().stream(reader, reader.uint32(), `${prefix}.replicas[]`, {
                limits: opts.limits?.replicas$
              })) {
                yield {
                  ...evt,
                  index: obj.replicas
                }
              }

              obj.replicas++

              break
            }
            case 8: {
              yield {
                field: `${prefix}.createdAtMs`,
                value: reader.uint64Number()
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

  export interface TopicRecordNameFieldEvent {
    field: '$.name'
    value: string
  }

  export interface TopicRecordTopicIdFieldEvent {
    field: '$.topicId'
    value: Uint8Array<ArrayBuffer>
  }

  export interface TopicRecordPartitionsFieldEvent {
    field: '$.partitions'
    value: number
  }

  export interface TopicRecordReplicationFactorFieldEvent {
    field: '$.replicationFactor'
    value: number
  }

  export interface TopicRecordConfigsFieldEvent {
    field: '$.configs{}'
    key: string
    value: string
  }

  export interface TopicRecordPeersFieldEvent {
    field: '$.peers[]'
    index: number
    value: string
  }

  export interface TopicRecordReplicasPeersFieldEvent {
    field: '$.replicas[].peers[]'
    index: number
    value: number
  }

  export interface TopicRecordCreatedAtMsFieldEvent {
    field: '$.createdAtMs'
    value: number
  }

  export function encode (obj: Partial<TopicRecord>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, TopicRecord.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<TopicRecord>): TopicRecord {
    return decodeMessage(buf, TopicRecord.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<TopicRecord>): Generator<TopicRecordNameFieldEvent | TopicRecordTopicIdFieldEvent | TopicRecordPartitionsFieldEvent | TopicRecordReplicationFactorFieldEvent | TopicRecordConfigsFieldEvent | TopicRecordPeersFieldEvent | TopicRecordReplicasPeersFieldEvent | TopicRecordCreatedAtMsFieldEvent> {
    return streamMessage(buf, TopicRecord.codec(), opts)
  }
}
