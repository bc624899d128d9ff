import { InvalidTimestampError } from '@tributary/wire'
import { describe, expect, it } from 'vitest'
import {
  ClockDriftError,
  compareHlc,
  type Hlc,
  HybridLogicalClock,
  InvalidMetadataError,
  MAX_LOGICAL,
} from '../../src/metadata/index.js'

function fakeWall(start = 1_000_000): { clock: () => number; set: (ms: number) => void } {
  let now = start
  return { clock: () => now, set: (ms) => (now = ms) }
}

describe('mesh > metadata > hlc', () => {
  it('follows the wall clock while it moves forward', () => {
    const wall = fakeWall()
    const hlc = new HybridLogicalClock({ wallClock: wall.clock })
    expect(hlc.now()).toEqual({ wallMs: 1_000_000, logical: 0 })
    expect(hlc.now()).toEqual({ wallMs: 1_000_000, logical: 1 })
    wall.set(1_000_005)
    expect(hlc.now()).toEqual({ wallMs: 1_000_005, logical: 0 })
  })

  it('stays monotonic when the wall clock jumps back', () => {
    const wall = fakeWall()
    const hlc = new HybridLogicalClock({ wallClock: wall.clock })
    const stamps: Hlc[] = [hlc.now(), hlc.now()]
    wall.set(990_000) // ten seconds back, as after an NTP step
    for (let i = 0; i < 5; i++) stamps.push(hlc.now())
    wall.set(1_000_001)
    stamps.push(hlc.now())
    for (let i = 1; i < stamps.length; i++) {
      expect(compareHlc(stamps[i] as Hlc, stamps[i - 1] as Hlc)).toBe(1)
    }
    expect(stamps.at(-1)).toEqual({ wallMs: 1_000_001, logical: 0 })
  })

  it('survives a broken wall clock (NaN) by counting logically', () => {
    let value = Number.NaN
    const hlc = new HybridLogicalClock({ wallClock: () => value })
    const a = hlc.now()
    const b = hlc.now()
    expect(compareHlc(b, a)).toBe(1)
    value = 5_000
    expect(hlc.now()).toEqual({ wallMs: 5_000, logical: 0 })
  })

  it('rolls an exhausted logical counter into the next millisecond', () => {
    const wall = fakeWall()
    const hlc = new HybridLogicalClock({ wallClock: wall.clock })
    hlc.receive({ wallMs: 1_000_000, logical: MAX_LOGICAL })
    expect(hlc.peek()).toEqual({ wallMs: 1_000_001, logical: 0 })
    expect(hlc.now()).toEqual({ wallMs: 1_000_001, logical: 1 })
  })

  it('receive() moves the clock past a remote timestamp that is ahead', () => {
    const wall = fakeWall()
    const hlc = new HybridLogicalClock({ wallClock: wall.clock })
    const remote = { wallMs: 1_030_000, logical: 7 }
    const merged = hlc.receive(remote)
    expect(compareHlc(merged, remote)).toBe(1)
    expect(merged).toEqual({ wallMs: 1_030_000, logical: 8 })
    expect(compareHlc(hlc.now(), remote)).toBe(1)
  })

  it('receive() of an older remote timestamp still advances past everything issued', () => {
    const wall = fakeWall()
    const hlc = new HybridLogicalClock({ wallClock: wall.clock })
    const issued = hlc.now()
    const merged = hlc.receive({ wallMs: 10, logical: 99 })
    expect(compareHlc(merged, issued)).toBe(1)
    expect(merged.wallMs).toBe(1_000_000)
  })

  it('receive() with equal wall times takes the larger counter', () => {
    const wall = fakeWall(500)
    const hlc = new HybridLogicalClock({ wallClock: wall.clock })
    hlc.receive({ wallMs: 2_000, logical: 3 })
    wall.set(100)
    expect(hlc.receive({ wallMs: 2_000, logical: 10 })).toEqual({ wallMs: 2_000, logical: 11 })
    expect(hlc.receive({ wallMs: 2_000, logical: 1 })).toEqual({ wallMs: 2_000, logical: 12 })
  })

  it('refuses a remote timestamp more than maxDriftMs ahead, leaving the clock unchanged', () => {
    const wall = fakeWall()
    const hlc = new HybridLogicalClock({ wallClock: wall.clock })
    const before = hlc.now()
    const err = (() => {
      try {
        hlc.receive({ wallMs: 1_000_000 + 60_001, logical: 0 })
      } catch (e) {
        return e
      }
    })()
    expect(err).toBeInstanceOf(ClockDriftError)
    expect(err).toBeInstanceOf(InvalidTimestampError)
    expect((err as ClockDriftError).driftMs).toBe(60_001)
    expect((err as Error).message).toMatch(/60001 ms ahead.*NTP/)
    expect(hlc.peek()).toBe(before)
    // Exactly at the bound is accepted.
    expect(hlc.receive({ wallMs: 1_060_000, logical: 0 }).wallMs).toBe(1_060_000)
  })

  it('honours a custom drift bound', () => {
    const hlc = new HybridLogicalClock({ wallClock: () => 1_000, maxDriftMs: 10 })
    expect(() => hlc.receive({ wallMs: 1_011, logical: 0 })).toThrow(ClockDriftError)
    expect(() => hlc.receive({ wallMs: 1_010, logical: 0 })).not.toThrow()
  })

  it('refuses timestamps whose fields are not integers in range', () => {
    const hlc = new HybridLogicalClock({ wallClock: () => 1_000 })
    for (const bad of [
      { wallMs: -1, logical: 0 },
      { wallMs: 1.5, logical: 0 },
      { wallMs: Number.NaN, logical: 0 },
      { wallMs: 2 ** 53, logical: 0 },
      { wallMs: 10, logical: -1 },
      { wallMs: 10, logical: MAX_LOGICAL + 1 },
      { wallMs: 10, logical: 0.5 },
    ]) {
      expect(() => hlc.receive(bad), JSON.stringify(bad)).toThrow(InvalidMetadataError)
    }
    expect(hlc.peek()).toEqual({ wallMs: 0, logical: 0 })
  })

  it('compare() orders by wall time, then counter', () => {
    expect(compareHlc({ wallMs: 1, logical: 9 }, { wallMs: 2, logical: 0 })).toBe(-1)
    expect(compareHlc({ wallMs: 2, logical: 1 }, { wallMs: 2, logical: 0 })).toBe(1)
    expect(compareHlc({ wallMs: 2, logical: 1 }, { wallMs: 2, logical: 1 })).toBe(0)
  })
})
