/** The assignors a coordinator offers, by the protocol names members announce. */
import { cooperativeStickyAssignor } from './cooperative-sticky.js'
import { rangeAssignor } from './range.js'
import { roundRobinAssignor } from './round-robin.js'
import type { Assignor, RebalanceProtocol } from './types.js'

export { assignCooperativeSticky, cooperativeStickyAssignor, stickyTarget } from './cooperative-sticky.js'
export { compareMembers, sortMembers } from './member-order.js'
export { assignRange, rangeAssignor } from './range.js'
export { assignRoundRobin, roundRobinAssignor } from './round-robin.js'
export type { Assignor, AssignorInput, AssignorMember, GroupAssignment, RebalanceProtocol } from './types.js'
export { assignmentProblems, checkAssignment, InvalidAssignmentError } from './validate.js'

export const BUILTIN_ASSIGNORS: readonly Assignor[] = [cooperativeStickyAssignor, rangeAssignor, roundRobinAssignor]

/**
 * The rebalance protocol a member with these assignors follows (Kafka's rule): cooperative only
 * when every one of them is cooperative, since the group may pick any of them.
 */
export function rebalanceProtocolOf(
  assignorNames: readonly string[],
  assignors: readonly Assignor[] = BUILTIN_ASSIGNORS,
): RebalanceProtocol {
  const all = assignorNames.map((name) => assignors.find((a) => a.name === name))
  return all.length > 0 && all.every((a) => a?.rebalanceProtocol === 'cooperative') ? 'cooperative' : 'eager'
}
