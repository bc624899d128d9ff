/**
 * The one order assignors put members in, Kafka's `MemberInfo.compareTo`: static members first,
 * by group instance id, then dynamic members by member id. Sorting by instance id keeps a static
 * member's place (and so its partitions under range and round-robin) across restarts.
 */
import type { AssignorMember } from './types.js'

export function compareMembers(a: AssignorMember, b: AssignorMember): number {
  const ai = a.groupInstanceId
  const bi = b.groupInstanceId
  if (ai !== undefined && bi !== undefined) {
    if (ai !== bi) return ai < bi ? -1 : 1
  } else if (ai !== undefined) {
    return -1
  } else if (bi !== undefined) {
    return 1
  }
  if (a.memberId === b.memberId) return 0
  return a.memberId < b.memberId ? -1 : 1
}

export function sortMembers<M extends AssignorMember>(members: readonly M[]): M[] {
  return [...members].sort(compareMembers)
}

/** Topics some member subscribes to and that exist, sorted. */
export function subscribedTopics(
  members: readonly AssignorMember[],
  partitionCounts: ReadonlyMap<string, number>,
): string[] {
  const topics = new Set<string>()
  for (const member of members) {
    for (const topic of member.topics) if ((partitionCounts.get(topic) ?? 0) > 0) topics.add(topic)
  }
  return [...topics].sort()
}

/** A map with an empty assignment for every member. */
export function emptyAssignment(members: readonly AssignorMember[]): Map<string, never[]> {
  return new Map(members.map((member) => [member.memberId, []]))
}
