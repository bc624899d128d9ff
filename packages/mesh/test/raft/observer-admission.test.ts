import { describe, expect, it } from 'vitest'
import { LeaderState } from '../../src/raft/leader-state.js'
import { DEFAULT_QUORUM_RULES } from '../../src/raft/types.js'

function leader(voters: string[]) {
  return new LeaderState({
    epoch: 1,
    localId: voters[0]!,
    voters,
    observers: [],
    epochStartOffset: 0,
    highWatermark: 0,
    grantingVoters: voters,
    now: 0,
    checkIntervalMs: 50,
    balanceCheckIntervalMs: 1000,
    rules: DEFAULT_QUORUM_RULES,
  })
}

describe('raft > leader state > admitted observers', () => {
  it('tracks an admitted observer as a replica that never counts for the high watermark', () => {
    const s = leader(['a', 'b', 'c'])
    s.updateLocalEndOffset(10)
    expect(s.isReplica('tab')).toBe(false)
    expect(s.admitObserver('tab', 0, 4, 1000)).toBe(true)
    expect(s.isReplica('tab')).toBe(true)
    expect(s.replica('tab')?.voter).toBe(false)
    expect(s.updateReplica('tab', 10, 10, 1)).toBe(false)
    expect(s.highWatermark).toBe(0)
    expect(s.inSyncVoters(1, 1000)).toEqual(['a'])
  })

  it('never admits the leader itself, and admits a known replica at once', () => {
    const s = leader(['a', 'b'])
    expect(s.admitObserver('a', 0, 4, 1000)).toBe(false)
    expect(s.admitObserver('b', 0, 0, 1000)).toBe(true)
  })

  it('holds at most `max`; idle observers make room, active ones do not', () => {
    const s = leader(['a'])
    expect(s.admitObserver('t1', 0, 2, 1000)).toBe(true)
    expect(s.admitObserver('t2', 0, 2, 1000)).toBe(true)
    s.updateReplica('t1', 0, 0, 500)
    s.updateReplica('t2', 0, 0, 500)
    // Both fetched 500 ms ago: no room.
    expect(s.admitObserver('t3', 1000, 2, 1000)).toBe(false)
    expect(s.isReplica('t3')).toBe(false)
    s.updateReplica('t2', 0, 0, 2000)
    // t1 idle for 1.6 s gives its place; t2 stays.
    expect(s.admitObserver('t3', 2100, 2, 1000)).toBe(true)
    expect(s.isReplica('t1')).toBe(false)
    expect(s.isReplica('t2')).toBe(true)
    expect(s.isReplica('t3')).toBe(true)
  })

  it('keeps admitted observers when the voter set changes', () => {
    const s = leader(['a', 'b', 'c'])
    s.admitObserver('tab', 0, 4, 1000)
    s.setVoters(['a', 'b'])
    expect(s.isReplica('tab')).toBe(true)
    expect(s.isReplica('c')).toBe(false)
  })

  it('forgets observers idle past the limit, keeps active ones', () => {
    const s = leader(['a'])
    s.admitObserver('gone', 0, 4, 1000)
    s.admitObserver('here', 0, 4, 1000)
    s.updateReplica('gone', 0, 0, 100)
    s.updateReplica('here', 0, 0, 1900)
    s.dropIdleObservers(2000, 1000)
    expect(s.isReplica('gone')).toBe(false)
    expect(s.isReplica('here')).toBe(true)
    expect(s.replicas().map((r) => r.id)).toEqual(['here'])
  })
})
