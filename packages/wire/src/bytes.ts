/**
 * Big-endian fixed-width integers on a Uint8Array, written out by hand: the batch header is
 * read and patched at arbitrary positions of shared buffers, and a DataView per call would
 * allocate. int64 fields are JS numbers, so they are read as two 32-bit halves and must land in
 * the safe-integer range.
 */

const TWO_POW_32 = 0x100000000

export function readInt16(buf: Uint8Array, pos: number): number {
  return ((buf[pos]! << 24) | (buf[pos + 1]! << 16)) >> 16
}

export function readInt32(buf: Uint8Array, pos: number): number {
  return (buf[pos]! << 24) | (buf[pos + 1]! << 16) | (buf[pos + 2]! << 8) | buf[pos + 3]!
}

export function readUint32(buf: Uint8Array, pos: number): number {
  return readInt32(buf, pos) >>> 0
}

/**
 * An int64 as a number, or NaN when it lies outside ±(2^53-1). hi·2^32 is exact and rounding
 * of `+ lo` is monotonic, so an out-of-range value never rounds into the safe range.
 */
export function readInt64(buf: Uint8Array, pos: number): number {
  const value = readInt32(buf, pos) * TWO_POW_32 + readUint32(buf, pos + 4)
  return Number.isSafeInteger(value) ? value : Number.NaN
}

export function writeInt16(buf: Uint8Array, pos: number, value: number): void {
  buf[pos] = value >>> 8
  buf[pos + 1] = value
}

export function writeInt32(buf: Uint8Array, pos: number, value: number): void {
  buf[pos] = value >>> 24
  buf[pos + 1] = value >>> 16
  buf[pos + 2] = value >>> 8
  buf[pos + 3] = value
}

/** `value` must be a safe integer; negative values are written in two's complement. */
export function writeInt64(buf: Uint8Array, pos: number, value: number): void {
  const hi = Math.floor(value / TWO_POW_32)
  writeInt32(buf, pos, hi)
  writeInt32(buf, pos + 4, value - hi * TWO_POW_32)
}
