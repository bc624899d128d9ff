import { ErrorCode } from '@tributary/wire'
import { describe, expect, it } from 'vitest'
import { Driver, only, partitions, SESSION, tp } from './driver.ts'

/** Two static members (tab-a, tab-b) and a dynamic one (c), Stable in generation 1. */
function settledGroup(): Driver {
  const d = new Driver({ orders: 6 }, { initialRebalanceDelayMs: 100 })
  d.join('a1', { instance: 'tab-a' })
  d.join('b1', { instance: 'tab-b' })
  d.join('c')
  d.advance(100)
  d.sync('a1', 1, 'tab-a')
  d.sync('b1', 1, 'tab-b')
  d.sync('c', 1)
  return d
}

describe('coordinator > static membership', () => {
  it('takes a static member back within its session: new member id, same partitions, no rebalance', () => {
    const d = settledGroup()
    const before = d.assignmentOf('a1')
    expect(before).toHaveLength(2)
    const rebalancesBefore = d.events.filter((e) => e.type === 'rebalance-started').length
    d.advance(SESSION / 2) // the tab reloads; its old incarnation said nothing
    const join = only(d.join('a2', { instance: 'tab-a' }))
    expect(join).toMatchObject({ errorCode: 0, generation: 1, memberId: 'c-a2' })
    const sync = only(d.sync('a2', 1, 'tab-a'))
    expect(partitions(sync)).toEqual(before)
    expect(d.describe()).toMatchObject({ state: 'Stable', generation: 1 })
    expect(d.events.filter((e) => e.type === 'rebalance-started')).toHaveLength(rebalancesBefore)
    // The member id change is persisted, so a failover keeps the new incarnation.
    d.failover()
    expect(
      d
        .describe()
        ?.members.map((m) => m.memberId)
        .sort(),
    ).toEqual(['c-a2', 'c-b1', 'c-c'])
  })

  it('does not let a delayed join of an earlier incarnation fence a later one', () => {
    const d = settledGroup()
    const started = d.now
    d.advance(100)
    d.join('a2', { instance: 'tab-a' })
    // The first join of an incarnation that started before a2 (and has since died) arrives late.
    expect(only(d.join('a0', { instance: 'tab-a', startedAt: started - 50 }))).toMatchObject({
      errorCode: ErrorCode.FENCED_INSTANCE_ID,
    })
    expect(only(d.heartbeat('a2', 1, 'tab-a'))).toMatchObject({ errorCode: 0 })
  })

  it('fences the old incarnation of a replaced static member', () => {
    const d = settledGroup()
    d.join('a2', { instance: 'tab-a' })
    expect(only(d.heartbeat('a1', 1, 'tab-a'))).toMatchObject({ errorCode: ErrorCode.FENCED_INSTANCE_ID })
    expect(only(d.commit('a1', 1, [{ partition: 0 }], { instance: 'tab-a' }))).toMatchObject({
      errorCode: ErrorCode.FENCED_INSTANCE_ID,
    })
    expect(only(d.join('a1', { memberId: 'c-a1', instance: 'tab-a' }))).toMatchObject({
      errorCode: ErrorCode.FENCED_INSTANCE_ID,
    })
  })

  it('rebalances when a static member comes back with another subscription', () => {
    const d = new Driver({ orders: 6, audit: 2 })
    d.join('a1', { instance: 'tab-a' })
    d.sync('a1', 1, 'tab-a')
    expect(d.join('a2', { instance: 'tab-a', topics: ['orders', 'audit'] })).toHaveLength(1)
    expect(d.describe()?.generation).toBe(2)
    // The new incarnation inherits what the old one may hold until it reports otherwise.
    const sync = only(d.sync('a2', 2, 'tab-a'))
    expect(partitions(sync)).toEqual([0, 1, 0, 1, 2, 3, 4, 5])
  })

  it('removes a static member that does not come back within its session', () => {
    const d = settledGroup()
    for (let t = 0; t < SESSION; t += SESSION / 4) {
      d.advance(SESSION / 4)
      d.heartbeat('b1', 1, 'tab-b')
      d.heartbeat('c', 1)
    }
    expect(d.events.some((e) => e.type === 'member-removed' && e.memberId === 'c-a1')).toBe(true)
    expect(d.describe()?.state).toBe('PreparingRebalance')
    // Coming back now is a new member: it joins the rebalance.
    expect(d.join('a2', { instance: 'tab-a' })).toEqual([])
    d.join('b1', { memberId: 'c-b1', instance: 'tab-b', owned: tp(2, 3), ownedGeneration: 1 })
    expect(d.join('c', { memberId: 'c-c', owned: tp(4, 5), ownedGeneration: 1 })).toHaveLength(3)
    expect(d.describe()?.generation).toBe(2)
  })
})
