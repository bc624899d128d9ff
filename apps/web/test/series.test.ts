import { describe, expect, it } from 'vitest'
import { rates, Series } from '../src/series.js'

describe('web > series', () => {
  it('keeps the last `capacity` samples in uPlot layout, gaps as null', () => {
    const s = new Series(3)
    s.push(1_000, { a: 1 })
    s.push(2_000, { a: 2, b: 10 })
    s.push(3_000, { b: 20 })
    s.push(4_000, { a: 4, b: 40 })
    expect(s.names()).toEqual(['a', 'b'])
    expect(s.data()).toEqual([
      [2, 3, 4],
      [2, null, 4],
      [10, 20, 40],
    ])
    expect(s.latest('b')).toBe(40)
    expect(s.peak('a')).toBe(4)
    expect(s.peak('missing')).toBeNull()
    expect(s.latest('missing')).toBeNull()
  })

  it('drops a line once it has no value left in the window', () => {
    const s = new Series(2)
    s.push(1_000, { gone: 1, kept: 1 })
    s.push(2_000, { kept: 2 })
    s.push(3_000, { kept: 3 })
    expect(s.names()).toEqual(['kept'])
    expect(s.data()).toEqual([
      [2, 3],
      [2, 3],
    ])
  })

  it('turns successive totals into per-second rates, never negative', () => {
    const before = {
      timeMs: 10_000,
      totals: new Map([
        ['orders', 100],
        ['clicks', 50],
        ['recreated', 500],
      ]),
    }
    const after = {
      timeMs: 12_000,
      totals: new Map([
        ['orders', 300],
        ['clicks', 50],
        ['recreated', 3],
        ['new', 7],
      ]),
    }
    expect(rates(before, after)).toEqual({ orders: 100, clicks: 0, recreated: 0 })
    expect(rates(undefined, after)).toEqual({})
    expect(rates(after, after)).toEqual({})
  })
})
