import { ErrorCode, InvalidRecordError } from '@tributary/wire'
import { describe, expect, it } from 'vitest'
import { GroupCoordinator, offsetCommitRecord } from '../../src/index.ts'
import { Driver, only, partitions, SESSION, tp } from './driver.ts'

describe('coordinator > failover', () => {
  it('rebuilds generation, members, assignment and committed offsets from the records', () => {
    const d = new Driver({ orders: 6 }, { initialRebalanceDelayMs: 100 })
    d.join('a', { instance: 'tab-a' })
    d.join('b')
    d.advance(100)
    d.sync('a', 1, 'tab-a')
    d.sync('b', 1)
    d.commit('a', 1, [{ partition: 1, offset: 11 }], { instance: 'tab-a' })
    d.commit('b', 1, [{ partition: 4, offset: 44 }])
    const before = d.describe()
    d.failover()
    expect(d.describe()).toEqual({ ...before, state: 'Stable' })
    expect(d.coordinator.committedOffsets('billing').map((o) => [o.partition, o.offset])).toEqual([
      [1, 11],
      [4, 44],
    ])
    // Members carry on in their generation, and their commits keep being fenced by it.
    expect(only(d.heartbeat('b', 1))).toMatchObject({ errorCode: 0, sessionRenewed: true })
    expect(only(d.commit('b', 0, [{ partition: 4 }])).errorCode).toBe(ErrorCode.ILLEGAL_GENERATION)
    expect(only(d.commit('b', 1, [{ partition: 1 }])).kind).toBe('commit')
    // A static member restarting right after the failover still needs no rebalance.
    expect(only(d.join('a2', { instance: 'tab-a' }))).toMatchObject({ generation: 1, memberId: 'c-a2' })
    expect(partitions(only(d.sync('a2', 1, 'tab-a')))).toEqual(before!.members[0]!.assignment.map((x) => x.partition))
  })

  it('keeps partitions whose revocation was not yet confirmed across a failover', () => {
    const d = new Driver()
    d.join('a')
    d.sync('a', 1)
    d.join('b')
    d.join('a', { memberId: 'c-a', owned: tp(0, 1, 2, 3, 4, 5), ownedGeneration: 1 })
    d.failover()
    // a was told to give up 3-5 but has not confirmed: the new coordinator still withholds them.
    expect(partitions(only(d.sync('a', 2)), 'revoke')).toEqual([3, 4, 5])
    expect(partitions(only(d.sync('b', 2)))).toEqual([])
  })

  it('keeps a removed member’s partitions fenced across a failover, for the rest of its session', () => {
    const d = new Driver({ orders: 6 }, { initialRebalanceDelayMs: 100 })
    d.join('a')
    d.join('b')
    d.advance(100)
    d.sync('a', 1)
    d.sync('b', 1)
    d.join('c')
    d.join('a', { memberId: 'c-a', owned: tp(0, 1, 2), ownedGeneration: 1 })
    const step = SESSION / 4
    let lastB = d.now
    while (d.describe()?.state === 'PreparingRebalance') {
      d.heartbeat('a', 1)
      d.heartbeat('c', 1)
      d.heartbeat('b', 1) // alive, but never rejoins
      lastB = d.now
      d.advance(step)
    }
    expect(
      d.events.some((e) => e.type === 'member-removed' && e.memberId === 'c-b' && e.reason === 'rebalance-timeout'),
    ).toBe(true)
    d.failover()
    expect([...partitions(only(d.sync('a', 2))), ...partitions(only(d.sync('c', 2)))]).toEqual([0, 1, 2])
    // The fence runs its remaining time again from the takeover: later, never earlier.
    expect(d.coordinator.nextDeadline()).toBeGreaterThanOrEqual(lastB + SESSION)
    while (d.describe()?.state === 'Stable') {
      d.heartbeat('a', 2)
      d.heartbeat('c', 2)
      d.advance(step)
    }
    expect(d.now).toBeGreaterThanOrEqual(lastB + SESSION)
    d.join('a', { memberId: 'c-a', owned: tp(0, 1, 2), ownedGeneration: 2 })
    d.join('c', { memberId: 'c-c', ownedGeneration: 2 })
    expect(partitions(only(d.sync('a', 3)))).toEqual([0, 1, 2])
    expect(partitions(only(d.sync('c', 3)))).toEqual([3, 4, 5])
  })

  it('restarts every session from the moment it took over', () => {
    const d = new Driver()
    d.join('a')
    d.sync('a', 1)
    d.advance(SESSION - 1)
    d.failover()
    d.advance(SESSION - 1)
    expect(d.describe()?.members).toHaveLength(1)
    d.advance(1)
    expect(d.describe()?.members ?? []).toEqual([])
  })

  it('applies tombstones and refuses records it cannot read', () => {
    const d = new Driver()
    d.commit('x', -1, [{ partition: 2, offset: 9 }])
    d.records.push(...d.coordinator.deleteGroup('billing', d.now).records)
    d.failover()
    expect(d.coordinator.listGroups()).toEqual([])
    const garbage = { key: new Uint8Array([0xff, 0xff, 0xff]), value: null }
    expect(() => GroupCoordinator.recover([garbage], { partitionCount: () => 1 }, {}, 0)).toThrow(InvalidRecordError)
    const ok = offsetCommitRecord(
      'g',
      { topic: 't', partition: 0 },
      {
        offset: 1,
        leaderEpoch: -1,
        metadata: '',
        commitTimestamp: 0,
        generation: -1,
        memberId: '',
      },
    )
    expect(GroupCoordinator.recover([ok], { partitionCount: () => 1 }, {}, 0).committedOffsets('g')[0]!.offset).toBe(1)
  })
})
