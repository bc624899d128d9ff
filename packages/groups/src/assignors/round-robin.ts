/**
 * Kafka's RoundRobinAssignor: every partition of every subscribed topic, in (topic, partition)
 * order, goes to the next member in a circle (member order) that subscribes to its topic.
 */
import { sortTopicPartitions, type TopicPartition } from '../topic-partition.js'
import { emptyAssignment, sortMembers, subscribedTopics } from './member-order.js'
import type { Assignor, AssignorInput, GroupAssignment } from './types.js'

export function assignRoundRobin(input: AssignorInput): GroupAssignment {
  const result = new Map<string, TopicPartition[]>(emptyAssignment(input.members))
  const members = sortMembers(input.members)
  let next = 0
  for (const topic of subscribedTopics(members, input.partitionCounts)) {
    const count = input.partitionCounts.get(topic) ?? 0
    for (let partition = 0; partition < count; partition++) {
      // Someone subscribes to `topic` (that is how it got here), so this ends within one lap.
      for (let step = 0; step < members.length && !members[next]!.topics.includes(topic); step++) {
        next = (next + 1) % members.length
      }
      result.get(members[next]!.memberId)!.push({ topic, partition })
      next = (next + 1) % members.length
    }
  }
  for (const [memberId, list] of result) result.set(memberId, sortTopicPartitions(list))
  return result
}

export const roundRobinAssignor: Assignor = {
  name: 'roundrobin',
  rebalanceProtocol: 'eager',
  assign: assignRoundRobin,
}
