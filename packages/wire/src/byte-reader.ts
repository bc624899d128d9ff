/**
 * A bounds-checked cursor over untrusted bytes. Every read is checked against `end` (which
 * record parsing narrows to the current record) and fails with CorruptRecordError, never a
 * RangeError or a silent `undefined`. One instance is reused for a whole batch so the hot
 * record loop allocates nothing; V8 inlines these small monomorphic methods.
 */
import { CorruptRecordError } from './errors.js'

const MAX_SAFE = Number.MAX_SAFE_INTEGER

export class ByteReader {
  buf: Uint8Array
  pos: number
  end: number

  constructor(buf: Uint8Array, pos: number, end: number) {
    this.buf = buf
    this.pos = pos
    this.end = end
  }

  /** Signed 8-bit integer. */
  int8(): number {
    if (this.pos >= this.end) throw truncated()
    return (this.buf[this.pos++]! << 24) >> 24
  }

  /** Zigzag-encoded int32 varint: at most 5 bytes, and the 5th carries only 4 bits. */
  varint(): number {
    const buf = this.buf
    const end = this.end
    let pos = this.pos
    if (pos >= end) throw truncated()
    let b = buf[pos++]!
    let raw = b & 0x7f
    if (b > 0x7f) {
      let shift = 7
      for (;;) {
        if (pos >= end) throw truncated()
        b = buf[pos++]!
        if (shift === 28) {
          if (b > 0x0f) throw new CorruptRecordError('varint is longer than 5 bytes or exceeds 32 bits')
          raw = (raw | (b << 28)) >>> 0
          break
        }
        raw |= (b & 0x7f) << shift
        if (b < 0x80) break
        shift += 7
      }
    }
    this.pos = pos
    return (raw >>> 1) ^ -(raw & 1)
  }

  /**
   * Zigzag-encoded int64 varint, accepted only inside the safe-integer range. The zigzag value
   * of a large negative number is odd and above 2^53, so it is never materialised: the sign
   * comes from bit 0 and the magnitude is accumulated from the remaining bits.
   */
  varlong(): number {
    const buf = this.buf
    const end = this.end
    let pos = this.pos
    if (pos >= end) throw truncated()
    let b = buf[pos++]!
    if (b < 0x80) {
      this.pos = pos
      return (b >>> 1) ^ -(b & 1)
    }
    const negative = b & 1
    let magnitude = (b & 0x7f) >>> 1
    let scale = 64
    for (let i = 1; ; i++) {
      if (i === 10) throw new CorruptRecordError('varlong is longer than 10 bytes')
      if (pos >= end) throw truncated()
      b = buf[pos++]!
      magnitude += (b & 0x7f) * scale
      if (b < 0x80) break
      scale *= 128
    }
    // Rounding is monotonic, so an out-of-range sum never rounds back into range.
    if (magnitude > MAX_SAFE - negative) {
      throw new CorruptRecordError('varlong is outside the safe integer range (±2^53-1)')
    }
    this.pos = pos
    return negative ? -magnitude - 1 : magnitude
  }

  /** A length-prefixed byte field as a view into the buffer (no copy); null for length -1. */
  bytes(): Uint8Array | null {
    const length = this.varint()
    if (length < 0) {
      if (length === -1) return null
      throw negativeLength(length)
    }
    const start = this.pos
    if (length > this.end - start) throw truncated()
    this.pos = start + length
    return this.buf.subarray(start, start + length)
  }

  /** Steps over a length-prefixed byte field without allocating; returns its length, -1 for null. */
  skipBytes(): number {
    const length = this.varint()
    if (length < 0) {
      if (length === -1) return -1
      throw negativeLength(length)
    }
    if (length > this.end - this.pos) throw truncated()
    this.pos += length
    return length
  }
}

function negativeLength(length: number): CorruptRecordError {
  return new CorruptRecordError(`record field has invalid length ${length}`)
}

function truncated(): CorruptRecordError {
  return new CorruptRecordError('record data is truncated: a field runs past the end of its record or batch')
}
