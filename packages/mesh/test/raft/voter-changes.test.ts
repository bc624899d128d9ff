import { setBaseOffset, setPartitionLeaderEpoch } from '@tributary/wire'
import { describe, expect, it } from 'vitest'
import { MemoryQuorumStateStore, type PartitionRaft, votersBatch } from '../../src/raft/index.js'
import {
  advance,
  batch,
  electLeader,
  fetchResponse,
  flush,
  type ReplicaOptions,
  replica,
  ScriptedTransport,
  storedBatch,
} from './helpers.js'
import { SimClock } from './sim-network.js'

/** A VotersRecord batch as a leader of `epoch` stored it at `baseOffset`. */
function storedVoters(baseOffset: number, epoch: number, voters: string[]): Uint8Array {
  const bytes = votersBatch(voters, 1)
  setBaseOffset(bytes, 0, baseOffset)
  setPartitionLeaderEpoch(bytes, 0, epoch)
  return bytes
}

function fetchRequest(replicaId: string, fetchOffset: number, lastFetchedEpoch: number, epoch = 1) {
  return {
    partition: 'p',
    replicaId,
    currentLeaderEpoch: epoch,
    fetchOffset,
    lastFetchedEpoch,
    maxWaitMs: 0,
    maxBytes: 0,
  }
}

async function leader(options: Partial<ReplicaOptions> = {}) {
  const clock = new SimClock()
  const transport = new ScriptedTransport()
  const r = await replica({ id: 'a', voters: ['a', 'b', 'c'], clock, transport, ...options })
  await electLeader(clock, r.raft, transport)
  return { ...r, clock, transport }
}

/** `id` fetches everything the leader has and reports holding it (two round trips). */
async function catchUp(raft: PartitionRaft, id: string): Promise<void> {
  await raft.handleFetch(fetchRequest(id, 0, -1))
  await raft.handleFetch(fetchRequest(id, raft.log.logEndOffset, raft.log.latestEpoch(), raft.epoch))
}

describe('raft > voter changes > follower', () => {
  it('takes a VotersRecord into effect as it is appended, saves it, and drops it when truncated away', async () => {
    const clock = new SimClock()
    const transport = new ScriptedTransport()
    const store = new MemoryQuorumStateStore({ epoch: 2, leaderId: 'a' })
    const { raft, data } = await replica({ id: 'b', voters: ['a', 'b', 'c'], clock, transport, store })
    await raft.start()
    await flush()
    const records = new Uint8Array([...storedBatch(0, 1, 'x'), ...storedVoters(1, 2, ['a', 'b', 'c', 'd'])])
    transport.take('fetch')[0]!.resolve(fetchResponse({ leaderEpoch: 2, records }))
    await flush()
    expect(raft.voterSet).toEqual({ offset: 1, voters: ['a', 'b', 'c', 'd'] })
    expect(store.peek()?.voterHistory?.entries).toEqual([{ offset: 1, voters: ['a', 'b', 'c', 'd'] }])
    expect(store.peek()?.voterHistory?.scanFrom).toBeUndefined()

    // A restart reads the voter set back from the store.
    await raft.stop()
    const again = await replica({ id: 'b', voters: ['a', 'b', 'c'], clock, transport, store, data })
    await again.raft.start()
    expect(again.raft.voterSet).toEqual({ offset: 1, voters: ['a', 'b', 'c', 'd'] })
    await flush()
    // A new leader's log never had it: truncated away, the set reverts.
    const fetch = transport.take('fetch').at(-1)!
    fetch.resolve(fetchResponse({ leaderEpoch: 2, divergingEpoch: { epoch: 1, endOffset: 1 } }))
    await flush()
    expect(again.log.logEndOffset).toBe(1)
    expect(again.raft.voterSet).toEqual({ offset: -1, voters: ['a', 'b', 'c'] })
    expect(store.peek()?.voterHistory?.entries).toEqual([])
    await again.raft.stop()
  })

  it('after a crash between appending a VotersRecord and saving it, finds it in the log', async () => {
    const clock = new SimClock()
    const { log, data } = await replica({ id: 'b', voters: ['a', 'b', 'c'], clock })
    await log.appendAsFollower(new Uint8Array([...storedBatch(0, 1, 'x'), ...storedVoters(1, 1, ['a', 'b', 'd'])]))
    // What was saved ahead of the append: the mark, not the record.
    const store = new MemoryQuorumStateStore({
      epoch: 1,
      leaderId: 'a',
      voterHistory: { base: { offset: -1, voters: ['a', 'b', 'c'] }, entries: [], scanFrom: 1 },
    })
    const { raft } = await replica({ id: 'b', voters: ['a', 'b', 'c'], clock, store, data })
    await raft.start()
    expect(raft.voterSet).toEqual({ offset: 1, voters: ['a', 'b', 'd'] })
    expect(store.peek()?.voterHistory).toEqual({
      base: { offset: -1, voters: ['a', 'b', 'c'] },
      entries: [{ offset: 1, voters: ['a', 'b', 'd'] }],
    })
    await raft.stop()
  })

  it('a learner follows whoever leads, and becomes a voter when its log says so', async () => {
    const clock = new SimClock()
    const transport = new ScriptedTransport()
    const { raft } = await replica({ id: 'd', voters: ['a', 'b', 'c'], observers: ['d'], clock, transport })
    await raft.start()
    expect(raft.isVoter).toBe(false)
    await raft.handleBeginQuorumEpoch({ partition: 'p', leaderId: 'a', leaderEpoch: 3 })
    await flush()
    expect(raft.role).toBe('follower')
    transport
      .take('fetch')[0]!
      .resolve(fetchResponse({ leaderEpoch: 3, records: storedVoters(0, 3, ['a', 'b', 'c', 'd']) }))
    await flush()
    expect(raft.isVoter).toBe(true)
    await raft.stop()
  })
})

describe('raft > voter changes > leader', () => {
  const placement = { replicationFactor: 3, candidates: () => ['b', 'd', 'e'] }
  const config = { replicaReplacementDelayMs: 300, autoLeaderRebalanceEnable: false }

  it('replaces a voter long out of sync: a learner catches up, is added, then the lost one is removed', async () => {
    const { raft, clock } = await leader({ placement, config })
    const fetchB = () => raft.handleFetch(fetchRequest('b', raft.log.logEndOffset, 1))
    await catchUp(raft, 'b')
    expect(raft.highWatermark).toBe(1)
    // c never fetches. After the lag (150 ms) and the replacement delay (300 ms) it is replaced.
    for (let t = 0; t < 400; t += 50) {
      await advance(clock, 50)
      await fetchB()
      expect(raft.assignment()?.observers).toEqual([])
    }
    for (let t = 0; t < 100 && raft.assignment()?.observers.length === 0; t += 25) {
      await advance(clock, 25)
      await fetchB()
    }
    // The first candidate not already a voter: d.
    expect(raft.assignment()).toEqual({ voters: ['a', 'b', 'c'], votersOffset: -1, observers: ['d'] })
    expect(raft.voterSet?.voters).toEqual(['a', 'b', 'c'])
    await catchUp(raft, 'd')
    await advance(clock, 60)
    const added = raft.voterSet!
    expect(added.voters).toEqual(['a', 'b', 'c', 'd'])
    // Not committed yet (b and d hold it only once they fetch past it): no second change meanwhile.
    expect(raft.assignment()).toEqual({ voters: ['a', 'b', 'c'], votersOffset: -1, observers: ['d'] })
    for (let t = 0; t < 200; t += 50) {
      await advance(clock, 50)
      // b and d keep fetching, without the record yet.
      await raft.handleFetch(fetchRequest('b', added.offset, 1))
      await raft.handleFetch(fetchRequest('d', added.offset, 1))
    }
    expect(raft.voterSet).toEqual(added)
    await raft.handleFetch(fetchRequest('b', raft.log.logEndOffset, 1))
    await raft.handleFetch(fetchRequest('d', raft.log.logEndOffset, 1))
    expect(raft.highWatermark).toBe(raft.log.logEndOffset)
    expect(raft.assignment()).toEqual({ voters: ['a', 'b', 'c', 'd'], votersOffset: added.offset, observers: [] })
    // Then c goes, d taking its place in the order.
    await advance(clock, 60)
    expect(raft.voterSet?.voters).toEqual(['a', 'b', 'd'])
    await raft.handleFetch(fetchRequest('b', raft.log.logEndOffset, 1))
    expect(raft.highWatermark).toBe(raft.log.logEndOffset)
    expect(raft.assignment()).toMatchObject({ voters: ['a', 'b', 'd'], observers: [] })
    expect(raft.stats).toMatchObject({ votersAdded: 1, votersRemoved: 1 })
    // c is no replica any more: the leader refuses its fetches.
    await expect(raft.handleFetch(fetchRequest('c', 0, -1))).rejects.toThrow(/not a replica/)
    // And the new set counts for the high watermark: b alone is a majority with a.
    const appended = await raft.appendAsLeader(batch('after'))
    await raft.handleFetch(fetchRequest('b', raft.log.logEndOffset, 1))
    expect(raft.highWatermark).toBe(appended.lastOffset + 1)
    await raft.stop({ resign: false })
  })

  it('drops the learner when the lost voter comes back in sync', async () => {
    const { raft, clock } = await leader({ placement, config })
    await catchUp(raft, 'b')
    for (let t = 0; t < 600 && raft.assignment()?.observers.length === 0; t += 50) {
      await advance(clock, 50)
      await raft.handleFetch(fetchRequest('b', raft.log.logEndOffset, 1))
    }
    expect(raft.assignment()?.observers).toEqual(['d'])
    await catchUp(raft, 'c')
    await advance(clock, 60)
    expect(raft.assignment()).toEqual({ voters: ['a', 'b', 'c'], votersOffset: -1, observers: [] })
    expect(raft.voterSet?.voters).toEqual(['a', 'b', 'c'])
    await raft.stop({ resign: false })
  })

  it('never replaces anyone without a placement, or while no peer is free', async () => {
    for (const options of [{}, { placement: { replicationFactor: 3, candidates: () => ['a', 'b', 'c'] } }]) {
      const { raft, clock } = await leader({ ...options, config })
      await catchUp(raft, 'b')
      for (let t = 0; t < 1000; t += 50) {
        await advance(clock, 50)
        await raft.handleFetch(fetchRequest('b', raft.log.logEndOffset, 1))
      }
      expect(raft.assignment()).toEqual({ voters: ['a', 'b', 'c'], votersOffset: -1, observers: [] })
      await raft.stop({ resign: false })
    }
  })
})
