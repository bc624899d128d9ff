/**
 * Protobuf encoding by parts, so large `bytes` fields (record batches) travel without being
 * copied into the message buffer: a message is the concatenation of its fields in any order
 * (protobuf parsers merge them), so `encode(rest of message) ++ field(n, records)` decodes as
 * one message. The tag and length are encoded here; the bytes stay where they are.
 */

const WIRE_TYPE_LENGTH_DELIMITED = 2

function uvarintSize(value: number): number {
  let size = 1
  while (value >= 0x80) {
    value = Math.floor(value / 128)
    size++
  }
  return size
}

function writeUvarint(buf: Uint8Array, pos: number, value: number): number {
  while (value >= 0x80) {
    buf[pos++] = (value & 0x7f) | 0x80
    value = Math.floor(value / 128)
  }
  buf[pos++] = value
  return pos
}

/** A length-delimited field (`bytes`, `string` or an embedded message) made of `parts`, uncopied. */
export function lengthDelimitedField(fieldNumber: number, parts: readonly Uint8Array[]): Uint8Array[] {
  if (!Number.isInteger(fieldNumber) || fieldNumber < 1 || fieldNumber > 536_870_911) {
    throw new RangeError(`invalid protobuf field number ${fieldNumber}`)
  }
  const length = partsLength(parts)
  const tag = fieldNumber * 8 + WIRE_TYPE_LENGTH_DELIMITED
  const head = new Uint8Array(uvarintSize(tag) + uvarintSize(length))
  writeUvarint(head, writeUvarint(head, 0, tag), length)
  return [head, ...parts]
}

export function partsLength(parts: readonly Uint8Array[]): number {
  let length = 0
  for (const part of parts) length += part.byteLength
  return length
}

/** One contiguous copy of `parts` (for callers that need a single buffer). */
export function concatParts(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!
  const out = new Uint8Array(partsLength(parts))
  let pos = 0
  for (const part of parts) {
    out.set(part, pos)
    pos += part.byteLength
  }
  return out
}
