/** Fixed bytes shared by the Node and browser suites. */

export function hex(text: string): Uint8Array {
  const clean = text.replace(/\s+|#[^\n]*/g, '')
  const out = new Uint8Array(clean.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(clean.slice(i * 2, i * 2 + 2), 16)
  return out
}

export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)

/**
 * A batch assembled by hand, field by field (the CRC checked with an independent bitwise CRC32C).
 * Two records: {key 'k', value 'hello', header h=v} and {key null, value empty, timestampDelta 5}.
 */
export const HAND_BATCH = hex(`
  0000000000000005   # baseOffset 5
  00000049           # batchLength 73 = 49 + 24 bytes of records
  00000007           # partitionLeaderEpoch 7
  02                 # magic 2
  cc306330           # crc32c of everything from attributes on
  0000               # attributes: no compression, CreateTime
  00000001           # lastOffsetDelta 1
  0000018bcfe56800   # firstTimestamp 1700000000000
  0000018bcfe56805   # maxTimestamp 1700000000005
  000000000000002a   # producerId 42
  0003               # producerEpoch 3
  0000000a           # baseSequence 10
  00000002           # record count 2
  20                 # record 0: length 16 (zigzag 0x20)
  00                 #   attributes
  00                 #   timestampDelta 0
  00                 #   offsetDelta 0
  02 6b              #   key length 1, 'k'
  0a 68656c6c6f      #   value length 5, 'hello'
  02                 #   1 header
  02 68              #     key length 1, 'h'
  02 76              #     value length 1, 'v'
  0c                 # record 1: length 6
  00                 #   attributes
  0a                 #   timestampDelta 5
  02                 #   offsetDelta 1
  01                 #   key length -1: null
  00                 #   value length 0: empty
  00                 #   no headers
`)

/**
 * A gzip batch encoded by Node (zlib) with encodeRecordBatch: baseOffset 100, producer 9/1/0,
 * records {alpha, 'first value', content-type: text/plain @1700000000000},
 * {null key, empty value @...007}, {gamma, null value, header 'ключ' = null @...003}.
 */
export const NODE_GZIP_BATCH = hex(`
  000000000000006400000091ffffffff0235bdee940001000000020000018bcfe568000000018bcfe568070000000000000009
  000100000000000000031f8b08000000000000038b616060e04acc29c848144bcb2c2a2e51284bcc294d659248cecf2b49cd2b
  d12da92c48152949ad28d12fc849cccce361e063626460d0626063e14a4fcccd4d646412b8b0ebc2ee8b7d17db1901e40bbdfb
  4c000000
`)

/** RFC 3720 (iSCSI) B.4 vectors and the classic check value. */
export const CRC32C_VECTORS: Array<[string, Uint8Array, number]> = [
  ['"123456789"', utf8('123456789'), 0xe3069283],
  ['empty', new Uint8Array(0), 0],
  ['32 zero bytes', new Uint8Array(32), 0x8a9136aa],
  ['32 0xff bytes', new Uint8Array(32).fill(0xff), 0x62a8ab43],
  ['incrementing 0..31', Uint8Array.from({ length: 32 }, (_, i) => i), 0x46dd794e],
  ['decrementing 31..0', Uint8Array.from({ length: 32 }, (_, i) => 31 - i), 0x113fdb5c],
]

/** Recomputes the CRC of the batch at `pos` after a test has edited it on purpose. */
export function reseal(bytes: Uint8Array, crc32c: (data: Uint8Array) => number, pos = 0): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const end = pos + 12 + view.getInt32(pos + 8)
  view.setUint32(pos + 17, crc32c(bytes.subarray(pos + 21, end)))
  return bytes
}
