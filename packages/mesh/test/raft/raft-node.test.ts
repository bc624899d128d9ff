import {
  decodeRecordBatchSync,
  ErrorCode,
  InvalidRequestError,
  iterateBatches,
  NotEnoughReplicasError,
  NotLeaderOrFollowerError,
  RequestTimedOutError,
} from '@tributary/wire'
import { describe, expect, it } from 'vitest'
import { CONTROL_TYPE_LEADER_CHANGE, controlRecordType, MemoryQuorumStateStore } from '../../src/raft/index.js'
import {
  advance,
  batch,
  electLeader,
  fetchResponse,
  flush,
  GatedStore,
  grant,
  persisted,
  replica,
  ScriptedTransport,
  storedBatch,
} from './helpers.js'
import { SimClock } from './sim-network.js'

const VOTERS = ['a', 'b', 'c']

function voteRequest(candidateId: string, epoch: number, lastOffsetEpoch = -1, lastOffset = 0) {
  return { partition: 'p', candidateId, candidateEpoch: epoch, voterId: 'a', lastOffsetEpoch, lastOffset }
}

function fetchRequest(replicaId: string, fetchOffset: number, lastFetchedEpoch: number, epoch = 1, maxWaitMs = 0) {
  return { partition: 'p', replicaId, currentLeaderEpoch: epoch, fetchOffset, lastFetchedEpoch, maxWaitMs, maxBytes: 0 }
}

async function leaderOf(voters: string[], options: { observers?: string[]; config?: object } = {}) {
  const clock = new SimClock()
  const transport = new ScriptedTransport()
  const r = await replica({ id: 'a', voters, clock, transport, ...options })
  await electLeader(clock, r.raft, transport)
  return { ...r, clock, transport }
}

describe('raft > partition raft', () => {
  it('a sole voter leads at once, opening its epoch with a leader-change control record', async () => {
    const clock = new SimClock()
    const { raft, log, store } = await replica({ id: 'a', voters: ['a'], clock })
    const changes: string[] = []
    raft.onChange((c) => changes.push(`${c.role}/${c.epoch}/${c.highWatermark}`))
    await raft.start()
    await advance(clock, 250)
    expect(raft.role).toBe('leader')
    expect(raft.epoch).toBe(1)
    expect(persisted(store)).toEqual({ epoch: 1, votedFor: 'a', leaderId: 'a' })
    const read = await log.read(0, { maxOffset: log.logEndOffset })
    const [first] = [...iterateBatches(read.records)]
    expect(first?.header).toMatchObject({ control: true, partitionLeaderEpoch: 1, baseOffset: 0 })
    const record = decodeRecordBatchSync(read.records).records[0]!
    expect(controlRecordType(record.key)).toBe(CONTROL_TYPE_LEADER_CHANGE)
    expect(raft.highWatermark).toBe(1)
    const appended = await raft.appendAsLeader(batch('x', 'y'))
    expect(appended).toMatchObject({ firstOffset: 1, lastOffset: 2, leaderEpoch: 1 })
    expect(raft.highWatermark).toBe(3)
    await raft.waitForCommit(2, { epoch: 1 })
    expect(changes).toEqual(['unattached/0/0', 'leader/1/1', 'leader/1/3'])
    await raft.stop()
  })

  it('votes once per epoch, for an up-to-date candidate, and answers only after saving the vote', async () => {
    const clock = new SimClock()
    const store = new GatedStore()
    const { raft, log, data } = await replica({ id: 'a', voters: VOTERS, clock, store })
    await raft.start()
    store.hold()
    let answered = false
    const pending = raft.handleVote(voteRequest('b', 1)).then((r) => {
      answered = true
      return r
    })
    await flush()
    expect(answered).toBe(false)
    store.release()
    expect(await pending).toMatchObject({ voteGranted: true, leaderEpoch: 1 })
    expect(persisted(store)).toEqual({ epoch: 1, votedFor: 'b' })
    expect((await raft.handleVote(voteRequest('c', 1))).voteGranted).toBe(false)
    expect((await raft.handleVote(voteRequest('b', 1))).voteGranted).toBe(true)
    await raft.stop({ resign: false })

    // The vote survives a restart.
    const again = await replica({ id: 'a', voters: VOTERS, clock, store, data })
    await again.raft.start()
    expect((await again.raft.handleVote(voteRequest('c', 1))).voteGranted).toBe(false)
    await again.raft.stop()
    expect(log.logEndOffset).toBe(0)
  })

  it('refuses candidates whose log is behind its own, but moves to their epoch', async () => {
    const clock = new SimClock()
    const { raft, log } = await replica({ id: 'a', voters: VOTERS, clock })
    await log.appendAsLeader(batch('x'), 2)
    await log.appendAsLeader(batch('y'), 2)
    await raft.start()
    expect((await raft.handleVote(voteRequest('b', 3, 1, 100))).voteGranted).toBe(false)
    expect(raft.epoch).toBe(3)
    expect((await raft.handleVote(voteRequest('b', 4, 2, 1))).voteGranted).toBe(false)
    expect((await raft.handleVote(voteRequest('b', 5, 2, 2))).voteGranted).toBe(true)
    expect((await raft.handleVote(voteRequest('c', 6, 3, 0))).voteGranted).toBe(true)
    expect((await raft.handleVote(voteRequest('b', 2, 9, 9))).voteGranted).toBe(false)
    await raft.stop()
  })

  it('answers replica fetches as leader: records, the high watermark, divergence and fencing', async () => {
    const { raft, transport } = await leaderOf(VOTERS)
    expect(transport.take('beginQuorumEpoch').map((c) => c.to)).toEqual(['b', 'c'])
    const first = await raft.handleFetch(fetchRequest('b', 0, -1))
    expect(first).toMatchObject({ errorCode: 0, leaderId: 'a', leaderEpoch: 1, highWatermark: 0 })
    expect([...iterateBatches(first.records)].map((b) => b.header.baseOffset)).toEqual([0])
    // b now holds the leader-change record: a majority does, so it is committed.
    const second = await raft.handleFetch(fetchRequest('b', 1, 1))
    expect(second).toMatchObject({ errorCode: 0, highWatermark: 1, records: new Uint8Array(0) })
    expect(raft.highWatermark).toBe(1)
    expect(raft.inSyncVoters()).toEqual(['a', 'b'])

    expect(await raft.handleFetch(fetchRequest('c', 5, 1))).toMatchObject({
      divergingEpoch: { epoch: 1, endOffset: 1 },
    })
    expect(await raft.handleFetch(fetchRequest('c', 3, 0))).toMatchObject({
      divergingEpoch: { epoch: -1, endOffset: -1 },
    })
    expect((await raft.handleFetch(fetchRequest('c', 0, -1, 0))).errorCode).toBe(ErrorCode.FENCED_LEADER_EPOCH)
    expect((await raft.handleFetch(fetchRequest('c', 0, -1, 2))).errorCode).toBe(ErrorCode.UNKNOWN_LEADER_EPOCH)
    expect((await raft.handleFetch(fetchRequest('c', 9, -1))).errorCode).toBe(ErrorCode.OFFSET_OUT_OF_RANGE)
    // A diverging fetcher is not counted towards the high watermark.
    expect(raft.replicaProgress().find((p) => p.id === 'c')?.endOffset).toBe(-1)
    await raft.stop({ resign: false })
  })

  it('holds a caught-up fetch open until data arrives or the wait expires', async () => {
    const { raft, clock } = await leaderOf(VOTERS)
    type Answer = Awaited<ReturnType<typeof raft.handleFetch>>
    let answer: Answer | undefined
    const fetchAsB = (offset: number): void => {
      answer = undefined
      raft.handleFetch(fetchRequest('b', offset, 1, 1, 40)).then((r) => {
        answer = r
      })
    }
    // A caught-up fetch is held even when it moves the high watermark: b learns the watermark
    // with the next data or when the long poll ends (Kafka's lazy follower watermark).
    fetchAsB(1)
    await advance(clock, 10)
    expect(answer).toBeUndefined()
    expect(raft.highWatermark).toBe(1)
    await raft.appendAsLeader(batch('new'))
    await flush()
    expect([...iterateBatches(answer!.records)].map((b) => b.header.baseOffset)).toEqual([1])
    expect(answer?.highWatermark).toBe(1)
    fetchAsB(2)
    await advance(clock, 30)
    expect(answer).toBeUndefined()
    expect(raft.highWatermark).toBe(2)
    await advance(clock, 15)
    expect(answer).toMatchObject({ errorCode: 0, highWatermark: 2, records: new Uint8Array(0) })
    await raft.stop({ resign: false })
  })

  it('as a follower, truncates a diverged log and takes the leader high watermark capped at its end', async () => {
    const clock = new SimClock()
    const transport = new ScriptedTransport()
    const store = new MemoryQuorumStateStore({ epoch: 2, leaderId: 'a' })
    const { raft, log } = await replica({ id: 'b', voters: VOTERS, clock, transport, store })
    await log.appendAsLeader(batch('x'), 1)
    await log.appendAsLeader(batch('stale-1'), 1)
    await log.appendAsLeader(batch('stale-2'), 1)
    await raft.start()
    expect(raft.role).toBe('follower')
    await flush()
    const [first] = transport.take('fetch')
    expect(first?.request).toMatchObject({ fetchOffset: 3, lastFetchedEpoch: 1, currentLeaderEpoch: 2 })
    first!.resolve(fetchResponse({ leaderEpoch: 2, divergingEpoch: { epoch: 1, endOffset: 1 } }))
    await flush()
    expect(log.logEndOffset).toBe(1)
    const [second] = transport.take('fetch')
    expect(second?.request).toMatchObject({ fetchOffset: 1, lastFetchedEpoch: 1 })
    second!.resolve(fetchResponse({ leaderEpoch: 2, highWatermark: 9, records: storedBatch(1, 2, 'fresh') }))
    await flush()
    expect(log.logEndOffset).toBe(2)
    expect(log.latestEpoch()).toBe(2)
    expect(raft.highWatermark).toBe(2)
    await raft.stop()
  })

  it('never truncates below its high watermark, whatever a leader says', async () => {
    const clock = new SimClock()
    const transport = new ScriptedTransport()
    const store = new MemoryQuorumStateStore({ epoch: 2, leaderId: 'a' })
    const errors: string[] = []
    const logger = { debug() {}, info() {}, warn() {}, error: (_: object, msg?: string) => errors.push(msg ?? '') }
    const { raft, log } = await replica({ id: 'b', voters: VOTERS, clock, transport, store, logger })
    await log.appendAsLeader(batch('x', 'y'), 1)
    log.setHighWatermark(2)
    await raft.start()
    await flush()
    transport.take('fetch')[0]!.resolve(fetchResponse({ leaderEpoch: 2, divergingEpoch: { epoch: 1, endOffset: 0 } }))
    await flush()
    expect(log.logEndOffset).toBe(2)
    expect(errors).toEqual(['divergence below the HW'])
    await raft.stop()
  })

  it('ignores an answer to a fetch its log has since moved past', async () => {
    const clock = new SimClock()
    const transport = new ScriptedTransport()
    const store = new MemoryQuorumStateStore({ epoch: 2, leaderId: 'a' })
    const { raft, log } = await replica({ id: 'b', voters: VOTERS, clock, transport, store })
    await raft.start()
    await flush()
    const [call] = transport.take('fetch')
    await log.appendAsFollower(storedBatch(0, 2, 'moved'))
    call!.resolve(fetchResponse({ leaderEpoch: 2, highWatermark: 1, records: storedBatch(0, 2, 'late') }))
    await flush()
    expect(log.logEndOffset).toBe(1)
    expect(transport.take('fetch')[0]?.request).toMatchObject({ fetchOffset: 1 })
    await raft.stop()
  })

  it('a leader no longer fetched from by a majority resigns and tells the voters', async () => {
    const { raft, clock, transport } = await leaderOf(VOTERS)
    await advance(clock, 260)
    expect(raft.role).toBe('unattached')
    expect(raft.epoch).toBe(1)
    const ends = transport.take('endQuorumEpoch')
    expect(ends.map((c) => c.to)).toEqual(['b', 'c'])
    expect(ends[0]?.request).toMatchObject({ leaderId: 'a', leaderEpoch: 1 })
    await raft.stop()
  })

  it('a resigning leader makes its preferred successor stand at once', async () => {
    const clock = new SimClock()
    const transport = new ScriptedTransport()
    const store = new MemoryQuorumStateStore({ epoch: 1, leaderId: 'a' })
    const { raft } = await replica({ id: 'b', voters: VOTERS, clock, transport, store })
    await raft.start()
    await raft.handleEndQuorumEpoch({ partition: 'p', leaderId: 'a', leaderEpoch: 1, preferredSuccessors: ['b', 'c'] })
    await advance(clock, 5)
    // It asks for pre-votes first (KIP-996), still in epoch 1; a majority of them makes it stand.
    expect(raft.role).toBe('prospective')
    expect(raft.epoch).toBe(1)
    const preVotes = transport.take('vote')
    expect(preVotes.map((c) => [c.to, c.request.preVote, c.request.candidateEpoch])).toEqual([
      ['a', true, 2],
      ['c', true, 2],
    ])
    preVotes[1]!.resolve(grant(preVotes[1]!))
    await flush()
    expect(raft.role).toBe('candidate')
    expect(raft.epoch).toBe(2)
    expect(transport.take('vote').map((c) => [c.to, c.request.preVote])).toEqual([
      ['a', false],
      ['c', false],
    ])
    await raft.stop()
  })

  it('acks=all fails when leadership is lost or time runs out, and is bounded', async () => {
    const { raft, clock } = await leaderOf(VOTERS, { config: { maxPendingCommits: 2 } })
    const { lastOffset, leaderEpoch } = await raft.appendAsLeader(batch('x'))
    const settled = (p: Promise<void>) =>
      p.then(
        () => 'committed',
        (err: unknown) => err,
      )
    const timedOut = settled(raft.waitForCommit(lastOffset, { epoch: leaderEpoch, timeoutMs: 20 }))
    await advance(clock, 25)
    expect(await timedOut).toBeInstanceOf(RequestTimedOutError)
    const lost = settled(raft.waitForCommit(lastOffset, { epoch: leaderEpoch }))
    const second = settled(raft.waitForCommit(lastOffset, { epoch: leaderEpoch }))
    await expect(raft.waitForCommit(lastOffset, { epoch: leaderEpoch })).rejects.toThrow(NotEnoughReplicasError)
    await raft.handleVote(voteRequest('b', 2, 1, 5))
    expect(await lost).toBeInstanceOf(NotLeaderOrFollowerError)
    expect(await second).toBeInstanceOf(NotLeaderOrFollowerError)
    await expect(raft.appendAsLeader(batch('y'))).rejects.toThrow(NotLeaderOrFollowerError)
    await raft.stop()
  })

  it('observers replicate but never vote or count', async () => {
    const { raft } = await leaderOf(VOTERS, { observers: ['o'] })
    await raft.handleFetch(fetchRequest('o', 1, 1))
    expect(raft.highWatermark).toBe(0)
    expect(raft.inSyncVoters()).toEqual(['a'])
    await raft.stop({ resign: false })
    const clock = new SimClock()
    const observer = await replica({ id: 'o', voters: VOTERS, observers: ['o'], clock })
    await observer.raft.start()
    await expect(observer.raft.handleVote({ ...voteRequest('b', 1), voterId: 'o' })).rejects.toThrow(
      InvalidRequestError,
    )
    await advance(clock, 1000)
    expect(observer.raft.role).toBe('unattached')
    const probes = (observer.transport as ScriptedTransport).take('fetch')
    expect(probes.length).toBeGreaterThan(0)
    expect(probes.every((c) => VOTERS.includes(c.to))).toBe(true)
    await observer.raft.stop()
  })

  it('refuses malformed and misrouted requests without changing anything', async () => {
    const clock = new SimClock()
    const { raft, store } = await replica({ id: 'a', voters: VOTERS, clock })
    await raft.start()
    const saves = store.saves
    await expect(raft.handleVote({ ...voteRequest('b', 9), candidateId: '' })).rejects.toThrow(InvalidRequestError)
    await expect(raft.handleVote({ ...voteRequest('b', 9), lastOffset: -5 })).rejects.toThrow(InvalidRequestError)
    await expect(raft.handleVote({ ...voteRequest('b', 9), partition: 'q' })).rejects.toThrow(InvalidRequestError)
    await expect(raft.handleVote(voteRequest('stranger', 9))).rejects.toThrow(InvalidRequestError)
    await expect(raft.handleBeginQuorumEpoch({ partition: 'p', leaderId: 'stranger', leaderEpoch: 9 })).rejects.toThrow(
      InvalidRequestError,
    )
    await expect(raft.handleFetch({ ...fetchRequest('b', 0, -1), fetchOffset: 2 ** 60 })).rejects.toThrow(
      InvalidRequestError,
    )
    // Who leads is no secret (a learner asks it of any voter); records are only for replicas, on the leader.
    expect(await raft.handleFetch(fetchRequest('stranger', 0, -1))).toMatchObject({
      errorCode: ErrorCode.NOT_LEADER_OR_FOLLOWER,
      records: new Uint8Array(0),
    })
    expect(store.saves).toBe(saves)
    expect(raft.epoch).toBe(0)
    await raft.stop()
  })

  it('follows a leader that announces itself, and reports the change', async () => {
    const clock = new SimClock()
    const { raft, transport } = await replica({ id: 'b', voters: VOTERS, clock })
    const roles: string[] = []
    raft.onChange((c) => roles.push(`${c.role}:${c.leaderId ?? '-'}:${c.epoch}`))
    await raft.start()
    const answer = await raft.handleBeginQuorumEpoch({ partition: 'p', leaderId: 'c', leaderEpoch: 3 })
    expect(answer).toMatchObject({ errorCode: 0, leaderEpoch: 3, leaderId: 'c' })
    expect((await raft.handleBeginQuorumEpoch({ partition: 'p', leaderId: 'a', leaderEpoch: 2 })).errorCode).toBe(
      ErrorCode.FENCED_LEADER_EPOCH,
    )
    await flush()
    expect((transport as ScriptedTransport).take('fetch')[0]?.to).toBe('c')
    expect(roles).toEqual(['unattached:-:0', 'follower:c:3'])
    await raft.stop()
    await raft.stop()
  })

  it('the first remaining voter stands first when the leader is lost', async () => {
    const clock = new SimClock()
    const { raft } = await replica({ id: 'a', voters: VOTERS, clock })
    await raft.start()
    await raft.handleBeginQuorumEpoch({ partition: 'p', leaderId: 'c', leaderEpoch: 3 })
    await raft.leaderUnreachable('c')
    // Within the first half of its turn of 100 ms / 3 voters.
    await advance(clock, 17)
    expect(raft.role).toBe('prospective')
    await raft.stop()
  })

  it('stands soon after losing the connection to its leader, and ignores other peers going away', async () => {
    const clock = new SimClock()
    const { raft, transport } = await replica({ id: 'b', voters: VOTERS, clock })
    await raft.start()
    await raft.handleBeginQuorumEpoch({ partition: 'p', leaderId: 'c', leaderEpoch: 3 })
    await raft.leaderUnreachable('a')
    // Well before the fetch timeout (200 ms here), but only after the leader itself is gone.
    await advance(clock, 60)
    expect(raft.role).toBe('follower')
    await raft.leaderUnreachable('c')
    // b is second of the remaining voters [a, b]: it waits out a's turn (100 ms / 3 voters) first.
    await advance(clock, 30)
    expect(raft.role).toBe('follower')
    await advance(clock, 30)
    expect(raft.role).toBe('prospective')
    expect(raft.epoch).toBe(3)
    expect(
      (transport as ScriptedTransport)
        .take('vote')
        .map((c) => `${c.to}:${c.request.preVote}`)
        .sort(),
    ).toEqual(['a:true', 'c:true'])
    await raft.stop()
  })
})
