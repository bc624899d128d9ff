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
  /**
   * Received chunks not yet returned, from `#head` on; the first of them from `#offset`. Kept by
   * hand rather than in a Uint8ArrayList, whose getters allocate a view (and a DataView) per call:
   * per request that added up, on both ends of every RPC (see deadlines.ts on why allocation matters).
   */
  #chunks: Uint8Array[] = []
  #head = 0
  #offset = 0
  #buffered = 0

  constructor(init: FrameDecoderInit) {
    this.#maxPayloadBytes = init.maxPayloadBytes
  }

  /** Bytes received and not yet returned as a frame. */
  get bufferedBytes(): number {
    return this.#buffered
  }

  /** Accepts a chunk as libp2p delivers it: a Uint8Array or a Uint8ArrayList (any version, iterated). */
  push(chunk: Uint8Array | Iterable<Uint8Array>): void {
    if (chunk instanceof Uint8Array) {
      this.#add(chunk)
      return
    }
    for (const part of chunk) this.#add(part)
  }

  #add(part: Uint8Array): void {
    if (part.byteLength === 0) return
    this.#chunks.push(part)
    this.#buffered += part.byteLength
  }

  /** The next whole frame, or undefined if more bytes are needed. Throws FrameTooLargeError / InvalidFrameError. */
  next(): Frame | undefined {
    if (this.#buffered < 4) return undefined
    const length = this.#u32(0)
    const haveHeader = this.#buffered >= FRAME_HEADER_BYTES
    const correlationId = haveHeader ? this.#u32(4) : undefined
    if (length < LENGTH_OVERHEAD) {
      throw new InvalidFrameError(`RPC frame length ${length} is shorter than its ${LENGTH_OVERHEAD}-byte header`)
    }
    const payloadBytes = length - LENGTH_OVERHEAD
    if (payloadBytes > this.#maxPayloadBytes) {
      throw new FrameTooLargeError(payloadBytes, this.#maxPayloadBytes, correlationId)
    }
    if (!haveHeader || correlationId === undefined) return undefined
    const kind = this.#byte(8)
    if (kind !== FrameKind.Request && kind !== FrameKind.Response && kind !== FrameKind.Error) {
      throw new InvalidFrameError(`RPC frame ${correlationId} has unknown kind ${kind}`)
    }
    const total = 4 + length
    if (this.#buffered < total) return undefined
    return { correlationId, kind, payload: this.#take(total) }
  }

  /** Whether bytes of an unfinished frame are buffered (a stream ending now was torn mid-frame). */
  get hasPartialFrame(): boolean {
    return this.#buffered > 0
  }

  /** The big-endian u32 at `index` of the buffered bytes (index + 4 ≤ bufferedBytes). */
  #u32(index: number): number {
    const first = this.#chunks[this.#head]!
    const at = this.#offset + index
    if (at + 4 <= first.byteLength) return readU32(first, at)
    return (
      ((this.#byte(index) << 24) |
        (this.#byte(index + 1) << 16) |
        (this.#byte(index + 2) << 8) |
        this.#byte(index + 3)) >>>
      0
    )
  }

  /** The byte at `index` of the buffered bytes (index < bufferedBytes; header bytes only, so few chunks are walked). */
  #byte(index: number): number {
    let at = this.#offset + index
    for (let i = this.#head; i < this.#chunks.length; i++) {
      const chunk = this.#chunks[i]!
      if (at < chunk.byteLength) return chunk[at]!
      at -= chunk.byteLength
    }
    throw new RangeError(`byte ${index} of ${this.#buffered} buffered`)
  }

  /** Removes the first `total` buffered bytes (one frame) and returns its payload (after the header). */
  #take(total: number): Uint8Array {
    const first = this.#chunks[this.#head]!
    this.#buffered -= total
    if (first.byteLength - this.#offset >= total) {
      // The whole frame is in one chunk, the usual case: a view, no copy.
      const payload = first.subarray(this.#offset + FRAME_HEADER_BYTES, this.#offset + total)
      this.#offset += total
      if (this.#offset === first.byteLength) this.#dropFirst()
      return ownedPayload(payload)
    }
    const payload = new Uint8Array(total - FRAME_HEADER_BYTES)
    let header = FRAME_HEADER_BYTES
    let written = 0
    let remaining = total
    // Bounded by the chunks that hold this frame: each iteration uses up one of them or the rest of the frame.
    while (remaining > 0) {
      const chunk = this.#chunks[this.#head]!
      const n = Math.min(chunk.byteLength - this.#offset, remaining)
      const skip = Math.min(header, n)
      payload.set(chunk.subarray(this.#offset + skip, this.#offset + n), written)
      written += n - skip
      header -= skip
      remaining -= n
      this.#offset += n
      if (this.#offset === chunk.byteLength) this.#dropFirst()
    }
    return payload
  }

  #dropFirst(): void {
    this.#head++
    this.#offset = 0
    if (this.#head === this.#chunks.length) {
      this.#chunks = []
      this.#head = 0
    } else if (this.#head >= 1024 && this.#head * 2 >= this.#chunks.length) {
      this.#chunks = this.#chunks.slice(this.#head)
      this.#head = 0
    }
  }
}

/** The big-endian u32 at `offset` of `bytes`. */
function readU32(bytes: Uint8Array, offset: number): number {
  return ((bytes[offset]! << 24) | (bytes[offset + 1]! << 16) | (bytes[offset + 2]! << 8) | bytes[offset + 3]!) >>> 0
}

/**
 * A plain Uint8Array (not a Node Buffer, whose `slice()` does not copy) that does not pin a much
 * larger receive buffer: handlers may keep payloads (a memory log stores them as they are).
 */
function ownedPayload(bytes: Uint8Array): Uint8Array {
  if (bytes.byteLength * 2 < bytes.buffer.byteLength) return new Uint8Array(bytes)
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}
