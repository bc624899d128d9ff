import { Rng } from '@tributary/test-utils/simulation'
import { describe, expect, it } from 'vitest'
import {
  type AssignorInput,
  assignmentProblems,
  BUILTIN_ASSIGNORS,
  cooperativeStickyAssignor,
  type GroupAssignment,
  keyOf,
  stickyTarget,
} from '../../src/index.ts'
import { owners, randomInput, shuffled, subscribedPartitions, withRandomOwnership } from './helpers.ts'

const SEEDS = 300

function sizes(assignment: GroupAssignment): number[] {
  return [...assignment.values()].map((list) => list.length)
}

function spread(assignment: GroupAssignment): number {
  const s = sizes(assignment)
  return s.length === 0 ? 0 : Math.max(...s) - Math.min(...s)
}

function expectEveryPartitionOnce(input: AssignorInput, assignment: GroupAssignment): void {
  expect(assignmentProblems(input, assignment)).toEqual([])
  const holders = owners(assignment)
  // Every partition of a subscribed topic that someone can take has exactly one owner.
  const expected = input.members.length === 0 ? [] : subscribedPartitions(input)
  expect([...holders.keys()].sort()).toEqual(expected.map(keyOf).sort())
  for (const list of holders.values()) expect(list).toHaveLength(1)
}

/** Partitions that stay with the member holding them, at best, in a balanced assignment (uniform case). */
function bestKept(input: AssignorInput): number {
  const total = subscribedPartitions(input).length
  const m = input.members.length
  const min = Math.floor(total / m)
  const extra = total % m
  const held = input.members.map((x) => x.owned.length).sort((a, b) => b - a)
  return held.reduce((sum, h, i) => sum + Math.min(h, i < extra ? min + 1 : min), 0)
}

describe('assignors > properties (seeded)', () => {
  for (const assignor of BUILTIN_ASSIGNORS) {
    it(`${assignor.name}: every subscribed partition owned exactly once, subscriptions respected`, () => {
      for (let seed = 1; seed <= SEEDS; seed++) {
        const rng = new Rng(seed)
        const input = randomInput(rng, { uniform: rng.chance(0.5) })
        const assignment = assignor.name === 'cooperative-sticky' ? stickyTarget(input) : assignor.assign(input)
        expectEveryPartitionOnce(input, assignment)
      }
    })

    it(`${assignor.name}: same input in any order gives the same assignment`, () => {
      for (let seed = 1; seed <= SEEDS; seed++) {
        const rng = new Rng(seed)
        const input = withRandomOwnership(rng, randomInput(rng, { uniform: rng.chance(0.5) }))
        const expected = assignor.assign(input)
        for (let i = 0; i < 3; i++) expect(assignor.assign(shuffled(rng, input))).toEqual(expected)
      }
    })
  }

  it('round-robin and cooperative-sticky: uniform subscriptions are balanced within one', () => {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const rng = new Rng(seed)
      const input = withRandomOwnership(rng, randomInput(rng, { uniform: true }))
      expect(spread(BUILTIN_ASSIGNORS.find((a) => a.name === 'roundrobin')!.assign(input))).toBeLessThanOrEqual(1)
      expect(spread(stickyTarget(input))).toBeLessThanOrEqual(1)
    }
  })

  it('range: uniform subscriptions are balanced within one per topic', () => {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const rng = new Rng(seed)
      const input = randomInput(rng, { uniform: true })
      const assignment = BUILTIN_ASSIGNORS.find((a) => a.name === 'range')!.assign(input)
      for (const topic of input.partitionCounts.keys()) {
        const perTopic = [...assignment.values()].map((list) => list.filter((tp) => tp.topic === topic).length)
        if (input.members.some((m) => m.topics.includes(topic))) {
          expect(Math.max(...perTopic) - Math.min(...perTopic)).toBeLessThanOrEqual(1)
        }
      }
    }
  })

  it('cooperative-sticky: keeps as many partitions in place as any balanced assignment can', () => {
    let moves = 0
    for (let seed = 1; seed <= SEEDS; seed++) {
      const rng = new Rng(seed)
      const input = withRandomOwnership(rng, randomInput(rng, { uniform: true }))
      if (input.members.length === 0) continue
      const target = stickyTarget(input)
      let kept = 0
      for (const m of input.members) {
        const mine = new Set(target.get(m.memberId)!.map(keyOf))
        kept += m.owned.filter((tp) => mine.has(keyOf(tp))).length
        moves += m.owned.length - m.owned.filter((tp) => mine.has(keyOf(tp))).length
      }
      expect(kept).toBe(bestKept(input))
    }
    expect(moves).toBeGreaterThan(0) // the generator does produce groups that must move something
  })

  it('cooperative-sticky: never assigns what another member holds, and settles in the next generation', () => {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const rng = new Rng(seed)
      const input = withRandomOwnership(rng, randomInput(rng, { uniform: rng.chance(0.5) }))
      const round1 = cooperativeStickyAssignor.assign(input)
      const heldBy = new Map(input.members.flatMap((m) => m.owned.map((tp) => [keyOf(tp), m.memberId] as const)))
      for (const [memberId, list] of round1) {
        for (const tp of list) expect([undefined, memberId]).toContain(heldBy.get(keyOf(tp)))
      }
      // Members revoke what round 1 took away and rejoin holding their round-1 assignment.
      const next = { ...input, members: input.members.map((m) => ({ ...m, owned: round1.get(m.memberId)! })) }
      const round2 = cooperativeStickyAssignor.assign(next)
      expectEveryPartitionOnce(input, round2)
      if (input.members.every((m) => m.topics.join() === input.members[0]!.topics.join())) {
        expect(spread(round2)).toBeLessThanOrEqual(1)
      }
      // And it is a fixed point: a third round changes nothing.
      const again = { ...input, members: input.members.map((m) => ({ ...m, owned: round2.get(m.memberId)! })) }
      expect(cooperativeStickyAssignor.assign(again)).toEqual(round2)
    }
  })
})
