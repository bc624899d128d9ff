import { decodeMessage, encodeMessage, message, streamMessage } from 'protons-runtime'
import type { Codec, DecodeOptions } from 'protons-runtime'
import type { Uint8ArrayList } from 'uint8arraylist'

export interface RpcError {
  code: number
  message: string
}

export namespace RpcError {
  let _codec: Codec<RpcError>

  export const codec = (): Codec<RpcError> => {
    if (_codec == null) {
      _codec = message<RpcError>((obj, w, opts = {}) => {
        if (opts.lengthDelimited !== false) {
          w.fork()
        }

        if ((obj.code != null && obj.code !== 0)) {
          w.uint32(8)
          w.sint32(obj.code)
        }

        if ((obj.message != null && obj.message !== '')) {
          w.uint32(18)
          w.string(obj.message)
        }

        if (opts.lengthDelimited !== false) {
          w.ldelim()
        }
      }, (reader, length, opts = {}) => {
        const obj: any = {
          code: 0,
          message: ''
        }

        const end = length == null ? reader.len : reader.pos + length

        while (reader.pos < end) {
          const tag = reader.uint32()

          switch (tag >>> 3) {
            case 1: {
              obj.code = reader.sint32()
              break
            }
            case 2: {
              obj.message = reader.string()
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
                field: `${prefix}.code`,
                value: reader.sint32()
              }
              break
            }
            case 2: {
              yield {
                field: `${prefix}.message`,
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

  export interface RpcErrorCodeFieldEvent {
    field: '$.code'
    value: number
  }

  export interface RpcErrorMessageFieldEvent {
    field: '$.message'
    value: string
  }

  export function encode (obj: Partial<RpcError>): Uint8Array<ArrayBuffer> {
    return encodeMessage(obj, RpcError.codec())
  }

  export function decode (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<RpcError>): RpcError {
    return decodeMessage(buf, RpcError.codec(), opts)
  }

  export function stream (buf: Uint8Array | Uint8ArrayList, opts?: DecodeOptions<RpcError>): Generator<RpcErrorCodeFieldEvent | RpcErrorMessageFieldEvent> {
    return streamMessage(buf, RpcError.codec(), opts)
  }
}
