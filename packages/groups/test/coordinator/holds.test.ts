import { describe, expect, it } from 'vitest'
import { PartitionHolds } from '../../src/coordinator/holds.ts'
import { tpKey } from '../../src/index.ts'
import { tp } from './driver.ts'

describe('coordinator > holds', () => {
  it('counts a granted partition as held until a report of its generation or later leaves it out', () => {
    const holds = new PartitionHolds()
    holds.grant('a', tp(0, 1), 3)
    // A report sent before the grant (an older generation) may predate it: ignored.
    expect(holds.report('a', [], 2)).toBe(false)
    expect(holds.holderOf(tpKey('orders', 0), 0)).toBe('a')
    expect(holds.report('a', tp(1), 3)).toBe(true)
    expect(holds.heldList('a')).toEqual(tp(1))
    // Reports never add: a member cannot claim what it was not given.
    holds.report('a', tp(1, 5), 4)
    expect(holds.heldList('a')).toEqual(tp(1))
  })

  it('fences a removed member’s partitions until its session has ended, and lets a static successor take them over', () => {
    const holds = new PartitionHolds()
    holds.grant('a', tp(0), 1)
    holds.grant('b', tp(1), 1)
    holds.fence('a', 500, 100)
    expect(holds.holderOf(tpKey('orders', 0), 499)).toBe('a')
    expect(holds.holderOf(tpKey('orders', 0), 500)).toBeUndefined()
    expect(holds.fenceList(100)).toEqual([{ memberId: 'a', partitions: tp(0), leaseMs: 400 }])
    expect(holds.nextFenceExpiry()).toBe(500)
    expect(holds.expireFences(500)).toEqual([tpKey('orders', 0)])
    holds.fence('b', 50, 100) // already over: nothing to fence
    expect(holds.holders(100).size).toBe(0)
    holds.grant('c', tp(2), 2)
    holds.transfer('c', 'c2')
    expect(holds.holders(0)).toEqual(new Map([[tpKey('orders', 2), 'c2']]))
    expect(holds.report('c2', [], 1)).toBe(false) // the grant generation moved with it
  })
})
