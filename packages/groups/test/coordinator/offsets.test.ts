import { ErrorCode } from '@tributary/wire'
import { describe, expect, it } from 'vitest'
import { decodeOffsetCommitValue, decodeOffsetsKey, type GroupResponse } from '../../src/index.ts'
import { Driver, only, tp } from './driver.ts'

function stable(): Driver {
  const d = new Driver({ orders: 6 }, { initialRebalanceDelayMs: 100 })
  d.join('a')
  d.join('b')
  d.advance(100)
  d.sync('a', 1)
  d.sync('b', 1)
  return d // a holds 0-2, b holds 3-5, generation 1
}

function codes(response: GroupResponse): number[] {
  if (response.kind !== 'commit') throw new Error('not a commit response')
  return response.results.map((r) => r.errorCode)
}

describe('coordinator > offset commits', () => {
  it('takes a commit from a member of the current generation for partitions it holds, as records', () => {
    const d = stable()
    const before = d.records.length
    const r = only(
      d.commit('a', 1, [
        { partition: 0, offset: 42, metadata: 'm' },
        { partition: 2, offset: 7 },
      ]),
    )
    expect(r).toMatchObject({ errorCode: 0, sessionRenewed: true })
    expect(codes(r)).toEqual([0, 0])
    const written = d.records.slice(before)
    expect(written.map((rec) => decodeOffsetsKey(rec.key))).toEqual([
      { type: 'offset', groupId: 'billing', topic: 'orders', partition: 0 },
      { type: 'offset', groupId: 'billing', topic: 'orders', partition: 2 },
    ])
    expect(decodeOffsetCommitValue(written[0]!.value!)).toMatchObject({
      offset: 42,
      metadata: 'm',
      generation: 1,
      memberId: 'c-a',
    })
    expect(d.coordinator.committedOffsets('billing', tp(0, 1))).toMatchObject([
      { partition: 0, offset: 42 },
      { partition: 1, offset: -1 },
    ])
  })

  it('refuses a commit from a stale generation', () => {
    const d = stable()
    d.join('a', { memberId: 'c-a', owned: tp(0, 1, 2), ownedGeneration: 1, topics: ['orders'], reason: 'x' })
    d.join('b', { memberId: 'c-b', owned: tp(3, 4, 5), ownedGeneration: 1 })
    const before = d.records.length
    const r = only(d.commit('a', 0, [{ partition: 0 }]))
    expect(r.errorCode).toBe(ErrorCode.ILLEGAL_GENERATION)
    expect(d.records.length).toBe(before)
  })

  it('refuses partitions the member does not hold, per partition', () => {
    const d = stable()
    const r = only(d.commit('a', 1, [{ partition: 1 }, { partition: 4 }]))
    expect(codes(r)).toEqual([0, ErrorCode.ILLEGAL_GENERATION])
    expect(r.kind === 'commit' && r.results[1]!.errorMessage).toMatch(/does not hold orders-4/)
    expect(d.coordinator.committedOffsets('billing', tp(4))[0]!.offset).toBe(-1)
  })

  it('refuses unknown members, fenced instances, and members that have not synced a completing generation', () => {
    const d = stable()
    expect(only(d.commit('z', 1, [{ partition: 0 }])).errorCode).toBe(ErrorCode.UNKNOWN_MEMBER_ID)
    d.join('c')
    d.join('a', { memberId: 'c-a', owned: tp(0, 1, 2), ownedGeneration: 1 })
    d.join('b', { memberId: 'c-b', owned: tp(3, 4, 5), ownedGeneration: 1 })
    expect(d.describe()?.state).toBe('CompletingRebalance')
    expect(only(d.commit('a', 2, [{ partition: 0 }])).errorCode).toBe(ErrorCode.REBALANCE_IN_PROGRESS)
    d.sync('a', 2)
    expect(codes(only(d.commit('a', 2, [{ partition: 0 }])))).toEqual([0])
  })

  it('takes commits of the current generation while a rebalance is prepared (KIP-429: commit on revoke)', () => {
    const d = stable()
    d.join('c')
    expect(d.describe()?.state).toBe('PreparingRebalance')
    expect(codes(only(d.commit('b', 1, [{ partition: 5, offset: 99 }])))).toEqual([0])
  })

  it('drops a commit overtaken in transit by a later request of the same member', () => {
    const d = stable()
    const late = d.nextId('a')
    d.commit('a', 1, [{ partition: 0, offset: 50 }])
    expect(d.commit('a', 1, [{ partition: 0, offset: 40 }], { requestId: late })).toEqual([])
    expect(d.coordinator.committedOffsets('billing', tp(0))[0]!.offset).toBe(50)
  })

  it('takes commits from outside any generation only while the group has no members', () => {
    const d = new Driver()
    expect(codes(only(d.commit('admin', -1, [{ partition: 3, offset: 5 }])))).toEqual([0])
    expect(d.describe()?.state).toBe('Empty')
    d.join('a')
    expect(only(d.commit('admin', -1, [{ partition: 3 }])).errorCode).toBe(ErrorCode.UNKNOWN_MEMBER_ID)
    expect(only(d.commit('x', 4, [{ partition: 3 }], { memberId: 'c-x' })).errorCode).toBe(ErrorCode.UNKNOWN_MEMBER_ID)
    expect(only(new Driver().commit('x', 4, [{ partition: 3 }])).errorCode).toBe(ErrorCode.ILLEGAL_GENERATION)
  })

  it('answers partitions that do not exist and over-long metadata per partition', () => {
    const d = stable()
    const r = only(
      d.commit('a', 1, [
        { partition: 0, metadata: 'x'.repeat(5000) },
        { partition: 1, topic: 'nope' },
        { partition: 2 },
      ]),
    )
    expect(codes(r)).toEqual([ErrorCode.OFFSET_METADATA_TOO_LARGE, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, 0])
  })

  it('serves committed offsets to anyone, -1 where nothing was committed', () => {
    const d = stable()
    d.commit('b', 1, [{ partition: 4, offset: 17 }])
    const r = only(
      d.handle({ groupId: 'billing', sender: 'admin', requestId: 1, kind: 'fetch', partitions: undefined }),
    )
    expect(r.kind === 'fetch' && r.offsets).toEqual([
      { topic: 'orders', partition: 4, offset: 17, leaderEpoch: -1, metadata: '' },
    ])
    const unknown = only(d.handle({ groupId: 'nope', sender: 'admin', requestId: 2, kind: 'fetch', partitions: tp(1) }))
    expect(unknown.kind === 'fetch' && unknown.offsets[0]!.offset).toBe(-1)
  })

  it('resets offsets and deletes the group only when it has no members', () => {
    const d = stable()
    expect(() => d.coordinator.alterOffsets('billing', [], d.now)).toThrow(/offsets can be reset only/)
    expect(() => d.coordinator.deleteGroup('billing', d.now)).toThrow(
      expect.objectContaining({ code: ErrorCode.NON_EMPTY_GROUP }),
    )
    expect(() => d.coordinator.deleteGroup('nope', d.now)).toThrow(
      expect.objectContaining({ code: ErrorCode.GROUP_ID_NOT_FOUND }),
    )
    d.leave('a')
    d.leave('b')
    const reset = d.coordinator.alterOffsets(
      'billing',
      [{ topic: 'orders', partition: 1, offset: 3, leaderEpoch: -1, metadata: '' }],
      d.now,
    )
    expect(reset.records).toHaveLength(1)
    expect(() =>
      d.coordinator.alterOffsets(
        'billing',
        [{ topic: 'nope', partition: 0, offset: 3, leaderEpoch: -1, metadata: '' }],
        d.now,
      ),
    ).toThrow(expect.objectContaining({ code: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION }))
    const deleted = d.coordinator.deleteGroup('billing', d.now)
    expect(deleted.records.map((r) => r.value)).toEqual([null, null])
    expect(d.describe()).toBeUndefined()
  })
})
