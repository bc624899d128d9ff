/**
 * Decoding what a fetch returns: control batches skipped (but stepped over), records before the
 * fetch offset dropped, a partial batch at the end left for the next fetch, gzip, null keys and
 * values, repeated header names.
 */
import { CorruptRecordError, encodeRecordBatch, encodeRecordBatchSync } from '@tributary/wire'
import { describe, expect, it } from 'vitest'
import { decodeFetched, FetchedBatches } from '../../src/consumer/decode.ts'

const utf8 = (s: string) => new TextEncoder().encode(s)
const text = (b: Uint8Array | null) => (b === null ? null : new TextDecoder().decode(b))

function batch(baseOffset: number, values: Array<string | null>, extra: { control?: boolean } = {}) {
  return encodeRecordBatchSync({
    baseOffset,
    records: values.map((v, i) => ({
      key: utf8(`k${baseOffset + i}`),
      value: v === null ? null : utf8(v),
      timestamp: 1000 + i,
    })),
    ...extra,
  })
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let pos = 0
  for (const p of parts) {
    out.set(p, pos)
    pos += p.length
  }
  return out
}

describe('client > consumer > decode', () => {
  it('skips control batches, steps past them, and keeps offsets of the data around them', async () => {
    const marker = encodeRecordBatchSync({
      baseOffset: 0,
      control: true,
      records: [{ key: new Uint8Array(4), value: new Uint8Array(6) }],
    })
    const bytes = concat(marker, batch(1, ['a', 'b']), batch(3, ['c']))
    const { messages, nextOffset } = await decodeFetched(bytes, 0)
    expect(messages.map((m) => [m.offset, text(m.value)])).toEqual([
      ['1', 'a'],
      ['2', 'b'],
      ['3', 'c'],
    ])
    expect(nextOffset).toBe(4)
    const onlyMarker = await decodeFetched(
      encodeRecordBatchSync({ baseOffset: 7, control: true, records: [{ value: null }] }),
      7,
    )
    expect(onlyMarker).toEqual({ messages: [], nextOffset: 8 })
  })

  it('drops records before the fetch offset when the batch starts earlier', async () => {
    const { messages, nextOffset } = await decodeFetched(concat(batch(10, ['a', 'b', 'c', 'd'])), 12)
    expect(messages.map((m) => m.offset)).toEqual(['12', '13'])
    expect(nextOffset).toBe(14)
  })

  it('leaves a partial batch at the end for the next fetch', async () => {
    const second = batch(2, ['c'])
    const bytes = concat(batch(0, ['a', 'b']), second.subarray(0, second.length - 5))
    const { messages, nextOffset } = await decodeFetched(bytes, 0)
    expect(messages.map((m) => text(m.value))).toEqual(['a', 'b'])
    expect(nextOffset).toBe(2)
  })

  it('refuses an answer that holds no whole batch, rather than never progressing', async () => {
    const whole = batch(0, ['a'])
    await expect(decodeFetched(whole.subarray(0, whole.length - 1), 0)).rejects.toBeInstanceOf(CorruptRecordError)
    await expect(decodeFetched(whole.subarray(0, 20), 0)).rejects.toBeInstanceOf(CorruptRecordError)
  })

  it('reports a corrupted batch as CorruptRecordError', async () => {
    const bytes = batch(0, ['a'])
    bytes[bytes.length - 1] = bytes.at(-1)! ^ 0xff
    await expect(decodeFetched(bytes, 0)).rejects.toBeInstanceOf(CorruptRecordError)
  })

  it('decodes gzip batches, null keys and values, timestamps and repeated headers', async () => {
    const bytes = await encodeRecordBatch({
      baseOffset: 5,
      compression: 'gzip',
      records: [
        {
          key: null,
          value: null,
          timestamp: 1_700_000_000_123,
          headers: [
            { key: 'trace', value: utf8('1') },
            { key: 'trace', value: utf8('2') },
            { key: 'empty', value: null },
          ],
        },
      ],
    })
    const [m] = (await decodeFetched(bytes, 5)).messages
    expect(m).toMatchObject({ key: null, value: null, offset: '5', timestamp: '1700000000123' })
    expect((m!.headers.trace as Uint8Array[]).map(text)).toEqual(['1', '2'])
    expect(m!.headers.empty).toBeNull()
    expect(m!.attributes & 0x07).toBe(1)
  })

  it('gives Node Buffers, so value.toString() reads as text as in KafkaJS', async () => {
    const [m] = (await decodeFetched(batch(0, ['héllo']), 0)).messages
    expect(Buffer.isBuffer(m!.value)).toBe(true)
    expect(Buffer.isBuffer(m!.key)).toBe(true)
    expect(m!.value!.toString()).toBe('héllo')
    const gzip = await encodeRecordBatch({
      compression: 'gzip',
      records: [{ key: utf8('k'), value: utf8('zipped'), headers: [{ key: 'h', value: utf8('v') }] }],
    })
    const [z] = (await decodeFetched(gzip, 0)).messages
    expect([z!.key, z!.value, z!.headers.h].every((b) => Buffer.isBuffer(b))).toBe(true)
    expect(z!.value!.toString()).toBe('zipped')
  })

  it('gives each message its own headers object and its timestamp, shared or not within a batch', async () => {
    const same = encodeRecordBatchSync({
      records: [1, 2, 3].map((i) => ({ value: utf8(`v${i}`), timestamp: 1000 + (i === 3 ? 5 : 0) })),
    })
    const { messages } = await decodeFetched(same, 0)
    expect(messages.map((m) => m.timestamp)).toEqual(['1000', '1000', '1005'])
    messages[0]!.headers.added = null
    expect(messages[1]!.headers).toEqual({})
    expect(messages.map((m) => m.size)).toEqual([2, 2, 2])
  })

  describe('lazily (eachBatch)', () => {
    it('gives the first and last offsets decoding every record would: from headers, or the records of a compacted batch', async () => {
      const marker = encodeRecordBatchSync({ baseOffset: 14, control: true, records: [{ value: null }] })
      // A compacted batch: its lastOffsetDelta still names offset 13, whose record is gone.
      const compacted = encodeRecordBatchSync({
        baseOffset: 8,
        lastOffsetDelta: 5,
        records: [
          { value: utf8('i'), offsetDelta: 0 },
          { value: utf8('k'), offsetDelta: 2 },
        ],
      })
      const bytes = concat(batch(4, ['e', 'f', 'g', 'h']), compacted, marker)
      for (const from of [4, 6, 8, 9, 10]) {
        const fetched = FetchedBatches.index(bytes, from)
        const { messages, nextOffset } = await decodeFetched(bytes, from)
        expect(fetched.firstOffset()).toBe(messages[0] === undefined ? undefined : Number(messages[0].offset))
        expect(fetched.lastOffset()).toBe(messages.length === 0 ? undefined : Number(messages.at(-1)!.offset))
        expect(fetched.count()).toBe(messages.length)
        expect(fetched.decodeSync()).toEqual(messages)
        expect(fetched.nextOffset).toBe(nextOffset)
      }
      expect(FetchedBatches.index(bytes, 10).lastOffset()).toBe(10)
      expect(FetchedBatches.index(bytes, 11).firstOffset()).toBeUndefined()
      expect(FetchedBatches.index(bytes, 11).nextOffset).toBe(15)
    })

    it('checks CRCs when it locates the batches, before any record is decoded', () => {
      const first = batch(0, ['a'])
      const bytes = concat(first, batch(1, ['b']))
      bytes[bytes.length - 1] = bytes.at(-1)! ^ 0xff
      expect(() => FetchedBatches.index(bytes, 0)).toThrow(CorruptRecordError)
      // A batch wholly before the fetch offset is not read, so not checked either.
      bytes[first.length - 1] = bytes[first.length - 1]! ^ 0xff
      bytes[bytes.length - 1] = bytes.at(-1)! ^ 0xff
      expect(FetchedBatches.index(bytes, 1).lastOffset()).toBe(1)
      expect(() => FetchedBatches.index(bytes, 0)).toThrow(CorruptRecordError)
    })

    it('leaves compressed answers to the asynchronous decode', async () => {
      const gzip = await encodeRecordBatch({ baseOffset: 3, compression: 'gzip', records: [{ value: utf8('z') }] })
      const fetched = FetchedBatches.index(concat(batch(0, ['a', 'b', 'c']), gzip), 1)
      expect(fetched.compressed).toBe(true)
      expect(() => fetched.decodeSync()).toThrow(TypeError)
      expect((await fetched.decode()).map((m) => [m.offset, text(m.value)])).toEqual([
        ['1', 'b'],
        ['2', 'c'],
        ['3', 'z'],
      ])
    })
  })
})
