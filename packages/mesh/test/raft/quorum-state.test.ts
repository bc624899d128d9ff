import { openMemoryLog } from '@tributary/log/memory'
import { InvalidRequestError } from '@tributary/wire'
import { describe, expect, it } from 'vitest'
import { CandidateState } from '../../src/raft/candidate-state.js'
import { resolveRaftConfig } from '../../src/raft/config.js'
import { FollowerState } from '../../src/raft/follower-state.js'
import { IllegalRaftTransitionError, QuorumState } from '../../src/raft/quorum-state.js'
import { MemoryQuorumStateStore } from '../../src/raft/quorum-store.js'
import { DEFAULT_QUORUM_RULES, type PersistedQuorumState } from '../../src/raft/types.js'
import { UnattachedState } from '../../src/raft/unattached-state.js'
import { batch, flush, GatedStore, persisted, TEST_CONFIG } from './helpers.js'
import { SimClock } from './sim-network.js'

async function quorum(options: { store?: MemoryQuorumStateStore; localId?: string; logEpoch?: number } = {}) {
  const log = await openMemoryLog({ name: 'p' })
  if (options.logEpoch !== undefined) await log.appendAsLeader(batch('x'), options.logEpoch)
  const store = options.store ?? new MemoryQuorumStateStore()
  const q = new QuorumState({
    partition: 'p',
    localId: options.localId ?? 'a',
    voters: ['a', 'b', 'c'],
    votersOffset: -1,
    observers: ['o'],
    store,
    log,
    clock: new SimClock(),
    random: () => 0.5,
    config: resolveRaftConfig(TEST_CONFIG),
    rules: DEFAULT_QUORUM_RULES,
  })
  await q.initialize()
  return { q, store, log }
}

describe('raft > quorum state', () => {
  it('starts unattached in epoch 0 and persists it', async () => {
    const { q, store } = await quorum()
    expect(q.state.role).toBe('unattached')
    expect(q.epoch).toBe(0)
    expect(persisted(store)).toEqual({ epoch: 0 })
  })

  it('resumes as the follower it was, or unattached holding its vote', async () => {
    const follower = await quorum({ store: new MemoryQuorumStateStore({ epoch: 4, leaderId: 'b', votedFor: 'b' }) })
    expect(follower.q.state).toBeInstanceOf(FollowerState)
    expect(follower.q.state).toMatchObject({ epoch: 4, leaderId: 'b', votedFor: 'b' })
    const exLeader = await quorum({ store: new MemoryQuorumStateStore({ epoch: 4, leaderId: 'a', votedFor: 'a' }) })
    expect(exLeader.q.state).toBeInstanceOf(UnattachedState)
    expect(exLeader.q.state).toMatchObject({ epoch: 4, votedFor: 'a' })
  })

  it('moves up to an epoch its log already holds', async () => {
    const { q, store } = await quorum({ store: new MemoryQuorumStateStore({ epoch: 3, votedFor: 'b' }), logEpoch: 7 })
    expect(q.state).toMatchObject({ role: 'unattached', epoch: 7, votedFor: undefined })
    expect(persisted(store)).toEqual({ epoch: 7 })
  })

  it('refuses a corrupt stored state', async () => {
    const store = new MemoryQuorumStateStore({ epoch: -3 } as PersistedQuorumState)
    await expect(quorum({ store })).rejects.toThrow(InvalidRequestError)
  })

  it('stands in the next epoch having voted for itself, and leads with a majority', async () => {
    const { q, store } = await quorum()
    await q.transitionToCandidate()
    const candidate = q.state as CandidateState
    expect(candidate).toMatchObject({ role: 'candidate', epoch: 1, votedFor: 'a' })
    expect(persisted(store)).toEqual({ epoch: 1, votedFor: 'a' })
    await expect(q.transitionToLeader(0)).rejects.toThrow(IllegalRaftTransitionError)
    candidate.recordVote('b', true)
    await q.transitionToLeader(0)
    expect(q.state.role).toBe('leader')
    expect(persisted(store)).toEqual({ epoch: 1, votedFor: 'a', leaderId: 'a' })
  })

  it('carries the vote into following the leader of the same epoch', async () => {
    const { q, store } = await quorum()
    await q.transitionToUnattached(2, 'b')
    await q.transitionToFollower(2, 'b')
    expect(persisted(store)).toEqual({ epoch: 2, votedFor: 'b', leaderId: 'b' })
  })

  it('refuses transitions Raft forbids', async () => {
    const { q } = await quorum()
    await q.transitionToFollower(2, 'b')
    await expect(q.transitionToFollower(2, 'c')).rejects.toThrow(IllegalRaftTransitionError)
    await expect(q.transitionToFollower(1, 'c')).rejects.toThrow(IllegalRaftTransitionError)
    await expect(q.transitionToUnattached(1)).rejects.toThrow(IllegalRaftTransitionError)
    await expect(q.transitionToUnattached(2, 'c')).rejects.toThrow(IllegalRaftTransitionError)
    await expect(q.transitionToFollower(3, 'a')).rejects.toThrow(IllegalRaftTransitionError)
    await expect(q.transitionToFollower(3, 'o')).rejects.toThrow(IllegalRaftTransitionError)
    await q.transitionToUnattached(3, 'b')
    await expect(q.transitionToUnattached(3, 'c')).rejects.toThrow(IllegalRaftTransitionError)
  })

  it('never lets an observer stand', async () => {
    const { q } = await quorum({ localId: 'o' })
    await expect(q.transitionToCandidate()).rejects.toThrow(IllegalRaftTransitionError)
  })

  it('acts on a new epoch or vote only after it is saved', async () => {
    const store = new GatedStore()
    const { q } = await quorum({ store })
    store.hold()
    const voting = q.transitionToUnattached(5, 'c')
    await flush()
    expect(q.state).toMatchObject({ epoch: 0, votedFor: undefined })
    store.release()
    await voting
    expect(q.state).toMatchObject({ epoch: 5, votedFor: 'c' })
  })

  it('keeps the old state when the save fails', async () => {
    const store = new GatedStore()
    const { q } = await quorum({ store })
    store.fail = true
    await expect(q.transitionToCandidate()).rejects.toThrow('disk full')
    expect(q.state).toMatchObject({ role: 'unattached', epoch: 0 })
  })
})

describe('raft > role states', () => {
  it('unattached: one vote per epoch, repeated to the same candidate', () => {
    expect(new UnattachedState(1, undefined, 0).canGrantVote('b', true)).toBe(true)
    expect(new UnattachedState(1, undefined, 0).canGrantVote('b', false)).toBe(false)
    const voted = new UnattachedState(1, 'b', 0)
    expect(voted.canGrantVote('b', false)).toBe(true)
    expect(voted.canGrantVote('c', true)).toBe(false)
  })

  it('follower: grants nothing, and a resigning leader brings the election forward', () => {
    const s = new FollowerState(2, 'b', undefined, 500)
    expect(s.canGrantVote()).toBe(false)
    s.recordFetchSuccess(100, 200)
    expect(s.deadline()).toBe(300)
    s.expediteElection(120)
    expect(s.deadline()).toBe(120)
    s.expediteElection(250)
    expect(s.deadline()).toBe(120)
  })

  it('candidate: counts the first answer of each voter and knows when it won', () => {
    const s = new CandidateState(3, 'a', ['a', 'b', 'c', 'd', 'e'], 0)
    s.recordVote('b', true)
    s.recordVote('b', false)
    s.recordVote('x', true)
    s.recordVote('a', true)
    expect(s.isVoteGranted()).toBe(false)
    s.recordVote('c', false)
    s.recordVote('c', true)
    expect(s.isVoteGranted()).toBe(false)
    expect(s.unanswered()).toEqual(['d', 'e'])
    s.recordVote('d', true)
    expect(s.isVoteGranted()).toBe(true)
    expect(s.grantingVoters()).toEqual(['a', 'b', 'd'])
  })
})
