/**
 * Kafka's RangeAssignor: topic by topic, the members subscribed to it (in member order) get
 * consecutive ranges of its partitions; the first `partitions % members` get one extra. Members
 * beyond the partition count get none of that topic.
 */
import { sortTopicPartitions, type TopicPartition } from '../topic-partition.js'
import { emptyAssignment, sortMembers, subscribedTopics } from './member-order.js'
import type { Assignor, AssignorInput, GroupAssignment } from './types.js'

export function assignRange(input: AssignorInput): GroupAssignment {
  const result = new Map<string, TopicPartition[]>(emptyAssignment(input.members))
  const members = sortMembers(input.members)
  for (const topic of subscribedTopics(members, input.partitionCounts)) {
    const count = input.partitionCounts.get(topic) ?? 0
    const consumers = members.filter((member) => member.topics.includes(topic))
    const perMember = Math.floor(count / consumers.length)
    const extra = count % consumers.length
    consumers.forEach((member, i) => {
      const start = perMember * i + Math.min(i, extra)
      const length = perMember + (i < extra ? 1 : 0)
      const list = result.get(member.memberId)!
      for (let p = start; p < start + length; p++) list.push({ topic, partition: p })
    })
  }
  for (const [memberId, list] of result) result.set(memberId, sortTopicPartitions(list))
  return result
}

export const rangeAssignor: Assignor = { name: 'range', rebalanceProtocol: 'eager', assign: assignRange }
