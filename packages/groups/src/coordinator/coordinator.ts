/**
 * The group coordinator for the groups of one `__consumer_offsets` partition, as a state machine
 * with no network, no timers and no clock of its own. The host (the partition's leader) feeds it
 * requests with `handle(request, now)` and calls `tick(now)` at `nextDeadline()`; both return the
 * records to append, the answers to send once those are durable, and events (output.ts). After a
 * failover, `GroupCoordinator.recover` rebuilds every group from the partition's records.
 */
import {
  CoordinatorNotAvailableError,
  GroupIdNotFoundError,
  InvalidRequestError,
  NonEmptyGroupError,
  UnknownTopicOrPartitionError,
} from '@tributary/wire'
import { MAX_GROUP_ID_LENGTH } from '../constants.js'
import type { CommitOffset, FetchedOffset, GroupRequest } from '../protocol/messages.js'
import { validateGroupRequest } from '../protocol/request-codec.js'
import { groupTombstone, type OffsetsRecord, offsetCommitRecord, offsetTombstone } from '../records/offsets-records.js'
import { formatTopicPartition, fromKey, keyOf, type TopicPartition } from '../topic-partition.js'
import {
  type CoordinatorComponents,
  type CoordinatorConfig,
  type CoordinatorOptions,
  coordinatorConfig,
} from './config.js'
import type { HandlerContext } from './context.js'
import { ConsumerGroup, type GroupState } from './group.js'
import { handleJoin } from './join.js'
import { handleHeartbeat, handleLeave, handleSync } from './membership.js'
import { committedOffsets, handleCommit } from './offsets.js'
import { type CoordinatorOutput, OutputBuilder } from './output.js'
import { answerDueHeartbeats, nextParkedDue } from './parked-heartbeats.js'
import {
  afterRemoval,
  joinPhaseDone,
  maybeCompleteJoin,
  partitionCounts,
  prepareRebalance,
  removeMember,
} from './rebalance.js'
import { loadGroups } from './snapshot.js'

export interface GroupMemberDescription {
  memberId: string
  groupInstanceId: string | undefined
  clientId: string
  topics: string[]
  assignment: TopicPartition[]
}

export interface GroupDescription {
  groupId: string
  state: GroupState
  generation: number
  protocolType: string | undefined
  protocol: string | undefined
  members: GroupMemberDescription[]
}

export class GroupCoordinator {
  private readonly groups: Map<string, ConsumerGroup>
  private readonly config: CoordinatorConfig

  constructor(
    private readonly components: CoordinatorComponents,
    config: CoordinatorOptions = {},
    groups: Map<string, ConsumerGroup> = new Map(),
  ) {
    this.config = coordinatorConfig(config)
    this.groups = groups
  }

  /**
   * A coordinator for the groups in `records` (a `__consumer_offsets` partition, in log order).
   * Follow it with `topicsChanged(now)`.
   */
  static recover(
    records: Iterable<OffsetsRecord>,
    components: CoordinatorComponents,
    config: CoordinatorOptions,
    now: number,
  ): GroupCoordinator {
    return new GroupCoordinator(components, config, loadGroups(records, now))
  }

  handle(request: GroupRequest, now: number): CoordinatorOutput {
    const out = new OutputBuilder()
    try {
      validateGroupRequest(request)
    } catch (err) {
      // Answer if the request can be addressed at all; otherwise there is no one to tell.
      if (addressable(request)) {
        const error =
          err instanceof InvalidRequestError
            ? err
            : new InvalidRequestError(`invalid group request: ${(err as Error).message}`)
        out.fail(request, error)
      }
      return out.build()
    }
    const ctx = this.context(out, now)
    const group = this.groups.get(request.groupId)
    switch (request.kind) {
      case 'join': {
        const target = group ?? this.create(request, ctx)
        if (target !== undefined) handleJoin(target, request, ctx)
        if (group === undefined && target !== undefined) this.keep(target)
        break
      }
      case 'sync':
        handleSync(group, request, ctx)
        break
      case 'heartbeat':
        handleHeartbeat(group, request, ctx)
        break
      case 'leave':
        handleLeave(group, request, ctx)
        break
      case 'commit': {
        let created: ConsumerGroup | undefined
        handleCommit(group, request, ctx, () => {
          created = this.create(request, ctx)
          return created
        })
        if (created !== undefined) this.keep(created)
        break
      }
      case 'fetch':
        out.respond(request, { kind: 'fetch', offsets: committedOffsets(group, request) })
        break
    }
    return out.build()
  }

  /** Expires sessions, rebalance and sync timeouts and fences; completes join phases that are due. */
  tick(now: number): CoordinatorOutput {
    const out = new OutputBuilder()
    const ctx = this.context(out, now)
    for (const group of [...this.groups.values()]) {
      const expired = [...group.members.values()].filter((m) => now >= m.lastSeen + m.sessionTimeoutMs)
      for (const member of expired) removeMember(group, member, 'session-timeout', ctx)
      if (expired.length > 0)
        afterRemoval(group, `session of ${expired.map((m) => m.memberId).join(', ')} expired`, ctx)
      if (group.state === 'CompletingRebalance' && group.syncDeadline !== undefined && now >= group.syncDeadline) {
        const unsynced = [...group.members.values()].filter((m) => !m.synced)
        for (const member of unsynced) removeMember(group, member, 'sync-timeout', ctx)
        afterRemoval(group, `${unsynced.map((m) => m.memberId).join(', ')} did not sync in time`, ctx)
      }
      const freed = group.holds.expireFences(now)
      if (freed.length > 0 && (group.state === 'Stable' || group.state === 'CompletingRebalance')) {
        const subscribed = new Set([...group.members.values()].flatMap((m) => m.topics))
        if (freed.some((key) => subscribed.has(fromKey(key).topic))) {
          prepareRebalance(group, 'partitions of a removed member are free again', ctx)
        }
      }
      maybeCompleteJoin(group, ctx)
      answerDueHeartbeats(group, ctx)
    }
    return out.build()
  }

  /** The earliest time `tick` has something to do; undefined when nothing is pending. */
  nextDeadline(): number | undefined {
    let next: number | undefined
    const consider = (t: number | undefined): void => {
      if (t !== undefined && (next === undefined || t < next)) next = t
    }
    for (const group of this.groups.values()) {
      for (const m of group.members.values()) consider(m.lastSeen + m.sessionTimeoutMs)
      if (group.rebalance !== undefined) {
        consider(joinPhaseDone(group, group.rebalance.notBefore) ? group.rebalance.notBefore : group.rebalance.deadline)
      }
      consider(group.syncDeadline)
      consider(group.holds.nextFenceExpiry())
      consider(nextParkedDue(group))
    }
    return next
  }

  /**
   * Metadata changed: settled groups assigned with other partition counts than their topics have
   * now rebalance. Call it on every metadata change and right after `recover` (metadata may have
   * changed while no coordinator was up; the group records keep the counts they were assigned with).
   */
  topicsChanged(now: number): CoordinatorOutput {
    const out = new OutputBuilder()
    const ctx = this.context(out, now)
    for (const group of this.groups.values()) {
      if (countsChanged(group, ctx)) prepareRebalance(group, 'partition counts of subscribed topics changed', ctx)
    }
    return out.build()
  }

  describeGroup(groupId: string): GroupDescription | undefined {
    const group = this.groups.get(groupId)
    if (group === undefined) return undefined
    return {
      groupId,
      state: group.state,
      generation: group.generation,
      protocolType: group.protocolType,
      protocol: group.protocol,
      members: [...group.members.values()].map((m) => ({
        memberId: m.memberId,
        groupInstanceId: m.groupInstanceId,
        clientId: m.clientId,
        topics: [...m.topics],
        assignment: [...m.assignment],
      })),
    }
  }

  listGroups(): Array<{ groupId: string; state: GroupState; protocolType: string | undefined; members: number }> {
    return [...this.groups.values()]
      .map((g) => ({ groupId: g.groupId, state: g.state, protocolType: g.protocolType, members: g.members.size }))
      .sort((a, b) => (a.groupId < b.groupId ? -1 : a.groupId > b.groupId ? 1 : 0))
  }

  /** Committed offsets of a group (all of them, or those of `partitions`; -1 where none). */
  committedOffsets(groupId: string, partitions?: TopicPartition[]): FetchedOffset[] {
    return committedOffsets(this.groups.get(groupId), { kind: 'fetch', partitions })
  }

  /** Deletes an empty group and its offsets. Throws GroupIdNotFoundError or NonEmptyGroupError. */
  deleteGroup(groupId: string, now: number): CoordinatorOutput {
    const group = this.groups.get(groupId)
    if (group === undefined) throw new GroupIdNotFoundError(`group ${groupId} does not exist`)
    if (!group.isEmpty())
      throw new NonEmptyGroupError(`group ${groupId} has ${group.members.size} members; stop them first`)
    const out = new OutputBuilder()
    for (const key of group.offsets.keys()) out.records.push(offsetTombstone(groupId, fromKey(key)))
    out.records.push(groupTombstone(groupId))
    group.transition('Dead', now)
    this.groups.delete(groupId)
    out.events.push({ type: 'state-changed', groupId, state: 'Dead', generation: group.generation })
    return out.build()
  }

  /**
   * Sets committed offsets of a group that has no members (an admin reset; the group is created if
   * it does not exist). Throws NonEmptyGroupError or UnknownTopicOrPartitionError, changing nothing.
   */
  alterOffsets(groupId: string, offsets: CommitOffset[], now: number): CoordinatorOutput {
    if (groupId.length === 0 || groupId.length > MAX_GROUP_ID_LENGTH) {
      throw new InvalidRequestError(`group id must be 1 to ${MAX_GROUP_ID_LENGTH} characters`)
    }
    const existing = this.groups.get(groupId)
    if (existing !== undefined && !existing.isEmpty()) {
      throw new NonEmptyGroupError(
        `group ${groupId} has ${existing.members.size} members; offsets can be reset only when it has none`,
      )
    }
    validateGroupRequest({
      groupId,
      sender: 'admin',
      requestId: 1,
      kind: 'commit',
      memberId: '',
      groupInstanceId: undefined,
      generation: -1,
      offsets,
    })
    for (const o of offsets) {
      const count = this.components.partitionCount(o.topic)
      if (count === undefined || o.partition >= count)
        throw new UnknownTopicOrPartitionError(`${formatTopicPartition(o)} does not exist`)
    }
    const out = new OutputBuilder()
    const group = existing ?? this.create({ groupId }, this.context(out, now))
    if (group !== undefined) this.groups.set(groupId, group)
    if (group === undefined)
      throw new CoordinatorNotAvailableError(`this coordinator holds its maximum of ${this.config.maxGroups} groups`)
    for (const o of offsets) {
      const value = {
        offset: o.offset,
        leaderEpoch: o.leaderEpoch,
        metadata: o.metadata,
        commitTimestamp: Math.max(0, now),
        generation: -1,
        memberId: '',
      }
      group.offsets.set(keyOf(o), value)
      out.records.push(offsetCommitRecord(groupId, o, value))
    }
    return out.build()
  }

  /**
   * A new group, not yet kept: a request that ends up adding no member and committing nothing
   * leaves no trace (so garbage cannot fill the coordinator). Kept groups stay, Empty or not,
   * until deleted, so their generation keeps counting up (as in Kafka, where an empty group lives
   * until its offsets expire).
   */
  private create(request: { groupId: string } & Partial<GroupRequest>, ctx: HandlerContext): ConsumerGroup | undefined {
    if (this.groups.size >= this.config.maxGroups) {
      if (addressable(request)) {
        ctx.out.fail(
          request,
          new CoordinatorNotAvailableError(`this coordinator holds its maximum of ${this.config.maxGroups} groups`),
        )
      }
      return undefined
    }
    const group = new ConsumerGroup(request.groupId)
    group.stateTimestamp = ctx.now
    return group
  }

  private keep(group: ConsumerGroup): void {
    if (!group.isEmpty() || group.offsets.size > 0) this.groups.set(group.groupId, group)
  }

  private context(out: OutputBuilder, now: number): HandlerContext {
    return { config: this.config, components: this.components, out, now }
  }
}

/** A settled group whose subscribed topics now have other partition counts than it was assigned with. */
function countsChanged(group: ConsumerGroup, ctx: HandlerContext): boolean {
  if (group.state !== 'Stable' && group.state !== 'CompletingRebalance') return false
  const counts = partitionCounts(group, ctx)
  return (
    counts.size !== group.assignedCounts.size ||
    [...counts].some(([topic, count]) => group.assignedCounts.get(topic) !== count)
  )
}

function addressable(request: Partial<GroupRequest>): request is GroupRequest {
  return (
    typeof request.groupId === 'string' &&
    request.groupId.length > 0 &&
    request.groupId.length <= MAX_GROUP_ID_LENGTH &&
    typeof request.sender === 'string' &&
    request.sender.length > 0 &&
    request.sender.length <= 64 &&
    Number.isSafeInteger(request.requestId) &&
    (request.requestId ?? 0) > 0 &&
    typeof request.kind === 'string' &&
    ['join', 'sync', 'heartbeat', 'leave', 'commit', 'fetch'].includes(request.kind)
  )
}
