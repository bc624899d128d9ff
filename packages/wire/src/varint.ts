/**
 * Zigzag varints as Kafka records use them (protobuf's encoding): `varint` for int32 fields,
 * `varlong` for int64 fields, which Tributary limits to the safe-integer range of a JS number.
 * The batch encoder inlines the same arithmetic in its hot loop; these are the reference
 * implementations and the public API.
 */
import { ByteReader } from './byte-reader.js'
import { InvalidRecordError } from './errors.js'

/** Encoded size of a zigzag int32 (1..5 bytes). */
export function varintSize(value: number): number {
  if ((value | 0) !== value) throw new InvalidRecordError(`varint value ${value} is not a 32-bit integer`)
  return varintSizeUnchecked(value)
}

/** Writes a zigzag int32 at `pos`; returns the position after it. */
export function writeVarint(buf: Uint8Array, pos: number, value: number): number {
  const size = varintSize(value)
  checkRoom(buf, pos, size)
  return writeVarintUnchecked(buf, pos, value)
}

/** Reads a zigzag int32; throws CorruptRecordError on overrun or an over-long encoding. */
export function readVarint(buf: Uint8Array, pos: number): { value: number; pos: number } {
  checkRoom(buf, pos, 0)
  const reader = new ByteReader(buf, pos, buf.length)
  const value = reader.varint()
  return { value, pos: reader.pos }
}

/**
 * Encoded size of a zigzag int64 (1..8 bytes for safe integers). With m = |v| for v ≥ 0 and
 * -v-1 for v < 0, the zigzag value is 2m or 2m+1, which fits in 7k bits exactly when m < 2^(7k-1).
 */
export function varlongSize(value: number): number {
  if (!Number.isSafeInteger(value)) throw new InvalidRecordError(`varlong value ${value} is not a safe integer`)
  return varlongSizeUnchecked(value)
}

/** varlongSize without the safe-integer check, for values the encoder has already validated. */
export function varlongSizeUnchecked(value: number): number {
  const m = value < 0 ? -value - 1 : value
  if (m < 0x40) return 1
  if (m < 0x2000) return 2
  if (m < 0x100000) return 3
  if (m < 0x8000000) return 4
  if (m < 0x400000000) return 5
  if (m < 0x20000000000) return 6
  if (m < 0x1000000000000) return 7
  return 8
}

/** Writes a zigzag int64 (a safe integer) at `pos`; returns the position after it. */
export function writeVarlong(buf: Uint8Array, pos: number, value: number): number {
  const size = varlongSize(value)
  checkRoom(buf, pos, size)
  return writeVarlongUnchecked(buf, pos, value)
}

/**
 * The encoder's varlong writer: `value` must be a safe integer and the room already reserved.
 * Beyond 30 bits the zigzag value may not be representable as a double, so the sign bit and
 * the magnitude are emitted separately.
 */
export function writeVarlongUnchecked(buf: Uint8Array, pos: number, value: number): number {
  if (value < 0x40000000 && value >= -0x40000000) return writeVarintUnchecked(buf, pos, value)
  const negative = value < 0 ? 1 : 0
  let m = negative ? -value - 1 : value
  // The first byte holds the sign and the low 6 bits of the magnitude; m ≥ 2^30 here, so more follow.
  buf[pos++] = (((m % 64) << 1) | negative | 0x80) & 0xff
  m = Math.floor(m / 64)
  while (m > 0x7f) {
    buf[pos++] = (m % 128) | 0x80
    m = Math.floor(m / 128)
  }
  buf[pos++] = m
  return pos
}

/** Reads a zigzag int64; throws CorruptRecordError on overrun or a value outside the safe range. */
export function readVarlong(buf: Uint8Array, pos: number): { value: number; pos: number } {
  checkRoom(buf, pos, 0)
  const reader = new ByteReader(buf, pos, buf.length)
  const value = reader.varlong()
  return { value, pos: reader.pos }
}

function checkRoom(buf: Uint8Array, pos: number, size: number): void {
  if (!Number.isInteger(pos) || pos < 0 || pos + size > buf.length) {
    throw new RangeError(`no room for ${size} bytes at position ${pos} of a ${buf.length}-byte buffer`)
  }
}

/** The encoder's varint writer: `value` must be an int32 and the room already reserved. */
export function writeVarintUnchecked(buf: Uint8Array, pos: number, value: number): number {
  let z = ((value << 1) ^ (value >> 31)) >>> 0
  while (z > 0x7f) {
    buf[pos++] = (z & 0x7f) | 0x80
    z >>>= 7
  }
  buf[pos++] = z
  return pos
}

/** varintSize without the int32 check, for values the encoder has already validated. */
export function varintSizeUnchecked(value: number): number {
  const z = ((value << 1) ^ (value >> 31)) >>> 0
  return z < 0x80 ? 1 : z < 0x4000 ? 2 : z < 0x200000 ? 3 : z < 0x10000000 ? 4 : 5
}
