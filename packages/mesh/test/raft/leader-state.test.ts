import { describe, expect, it } from 'vitest'
import { LeaderState } from '../../src/raft/leader-state.js'
import { DEFAULT_QUORUM_RULES } from '../../src/raft/types.js'

function leader(voters: string[], observers: string[] = [], epochStartOffset = 10, highWatermark = 4) {
  return new LeaderState({
    epoch: 3,
    localId: voters[0]!,
    voters,
    observers,
    epochStartOffset,
    highWatermark,
    grantingVoters: voters,
    now: 0,
    checkIntervalMs: 50,
    balanceCheckIntervalMs: 1000,
    rules: DEFAULT_QUORUM_RULES,
  })
}

describe('raft > leader state', () => {
  it('moves the high watermark to the offset a majority of voters holds', () => {
    const s = leader(['a', 'b', 'c'])
    s.updateLocalEndOffset(15)
    expect(s.highWatermark).toBe(4)
    expect(s.updateReplica('b', 12, 15, 1)).toBe(true)
    expect(s.highWatermark).toBe(12)
    expect(s.updateReplica('c', 14, 15, 2)).toBe(true)
    expect(s.highWatermark).toBe(14)
  })

  it('needs three of five voters', () => {
    const s = leader(['a', 'b', 'c', 'd', 'e'])
    s.updateLocalEndOffset(20)
    s.updateReplica('b', 18, 20, 1)
    expect(s.highWatermark).toBe(4)
    s.updateReplica('c', 16, 20, 1)
    expect(s.highWatermark).toBe(16)
  })

  it('commits nothing until a record of its own epoch is held by a majority (Raft §5.4.2)', () => {
    const s = leader(['a', 'b', 'c'], [], 10, 4)
    s.updateLocalEndOffset(11)
    // b holds the previous epochs' tail (up to 10) but not this epoch's first record at 10.
    expect(s.updateReplica('b', 10, 11, 1)).toBe(false)
    expect(s.highWatermark).toBe(4)
    expect(s.updateReplica('b', 11, 11, 2)).toBe(true)
    expect(s.highWatermark).toBe(11)
  })

  it('never moves the high watermark back', () => {
    const s = leader(['a', 'b', 'c'])
    s.updateLocalEndOffset(15)
    s.updateReplica('b', 15, 15, 1)
    expect(s.highWatermark).toBe(15)
    expect(s.updateReplica('b', 12, 15, 2)).toBe(false)
    expect(s.highWatermark).toBe(15)
  })

  it('ignores observers and unknown replicas for the high watermark', () => {
    const s = leader(['a', 'b', 'c'], ['o'])
    s.updateLocalEndOffset(15)
    expect(s.updateReplica('o', 15, 15, 1)).toBe(false)
    expect(s.updateReplica('stranger', 15, 15, 1)).toBe(false)
    expect(s.highWatermark).toBe(4)
    expect(s.replicas().map((r) => [r.id, r.voter])).toEqual([
      ['b', true],
      ['c', true],
      ['o', false],
    ])
  })

  it('counts a voter in sync while it caught up within replica.lag.time.max.ms', () => {
    const s = leader(['a', 'b', 'c'])
    s.updateLocalEndOffset(15)
    s.updateReplica('b', 15, 15, 100)
    s.updateReplica('c', 12, 15, 100)
    expect(s.inSyncVoters(150, 100)).toEqual(['a', 'b'])
    // c reaches the end the leader had at its previous fetch: caught up as of that fetch.
    s.updateReplica('c', 15, 18, 180)
    expect(s.inSyncVoters(190, 100)).toEqual(['a', 'b', 'c'])
    expect(s.inSyncVoters(250, 100)).toEqual(['a'])
  })

  it('knows whether a majority still fetches from it', () => {
    const s = leader(['a', 'b', 'c', 'd', 'e'])
    expect(s.hasQuorumContact(10, 100)).toBe(false)
    s.updateReplica('b', 0, 0, 5)
    s.updateReplica('c', 0, 0, 6)
    expect(s.hasQuorumContact(100, 100)).toBe(true)
    expect(s.hasQuorumContact(106, 100)).toBe(false)
    expect(leader(['a']).hasQuorumContact(1000, 100)).toBe(true)
  })

  it('suggests the most caught-up voters as successors and resends BeginQuorumEpoch to the silent', () => {
    const s = leader(['a', 'b', 'c', 'd'], ['o'])
    s.updateReplica('c', 9, 9, 1)
    s.updateReplica('d', 3, 9, 1)
    expect(s.preferredSuccessors()).toEqual(['c', 'd', 'b'])
    expect(s.replicasAwaitingBegin()).toEqual(['b', 'o'])
  })
})
