/**
 * The default partitioner against KafkaJS's (which matches the Java client): keyed records land
 * on the same partition numbers; keyless records stick to a partition with a leader for about a
 * batch's worth of bytes, then move.
 */
import { createRequire } from 'node:module'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { defaultPartitioner, murmur2, toPositive } from '../../src/partitioners/index.ts'

const require = createRequire(import.meta.url)
type KafkaJSPartitioner = (args: {
  topic: string
  partitionMetadata: Array<{ partitionId: number; leader: number }>
  message: { key?: Buffer | string | null; partition?: number }
}) => number
const { Partitioners } = require('kafkajs') as { Partitioners: { DefaultPartitioner: () => KafkaJSPartitioner } }
const kafkajsMurmur2 = require('kafkajs/src/producer/partitioners/default/murmur2') as (key: Buffer) => number

const utf8 = (s: string) => new TextEncoder().encode(s)

function metadata(n: number) {
  return {
    ours: Array.from({ length: n }, (_, i) => ({ partitionId: i, leader: `peer-${i % 3}` })),
    kafkajs: Array.from({ length: n }, (_, i) => ({ partitionId: i, leader: i % 3 })),
  }
}

describe('client > partitioners > murmur2', () => {
  it("matches the values in Kafka's own UtilsTest", () => {
    expect(murmur2(utf8('21'))).toBe(-973932308)
    expect(murmur2(utf8('foobar'))).toBe(-790332482)
    expect(murmur2(utf8('a-little-bit-long-string'))).toBe(-985981536)
    expect(murmur2(utf8('a-little-bit-longer-string'))).toBe(-1486304829)
    expect(murmur2(utf8('lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8'))).toBe(-58897971)
    expect(murmur2(new Uint8Array([97, 98, 99]))).toBe(479470107)
  })

  it("equals KafkaJS's murmur2 on random bytes of every tail length", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect(murmur2(bytes)).toBe(kafkajsMurmur2(Buffer.from(bytes)))
      }),
      { numRuns: 2000, seed: 42 },
    )
  })

  it('toPositive clears the sign bit like Kafka (not Math.abs)', () => {
    expect(toPositive(-1)).toBe(0x7fffffff)
    expect(toPositive(-2147483648)).toBe(0)
    expect(toPositive(5)).toBe(5)
  })
})

describe('client > partitioners > default', () => {
  it("puts ≥ 10,000 random keys on the same partitions as KafkaJS's DefaultPartitioner", () => {
    const ours = defaultPartitioner({ batchSize: 16_384 })
    const theirs = Partitioners.DefaultPartitioner()
    let checked = 0
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 40, unit: 'grapheme' }), fc.uint8Array({ maxLength: 40 })),
        fc.integer({ min: 1, max: 200 }),
        (key, partitions) => {
          const meta = metadata(partitions)
          const bytes = typeof key === 'string' ? utf8(key) : key
          const expected = theirs({
            topic: 't',
            partitionMetadata: meta.kafkajs,
            message: { key: typeof key === 'string' ? key : Buffer.from(key) },
          })
          const actual = ours({ topic: 't', partitionMetadata: meta.ours, message: { key: bytes, value: null } })
          expect(actual).toBe(expected)
          checked++
        },
      ),
      { numRuns: 12_000, seed: 7 },
    )
    expect(checked).toBeGreaterThanOrEqual(10_000)
  })

  it('honours an explicit partition', () => {
    const ours = defaultPartitioner()
    const { ours: meta } = metadata(4)
    expect(ours({ topic: 't', partitionMetadata: meta, message: { key: utf8('k'), value: null, partition: 3 } })).toBe(
      3,
    )
  })

  it('sticks keyless records to one partition for about a batch of bytes, then moves to another', () => {
    let seed = 1
    const random = () => {
      seed = (seed * 48271) % 2147483647
      return seed / 2147483647
    }
    const ours = defaultPartitioner({ batchSize: 1000 }, random)
    const { ours: meta } = metadata(6)
    const value = new Uint8Array(84) // 84 + 16 = 100 bytes counted per record
    const chosen = Array.from({ length: 60 }, () =>
      ours({ topic: 't', partitionMetadata: meta, message: { key: null, value } }),
    )
    // Runs of 10 records (1000 bytes), each on one partition, and consecutive runs differ.
    for (let run = 0; run < 6; run++) {
      const slice = chosen.slice(run * 10, run * 10 + 10)
      expect(new Set(slice).size).toBe(1)
      if (run > 0) expect(slice[0]).not.toBe(chosen[run * 10 - 1])
    }
  })

  it('keeps keyless records off partitions that have no leader, while any has one', () => {
    const ours = defaultPartitioner({ batchSize: 1 })
    const meta = [
      { partitionId: 0, leader: '' },
      { partitionId: 1, leader: 'p' },
      { partitionId: 2, leader: '' },
    ]
    for (let i = 0; i < 50; i++) {
      expect(ours({ topic: 't', partitionMetadata: meta, message: { key: null, value: null } })).toBe(1)
    }
  })
})
