/**
 * @tributary/groups — consumer groups with Kafka's guarantees, as network-free state machines:
 * the assignors (range, round-robin, cooperative-sticky), the group coordinator (Kafka's group
 * states, generations, static membership, session and rebalance timeouts, fenced offset commits),
 * the member (join, sync, heartbeat, revoke-before-reassign), the messages they exchange and the
 * `__consumer_offsets` records a coordinator persists and rebuilds from after a failover. The
 * host supplies the transport, the clock and the log; nothing here sets a timer or opens a socket.
 *
 * @example
 * ```ts
 * import { GroupCoordinator, GroupMember } from '@tributary/groups'
 *
 * const coordinator = new GroupCoordinator({ partitionCount: (topic) => (topic === 'orders' ? 6 : undefined) })
 * const member = new GroupMember(
 *   { groupId: 'billing', topics: ['orders'], assignors: ['cooperative-sticky'] },
 *   { newSender: () => crypto.randomUUID() },
 * )
 * let toCoordinator = member.start(Date.now()).requests
 * // Deliver requests, append `records` to __consumer_offsets, then deliver `responses`:
 * for (const request of toCoordinator) {
 *   const { records, responses } = coordinator.handle(request, Date.now())
 *   await appendDurably(records)
 *   for (const response of responses) member.handle(response, Date.now()) // → 'assigned', 'revoke', … events
 * }
 * // and call coordinator.tick(now) / member.tick(now) at their nextDeadline().
 * ```
 */

export {
  type Assignor,
  type AssignorInput,
  type AssignorMember,
  assignCooperativeSticky,
  assignmentProblems,
  assignRange,
  assignRoundRobin,
  BUILTIN_ASSIGNORS,
  checkAssignment,
  compareMembers,
  cooperativeStickyAssignor,
  type GroupAssignment,
  InvalidAssignmentError,
  type RebalanceProtocol,
  rangeAssignor,
  rebalanceProtocolOf,
  roundRobinAssignor,
  sortMembers,
  stickyTarget,
} from './assignors/index.js'
export * from './constants.js'
export {
  type CoordinatorComponents,
  type CoordinatorConfig,
  type CoordinatorEvent,
  type CoordinatorOptions,
  type CoordinatorOutput,
  type CoordinatorRules,
  coordinatorConfig,
  DEFAULT_COORDINATOR_CONFIG,
  errorResponse,
  GroupCoordinator,
  type GroupDescription,
  type GroupMemberDescription,
  type GroupState,
  type RemovalReason,
} from './coordinator/index.js'
export {
  DEFAULT_MEMBER_CONFIG,
  type MemberComponents,
  type MemberConfig,
  type MemberEvent,
  type MemberOptions,
  type MemberPhase,
  memberConfig,
} from './member/config.js'
export { GroupMember } from './member/member.js'
export type { MemberOutput } from './member/session.js'
export {
  type DescribedGroup,
  type DescribedGroupMember,
  decodeGroupAdminRequest,
  decodeGroupAdminResponse,
  encodeGroupAdminRequest,
  encodeGroupAdminResponse,
  type GroupAdminRequest,
  type GroupAdminResponse,
  type ListedGroup,
  validateGroupAdminRequest,
} from './protocol/admin-codec.js'
export type * from './protocol/messages.js'
export { decodeGroupRequest, encodeGroupRequest, validateGroupRequest } from './protocol/request-codec.js'
export { decodeGroupResponse, encodeGroupResponse, validateGroupResponse } from './protocol/response-codec.js'
export {
  decodeGroupMetadataValue,
  decodeOffsetCommitValue,
  decodeOffsetsKey,
  encodeGroupMetadataValue,
  encodeOffsetCommitValue,
  encodeOffsetsKey,
  type FencedRecord,
  type GroupMemberRecord,
  type GroupMetadataRecord,
  groupMetadataRecord,
  groupTombstone,
  type OffsetCommitRecord,
  type OffsetsRecord,
  type OffsetsRecordKey,
  offsetCommitRecord,
  offsetTombstone,
} from './records/offsets-records.js'
export {
  coordinatorPartitionFor,
  javaStringHashCode,
  OFFSETS_TOPIC_PARTITIONS,
  OFFSETS_TOPIC_REPLICATION_FACTOR,
} from './service/coordinator-partition.js'
export {
  byTopic,
  compareTopicPartitions,
  flatten,
  formatTopicPartition,
  keyOf,
  sortTopicPartitions,
  type TopicPartition,
  tpKey,
} from './topic-partition.js'
