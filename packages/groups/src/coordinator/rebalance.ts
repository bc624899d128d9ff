/**
 * The rebalance itself: starting one (PreparingRebalance), completing its join phase once every
 * member rejoined or the rebalance timeout passed, and removing members. Completing the join phase
 * bumps the generation, picks the assignor all members support (by vote, as Kafka does), computes
 * the assignment here on the coordinator, keeps out of it every partition someone else may still
 * hold, persists the group and only then answers the waiting joins.
 */

import { RebalanceInProgressError, UnknownMemberIdError } from '@tributary/wire'
import { checkAssignment } from '../assignors/index.js'
import type { Assignor, AssignorMember } from '../assignors/types.js'
import { CONSUMER_PROTOCOL_TYPE } from '../constants.js'
import { keyOf } from '../topic-partition.js'
import type { HandlerContext } from './context.js'
import type { ConsumerGroup, MemberState } from './group.js'
import type { RemovalReason } from './output.js'
import { answerAllParked, answerParkedHeartbeat } from './parked-heartbeats.js'
import { persistGroup } from './snapshot.js'

export function prepareRebalance(group: ConsumerGroup, reason: string, ctx: HandlerContext): void {
  if (group.state === 'PreparingRebalance') return
  const initial = group.state === 'Empty'
  group.transition('PreparingRebalance', ctx.now)
  group.syncDeadline = undefined
  answerAllParked(group, ctx, new RebalanceInProgressError(`group ${group.groupId} is rebalancing; rejoin`))
  const timeout = group.maxRebalanceTimeout()
  group.rebalance = {
    reason,
    initial,
    startedAt: ctx.now,
    notBefore: initial ? ctx.now + Math.min(ctx.config.initialRebalanceDelayMs, timeout) : ctx.now,
    deadline: ctx.now + timeout,
  }
  ctx.out.events.push({ type: 'rebalance-started', groupId: group.groupId, generation: group.generation, reason })
}

/** Kafka's InitialDelayedJoin: each member arriving during an empty group's first wait extends it. */
export function extendInitialDelay(group: ConsumerGroup, ctx: HandlerContext): void {
  const rebalance = group.rebalance
  if (rebalance === undefined || !rebalance.initial) return
  rebalance.deadline = Math.max(rebalance.deadline, rebalance.startedAt + group.maxRebalanceTimeout())
  rebalance.notBefore = Math.min(ctx.now + ctx.config.initialRebalanceDelayMs, rebalance.deadline)
}

export function joinPhaseDone(group: ConsumerGroup, now: number): boolean {
  const rebalance = group.rebalance
  if (group.state !== 'PreparingRebalance' || rebalance === undefined) return false
  if (now >= rebalance.deadline) return true
  if (now < rebalance.notBefore) return false
  for (const member of group.members.values()) if (member.pendingJoin === undefined) return false
  return true
}

export function maybeCompleteJoin(group: ConsumerGroup, ctx: HandlerContext): void {
  if (joinPhaseDone(group, ctx.now)) completeJoin(group, ctx)
}

function completeJoin(group: ConsumerGroup, ctx: HandlerContext): void {
  const { out, now } = ctx
  for (const member of [...group.members.values()]) {
    if (member.pendingJoin === undefined) removeMember(group, member, 'rebalance-timeout', ctx)
  }
  group.generation++
  group.rebalance = undefined
  if (group.isEmpty()) {
    group.protocol = undefined
    group.assignedCounts = new Map()
    group.transition('Empty', now)
    persistGroup(group, ctx)
    out.events.push({
      type: 'rebalance-completed',
      groupId: group.groupId,
      generation: group.generation,
      protocol: undefined,
      members: 0,
    })
    out.events.push({ type: 'state-changed', groupId: group.groupId, state: 'Empty', generation: group.generation })
    return
  }
  const assignor = selectAssignor(group, ctx.config.assignors)
  const counts = partitionCounts(group, ctx)
  const members = [...group.members.values()]
  const input = {
    members: members.map(
      (m): AssignorMember => ({
        memberId: m.memberId,
        groupInstanceId: m.groupInstanceId,
        topics: m.topics,
        owned: group.holds.heldList(m.memberId),
      }),
    ),
    partitionCounts: counts,
  }
  const target = assignor.assign(input)
  checkAssignment(assignor.name, input, target)
  const holders = group.holds.holders(now)
  for (const member of members) {
    const list = target.get(member.memberId) ?? []
    member.assignment = ctx.config.rules.withholdHeldPartitions
      ? list.filter((tp) => {
          const holder = holders.get(keyOf(tp))
          return holder === undefined || holder === member.memberId
        })
      : list
    member.synced = false
  }
  group.protocol = assignor.name
  group.assignedCounts = counts
  group.transition('CompletingRebalance', now)
  group.syncDeadline = now + group.maxRebalanceTimeout()
  persistGroup(group, ctx)
  for (const member of members) {
    const pending = member.pendingJoin!
    member.pendingJoin = undefined
    out.respond(
      { groupId: group.groupId, sender: pending.sender, requestId: pending.requestId },
      { kind: 'join', generation: group.generation, protocol: assignor.name, memberId: member.memberId },
      // The join was received (and the session renewed) when it arrived, before this answer.
      { sessionRenewed: true },
    )
  }
  out.events.push({
    type: 'rebalance-completed',
    groupId: group.groupId,
    generation: group.generation,
    protocol: assignor.name,
    members: members.length,
  })
  out.events.push({
    type: 'state-changed',
    groupId: group.groupId,
    state: 'CompletingRebalance',
    generation: group.generation,
  })
}

/**
 * The assignor every member supports, by vote: each member votes for the first of its assignors
 * that all support; most votes wins, ties go to the one the coordinator lists first.
 */
export function selectAssignor(group: ConsumerGroup, assignors: readonly Assignor[]): Assignor {
  const candidates = assignors.filter((a) => [...group.members.values()].every((m) => m.protocols.includes(a.name)))
  if (candidates.length === 0) throw new Error(`group ${group.groupId}: members share no assignor`)
  const votes = new Map<string, number>()
  for (const member of group.members.values()) {
    const choice = member.protocols.find((name) => candidates.some((a) => a.name === name))!
    votes.set(choice, (votes.get(choice) ?? 0) + 1)
  }
  let best = candidates[0]!
  for (const candidate of candidates) {
    if ((votes.get(candidate.name) ?? 0) > (votes.get(best.name) ?? 0)) best = candidate
  }
  return best
}

/** Whether a member with these settings could join the group's other members. */
export function compatible(
  group: ConsumerGroup,
  protocolType: string,
  protocols: readonly string[],
  assignors: readonly Assignor[],
  except?: string,
): boolean {
  if (protocolType !== CONSUMER_PROTOCOL_TYPE) return false
  const others = [...group.members.values()].filter((m) => m.memberId !== except)
  return assignors.some((a) => protocols.includes(a.name) && others.every((m) => m.protocols.includes(a.name)))
}

export function partitionCounts(group: ConsumerGroup, ctx: HandlerContext): Map<string, number> {
  const counts = new Map<string, number>()
  for (const member of group.members.values()) {
    for (const topic of member.topics) {
      if (counts.has(topic)) continue
      const count = ctx.components.partitionCount(topic)
      if (count !== undefined && count > 0) counts.set(topic, count)
    }
  }
  return counts
}

/**
 * Removes a member. One that left released everything; one that timed out may still be using its
 * partitions until its own session runs out, so they stay fenced until then.
 */
export function removeMember(
  group: ConsumerGroup,
  member: MemberState,
  reason: RemovalReason,
  ctx: HandlerContext,
): void {
  group.members.delete(member.memberId)
  answerParkedHeartbeat(
    member,
    ctx,
    new UnknownMemberIdError(`member ${member.memberId} was removed from group ${group.groupId} (${reason})`),
  )
  if (member.groupInstanceId !== undefined && group.instances.get(member.groupInstanceId) === member.memberId) {
    group.instances.delete(member.groupInstanceId)
  }
  if (reason === 'left') group.holds.release(member.memberId)
  else group.holds.fence(member.memberId, member.lastSeen + member.sessionTimeoutMs, ctx.now)
  group.remember(member.memberId, reason, ctx.config.maxRemembered)
  ctx.out.events.push({ type: 'member-removed', groupId: group.groupId, memberId: member.memberId, reason })
}

/** After members were removed: a settled group rebalances; a rebalancing one may now be complete. */
export function afterRemoval(group: ConsumerGroup, reason: string, ctx: HandlerContext): void {
  if (group.state === 'Stable' || group.state === 'CompletingRebalance') prepareRebalance(group, reason, ctx)
  maybeCompleteJoin(group, ctx)
}
