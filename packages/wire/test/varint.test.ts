import { createRequire } from 'node:module'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  CorruptRecordError,
  InvalidRecordError,
  readVarint,
  readVarlong,
  varintSize,
  varlongSize,
  writeVarint,
  writeVarlong,
} from '../src/index.ts'
import { hex, toHex } from './fixtures.ts'

const require = createRequire(import.meta.url)
const KafkaEncoder = require('kafkajs/src/protocol/encoder') as KafkaJSEncoderClass

function encodeVarint(value: number): string {
  const buf = new Uint8Array(varintSize(value))
  expect(writeVarint(buf, 0, value)).toBe(buf.length)
  return toHex(buf)
}

function encodeVarlong(value: number): string {
  const buf = new Uint8Array(varlongSize(value))
  expect(writeVarlong(buf, 0, value)).toBe(buf.length)
  return toHex(buf)
}

describe('wire > varint', () => {
  const varints: Array<[number, string]> = [
    [0, '00'],
    [-1, '01'],
    [1, '02'],
    [63, '7e'],
    [-64, '7f'],
    [64, '8001'],
    [-65, '8101'],
    [300, 'd804'],
    [2147483647, 'feffffff0f'],
    [-2147483648, 'ffffffff0f'],
  ]

  it.each(varints)('varint %d encodes as %s and back', (value, bytes) => {
    expect(encodeVarint(value)).toBe(bytes)
    expect(readVarint(hex(bytes), 0)).toEqual({ value, pos: bytes.length / 2 })
  })

  const varlongs: Array<[number, string]> = [
    ...varints,
    [2147483648, '8080808010'],
    [-2147483649, '8180808010'],
    [1073741824, '8080808008'],
    [-1073741825, '8180808008'],
    [1700000000000, '80a0abfef962'],
    [Number.MAX_SAFE_INTEGER, 'feffffffffffff1f'],
    [Number.MIN_SAFE_INTEGER, 'fdffffffffffff1f'],
  ]

  it.each(varlongs)('varlong %d encodes as %s and back', (value, bytes) => {
    expect(encodeVarlong(value)).toBe(bytes)
    expect(readVarlong(hex(bytes), 0)).toEqual({ value, pos: bytes.length / 2 })
  })

  it('reads at an offset and reports the position after the value', () => {
    expect(readVarint(hex('ff8001'), 1)).toEqual({ value: 64, pos: 3 })
    expect(readVarlong(hex('ff8001'), 1)).toEqual({ value: 64, pos: 3 })
  })

  it('accepts over-long but in-range encodings, as Kafka does', () => {
    expect(readVarint(hex('8080808000'), 0)).toEqual({ value: 0, pos: 5 })
    expect(readVarlong(hex('80808080808080808000'), 0)).toEqual({ value: 0, pos: 10 })
  })

  it('rejects truncated, over-long and out-of-range encodings with CorruptRecordError', () => {
    for (const bytes of ['', '80', 'ffffff', 'ffffffff10', 'ffffffffff01', 'ffffffff8f']) {
      expect(() => readVarint(hex(bytes), 0), bytes).toThrow(CorruptRecordError)
    }
    for (const bytes of [
      '',
      '80',
      '8080808080808080808000',
      '8080808080808020',
      'ffffffffffffff1f',
      'ffffffffffffffffff01',
    ]) {
      expect(() => readVarlong(hex(bytes), 0), bytes).toThrow(CorruptRecordError)
    }
  })

  it('rejects values outside the encodable range with InvalidRecordError', () => {
    expect(() => varintSize(2 ** 31)).toThrow(InvalidRecordError)
    expect(() => varintSize(1.5)).toThrow(InvalidRecordError)
    expect(() => varlongSize(2 ** 53)).toThrow(InvalidRecordError)
    expect(() => writeVarlong(new Uint8Array(10), 0, Number.NaN)).toThrow(InvalidRecordError)
  })

  it('refuses to write past the end of the buffer', () => {
    expect(() => writeVarint(new Uint8Array(1), 0, 64)).toThrow(RangeError)
    expect(() => writeVarlong(new Uint8Array(7), 0, Number.MAX_SAFE_INTEGER)).toThrow(RangeError)
  })

  it('round-trips every int32 and agrees with KafkaJS', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), (value) => {
        const bytes = encodeVarint(value)
        expect(bytes).toBe(new KafkaEncoder().writeVarInt(value).buffer.toString('hex'))
        expect(readVarint(hex(bytes), 0).value).toBe(value)
      }),
      { numRuns: 500 },
    )
  })

  it('round-trips every safe integer as a varlong and agrees with KafkaJS', () => {
    fc.assert(
      fc.property(fc.oneof(fc.maxSafeInteger(), fc.integer({ min: -1000, max: 1000 })), (value) => {
        const bytes = encodeVarlong(value)
        expect(bytes).toBe(new KafkaEncoder().writeVarLong(value).buffer.toString('hex'))
        expect(readVarlong(hex(bytes), 0).value).toBe(value)
      }),
      { numRuns: 500 },
    )
  })
})
