/**
 * RPC frames. Grammar (big-endian):
 *
 *   frame   = length:u32 correlationId:u32 kind:u8 payload
 *   length  = bytes after the length field = 5 + payload bytes
 *   kind    = 0 request | 1 response | 2 error (payload = protobuf RpcError)
 *
 * A stream carries many frames in both directions; responses may arrive in any order and are
 * matched to requests by correlation id.
 */
import { Uint8ArrayList } from 'uint8arraylist'
import { FrameTooLargeError, InvalidFrameError } from './errors.js'

export const FrameKind = { Request: 0, Response: 1, Error: 2 } as const
export type FrameKind = (typeof FrameKind)[keyof typeof FrameKind]

/** length (4) + correlation id (4) + kind (1). */
export const FRAME_HEADER_BYTES = 9
/** Bytes counted by the length field that are not payload: correlation id + kind. */
const LENGTH_OVERHEAD = 5
const MAX_U32 = 0xffff_ffff

export interface Frame {
  correlationId: number
  kind: FrameKind
  payload: Uint8Array
}

export function frameKindName(kind: number): string {
  switch (kind) {
    case FrameKind.Request:
      return 'request'
    case FrameKind.Response:
      return 'response'
    case FrameKind.Error:
      return 'error'
    default:
      return `unknown (${kind})`
  }
}

/** A payload as one buffer or as parts (e.g. a message header and the record bytes it carries, uncopied). */
export type Payload = Uint8Array | readonly Uint8Array[]

export function payloadLength(payload: Payload): number {
  if (payload instanceof Uint8Array) return payload.byteLength
  let n = 0
  for (const part of payload) n += part.byteLength
  return n
}

/**
 * A frame as a list of buffers: the 9-byte header, then the payload's own buffers, uncopied.
 * It still costs one `stream.send()` (libp2p's cost is per send, not per byte), and a large
 * payload (record batches) is never copied on its way out.
 */
export function frameParts(correlationId: number, kind: FrameKind, payload: Payload): Uint8ArrayList<ArrayBufferLike> {
  const length = payloadLength(payload)
  if (length > MAX_U32 - LENGTH_OVERHEAD) {
    throw new FrameTooLargeError(length, MAX_U32 - LENGTH_OVERHEAD, correlationId)
  }
  const header = new Uint8Array(FRAME_HEADER_BYTES)
  const view = new DataView(header.buffer)
  view.setUint32(0, LENGTH_OVERHEAD + length)
  view.setUint32(4, correlationId >>> 0)
  view.setUint8(8, kind)
  const list = new Uint8ArrayList<ArrayBufferLike>(header)
  if (payload instanceof Uint8Array) {
    if (payload.byteLength > 0) list.append(payload)
  } else {
    for (const part of payload) if (part.byteLength > 0) list.append(part)
  }
  return list
}

/** One contiguous frame (tests, and callers that need a single buffer). */
export function encodeFrame(correlationId: number, kind: FrameKind, payload: Payload): Uint8Array {
  return frameParts(correlationId, kind, payload).subarray()
}

export interface FrameDecoderInit {
  /** Largest payload accepted; a header declaring more is rejected before any of its payload is buffered. */
  maxPayloadBytes: number
}

/**
 * Turns a byte stream into frames. Complete frames are handed out by `next()` as soon as their last
 * byte arrives; only an incomplete frame stays buffered, so once `next()` has returned `undefined` the
 * decoder holds at most `maxPayloadBytes + FRAME_HEADER_BYTES - 1` bytes. A header is checked as soon as
 * its length field is in (the correlation id is attached to the error when it is in too).
 *
 * Errors are final: after `next()` throws, the stream is unusable and the caller resets it.
 */
export class FrameDecoder {
  readonly #maxPayloadBytes: number
  readonly #buffer = new Uint8ArrayList()

  constructor(init: FrameDecoderInit) {
    this.#maxPayloadBytes = init.maxPayloadBytes
  }

  /** Bytes received and not yet returned as a frame. */
  get bufferedBytes(): number {
    return this.#buffer.byteLength
  }

  /** Accepts a chunk as libp2p delivers it: a Uint8Array or a Uint8ArrayList (any version, iterated). */
  push(chunk: Uint8Array | Iterable<Uint8Array>): void {
    if (chunk instanceof Uint8Array) {
      if (chunk.byteLength > 0) this.#buffer.append(chunk)
      return
    }
    for (const part of chunk) {
      if (part.byteLength > 0) this.#buffer.append(part)
    }
  }

  /** The next whole frame, or undefined if more bytes are needed. Throws FrameTooLargeError / InvalidFrameError. */
  next(): Frame | undefined {
    const buffer = this.#buffer
    if (buffer.byteLength < 4) return undefined
    const length = buffer.getUint32(0)
    const haveHeader = buffer.byteLength >= FRAME_HEADER_BYTES
    const correlationId = haveHeader ? buffer.getUint32(4) : undefined
    if (length < LENGTH_OVERHEAD) {
      throw new InvalidFrameError(`RPC frame length ${length} is shorter than its ${LENGTH_OVERHEAD}-byte header`)
    }
    const payloadBytes = length - LENGTH_OVERHEAD
    if (payloadBytes > this.#maxPayloadBytes) {
      throw new FrameTooLargeError(payloadBytes, this.#maxPayloadBytes, correlationId)
    }
    if (!haveHeader || correlationId === undefined) return undefined
    const kind = buffer.getUint8(8)
    if (kind !== FrameKind.Request && kind !== FrameKind.Response && kind !== FrameKind.Error) {
      throw new InvalidFrameError(`RPC frame ${correlationId} has unknown kind ${kind}`)
    }
    const total = 4 + length
    if (buffer.byteLength < total) return undefined
    const payload = ownedPayload(buffer.subarray(FRAME_HEADER_BYTES, total))
    buffer.consume(total)
    return { correlationId, kind, payload }
  }

  /** Whether bytes of an unfinished frame are buffered (a stream ending now was torn mid-frame). */
  get hasPartialFrame(): boolean {
    return this.#buffer.byteLength > 0
  }
}

/**
 * A plain Uint8Array (not a Node Buffer, whose `slice()` does not copy) that does not pin a much
 * larger receive buffer: handlers may keep payloads (a memory log stores them as they are).
 */
function ownedPayload(bytes: Uint8Array): Uint8Array {
  if (bytes.byteLength * 2 < bytes.buffer.byteLength) return new Uint8Array(bytes)
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}
