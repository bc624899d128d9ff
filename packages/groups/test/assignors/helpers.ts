import type { Rng } from '@tributary/test-utils/simulation'
import type { AssignorInput, AssignorMember, GroupAssignment, TopicPartition } from '../../src/index.ts'
import { formatTopicPartition, keyOf } from '../../src/index.ts'

export function member(
  memberId: string,
  topics: string[],
  owned: TopicPartition[] = [],
  groupInstanceId?: string,
): AssignorMember {
  return { memberId, topics, owned, groupInstanceId }
}

export function counts(entries: Record<string, number>): Map<string, number> {
  return new Map(Object.entries(entries))
}

export function tps(topic: string, ...partitions: number[]): TopicPartition[] {
  return partitions.map((partition) => ({ topic, partition }))
}

/** Member id → "t-0 t-1 …" for readable expectations. */
export function names(assignment: GroupAssignment): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [id, list] of assignment) out[id] = list.map(formatTopicPartition).join(' ')
  return out
}

/** Partition key → members holding it. */
export function owners(assignment: GroupAssignment): Map<string, string[]> {
  const map = new Map<string, string[]>()
  for (const [id, list] of assignment) {
    for (const tp of list) map.set(keyOf(tp), [...(map.get(keyOf(tp)) ?? []), id])
  }
  return map
}

/** Every existing partition of a topic some member subscribes to. */
export function subscribedPartitions(input: AssignorInput): TopicPartition[] {
  const topics = new Set(input.members.flatMap((m) => m.topics))
  const list: TopicPartition[] = []
  for (const topic of [...topics].sort()) {
    for (let p = 0; p < (input.partitionCounts.get(topic) ?? 0); p++) list.push({ topic, partition: p })
  }
  return list
}

export interface GroupShape {
  uniform: boolean
  /** Chance a member is static. */
  staticRate?: number
}

/** A random group: 0-9 members, 1-4 topics of 1-12 partitions (some subscribed topics missing). */
export function randomInput(rng: Rng, shape: GroupShape): AssignorInput {
  const topicCount = rng.int(1, 4)
  const topics = Array.from({ length: topicCount }, (_, i) => `topic-${i}`)
  const partitionCounts = new Map<string, number>()
  for (const topic of topics) if (!rng.chance(0.1)) partitionCounts.set(topic, rng.int(1, 12))
  const memberCount = rng.int(0, 9)
  const common = topics.filter(() => rng.chance(0.7))
  if (common.length === 0) common.push(topics[0]!)
  const members: AssignorMember[] = []
  for (let i = 0; i < memberCount; i++) {
    const subscribed = shape.uniform ? common : topics.filter(() => rng.chance(0.6))
    if (subscribed.length === 0) subscribed.push(rng.pick(topics))
    const isStatic = rng.chance(shape.staticRate ?? 0.3)
    members.push({
      memberId: `m-${rng.nonce(6)}`,
      groupInstanceId: isStatic ? `instance-${rng.nonce(4)}-${i}` : undefined,
      topics: [...subscribed],
      owned: [],
    })
  }
  return { members, partitionCounts }
}

/** Hands out (valid, unshared) previous ownership at random, as a previous generation would have. */
export function withRandomOwnership(rng: Rng, input: AssignorInput): AssignorInput {
  const members = input.members.map((m) => ({ ...m, owned: [] as TopicPartition[] }))
  for (const tp of subscribedPartitions(input)) {
    const candidates = members.filter((m) => m.topics.includes(tp.topic))
    if (candidates.length > 0 && rng.chance(0.8)) rng.pick(candidates).owned.push(tp)
  }
  return { ...input, members }
}

/** The same input with every list and map in another order. */
export function shuffled(rng: Rng, input: AssignorInput): AssignorInput {
  return {
    members: rng
      .shuffle(input.members)
      .map((m) => ({ ...m, topics: rng.shuffle(m.topics), owned: rng.shuffle(m.owned) })),
    partitionCounts: new Map(rng.shuffle([...input.partitionCounts])),
  }
}
