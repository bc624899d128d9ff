import { describe, expect, it } from 'vitest'
import { assignCooperativeSticky, rebalanceProtocolOf, stickyTarget } from '../../src/index.ts'
import { counts, member, names, tps } from './helpers.ts'

describe('assignors > cooperative-sticky', () => {
  it('balances a fresh group', () => {
    const result = assignCooperativeSticky({
      members: [member('a', ['t']), member('b', ['t']), member('c', ['t'])],
      partitionCounts: counts({ t: 7 }),
    })
    expect(names(result)).toEqual({ a: 't-0 t-1 t-2', b: 't-3 t-4', c: 't-5 t-6' })
  })

  it('moves only what balance needs when a member joins, and hands it over one generation later', () => {
    const partitionCounts = counts({ t: 6 })
    const first = {
      members: [member('a', ['t'], tps('t', 0, 1, 2)), member('b', ['t'], tps('t', 3, 4, 5)), member('c', ['t'])],
      partitionCounts,
    }
    // The target moves one partition from each of a and b to c ...
    expect(names(stickyTarget(first))).toEqual({ a: 't-0 t-1', b: 't-3 t-4', c: 't-2 t-5' })
    // ... but this generation only revokes them: c gets nothing yet.
    const round1 = assignCooperativeSticky(first)
    expect(names(round1)).toEqual({ a: 't-0 t-1', b: 't-3 t-4', c: '' })
    // a and b rejoin holding what they kept; now the revoked partitions are free and go to c.
    const round2 = assignCooperativeSticky({
      members: [member('a', ['t'], round1.get('a')!), member('b', ['t'], round1.get('b')!), member('c', ['t'])],
      partitionCounts,
    })
    expect(names(round2)).toEqual({ a: 't-0 t-1', b: 't-3 t-4', c: 't-2 t-5' })
  })

  it('gives a departed member’s partitions out at once (nobody holds them)', () => {
    const result = assignCooperativeSticky({
      members: [member('a', ['t'], tps('t', 0, 1)), member('b', ['t'], tps('t', 2, 3))],
      partitionCounts: counts({ t: 6 }),
    })
    expect(names(result)).toEqual({ a: 't-0 t-1 t-4', b: 't-2 t-3 t-5' })
  })

  it('drops claims on partitions that vanished, unsubscribed topics and contested partitions', () => {
    const result = assignCooperativeSticky({
      members: [member('a', ['t'], [...tps('t', 0, 9), ...tps('u', 0)]), member('b', ['t'], tps('t', 0, 1))],
      partitionCounts: counts({ t: 2, u: 1 }),
    })
    // t-0 was claimed by both: nobody's. t-9 does not exist; a does not subscribe to u.
    expect(names(result)).toEqual({ a: 't-0', b: 't-1' })
  })

  it('balances different subscriptions as far as they allow', () => {
    const result = assignCooperativeSticky({
      members: [member('a', ['t', 'u']), member('b', ['t']), member('c', ['u'])],
      partitionCounts: counts({ t: 4, u: 2 }),
    })
    const sizes = Object.values(names(result)).map((s) => (s === '' ? 0 : s.split(' ').length))
    expect(sizes.reduce((x, y) => x + y, 0)).toBe(6)
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1)
    expect(result.get('b')!.every((tp) => tp.topic === 't')).toBe(true)
    expect(result.get('c')!.every((tp) => tp.topic === 'u')).toBe(true)
  })

  it('is cooperative only when every assignor named is (Kafka’s rule)', () => {
    expect(rebalanceProtocolOf(['cooperative-sticky'])).toBe('cooperative')
    expect(rebalanceProtocolOf(['cooperative-sticky', 'range'])).toBe('eager')
    expect(rebalanceProtocolOf(['roundrobin'])).toBe('eager')
    expect(rebalanceProtocolOf(['unknown'])).toBe('eager')
  })
})
