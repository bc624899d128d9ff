/**
 * JoinGroup on the coordinator. A first join ('' member id) gets the id `<clientId>-<sender>`, so
 * a duplicated first join finds the same member instead of creating another. A static member
 * (groupInstanceId) coming back as a new incarnation takes over its predecessor: new member id
 * (the old one is fenced, as in Kafka's KIP-345), same assignment, and no rebalance when the group
 * is settled and its subscription unchanged. A known member's join carries its report of what it
 * holds; in a settled group it starts a rebalance only if something changed or the member asks
 * for one (it reports holdings of the current generation), otherwise it was a retry that missed
 * its answer and gets the current generation again.
 */
import {
  FencedInstanceIdError,
  GroupMaxSizeReachedError,
  InconsistentGroupProtocolError,
  InvalidSessionTimeoutError,
  UnknownMemberIdError,
} from '@tributary/wire'
import type { JoinGroupBody, RequestHeader } from '../protocol/messages.js'
import type { HandlerContext } from './context.js'
import type { ConsumerGroup, MemberState } from './group.js'
import { compatible, extendInitialDelay, maybeCompleteJoin, prepareRebalance } from './rebalance.js'
import { persistGroup } from './snapshot.js'

type JoinRequest = RequestHeader & JoinGroupBody

export function handleJoin(group: ConsumerGroup, req: JoinRequest, ctx: HandlerContext): void {
  const { config, out } = ctx
  if (req.sessionTimeoutMs < config.minSessionTimeoutMs || req.sessionTimeoutMs > config.maxSessionTimeoutMs) {
    out.fail(
      req,
      new InvalidSessionTimeoutError(
        `session timeout ${req.sessionTimeoutMs} ms is outside ${config.minSessionTimeoutMs}-${config.maxSessionTimeoutMs} ms`,
      ),
    )
    return
  }
  if (req.memberId === '') {
    const memberId = `${req.clientId === '' ? 'member' : req.clientId}-${req.sender}`
    if (req.groupInstanceId !== undefined) {
      const current = group.instances.get(req.groupInstanceId)
      if (current === memberId) joinKnown(group, group.members.get(current)!, req, ctx)
      else if (current !== undefined) replaceStatic(group, group.members.get(current)!, memberId, req, ctx)
      else if (group.members.has(memberId)) fenced(req, ctx, 'its member id belongs to a dynamic member')
      else addMember(group, memberId, req, ctx)
      return
    }
    const existing = group.members.get(memberId)
    if (existing !== undefined) {
      if (existing.groupInstanceId !== undefined) fenced(req, ctx, 'its member id belongs to a static member')
      else joinKnown(group, existing, req, ctx)
    } else if (group.removed.has(memberId)) {
      out.fail(
        req,
        new UnknownMemberIdError(
          `member ${memberId} was removed from group ${group.groupId} (${group.removed.get(memberId)}); rejoin as a new member`,
        ),
      )
    } else addMember(group, memberId, req, ctx)
    return
  }
  const member = group.members.get(req.memberId)
  if (
    group.isFencedInstance(req.memberId, req.groupInstanceId) ||
    (member && member.groupInstanceId !== req.groupInstanceId)
  ) {
    fenced(req, ctx, 'another incarnation holds its instance id')
    return
  }
  if (member === undefined) {
    out.fail(req, new UnknownMemberIdError(`group ${group.groupId} has no member ${req.memberId}; rejoin without it`))
    return
  }
  joinKnown(group, member, req, ctx)
}

function fenced(req: JoinRequest, ctx: HandlerContext, why: string): void {
  ctx.out.fail(req, new FencedInstanceIdError(`join of ${req.memberId || req.sender} refused: ${why}`))
}

function inconsistent(group: ConsumerGroup, req: JoinRequest, ctx: HandlerContext, renewed: boolean): void {
  ctx.out.fail(
    req,
    new InconsistentGroupProtocolError(
      `group ${group.groupId}: protocol type ${req.protocolType} with assignors [${req.protocols.join(', ')}] ` +
        `shares no assignor with the members (coordinator offers ${ctx.config.assignors.map((a) => a.name).join(', ')})`,
    ),
    renewed,
  )
}

function addMember(group: ConsumerGroup, memberId: string, req: JoinRequest, ctx: HandlerContext): void {
  if (group.members.size >= ctx.config.maxGroupSize) {
    ctx.out.fail(
      req,
      new GroupMaxSizeReachedError(`group ${group.groupId} has ${group.members.size} members, its maximum`),
    )
    return
  }
  if (!compatible(group, req.protocolType, req.protocols, ctx.config.assignors)) {
    inconsistent(group, req, ctx, false)
    return
  }
  const member: MemberState = {
    memberId,
    groupInstanceId: req.groupInstanceId,
    clientId: req.clientId,
    protocols: req.protocols,
    topics: req.topics,
    sessionTimeoutMs: req.sessionTimeoutMs,
    rebalanceTimeoutMs: req.rebalanceTimeoutMs,
    lastSeen: ctx.now,
    lastRequestId: req.requestId,
    pendingJoin: { sender: req.sender, requestId: req.requestId },
    assignment: [],
    synced: false,
    startedAt: req.startedAt,
  }
  group.members.set(memberId, member)
  if (req.groupInstanceId !== undefined) group.instances.set(req.groupInstanceId, memberId)
  group.protocolType = req.protocolType
  ctx.out.events.push({ type: 'member-added', groupId: group.groupId, memberId, groupInstanceId: req.groupInstanceId })
  if (group.state === 'PreparingRebalance') extendInitialDelay(group, ctx)
  else prepareRebalance(group, `member ${memberId} joined`, ctx)
  maybeCompleteJoin(group, ctx)
}

function joinKnown(group: ConsumerGroup, member: MemberState, req: JoinRequest, ctx: HandlerContext): void {
  // A join older than the member's latest ordered request was overtaken in transit: drop it.
  if (req.requestId < member.lastRequestId) return
  member.lastRequestId = req.requestId
  member.lastSeen = ctx.now
  if (!compatible(group, req.protocolType, req.protocols, ctx.config.assignors, member.memberId)) {
    inconsistent(group, req, ctx, true)
    return
  }
  group.holds.report(member.memberId, req.owned, req.ownedGeneration)
  const changed = !sameSet(member.topics, req.topics) || !sameOrder(member.protocols, req.protocols)
  member.topics = req.topics
  member.protocols = req.protocols
  member.clientId = req.clientId
  member.sessionTimeoutMs = req.sessionTimeoutMs
  member.rebalanceTimeoutMs = req.rebalanceTimeoutMs
  const pending = { sender: req.sender, requestId: req.requestId }
  if (group.state === 'PreparingRebalance') {
    member.pendingJoin = pending
    maybeCompleteJoin(group, ctx)
    return
  }
  // Stable or CompletingRebalance (a known member means the group is not Empty).
  if (changed || req.ownedGeneration === group.generation) {
    member.pendingJoin = pending
    prepareRebalance(group, `member ${member.memberId} rejoined${req.reason ? `: ${req.reason}` : ''}`, ctx)
    maybeCompleteJoin(group, ctx)
    return
  }
  answerCurrent(group, member, req, ctx)
}

function replaceStatic(
  group: ConsumerGroup,
  previous: MemberState,
  memberId: string,
  req: JoinRequest,
  ctx: HandlerContext,
): void {
  if (req.startedAt < previous.startedAt) {
    // A join delayed in transit from an incarnation that has since been replaced: it must not
    // fence its successor.
    fenced(req, ctx, `a later incarnation of instance ${req.groupInstanceId} has joined`)
    return
  }
  if (!compatible(group, req.protocolType, req.protocols, ctx.config.assignors, previous.memberId)) {
    inconsistent(group, req, ctx, false)
    return
  }
  const member: MemberState = {
    ...previous,
    memberId,
    clientId: req.clientId,
    protocols: req.protocols,
    topics: req.topics,
    sessionTimeoutMs: req.sessionTimeoutMs,
    rebalanceTimeoutMs: req.rebalanceTimeoutMs,
    lastSeen: ctx.now,
    lastRequestId: req.requestId,
    pendingJoin: undefined,
    synced: false,
    startedAt: req.startedAt,
  }
  group.members.delete(previous.memberId)
  group.members.set(memberId, member)
  group.instances.set(req.groupInstanceId!, memberId)
  group.holds.transfer(previous.memberId, memberId)
  group.remember(previous.memberId, 'replaced', ctx.config.maxRemembered)
  ctx.out.events.push({
    type: 'member-removed',
    groupId: group.groupId,
    memberId: previous.memberId,
    reason: 'replaced',
  })
  ctx.out.events.push({ type: 'member-added', groupId: group.groupId, memberId, groupInstanceId: req.groupInstanceId })
  const settled = group.state === 'Stable' || group.state === 'CompletingRebalance'
  const unchanged =
    sameSet(previous.topics, req.topics) && group.protocol !== undefined && req.protocols.includes(group.protocol)
  if (settled && unchanged) {
    // The restart of a static member within its session: same place, same partitions, no rebalance.
    persistGroup(group, ctx)
    answerCurrent(group, member, req, ctx)
    return
  }
  member.pendingJoin = { sender: req.sender, requestId: req.requestId }
  if (settled) prepareRebalance(group, `static member ${req.groupInstanceId} rejoined with a new subscription`, ctx)
  maybeCompleteJoin(group, ctx)
}

function answerCurrent(group: ConsumerGroup, member: MemberState, req: JoinRequest, ctx: HandlerContext): void {
  ctx.out.respond(
    req,
    { kind: 'join', generation: group.generation, protocol: group.protocol ?? '', memberId: member.memberId },
    { sessionRenewed: true },
  )
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false
  const set = new Set(a)
  return b.every((x) => set.has(x))
}

function sameOrder(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i])
}
