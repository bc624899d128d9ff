/**
 * The group as `__consumer_offsets` keeps it, both ways: the group metadata record written at every
 * generation (and whenever a static member's id changes), and the rebuild of every group from the
 * records of a partition, which is how a new coordinator takes over after a failover. The rebuild
 * is conservative: every member counts as just seen (its session restarts), holds everything its
 * last record says it may hold, and fences run their full remaining time from now.
 */
import {
  decodeGroupMetadataValue,
  decodeOffsetCommitValue,
  decodeOffsetsKey,
  type GroupMetadataRecord,
  groupMetadataRecord,
  type OffsetCommitRecord,
  type OffsetsRecord,
} from '../records/offsets-records.js'
import { keyOf, sortTopicPartitions, tpKey } from '../topic-partition.js'
import type { HandlerContext } from './context.js'
import { ConsumerGroup, type MemberState } from './group.js'

export function groupSnapshot(group: ConsumerGroup, now: number): GroupMetadataRecord {
  const members = [...group.members.values()].sort((a, b) => (a.memberId < b.memberId ? -1 : 1))
  return {
    protocolType: group.protocolType ?? '',
    generation: group.generation,
    protocol: group.isEmpty() ? undefined : group.protocol,
    stateTimestamp: Math.max(0, group.stateTimestamp),
    members: members.map((m) => {
      const assigned = new Set(m.assignment.map(keyOf))
      return {
        memberId: m.memberId,
        groupInstanceId: m.groupInstanceId,
        clientId: m.clientId,
        sessionTimeoutMs: m.sessionTimeoutMs,
        rebalanceTimeoutMs: m.rebalanceTimeoutMs,
        protocols: m.protocols,
        topics: m.topics,
        assignment: sortTopicPartitions(m.assignment),
        held: group.holds.heldList(m.memberId).filter((tp) => !assigned.has(keyOf(tp))),
        startedAt: m.startedAt,
      }
    }),
    fenced: group.holds.fenceList(now),
    partitionCounts: [...group.assignedCounts]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([topic, partitions]) => ({ topic, partitions })),
  }
}

export function persistGroup(group: ConsumerGroup, ctx: HandlerContext): void {
  ctx.out.records.push(groupMetadataRecord(group.groupId, groupSnapshot(group, ctx.now)))
}

interface Replayed {
  metadata: GroupMetadataRecord | null | undefined
  offsets: Map<string, OffsetCommitRecord | null>
}

/**
 * Every group in `records` (in log order; later records win, null values delete). Throws
 * InvalidRecordError on a record it cannot read: guessing would lose committed offsets.
 */
export function loadGroups(records: Iterable<OffsetsRecord>, now: number): Map<string, ConsumerGroup> {
  const replayed = new Map<string, Replayed>()
  const entry = (groupId: string): Replayed => {
    let e = replayed.get(groupId)
    if (e === undefined) {
      e = { metadata: undefined, offsets: new Map() }
      replayed.set(groupId, e)
    }
    return e
  }
  for (const record of records) {
    const key = decodeOffsetsKey(record.key)
    if (key.type === 'group') {
      entry(key.groupId).metadata = record.value === null ? null : decodeGroupMetadataValue(record.value)
    } else {
      entry(key.groupId).offsets.set(
        tpKey(key.topic, key.partition),
        record.value === null ? null : decodeOffsetCommitValue(record.value),
      )
    }
  }
  const groups = new Map<string, ConsumerGroup>()
  for (const [groupId, { metadata, offsets }] of replayed) {
    const group = new ConsumerGroup(groupId)
    for (const [key, value] of offsets) if (value !== null) group.offsets.set(key, value)
    if (metadata != null) restoreMetadata(group, metadata, now)
    if (group.isEmpty() && group.offsets.size === 0 && metadata == null) continue
    groups.set(groupId, group)
  }
  return groups
}

function restoreMetadata(group: ConsumerGroup, metadata: GroupMetadataRecord, now: number): void {
  group.generation = metadata.generation
  group.protocolType = metadata.protocolType === '' ? undefined : metadata.protocolType
  group.protocol = metadata.protocol
  group.stateTimestamp = now
  group.assignedCounts = new Map(metadata.partitionCounts.map((c) => [c.topic, c.partitions]))
  for (const m of metadata.members) {
    const member: MemberState = {
      memberId: m.memberId,
      groupInstanceId: m.groupInstanceId,
      clientId: m.clientId,
      protocols: m.protocols,
      topics: m.topics,
      sessionTimeoutMs: m.sessionTimeoutMs,
      rebalanceTimeoutMs: m.rebalanceTimeoutMs,
      lastSeen: now,
      lastRequestId: 0,
      pendingJoin: undefined,
      assignment: m.assignment,
      // Whether it synced before the failover is unknown; it may have, so it counts as synced.
      synced: true,
      startedAt: m.startedAt,
    }
    group.members.set(m.memberId, member)
    if (m.groupInstanceId !== undefined) group.instances.set(m.groupInstanceId, m.memberId)
    group.holds.restore(m.memberId, [...m.assignment, ...m.held], metadata.generation)
  }
  for (const fence of metadata.fenced) group.holds.restoreFence(fence.memberId, fence.partitions, now + fence.leaseMs)
  // Kafka loads a group with members as Stable: its members carry on with the generation they have.
  group.state = group.isEmpty() ? 'Empty' : 'Stable'
}
