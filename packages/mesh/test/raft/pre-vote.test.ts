import { describe, expect, it } from 'vitest'
import { MemoryQuorumStateStore } from '../../src/raft/index.js'
import { advance, batch, flush, grant, replica, ScriptedTransport } from './helpers.js'
import { SimClock } from './sim-network.js'

const VOTERS = ['a', 'b', 'c']

function preVote(candidateId: string, candidateEpoch: number, lastOffsetEpoch = -1, lastOffset = 0) {
  return { partition: 'p', candidateId, candidateEpoch, voterId: 'b', lastOffsetEpoch, lastOffset, preVote: true }
}

describe('raft > pre-vote (KIP-996)', () => {
  it('a voter that hears from its leader refuses pre-votes; once the leader is gone it grants them', async () => {
    const clock = new SimClock()
    const store = new MemoryQuorumStateStore({ epoch: 2, leaderId: 'a' })
    const { raft } = await replica({ id: 'b', voters: VOTERS, clock, store })
    await raft.start()
    const saves = store.saves
    expect(await raft.handleVote(preVote('c', 3))).toMatchObject({ voteGranted: false, leaderEpoch: 2, leaderId: 'a' })
    await raft.leaderUnreachable('a')
    expect(await raft.handleVote(preVote('c', 3))).toMatchObject({ voteGranted: true, leaderEpoch: 2 })
    // Nothing moved: no new epoch, no vote saved.
    expect(raft.epoch).toBe(2)
    expect(raft.role).toBe('follower')
    expect(store.saves).toBe(saves)
    await raft.stop()
  })

  it('grants only candidates whose log is up to date, and never for an epoch already past', async () => {
    const clock = new SimClock()
    const { raft, log } = await replica({ id: 'b', voters: VOTERS, clock })
    await log.appendAsLeader(batch('x'), 2)
    await raft.start()
    expect(raft.epoch).toBe(2)
    expect((await raft.handleVote(preVote('c', 3, 1, 5))).voteGranted).toBe(false)
    expect((await raft.handleVote(preVote('c', 3, 2, 1))).voteGranted).toBe(true)
    expect((await raft.handleVote(preVote('c', 1, 2, 1))).voteGranted).toBe(false)
    expect(raft.epoch).toBe(2)
    await raft.stop()
  })

  it('a voter cut off from the others asks again and again without ever moving to a new epoch', async () => {
    const clock = new SimClock()
    const transport = new ScriptedTransport()
    const store = new MemoryQuorumStateStore({ epoch: 5, leaderId: 'a' })
    const { raft } = await replica({ id: 'b', voters: VOTERS, clock, transport, store })
    await raft.start()
    let preVotes = 0
    for (let t = 0; t < 2000; t += 50) {
      await advance(clock, 50)
      for (const call of transport.take('vote')) {
        expect(call.request.preVote).toBe(true)
        preVotes++
        // The others still follow a: no.
        call.resolve({ ...grant(call), voteGranted: false, leaderEpoch: 5, leaderId: 'a' })
      }
      transport.take('fetch') // the leader does not answer
    }
    expect(preVotes).toBeGreaterThan(10)
    expect(raft.role).toBe('prospective')
    expect(raft.epoch).toBe(5)
    await raft.stop()
  })

  it('goes back to its leader when the leader itself answers, and stands once a majority would vote', async () => {
    const clock = new SimClock()
    const transport = new ScriptedTransport()
    const store = new MemoryQuorumStateStore({ epoch: 5, leaderId: 'a' })
    const { raft } = await replica({ id: 'b', voters: VOTERS, clock, transport, store })
    await raft.start()
    await advance(clock, 400)
    expect(raft.role).toBe('prospective')
    const [toA] = transport.take('vote').filter((c) => c.to === 'a')
    toA!.resolve({ ...grant(toA!), voteGranted: false, leaderEpoch: 5, leaderId: 'a' })
    await flush()
    expect(raft.role).toBe('follower')
    expect(raft.leaderId).toBe('a')
    await advance(clock, 400)
    expect(raft.role).toBe('prospective')
    const [toC] = transport.take('vote').filter((c) => c.to === 'c')
    toC!.resolve(grant(toC!))
    await flush()
    expect(raft.role).toBe('candidate')
    expect(raft.epoch).toBe(6)
    await raft.stop()
  })
})
