import { decodeMessage, encodeMessage, MaxLengthError, message, streamMessage } from 'protons-runtime'
import type { Codec, DecodeOptions } from 'protons-runtime'
import type { Uint8ArrayList } from 'uint8arraylist'

export interface Heartbeat {
  peerId: string
  incarnation: bigint
  seq: bigint
  roles?: Roles
  storage: string
  version: string
  addresses: string[]
  leaving: boolean
}

export namespace Heartbeat {
  let _codec: Codec<Heartbeat>

  export const codec = (): Codec<Heartbeat> => {
    if (_codec == null) {
      _codec = message<Heartbeat>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.peerId != null && obj.peerId !== '')) {
          w.uint32(10)
          w.string(obj.peerId)
        }

        if ((obj.incarnation != null && obj.incarnation !== 0n)) {
          w.uint32(16)
          w.uint64(obj.incarnation)
        }

        if ((obj.seq != null && obj.seq !== 0n)) {
          w.uint32(24)
          w.uint64(obj.seq)
        }

        if (obj.roles != null) {
          w.uint32(34)
          Roles.codec().encode(obj.roles, w)
        }

        if ((obj.storage != null && obj.storage !== '')) {
          w.uint32(42)
          w.string(obj.storage)
        }

        if ((obj.version != null && obj.version !== '')) {
          w.uint32(50)
          w.string(obj.version)
        }

        if (obj.addresses != null && obj.addresses.length > 0) {
          for (const value of obj.addresses) {
            w.uint32(58)
            w.string(value)
          }
        }

        if ((obj.leaving != null && obj.leaving !== false)) {
          w.uint32(64)
          w.bool(obj.leaving)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          peerId: '',
          incarnation: 0n,
          seq: 0n,
          storage: '',
          version: '',
          addresses: [],
          leaving: false
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
              obj.incarnation = reader.uint64()
              break
            }
            case 3: {
              obj.seq = reader.uint64()
              break
            }
            case 4: {
              obj.roles = Roles.codec().decode(reader, reader.uint32(), {
                limits: opts.limits?.roles
              })
              break
            }
            case 5: {
              obj.storage = reader.string()
              break
            }
            case 6: {
              obj.version = reader.string()
              break
            }
            case 7: {
              if (opts.limits?.addresses != null && obj.addresses.length === opts.limits.addresses) {
                throw new MaxLengthError('Decode error - repeated field "addresses" had too many elements')
              }

              obj.addresses.push(reader.string())
              break
            }
            case 8: {
              obj.leaving = reader.bool()
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
              yield {
                field: `${prefix}.incarnation`,
                value: reader.uint64()
              }
              break
            }
            case 3: {
              yield {
                field: `${prefix}.seq`,
                value: reader.uint64()
              }
              break
            }
            case 4: {
              yield * Roles.codec().stream(reader, reader.uint32(), `${prefix}.roles`, {
                limits: opts.limits?.roles
              })

              break
            }
            case 5: {
              yield {
                field: `${prefix}.storage`,
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
            case 7: {
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
            case 8: {
              yield {
                field: `${prefix}.leaving`,
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

  export interface HeartbeatPeerIdFieldEvent {
    field: '$.peerId'
    value: string
  }

  export interface HeartbeatIncarnationFieldEvent {
    field: '$.incarnation'
    value: bigint
  }

  export interface HeartbeatSeqFieldEvent {
    field: '$.seq'
    value: bigint
  }

  export interface HeartbeatRolesVoterFieldEvent {
    field: '$.roles.voter'
    value: boolean
  }

  export interface HeartbeatRolesObserverFieldEvent {
    field: '$.roles.observer'
    value: boolean
  }

  export interface HeartbeatStorageFieldEvent {
    field: '$.storage'
    value: string
  }

  export interface HeartbeatVersionFieldEvent {
    field: '$.version'
    value: string
  }

  export interface HeartbeatAddressesFieldEvent {
    field: '$.addresses[]'
    index: number
    value: string
  }

  export interface HeartbeatLeavingFieldEvent {
    field: '$.leaving'
    value: boolean
  }

  export function encode (obj: Partial<Heartbeat>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, Heartbeat.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<Heartbeat>): Heartbeat {
    return decodeMessage(buf, Heartbeat.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<Heartbeat>): Generator<HeartbeatPeerIdFieldEvent | HeartbeatIncarnationFieldEvent | HeartbeatSeqFieldEvent | HeartbeatRolesVoterFieldEvent | HeartbeatRolesObserverFieldEvent | HeartbeatStorageFieldEvent | HeartbeatVersionFieldEvent | HeartbeatAddressesFieldEvent | HeartbeatLeavingFieldEvent> {
    return streamMessage(buf, Heartbeat.codec(), opts)
  }
}

export interface Roles {
  voter: boolean
  observer: boolean
}

export namespace Roles {
  let _codec: Codec<Roles>

  export const codec = (): Codec<Roles> => {
    if (_codec == null) {
      _codec = message<Roles>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.voter != null && obj.voter !== false)) {
          w.uint32(8)
          w.bool(obj.voter)
        }

        if ((obj.observer != null && obj.observer !== false)) {
          w.uint32(16)
          w.bool(obj.observer)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          voter: false,
          observer: false
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.voter = reader.bool()
              break
            }
            case 2: {
              obj.observer = reader.bool()
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
                field: `${prefix}.voter`,
                value: reader.bool()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.observer`,
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

  export interface RolesVoterFieldEvent {
    field: '$.voter'
    value: boolean
  }

  export interface RolesObserverFieldEvent {
    field: '$.observer'
    value: boolean
  }

  export function encode (obj: Partial<Roles>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, Roles.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<Roles>): Roles {
    return decodeMessage(buf, Roles.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<Roles>): Generator<RolesVoterFieldEvent | RolesObserverFieldEvent> {
    return streamMessage(buf, Roles.codec(), opts)
  }
}
