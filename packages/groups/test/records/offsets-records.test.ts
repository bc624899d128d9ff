import { Rng } from '@tributary/test-utils/simulation'
import { InvalidRecordError } from '@tributary/wire'
import * as pb from '@tributary/wire/pb/groups'
import { describe, expect, it } from 'vitest'
import {
  decodeGroupMetadataValue,
  decodeOffsetCommitValue,
  decodeOffsetsKey,
  encodeGroupMetadataValue,
  encodeOffsetCommitValue,
  encodeOffsetsKey,
  type GroupMetadataRecord,
} from '../../src/index.ts'

const metadata: GroupMetadataRecord = {
  protocolType: 'consumer',
  generation: 12,
  protocol: 'cooperative-sticky',
  stateTimestamp: 1_700_000_000_000,
  members: [
    {
      memberId: 'web-1',
      groupInstanceId: 'tab-1',
      clientId: 'web',
      sessionTimeoutMs: 10_000,
      rebalanceTimeoutMs: 30_000,
      protocols: ['cooperative-sticky'],
      topics: ['orders'],
      assignment: [{ topic: 'orders', partition: 0 }],
      held: [{ topic: 'orders', partition: 1 }],
      startedAt: 1_700_000_000_000,
    },
    {
      memberId: 'web-2',
      groupInstanceId: undefined,
      clientId: 'web',
      sessionTimeoutMs: 10_000,
      rebalanceTimeoutMs: 30_000,
      protocols: ['cooperative-sticky', 'range'],
      topics: ['orders'],
      assignment: [{ topic: 'orders', partition: 2 }],
      held: [],
      startedAt: 0,
    },
  ],
  fenced: [{ memberId: 'web-0', partitions: [{ topic: 'orders', partition: 3 }], leaseMs: 4_000 }],
  partitionCounts: [{ topic: 'orders', partitions: 4 }],
}

describe('records > __consumer_offsets', () => {
  it('round-trips keys, and equal keys are equal bytes (compaction relies on it)', () => {
    const offsetKey = { type: 'offset', groupId: 'g', topic: 'orders', partition: 3 } as const
    expect(decodeOffsetsKey(encodeOffsetsKey(offsetKey))).toEqual(offsetKey)
    expect(decodeOffsetsKey(encodeOffsetsKey({ type: 'group', groupId: 'g' }))).toEqual({ type: 'group', groupId: 'g' })
    expect(encodeOffsetsKey({ ...offsetKey })).toEqual(encodeOffsetsKey(offsetKey))
    expect(encodeOffsetsKey({ type: 'group', groupId: 'g' })).not.toEqual(
      encodeOffsetsKey({ ...offsetKey, partition: 0 }),
    )
  })

  it('round-trips offset commit values', () => {
    const value = {
      offset: 2 ** 45,
      leaderEpoch: 7,
      metadata: 'x',
      commitTimestamp: 1_700_000_000_123,
      generation: 3,
      memberId: 'm-1',
    }
    expect(decodeOffsetCommitValue(encodeOffsetCommitValue(value))).toEqual(value)
  })

  it('round-trips group metadata values', () => {
    expect(decodeGroupMetadataValue(encodeGroupMetadataValue(metadata))).toEqual(metadata)
    const empty = { ...metadata, protocol: undefined, members: [], fenced: [], partitionCounts: [] }
    expect(decodeGroupMetadataValue(encodeGroupMetadataValue(empty))).toEqual(empty)
  })

  it('refuses unknown key types and value versions instead of guessing', () => {
    expect(() => decodeOffsetsKey(pb.OffsetsKey.encode({ type: 3, groupId: 'g', topic: '', partition: 0 }))).toThrow(
      /unknown key type 3/,
    )
    const v2 = pb.OffsetCommitValue.encode({
      version: 2,
      offset: 1n,
      leaderEpoch: -1,
      metadata: '',
      commitTimestamp: 0n,
      generation: 1,
      memberId: '',
    })
    expect(() => decodeOffsetCommitValue(v2)).toThrow(InvalidRecordError)
  })

  it('refuses a group record that gives one partition to two members', () => {
    const bad = {
      ...metadata,
      members: metadata.members.map((m) => ({ ...m, assignment: [{ topic: 'orders', partition: 0 }] })),
    }
    expect(() => encodeGroupMetadataValue(bad)).toThrow(/held by two members/)
    const decoded = pb.GroupMetadataValue.decode(encodeGroupMetadataValue(metadata))
    const bytes = pb.GroupMetadataValue.encode({
      ...decoded,
      members: decoded.members.map((m) => ({ ...m, assignment: [{ topic: 'orders', partitions: [0] }] })),
    })
    expect(() => decodeGroupMetadataValue(bytes)).toThrow(InvalidRecordError)
  })

  it('refuses oversized keys, and random or mutated bytes only ever with InvalidRecordError', () => {
    expect(() => decodeOffsetsKey(new Uint8Array(2000))).toThrow(InvalidRecordError)
    const rng = new Rng(7)
    const valid = [encodeGroupMetadataValue(metadata), encodeOffsetsKey({ type: 'group', groupId: 'g' })]
    for (let i = 0; i < 2000; i++) {
      const bytes = new Uint8Array(rng.pick(valid))
      for (let flips = rng.int(1, 3); flips > 0; flips--) bytes[rng.int(0, bytes.length - 1)] = rng.int(0, 255)
      for (const decode of [decodeOffsetsKey, decodeGroupMetadataValue, decodeOffsetCommitValue]) {
        try {
          decode(bytes)
        } catch (err) {
          expect(err).toBeInstanceOf(InvalidRecordError)
        }
      }
    }
  })
})
