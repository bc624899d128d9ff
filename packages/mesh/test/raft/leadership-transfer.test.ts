import { NotLeaderOrFollowerError } from '@tributary/wire'
import { describe, expect, it } from 'vitest'
import { MemoryQuorumStateStore } from '../../src/raft/index.js'
import { advance, batch, electLeader, flush, type ReplicaOptions, replica, ScriptedTransport } from './helpers.js'
import { SimClock } from './sim-network.js'

const config = { leaderImbalanceCheckIntervalMs: 200 }

function fetchRequest(replicaId: string, fetchOffset: number, epoch: number) {
  return {
    partition: 'p',
    replicaId,
    currentLeaderEpoch: epoch,
    fetchOffset,
    lastFetchedEpoch: epoch,
    maxWaitMs: 0,
    maxBytes: 0,
  }
}

/** `b` elected leader of a partition whose preferred leader is `a`. */
async function leaderB(options: Partial<ReplicaOptions> = {}) {
  const clock = new SimClock()
  const transport = new ScriptedTransport()
  const r = await replica({ id: 'b', voters: ['a', 'b', 'c'], clock, transport, config, ...options })
  await electLeader(clock, r.raft, transport)
  return { ...r, clock, transport }
}

describe('raft > leadership transfer to the preferred leader', () => {
  it('stops taking appends, waits for the preferred voter to hold the log, and tells it to stand', async () => {
    const { raft, clock, transport } = await leaderB()
    const fetchA = () => raft.handleFetch(fetchRequest('a', raft.log.logEndOffset, raft.epoch))
    await fetchA()
    await raft.appendAsLeader(batch('x'))
    for (let t = 0; t < 150; t += 50) {
      await advance(clock, 50)
      await fetchA()
    }
    expect(transport.take('timeoutNow')).toEqual([])
    await raft.appendAsLeader(batch('y')) // a is one batch behind when the check comes
    await advance(clock, 100)
    await expect(raft.appendAsLeader(batch('z'))).rejects.toThrow(NotLeaderOrFollowerError)
    await expect(raft.appendAsLeader(batch('z'))).rejects.toThrow(/handing leadership to a/)
    expect(transport.take('timeoutNow')).toEqual([])
    await fetchA()
    await flush()
    const [handOver] = transport.take('timeoutNow')
    expect(handOver?.to).toBe('a')
    expect(handOver?.request).toEqual({ partition: 'p', leaderId: 'b', leaderEpoch: raft.epoch })
    expect(raft.stats.leadershipTransfers).toBe(1)
    // a stands: its vote request ends b's leadership.
    const epoch = raft.epoch
    const vote = await raft.handleVote({
      partition: 'p',
      candidateId: 'a',
      candidateEpoch: epoch + 1,
      voterId: 'b',
      lastOffsetEpoch: raft.log.latestEpoch(),
      lastOffset: raft.log.logEndOffset,
    })
    expect(vote.voteGranted).toBe(true)
    expect(raft.role).toBe('unattached')
    await raft.stop()
  })

  it('leads on if leadership has not moved within an election timeout', async () => {
    const { raft, clock, transport } = await leaderB()
    for (let t = 0; t < 250; t += 50) {
      await advance(clock, 50)
      await raft.handleFetch(fetchRequest('a', raft.log.logEndOffset, raft.epoch))
    }
    expect(transport.take('timeoutNow').length).toBe(1)
    await expect(raft.appendAsLeader(batch('z'))).rejects.toThrow(NotLeaderOrFollowerError)
    // The hand-over began at 200 ms with a 100 ms deadline; the next check is due at 400 ms.
    await advance(clock, 100)
    expect(raft.role).toBe('leader')
    await expect(raft.appendAsLeader(batch('z'))).resolves.toMatchObject({ leaderEpoch: raft.epoch })
    await raft.stop({ resign: false })
  })

  it('never hands over to a preferred voter out of sync, nor when switched off, nor from the preferred leader', async () => {
    const cases: Array<Partial<ReplicaOptions> & { fetcher: string }> = [
      { fetcher: 'c' }, // a never fetches
      { fetcher: 'a', config: { ...config, autoLeaderRebalanceEnable: false } },
      { fetcher: 'c', id: 'a' }, // a leads already
    ]
    for (const { fetcher, ...options } of cases) {
      const { raft, clock, transport } = await leaderB(options)
      for (let t = 0; t < 1000; t += 50) {
        await advance(clock, 50)
        await raft.handleFetch(fetchRequest(fetcher, raft.log.logEndOffset, raft.epoch))
      }
      expect(transport.take('timeoutNow')).toEqual([])
      expect(raft.role).toBe('leader')
      await raft.stop({ resign: false })
    }
  })

  it('the preferred voter stands at once when its leader hands over, and only then', async () => {
    const clock = new SimClock()
    const transport = new ScriptedTransport()
    const store = new MemoryQuorumStateStore({ epoch: 4, leaderId: 'b' })
    const { raft } = await replica({ id: 'a', voters: ['a', 'b', 'c'], clock, transport, store, config })
    await raft.start()
    await raft.handleTimeoutNow({ partition: 'p', leaderId: 'c', leaderEpoch: 4 }) // not its leader
    await raft.handleTimeoutNow({ partition: 'p', leaderId: 'b', leaderEpoch: 3 }) // a past epoch
    expect(raft.role).toBe('follower')
    await raft.handleTimeoutNow({ partition: 'p', leaderId: 'b', leaderEpoch: 4 })
    expect(raft.role).toBe('candidate')
    expect(raft.epoch).toBe(5)
    // A real vote at once, no pre-vote round: the leader itself asked.
    expect(transport.take('vote').map((c) => [c.to, c.request.preVote])).toEqual([
      ['b', false],
      ['c', false],
    ])
    await raft.stop()
  })
})
