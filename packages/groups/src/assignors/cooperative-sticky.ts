/**
 * Kafka's CooperativeStickyAssignor (KIP-429): a balanced assignment that keeps partitions where
 * they are as far as balance allows (see sticky-balance.ts), made incremental. A partition that
 * moves from A to B is left out of B's assignment in this generation; A, told to give it up,
 * revokes it and rejoins, and the next generation hands it to B. So no partition ever has two
 * owners, not even for the moment between A's and B's assignments taking effect.
 *
 * Ownership claims are cleaned first: claims on topics a member no longer subscribes to, on
 * partitions that do not exist, and on partitions claimed by more than one member (Kafka's rule
 * without generations: nobody's) are dropped.
 */
import { compareTopicPartitions, keyOf, type TopicPartition } from '../topic-partition.js'
import { sortMembers, subscribedTopics } from './member-order.js'
import { generalTarget, uniformTarget } from './sticky-balance.js'
import type { Assignor, AssignorInput, AssignorMember, GroupAssignment } from './types.js'

export function assignCooperativeSticky(input: AssignorInput): GroupAssignment {
  const target = stickyTarget(input)
  const owner = validOwnership(input)
  const result: GroupAssignment = new Map()
  for (const [memberId, list] of target) {
    result.set(
      memberId,
      list.filter((tp) => {
        const holder = owner.get(keyOf(tp))
        return holder === undefined || holder === memberId
      }),
    )
  }
  return result
}

/** The balanced target before the incremental step: where every partition should end up. */
export function stickyTarget(input: AssignorInput): GroupAssignment {
  const members = sortMembers(input.members)
  const partitions: TopicPartition[] = []
  for (const topic of subscribedTopics(members, input.partitionCounts)) {
    const count = input.partitionCounts.get(topic) ?? 0
    for (let partition = 0; partition < count; partition++) partitions.push({ topic, partition })
  }
  const owner = validOwnership(input)
  const owned = new Map<string, TopicPartition[]>(members.map((m) => [m.memberId, []]))
  for (const member of members) {
    for (const tp of member.owned) if (owner.get(keyOf(tp)) === member.memberId) owned.get(member.memberId)!.push(tp)
  }
  const uniform = members.every((member) => sameTopics(member, members[0]!, input.partitionCounts))
  const stickyInput = { members, owned, partitions }
  const target = uniform ? uniformTarget(stickyInput) : generalTarget(stickyInput)
  for (const list of target.values()) list.sort(compareTopicPartitions)
  return target
}

/** Partition key → the one member whose claim on it stands. */
function validOwnership(input: AssignorInput): Map<string, string> {
  const owner = new Map<string, string>()
  const contested = new Set<string>()
  for (const member of input.members) {
    for (const tp of member.owned) {
      const count = input.partitionCounts.get(tp.topic) ?? 0
      if (!member.topics.includes(tp.topic) || tp.partition < 0 || tp.partition >= count) continue
      const key = keyOf(tp)
      const existing = owner.get(key)
      if (existing === undefined && !contested.has(key)) owner.set(key, member.memberId)
      else if (existing !== member.memberId) {
        owner.delete(key)
        contested.add(key)
      }
    }
  }
  return owner
}

function sameTopics(a: AssignorMember, b: AssignorMember, counts: ReadonlyMap<string, number>): boolean {
  const existing = (member: AssignorMember): string[] =>
    [...new Set(member.topics)].filter((topic) => (counts.get(topic) ?? 0) > 0).sort()
  const ta = existing(a)
  const tb = existing(b)
  return ta.length === tb.length && ta.every((topic, i) => topic === tb[i])
}

export const cooperativeStickyAssignor: Assignor = {
  name: 'cooperative-sticky',
  rebalanceProtocol: 'cooperative',
  assign: assignCooperativeSticky,
}
