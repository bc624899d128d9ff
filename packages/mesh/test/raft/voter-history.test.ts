import { InvalidRequestError, setBaseOffset, setPartitionLeaderEpoch } from '@tributary/wire'
import { describe, expect, it } from 'vitest'
import { isRemoved, isSingleChange, voterSetsIn, votersBatch } from '../../src/raft/index.js'
import { VoterHistory, validatePersistedVoterHistory } from '../../src/raft/voter-history.js'
import { batch } from './helpers.js'

const set = (offset: number, ...voters: string[]) => ({ offset, voters })

describe('raft > voter history', () => {
  it('takes the newest record held, reverts when it is truncated away, and keeps the base', () => {
    const h = new VoterHistory({ base: set(-1, 'a', 'b', 'c'), entries: [] })
    expect(h.append(set(10, 'a', 'b', 'c', 'd'))).toBe(true)
    expect(h.append(set(20, 'a', 'b', 'd'))).toBe(true)
    expect(h.append(set(15, 'x'))).toBe(false) // older than what it holds
    expect(h.latest()).toEqual(set(20, 'a', 'b', 'd'))
    expect(h.committed(21)).toEqual(set(20, 'a', 'b', 'd'))
    expect(h.committed(20)).toEqual(set(10, 'a', 'b', 'c', 'd'))
    expect(h.committed(5)).toEqual(set(-1, 'a', 'b', 'c'))
    expect(h.uncommitted(11)).toBe(1)
    expect(h.truncate(20)).toBe(true)
    expect(h.latest()).toEqual(set(10, 'a', 'b', 'c', 'd'))
    expect(h.truncate(0)).toBe(true)
    expect(h.latest()).toEqual(set(-1, 'a', 'b', 'c'))
    expect(h.truncate(0)).toBe(false)
  })

  it('forgets sets superseded by a newer committed one', () => {
    const h = new VoterHistory({
      base: set(-1, 'a', 'b', 'c'),
      entries: [set(10, 'a', 'b', 'c', 'd'), set(20, 'a', 'b', 'd')],
    })
    expect(h.compact(15)).toBe(true)
    expect(h.toPersisted()).toEqual({ base: set(10, 'a', 'b', 'c', 'd'), entries: [set(20, 'a', 'b', 'd')] })
    expect(h.compact(15)).toBe(false)
    // Truncating to below the base keeps it: a committed set is never truncated in Raft.
    h.truncate(5)
    expect(h.latest()).toEqual(set(10, 'a', 'b', 'c', 'd'))
  })

  it('once the log restarts past records never seen, knows nothing until it adopts a committed set', () => {
    const h = new VoterHistory({ base: set(-1, 'a', 'b', 'c'), entries: [] })
    expect(h.adopt(set(-1, 'x'))).toBe(false) // not newer
    h.forget()
    expect(h.latest()).toBeUndefined()
    expect(h.committed(100)).toBeUndefined()
    expect(h.adopt(set(40, 'a', 'b', 'e'))).toBe(true)
    expect(h.latest()).toEqual(set(40, 'a', 'b', 'e'))
    expect(h.append(set(40, 'a', 'b', 'e'))).toBe(false) // the same record, fetched later
  })

  it('refuses a corrupt stored history', () => {
    const bad = [
      { entries: 'x' },
      { entries: [set(5, 'a'), set(3, 'b')] },
      { entries: [set(5)] },
      { entries: [set(5, 'a', 'a')] },
      { entries: [set(-2, 'a')] },
      { entries: [], scanFrom: -1 },
      { base: set(1, ''), entries: [] },
    ]
    for (const h of bad) expect(() => validatePersistedVoterHistory(h as never)).toThrow(InvalidRequestError)
    const good = { base: set(-1, 'a'), entries: [set(3, 'a', 'b')], scanFrom: 4 }
    expect(validatePersistedVoterHistory(good)).toEqual(good)
  })

  it('finds VotersRecords in batches, by stored offset or as the log will number them', async () => {
    const voters = votersBatch(['a', 'b', 'd'], 1)
    setBaseOffset(voters, 0, 41)
    setPartitionLeaderEpoch(voters, 0, 3)
    const bytes = new Uint8Array([...batch('x', 'y'), ...voters])
    expect(await voterSetsIn(bytes)).toEqual([set(41, 'a', 'b', 'd')])
    // Appended as leader from offset 7: the data batch takes 7-8, the record lands at 9.
    expect(await voterSetsIn(bytes, 7)).toEqual([set(9, 'a', 'b', 'd')])
    expect(await voterSetsIn(batch('x'))).toEqual([])
  })

  it('changes one voter at a time', () => {
    expect(isSingleChange(['a', 'b', 'c'], ['a', 'b', 'c', 'd'])).toBe(true)
    expect(isSingleChange(['a', 'b', 'c', 'd'], ['a', 'd', 'c'])).toBe(true)
    expect(isSingleChange(['a', 'b', 'c'], ['a', 'd', 'c'])).toBe(false)
    expect(isSingleChange(['a', 'b', 'c'], ['c', 'b', 'a'])).toBe(false)
  })
})

describe('raft > membership > when a replica may delete its data', () => {
  const published = { voters: ['a', 'b', 'd'], votersOffset: 20, observers: ['e'] }

  it('never while the published assignment names it', () => {
    expect(isRemoved('a', set(10, 'a', 'b', 'c', 'd'), published)).toBe(false)
    expect(isRemoved('e', set(20, 'a', 'b', 'd'), published)).toBe(false)
  })

  it('a voter removed while away: the published committed set is newer than its own and leaves it out', () => {
    expect(isRemoved('c', set(10, 'a', 'b', 'c', 'd'), published)).toBe(true)
    // A stale record (older than what the replica knows) proves nothing.
    expect(isRemoved('c', set(30, 'a', 'b', 'c'), published)).toBe(false)
  })

  it('a replica that is no voter in its own set, and not named (a learner given up on, or removed)', () => {
    expect(isRemoved('f', set(20, 'a', 'b', 'd'), published)).toBe(true)
    expect(isRemoved('c', set(25, 'a', 'b', 'd'), published)).toBe(true)
  })

  it('not while it does not know its own voter set', () => {
    expect(isRemoved('c', undefined, published)).toBe(false)
  })
})
