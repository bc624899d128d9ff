/**
 * The choice of a read replica (KIP-392 by locality): the peer's own replica within what it holds
 * committed, else (with 'nearby') a directly connected observer its leader reports caught up.
 * Deterministic: a fake clock, and leader views handed in by the test.
 */
import { describe, expect, it } from 'vitest'
import type { ReplicaStateMetadata } from '../../src/broker.ts'
import {
  type LeaderView,
  type LocalReplica,
  ReadReplicas,
  type ReadReplicasOptions,
} from '../../src/cluster/read-replicas.ts'

const SELF = 'self'
const LEADER = 'leader'

function observer(peerId: string, logEndOffset: number, caughtUpMsAgo = 0): ReplicaStateMetadata {
  return { peerId, voter: false, logEndOffset, caughtUpMsAgo }
}

function setup(
  options: Partial<ReadReplicasOptions> & {
    replicas?: ReplicaStateMetadata[]
    direct?: string[]
    local?: (topic: string, partition: number) => LocalReplica | undefined
  } = {},
) {
  const clock = { now: 1_000_000 }
  const asked: string[] = []
  const state = {
    replicas: options.replicas ?? [],
    direct: new Set(options.direct ?? []),
    fail: false,
  }
  const replicas = new ReadReplicas({
    readFrom: 'nearby',
    selfPeerId: SELF,
    connectedDirectly: (peerId) => state.direct.has(peerId),
    leaderViews: async (topic): Promise<LeaderView[]> => {
      asked.push(topic)
      if (state.fail) throw new Error('leader unreachable')
      return [{ partition: 0, leader: LEADER, replicaStates: state.replicas }]
    },
    now: () => clock.now,
    ...options,
  })
  const choose = (offset: number, partition = 0): Promise<string | undefined> => replicas.choose('t', partition, offset)
  return { replicas, clock, asked, state, choose }
}

describe('client > cluster > read replicas', () => {
  it('reads the own replica within [log start, high watermark), the leader outside it', async () => {
    const { replicas } = setup({ readFrom: 'local', local: () => ({ logStartOffset: 10, highWatermark: 20 }) })
    expect(await replicas.choose('t', 0, 9)).toBeUndefined()
    expect(await replicas.choose('t', 0, 10)).toBe(SELF)
    expect(await replicas.choose('t', 0, 19)).toBe(SELF)
    expect(await replicas.choose('t', 0, 20)).toBeUndefined()
  })

  it("'leader' never picks a replica, and 'local' never looks nearby", async () => {
    const near = [observer('near', 100)]
    const leaderOnly = setup({ readFrom: 'leader', replicas: near, direct: ['near'] })
    expect(await leaderOnly.choose(5)).toBeUndefined()
    const localOnly = setup({ readFrom: 'local', replicas: near, direct: ['near'] })
    expect(await localOnly.choose(5)).toBeUndefined()
    expect(localOnly.asked).toEqual([])
  })

  it('picks a directly connected, caught-up observer that holds the offset, waiting for the first view', async () => {
    const { replicas, choose, asked } = setup({ replicas: [observer('near', 100)], direct: ['near'] })
    expect(await replicas.choose('t', 0, 0)).toBe('near')
    expect(asked).toEqual(['t'])
    // Its log end may equal the offset: it long-polls there, as the leader would.
    expect(await replicas.choose('t', 0, 100)).toBe('near')
    expect(await replicas.choose('t', 0, 101)).toBeUndefined()
    // Partitions the leader did not describe are read from the leader.
    expect(await choose(0, 1)).toBeUndefined()
  })

  it('passes over voters, the leader, relayed or unconnected peers, and laggards', async () => {
    const { choose, state } = setup({
      replicas: [
        { peerId: 'voter', voter: true, logEndOffset: 100, caughtUpMsAgo: 0 },
        observer(LEADER, 100),
        observer(SELF, 100),
        observer('relayed', 100),
        observer('stale', 100, 60_000),
        observer('never', 100, -1),
      ],
      direct: ['voter', LEADER, SELF, 'stale', 'never'],
    })
    expect(await choose(0)).toBeUndefined()
    state.direct.add('relayed')
    const again = setup({ replicas: state.replicas, direct: [...state.direct] })
    expect(await again.choose(0)).toBe('relayed')
  })

  it('prefers the most recently caught-up of several', async () => {
    const { choose } = setup({
      replicas: [observer('slower', 100, 900), observer('fresher', 100, 50), observer('slowest', 100, 5000)],
      direct: ['slower', 'fresher', 'slowest'],
    })
    expect(await choose(0)).toBe('fresher')
  })

  it('does not read a partition it replicates itself from a neighbour', async () => {
    const { choose } = setup({
      local: () => ({ logStartOffset: 0, highWatermark: 10 }),
      replicas: [observer('near', 100)],
      direct: ['near'],
    })
    expect(await choose(5)).toBe(SELF)
    // Past its own high watermark: the leader (its own replica will have it soon), not a neighbour.
    expect(await choose(10)).toBeUndefined()
  })

  it('sets a failed replica aside for the partition for avoidMs, then tries it again', async () => {
    const { replicas, clock, choose } = setup({
      replicas: [observer('near', 100)],
      direct: ['near'],
      avoidMs: 10_000,
      viewMaxAgeMs: 1_000_000,
    })
    expect(await choose(0)).toBe('near')
    replicas.failed('t', 0, 'near')
    expect(await replicas.choose('t', 0, 0)).toBeUndefined()
    clock.now += 9_999
    expect(await replicas.choose('t', 0, 0)).toBeUndefined()
    clock.now += 1
    expect(await replicas.choose('t', 0, 0)).toBe('near')
  })

  it('an own replica that failed is set aside too', async () => {
    const { replicas } = setup({ readFrom: 'local', local: () => ({ logStartOffset: 0, highWatermark: 20 }) })
    expect(await replicas.choose('t', 0, 5)).toBe(SELF)
    replicas.failed('t', 0, SELF)
    expect(await replicas.choose('t', 0, 5)).toBeUndefined()
  })

  it('asks the leaders again only once the view is viewMaxAgeMs old, and after a failure waits as long', async () => {
    const { replicas, clock, asked, state } = setup({
      replicas: [observer('near', 100)],
      direct: ['near'],
      viewMaxAgeMs: 5_000,
    })
    // Two first uses at once: one request, both wait for it.
    expect(await Promise.all([replicas.choose('t', 0, 0), replicas.choose('t', 0, 0)])).toEqual(['near', 'near'])
    expect(asked).toEqual(['t'])
    clock.now += 4_999
    await replicas.choose('t', 0, 0)
    expect(asked).toHaveLength(1)
    clock.now += 1
    state.fail = true
    // A refresh runs beside the fetches once there is a view: this choice uses the old one.
    expect(await replicas.choose('t', 0, 0)).toBe('near')
    await replicas.settled()
    expect(asked).toHaveLength(2)
    // The failed refresh keeps the view it had; its age counts against the replica's lag.
    clock.now += 4_999
    expect(await replicas.choose('t', 0, 0)).toBe('near')
    expect(asked).toHaveLength(2)
    // Past maxLag (10 s) counting the view's age, the replica is no longer trusted.
    clock.now += 6_000
    expect(await replicas.choose('t', 0, 0)).toBeUndefined()
    expect(asked).toHaveLength(3)
  })

  it('reads from the leader when the first view cannot be had, and asks again only viewMaxAgeMs later', async () => {
    const { replicas, clock, asked, state } = setup({ replicas: [observer('near', 100)], direct: ['near'] })
    state.fail = true
    expect(await replicas.choose('t', 0, 0)).toBeUndefined()
    expect(await replicas.choose('t', 0, 0)).toBeUndefined()
    expect(asked).toHaveLength(1)
    state.fail = false
    clock.now += 5_000
    expect(await replicas.choose('t', 0, 0)).toBe('near')
    expect(asked).toHaveLength(2)
  })

  it('a first view that never comes holds a fetch up only until refreshTimeoutMs, or until its signal aborts', async () => {
    const hanging = new ReadReplicas({
      readFrom: 'nearby',
      selfPeerId: SELF,
      connectedDirectly: () => true,
      // Ignores its signal: the wait must still end.
      leaderViews: () => new Promise<LeaderView[]>(() => {}),
      refreshTimeoutMs: 50,
    })
    expect(await hanging.choose('t', 0, 0)).toBeUndefined()
    const other = new ReadReplicas({
      readFrom: 'nearby',
      selfPeerId: SELF,
      connectedDirectly: () => true,
      leaderViews: () => new Promise<LeaderView[]>(() => {}),
      refreshTimeoutMs: 60_000,
    })
    const stop = new AbortController()
    const choosing = other.choose('t', 0, 0, stop.signal)
    stop.abort(new Error('consumer stopped'))
    await expect(choosing).rejects.toThrow('consumer stopped')
    other.close()
  })
})
