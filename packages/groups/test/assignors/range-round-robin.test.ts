import { describe, expect, it } from 'vitest'
import { assignRange, assignRoundRobin } from '../../src/index.ts'
import { counts, member, names } from './helpers.ts'

describe('assignors > range', () => {
  it('gives consecutive ranges per topic, the first members one extra (Kafka RangeAssignorTest)', () => {
    const result = assignRange({
      members: [member('c1', ['t1', 't2']), member('c0', ['t1', 't2'])],
      partitionCounts: counts({ t1: 3, t2: 3 }),
    })
    expect(names(result)).toEqual({ c0: 't1-0 t1-1 t2-0 t2-1', c1: 't1-2 t2-2' })
  })

  it('splits each topic only among its subscribers', () => {
    const result = assignRange({
      members: [member('a', ['t1']), member('b', ['t1', 't2']), member('c', ['t2'])],
      partitionCounts: counts({ t1: 2, t2: 3 }),
    })
    expect(names(result)).toEqual({ a: 't1-0', b: 't1-1 t2-0 t2-1', c: 't2-2' })
  })

  it('leaves members beyond the partition count idle', () => {
    const result = assignRange({
      members: ['a', 'b', 'c', 'd'].map((id) => member(id, ['t'])),
      partitionCounts: counts({ t: 2 }),
    })
    expect(names(result)).toEqual({ a: 't-0', b: 't-1', c: '', d: '' })
  })

  it('orders static members first, by instance id, so a restart (new member id) keeps its ranges', () => {
    const before = assignRange({
      members: [member('zz-1', ['t'], [], 'i-a'), member('aa-1', ['t'], [], 'i-b'), member('dyn', ['t'])],
      partitionCounts: counts({ t: 3 }),
    })
    const after = assignRange({
      members: [member('yy-2', ['t'], [], 'i-a'), member('aa-1', ['t'], [], 'i-b'), member('dyn', ['t'])],
      partitionCounts: counts({ t: 3 }),
    })
    expect(names(before)).toEqual({ 'zz-1': 't-0', 'aa-1': 't-1', dyn: 't-2' })
    expect(names(after)).toEqual({ 'yy-2': 't-0', 'aa-1': 't-1', dyn: 't-2' })
  })

  it('skips topics that do not exist and gives empty lists to members with nothing', () => {
    const result = assignRange({ members: [member('a', ['missing'])], partitionCounts: counts({}) })
    expect(names(result)).toEqual({ a: '' })
  })
})

describe('assignors > round-robin', () => {
  it('deals all partitions in (topic, partition) order around the members (Kafka RoundRobinAssignorTest)', () => {
    const result = assignRoundRobin({
      members: [member('c0', ['t1', 't2']), member('c1', ['t1', 't2'])],
      partitionCounts: counts({ t1: 3, t2: 3 }),
    })
    expect(names(result)).toEqual({ c0: 't1-0 t1-2 t2-1', c1: 't1-1 t2-0 t2-2' })
  })

  it('skips members not subscribed to a partition’s topic (Kafka testMultipleConsumersMixedTopics)', () => {
    const result = assignRoundRobin({
      members: [member('consumer1', ['t1']), member('consumer2', ['t1', 't2']), member('consumer3', ['t1'])],
      partitionCounts: counts({ t1: 3, t2: 2 }),
    })
    expect(names(result)).toEqual({ consumer1: 't1-0', consumer2: 't1-1 t2-0 t2-1', consumer3: 't1-2' })
  })

  it('returns an empty assignment for an empty group', () => {
    expect(assignRoundRobin({ members: [], partitionCounts: counts({ t: 3 }) }).size).toBe(0)
  })
})
