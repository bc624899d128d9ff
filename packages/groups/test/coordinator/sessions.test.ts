import { ErrorCode } from '@tributary/wire'
import { describe, expect, it } from 'vitest'
import { Driver, only, partitions, REBALANCE, SESSION, tp } from './driver.ts'

function twoMembers(): Driver {
  const d = new Driver({ orders: 6 }, { initialRebalanceDelayMs: 100 })
  d.join('a')
  d.join('b')
  d.advance(100)
  d.sync('a', 1)
  d.sync('b', 1)
  return d
}

describe('coordinator > sessions, timeouts and leaving', () => {
  it('expires a silent member after its session timeout and rebalances its partitions', () => {
    const d = twoMembers()
    expect(d.coordinator.nextDeadline()).toBe(d.now + SESSION)
    d.advance(SESSION / 2)
    d.heartbeat('a', 1)
    d.advance(SESSION / 2)
    expect(d.events.at(-2)).toMatchObject({ type: 'member-removed', memberId: 'c-b', reason: 'session-timeout' })
    expect(d.describe()?.state).toBe('PreparingRebalance')
    // b's session ended on its side too: nothing of it is fenced, a gets everything at once.
    const answers = d.join('a', { memberId: 'c-a', owned: tp(0, 1, 2), ownedGeneration: 1 })
    expect(only(answers)).toMatchObject({ generation: 2 })
    expect(partitions(only(d.sync('a', 2)))).toEqual([0, 1, 2, 3, 4, 5])
    expect(only(d.heartbeat('b', 1))).toMatchObject({ errorCode: ErrorCode.UNKNOWN_MEMBER_ID, sessionRenewed: false })
  })

  it('removes a member that does not rejoin within the rebalance timeout, fencing its partitions until its session ends', () => {
    const d = twoMembers()
    d.join('c') // a third member starts a rebalance
    d.join('a', { memberId: 'c-a', owned: tp(0, 1, 2), ownedGeneration: 1 })
    // b keeps heartbeating (so its session is alive) but never rejoins: a stuck consumer.
    const step = SESSION / 4
    let t = 0
    for (; t + step < REBALANCE; t += step) {
      d.advance(step)
      d.heartbeat('b', 1)
      d.heartbeat('a', 1)
      d.heartbeat('c', 0, undefined)
    }
    const lastB = d.now
    d.advance(REBALANCE - t)
    expect(
      d.events.some((e) => e.type === 'member-removed' && e.memberId === 'c-b' && e.reason === 'rebalance-timeout'),
    ).toBe(true)
    expect(d.describe()).toMatchObject({ state: 'CompletingRebalance', generation: 2 })
    // b may still be using 3-5 until its own session runs out: nobody gets them yet.
    const owned = [...partitions(only(d.sync('a', 2))), ...partitions(only(d.sync('c', 2)))].sort()
    expect(owned).toEqual([0, 1, 2])
    expect(d.coordinator.nextDeadline()).toBe(lastB + SESSION)
    d.advance(lastB + SESSION - d.now)
    expect(d.describe()?.state).toBe('PreparingRebalance')
    d.join('a', { memberId: 'c-a', owned: tp(0, 1, 2), ownedGeneration: 2 })
    d.join('c', { memberId: 'c-c', owned: [], ownedGeneration: 2 })
    const all = [...partitions(only(d.sync('a', 3))), ...partitions(only(d.sync('c', 3)))].sort()
    expect(all).toEqual([0, 1, 2, 3, 4, 5])
  })

  it('removes members that never sync, after the rebalance timeout', () => {
    const d = twoMembers()
    d.join('a', { memberId: 'c-a', owned: tp(0, 1, 2), ownedGeneration: 1, topics: ['orders', 'other'] })
    d.join('b', { memberId: 'c-b', owned: tp(3, 4, 5), ownedGeneration: 1 })
    d.sync('a', 2)
    for (let t = 0; t < REBALANCE; t += SESSION / 4) {
      d.advance(SESSION / 4)
      d.heartbeat('a', 2)
      d.heartbeat('b', 2)
    }
    expect(d.events.some((e) => e.type === 'member-removed' && e.reason === 'sync-timeout')).toBe(true)
    expect(d.describe()?.members.map((m) => m.memberId)).toEqual(['c-a'])
  })

  it('rebalances when a member leaves, and becomes Empty (with a new generation) when the last one does', () => {
    const d = twoMembers()
    expect(only(d.leave('b'))).toMatchObject({ kind: 'leave', errorCode: 0 })
    expect(d.describe()?.state).toBe('PreparingRebalance')
    expect(only(d.leave('b'))).toMatchObject({ errorCode: 0 }) // a duplicate leave is fine
    d.join('a', { memberId: 'c-a', owned: tp(0, 1, 2), ownedGeneration: 1 })
    expect(partitions(only(d.sync('a', 2)))).toEqual([0, 1, 2, 3, 4, 5])
    d.commit('a', 2, [{ partition: 0 }])
    d.leave('a')
    expect(d.describe()).toMatchObject({ state: 'Empty', generation: 3, members: [] })
  })

  it('keeps an empty group (its generation goes on counting), and leaves no trace of a refused join', () => {
    const d = new Driver()
    d.join('a')
    d.sync('a', 1)
    d.leave('a')
    d.advance(SESSION * 2)
    expect(d.describe()).toMatchObject({ state: 'Empty', generation: 2 })
    expect(only(d.join('b'))).toMatchObject({ generation: 3 })
    d.join('x', { session: 1 })
    expect(d.coordinator.listGroups().map((g) => g.groupId)).toEqual(['billing'])
    const other = new Driver()
    expect(only(other.join('x', { session: 1 }))).toMatchObject({ errorCode: ErrorCode.INVALID_SESSION_TIMEOUT })
    expect(other.coordinator.listGroups()).toEqual([])
  })

  it('rebalances a settled group when partitions are added to a subscribed topic', () => {
    const d = twoMembers()
    d.counts.set('orders', 8)
    const out = d.coordinator.topicsChanged(d.now)
    expect(out.events[0]).toMatchObject({ type: 'rebalance-started' })
    expect(d.describe()?.state).toBe('PreparingRebalance')
  })
})
