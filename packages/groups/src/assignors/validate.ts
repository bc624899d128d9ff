/**
 * Checks an assignor's output before the coordinator hands it out: every member present, only
 * existing partitions of topics the member subscribes to, no partition twice. A failure here is a
 * bug in an assignor, never a member's doing, so it throws rather than being answered.
 */
import { TributaryError } from '@tributary/wire'
import { formatTopicPartition, keyOf } from '../topic-partition.js'
import type { AssignorInput, GroupAssignment } from './types.js'

export class InvalidAssignmentError extends TributaryError {
  static override name = 'InvalidAssignmentError'
}

export function assignmentProblems(input: AssignorInput, assignment: GroupAssignment): string[] {
  const problems: string[] = []
  const owner = new Map<string, string>()
  for (const member of input.members) {
    const list = assignment.get(member.memberId)
    if (list === undefined) {
      problems.push(`member ${member.memberId} has no assignment`)
      continue
    }
    for (const tp of list) {
      const count = input.partitionCounts.get(tp.topic) ?? 0
      const name = formatTopicPartition(tp)
      if (!member.topics.includes(tp.topic)) problems.push(`${name} given to ${member.memberId}, not subscribed`)
      if (!Number.isInteger(tp.partition) || tp.partition < 0 || tp.partition >= count) {
        problems.push(`${name} does not exist`)
      }
      const previous = owner.get(keyOf(tp))
      if (previous !== undefined) problems.push(`${name} given to both ${previous} and ${member.memberId}`)
      owner.set(keyOf(tp), member.memberId)
    }
  }
  const members = new Set(input.members.map((m) => m.memberId))
  for (const memberId of assignment.keys()) {
    if (!members.has(memberId)) problems.push(`assignment for ${memberId}, who is not in the group`)
  }
  return problems
}

export function checkAssignment(assignorName: string, input: AssignorInput, assignment: GroupAssignment): void {
  const problems = assignmentProblems(input, assignment)
  if (problems.length > 0) {
    throw new InvalidAssignmentError(`assignor ${assignorName} produced an invalid assignment: ${problems.join('; ')}`)
  }
}
