import { describe, expect, it } from 'vitest'
import { concatParts, lengthDelimitedField } from '../src/index.ts'
import { FetchPartitionResponse, FetchResponse, ProduceRequest } from '../src/pb/protocol.ts'

describe('wire > protobuf parts', () => {
  it('a message plus a bytes field by parts decodes like the whole message', () => {
    const records = new Uint8Array(300_000).map((_, i) => i % 251)
    const parts = [
      ProduceRequest.encode({ topic: 't', partition: 3, acks: -1, timeoutMs: 5 }),
      ...lengthDelimitedField(5, [records]),
    ]
    expect(parts.at(-1)).toBe(records) // not copied
    const decoded = ProduceRequest.decode(concatParts(parts))
    expect(decoded).toMatchObject({ topic: 't', partition: 3, acks: -1, timeoutMs: 5 })
    expect(decoded.records).toEqual(records)
    expect(concatParts(parts)).toEqual(
      ProduceRequest.encode({ topic: 't', partition: 3, acks: -1, timeoutMs: 5, records }),
    )
  })

  it('nests: repeated embedded messages whose bytes fields stay uncopied', () => {
    const partitions = [new Uint8Array([1, 2, 3]), new Uint8Array(200)].map((records, partition) => ({
      partition,
      records,
    }))
    const parts = partitions.flatMap(({ partition, records }) =>
      lengthDelimitedField(1, [
        FetchPartitionResponse.encode({ topic: 'x', partition, highWatermark: 7n }),
        ...lengthDelimitedField(8, [records]),
      ]),
    )
    const decoded = FetchResponse.decode(concatParts(parts))
    expect(decoded.partitions.map((p) => [p.partition, p.records.length, p.highWatermark])).toEqual([
      [0, 3, 7n],
      [1, 200, 7n],
    ])
  })
})
