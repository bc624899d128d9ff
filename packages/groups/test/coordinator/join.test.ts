import { ErrorCode } from '@tributary/wire'
import { describe, expect, it } from 'vitest'
import { decodeGroupMetadataValue, decodeOffsetsKey, type GroupRequest } from '../../src/index.ts'
import { Driver, GROUP, only, partitions, tp } from './driver.ts'

describe('coordinator > join and sync', () => {
  it("a member's sync that arrives after the next rebalance began still gets its assignment and revocations", () => {
    // a and b own everything in generation 2; c joins. a rejoins first after revoking, which starts
    // generation 4's rebalance before b's sync of generation 3 arrives: b still learns in generation
    // 3 what to give up (Kafka answers REBALANCE_IN_PROGRESS, which costs b's share a third round).
    const d = new Driver()
    d.join('a')
    d.sync('a', 1)
    d.join('b')
    d.join('a', { memberId: 'c-a', owned: tp(0, 1, 2, 3, 4, 5), ownedGeneration: 1 })
    d.sync('a', 2)
    d.sync('b', 2)
    d.join('a', { memberId: 'c-a', owned: tp(...d.assignmentOf('a')), ownedGeneration: 2 })
    d.join('b', { memberId: 'c-b', owned: [], ownedGeneration: 2 })
    d.sync('a', 3)
    d.sync('b', 3)
    expect(d.describe()?.state).toBe('Stable')
    const a3 = d.assignmentOf('a')
    const b3 = d.assignmentOf('b')
    expect([a3.length, b3.length]).toEqual([3, 3])

    d.join('c')
    d.join('a', { memberId: 'c-a', owned: tp(...a3), ownedGeneration: 3 })
    d.join('b', { memberId: 'c-b', owned: tp(...b3), ownedGeneration: 3 })
    const syncA = only(d.sync('a', 4))
    const revokedByA = partitions(syncA, 'revoke')
    expect(revokedByA).toHaveLength(1)
    d.join('a', { memberId: 'c-a', owned: tp(...partitions(syncA)), ownedGeneration: 4 })
    expect(d.describe()?.state).toBe('PreparingRebalance')
    const syncB = only(d.sync('b', 4))
    expect(syncB).toMatchObject({ kind: 'sync', errorCode: 0, generation: 4 })
    const revokedByB = partitions(syncB, 'revoke')
    expect(revokedByB).toHaveLength(1)
    // b rejoins having released its share and c rejoins: generation 5 gives c both partitions.
    d.join('b', { memberId: 'c-b', owned: tp(...partitions(syncB)), ownedGeneration: 4 })
    d.join('c', { memberId: 'c-c', owned: [], ownedGeneration: 4 })
    expect(partitions(only(d.sync('c', 5)))).toEqual([...revokedByA, ...revokedByB].sort((x, y) => x - y))
  })

  it('gives a first member generation 1 and every partition; persists the group before answering', () => {
    const d = new Driver()
    const join = only(d.join('a'))
    expect(join).toMatchObject({
      kind: 'join',
      errorCode: 0,
      generation: 1,
      memberId: 'c-a',
      protocol: 'cooperative-sticky',
    })
    expect(join.sessionRenewed).toBe(true)
    expect(d.describe()?.state).toBe('CompletingRebalance')
    expect(d.records).toHaveLength(1)
    expect(decodeOffsetsKey(d.records[0]!.key)).toEqual({ type: 'group', groupId: GROUP })
    const value = decodeGroupMetadataValue(d.records[0]!.value!)
    expect(value).toMatchObject({ generation: 1, protocol: 'cooperative-sticky' })
    expect(value.members.map((m) => m.memberId)).toEqual(['c-a'])
    const sync = only(d.sync('a', 1))
    expect(partitions(sync)).toEqual([0, 1, 2, 3, 4, 5])
    expect(partitions(sync, 'revoke')).toEqual([])
    expect(d.describe()?.state).toBe('Stable')
  })

  it('cooperative-sticky: revokes what moves in one generation and assigns it in the next', () => {
    const d = new Driver()
    d.join('a')
    d.sync('a', 1)
    expect(d.join('b')).toEqual([]) // waits for the rebalance to complete
    expect(d.describe()?.state).toBe('PreparingRebalance')
    expect(only(d.heartbeat('a', 1))).toMatchObject({
      errorCode: ErrorCode.REBALANCE_IN_PROGRESS,
      sessionRenewed: true,
    })
    const joins = d.join('a', { memberId: 'c-a', owned: tp(0, 1, 2, 3, 4, 5), ownedGeneration: 1 })
    expect(joins.map((r) => [r.recipient, r.kind === 'join' && r.generation])).toEqual([
      ['a', 2],
      ['b', 2],
    ])
    const syncA = only(d.sync('a', 2))
    expect(partitions(syncA)).toEqual([0, 1, 2])
    expect(partitions(syncA, 'revoke')).toEqual([3, 4, 5])
    // b's share is still held by a: nothing for b in this generation, and b cannot commit it.
    expect(partitions(only(d.sync('b', 2)))).toEqual([])
    expect(d.describe()?.state).toBe('Stable')
    const commit = only(d.commit('b', 2, [{ partition: 3 }]))
    expect(commit.kind === 'commit' && commit.results[0]!.errorCode).toBe(ErrorCode.ILLEGAL_GENERATION)
    // a revoked 3-5 and rejoins reporting what it still holds: the next generation hands them to b.
    expect(d.join('a', { memberId: 'c-a', owned: tp(0, 1, 2), ownedGeneration: 2 })).toEqual([])
    expect(d.describe()?.state).toBe('PreparingRebalance')
    expect(d.join('b', { memberId: 'c-b', owned: [], ownedGeneration: 2 })).toHaveLength(2)
    expect(partitions(only(d.sync('a', 3)))).toEqual([0, 1, 2])
    expect(partitions(only(d.sync('b', 3)))).toEqual([3, 4, 5])
  })

  it('eager (range): members revoke everything before rejoining, so the new owner gets its share at once', () => {
    const d = new Driver()
    d.join('a', { protocols: ['range'] })
    d.sync('a', 1)
    d.join('b', { protocols: ['range'] })
    d.join('a', { memberId: 'c-a', protocols: ['range'], owned: [], ownedGeneration: 1 })
    expect(partitions(only(d.sync('a', 2)))).toEqual([0, 1, 2])
    expect(partitions(only(d.sync('b', 2)))).toEqual([3, 4, 5])
  })

  it('withholds a partition another member still holds whatever the assignor', () => {
    const d = new Driver()
    d.join('a', { protocols: ['range'] })
    d.sync('a', 1)
    d.join('b', { protocols: ['range'] })
    // a rejoins still holding everything (a misbehaving eager member, or a cooperative one).
    d.join('a', { memberId: 'c-a', protocols: ['range'], owned: tp(0, 1, 2, 3, 4, 5), ownedGeneration: 1 })
    expect(partitions(only(d.sync('a', 2)), 'revoke')).toEqual([3, 4, 5])
    expect(partitions(only(d.sync('b', 2)))).toEqual([])
  })

  it('waits the initial rebalance delay, extended by each new member, so a starting group forms in one generation', () => {
    const d = new Driver({ orders: 6 }, { initialRebalanceDelayMs: 500 })
    expect(d.join('a')).toEqual([])
    expect(d.coordinator.nextDeadline()).toBe(1_500)
    expect(d.advance(200)).toEqual([])
    expect(d.join('b')).toEqual([])
    expect(d.advance(400)).toEqual([])
    const answers = d.advance(200)
    expect(answers.map((r) => r.kind === 'join' && [r.recipient, r.generation])).toEqual([
      ['a', 1],
      ['b', 1],
    ])
  })

  it('gives a duplicated first join the same member, and drops a join overtaken by a later request', () => {
    const d = new Driver()
    const first: GroupRequest = {
      groupId: GROUP,
      sender: 'a',
      requestId: 1,
      kind: 'join',
      memberId: '',
      groupInstanceId: undefined,
      clientId: 'c',
      protocolType: 'consumer',
      protocols: ['range'],
      sessionTimeoutMs: 1_000,
      rebalanceTimeoutMs: 3_000,
      topics: ['orders'],
      owned: [],
      ownedGeneration: -1,
      reason: '',
      startedAt: 1,
    }
    expect(only(d.handle(first))).toMatchObject({ memberId: 'c-a', generation: 1 })
    expect(only(d.handle(first))).toMatchObject({ memberId: 'c-a', generation: 1 })
    d.nextId('a')
    d.sync('a', 1)
    expect(d.handle(first)).toEqual([])
    expect(d.describe()?.members).toHaveLength(1)
    expect(d.describe()?.generation).toBe(1)
  })

  it('refuses unknown members and the late first join of a removed one', () => {
    const d = new Driver()
    expect(only(d.join('x', { memberId: 'c-nobody' }))).toMatchObject({ errorCode: ErrorCode.UNKNOWN_MEMBER_ID })
    d.join('a')
    d.sync('a', 1)
    d.leave('a')
    expect(only(d.join('a'))).toMatchObject({ errorCode: ErrorCode.UNKNOWN_MEMBER_ID })
  })

  it('refuses members whose protocols fit no one, bad session timeouts, and members beyond the group size', () => {
    const d = new Driver({ orders: 6 }, { maxGroupSize: 2 })
    d.join('a', { protocols: ['range'] })
    expect(only(d.join('b', { protocols: ['roundrobin'] }))).toMatchObject({
      errorCode: ErrorCode.INCONSISTENT_GROUP_PROTOCOL,
    })
    expect(only(d.join('c', { protocols: ['no-such-assignor'] }))).toMatchObject({
      errorCode: ErrorCode.INCONSISTENT_GROUP_PROTOCOL,
    })
    expect(only(d.join('e', { session: 50 }))).toMatchObject({ errorCode: ErrorCode.INVALID_SESSION_TIMEOUT })
    expect(d.join('f', { protocols: ['range', 'roundrobin'] })).toEqual([])
    expect(only(d.join('g', { protocols: ['range'] }))).toMatchObject({ errorCode: ErrorCode.GROUP_MAX_SIZE_REACHED })
  })

  it('picks the assignor most members prefer among those all support', () => {
    const d = new Driver({ orders: 6 }, { initialRebalanceDelayMs: 100 })
    d.join('a', { protocols: ['range', 'roundrobin'] })
    d.join('b', { protocols: ['roundrobin', 'range'] })
    d.join('c', { protocols: ['roundrobin', 'cooperative-sticky', 'range'] })
    const answers = d.advance(100)
    expect(answers.map((r) => r.kind === 'join' && r.protocol)).toEqual(['roundrobin', 'roundrobin', 'roundrobin'])
  })

  it('answers a retried join of a member that missed its answer with the current generation, without a rebalance', () => {
    const d = new Driver()
    d.join('a')
    d.sync('a', 1)
    d.join('b')
    d.join('a', { memberId: 'c-a', owned: tp(0, 1, 2, 3, 4, 5), ownedGeneration: 1 })
    // b's answer for generation 2 was lost; it retries with what it had (nothing, generation -1).
    expect(only(d.join('b', { memberId: 'c-b' }))).toMatchObject({ generation: 2, memberId: 'c-b' })
    expect(d.describe()).toMatchObject({ state: 'CompletingRebalance', generation: 2 })
  })

  it('answers malformed requests with INVALID_REQUEST, and ignores ones it cannot address', () => {
    const d = new Driver()
    const bad = { groupId: GROUP, sender: 's', requestId: 1, kind: 'heartbeat', memberId: '', generation: 1 }
    expect(only(d.handle(bad as GroupRequest))).toMatchObject({
      errorCode: ErrorCode.INVALID_REQUEST,
      kind: 'heartbeat',
    })
    expect(d.handle({ ...bad, sender: '' } as GroupRequest)).toEqual([])
    expect(d.handle({ kind: 'commit' } as unknown as GroupRequest)).toEqual([])
    const commitWithoutOffsets = {
      groupId: GROUP,
      sender: 's',
      requestId: 2,
      kind: 'commit',
      memberId: 'm',
      generation: 1,
    }
    expect(only(d.handle(commitWithoutOffsets as unknown as GroupRequest))).toMatchObject({
      errorCode: ErrorCode.INVALID_REQUEST,
    })
  })
})
