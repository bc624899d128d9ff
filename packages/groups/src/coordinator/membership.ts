/**
 * SyncGroup, Heartbeat and LeaveGroup on the coordinator. Every request that identifies a current
 * member renews its session, and says so in the answer (`sessionRenewed`), because the member
 * measures its own hold on its partitions from such answers. A sync hands out the member's part of
 * the generation's assignment and from then on counts it as held; once all members synced, the
 * group is Stable.
 */
import {
  CoordinatorNotAvailableError,
  FencedInstanceIdError,
  IllegalGenerationError,
  RebalanceInProgressError,
  UnknownMemberIdError,
} from '@tributary/wire'
import type { GroupRequest, HeartbeatBody, LeaveGroupBody, RequestHeader, SyncGroupBody } from '../protocol/messages.js'
import { keyOf } from '../topic-partition.js'
import type { HandlerContext } from './context.js'
import type { ConsumerGroup, MemberState } from './group.js'
import { answerParkedHeartbeat } from './parked-heartbeats.js'
import { afterRemoval, removeMember } from './rebalance.js'

/** The member a request comes from, or undefined after answering why it is not one. */
export function identify(
  group: ConsumerGroup | undefined,
  req: GroupRequest & { memberId: string; groupInstanceId: string | undefined },
  ctx: HandlerContext,
): MemberState | undefined {
  if (group === undefined || group.state === 'Dead') {
    ctx.out.fail(req, new UnknownMemberIdError(`group ${req.groupId} has no member ${req.memberId}; rejoin`))
    return undefined
  }
  const member = group.members.get(req.memberId)
  if (
    group.isFencedInstance(req.memberId, req.groupInstanceId) ||
    (member && member.groupInstanceId !== req.groupInstanceId)
  ) {
    ctx.out.fail(
      req,
      new FencedInstanceIdError(
        `member ${req.memberId} of group ${group.groupId} was replaced by a newer incarnation of instance ${req.groupInstanceId ?? member?.groupInstanceId}`,
      ),
    )
    return undefined
  }
  if (member === undefined) {
    const why = group.removed.get(req.memberId)
    ctx.out.fail(
      req,
      new UnknownMemberIdError(
        `group ${group.groupId} has no member ${req.memberId}${why === undefined ? '' : ` (removed: ${why})`}; rejoin`,
      ),
    )
    return undefined
  }
  return member
}

export function handleSync(
  group: ConsumerGroup | undefined,
  req: RequestHeader & SyncGroupBody,
  ctx: HandlerContext,
): void {
  const member = identify(group, req, ctx)
  if (member === undefined || group === undefined) return
  if (req.requestId < member.lastRequestId) return
  member.lastRequestId = req.requestId
  member.lastSeen = ctx.now
  if (req.generation !== group.generation) {
    ctx.out.fail(
      req,
      new IllegalGenerationError(`group ${group.groupId} is at generation ${group.generation}, not ${req.generation}`),
      true,
    )
    return
  }
  // A sync of the current generation that arrives once the next rebalance began still gets its
  // assignment (Kafka answers REBALANCE_IN_PROGRESS): a cooperative member learns what to revoke
  // in this round, and rejoins having released it, instead of one round later. It hears of the
  // rebalance from its heartbeat. The assignment was fixed at the join; nothing newer exists yet.
  if (group.state !== 'CompletingRebalance' && group.state !== 'Stable' && group.state !== 'PreparingRebalance') {
    ctx.out.fail(req, new CoordinatorNotAvailableError(`group ${group.groupId} is ${group.state}`), true)
    return
  }
  group.holds.grant(member.memberId, member.assignment, group.generation)
  member.synced = true
  const assigned = new Set(member.assignment.map(keyOf))
  ctx.out.respond(
    req,
    {
      kind: 'sync',
      generation: group.generation,
      protocol: group.protocol ?? '',
      assignment: member.assignment,
      revoke: group.holds.heldList(member.memberId).filter((tp) => !assigned.has(keyOf(tp))),
    },
    { sessionRenewed: true },
  )
  if (group.state === 'CompletingRebalance' && [...group.members.values()].every((m) => m.synced)) {
    group.transition('Stable', ctx.now)
    group.syncDeadline = undefined
    ctx.out.events.push({
      type: 'state-changed',
      groupId: group.groupId,
      state: 'Stable',
      generation: group.generation,
    })
  }
}

export function handleHeartbeat(
  group: ConsumerGroup | undefined,
  req: RequestHeader & HeartbeatBody,
  ctx: HandlerContext,
): void {
  const member = identify(group, req, ctx)
  if (member === undefined || group === undefined) return
  // Heartbeats change nothing but the session, so they are not ordered against other requests.
  member.lastSeen = Math.max(member.lastSeen, ctx.now)
  if (req.generation !== group.generation) {
    ctx.out.fail(
      req,
      new IllegalGenerationError(`group ${group.groupId} is at generation ${group.generation}, not ${req.generation}`),
      true,
    )
  } else if (group.state === 'PreparingRebalance') {
    ctx.out.fail(req, new RebalanceInProgressError(`group ${group.groupId} is rebalancing; rejoin`), true)
  } else {
    // The previous parked heartbeat is answered now: the member keeps one in waiting at a time.
    answerParkedHeartbeat(member, ctx)
    const wait = req.maxWaitMs ?? 0
    if (wait > 0) {
      member.parkedHeartbeat = {
        groupId: req.groupId,
        sender: req.sender,
        requestId: req.requestId,
        until: ctx.now + wait,
      }
    } else ctx.out.respond(req, { kind: 'heartbeat' }, { sessionRenewed: true })
  }
}

export function handleLeave(
  group: ConsumerGroup | undefined,
  req: RequestHeader & LeaveGroupBody,
  ctx: HandlerContext,
): void {
  // A static member may leave by instance id alone (Kafka's LeaveGroup v3).
  const memberId =
    req.memberId === '' && req.groupInstanceId !== undefined
      ? (group?.instances.get(req.groupInstanceId) ?? '')
      : req.memberId
  if (group !== undefined && memberId !== '' && group.removed.get(memberId) === 'left') {
    ctx.out.respond(req, { kind: 'leave' })
    return
  }
  const member = identify(group, { ...req, memberId }, ctx)
  if (member === undefined || group === undefined) return
  if (req.requestId < member.lastRequestId) return
  removeMember(group, member, 'left', ctx)
  ctx.out.respond(req, { kind: 'leave' })
  afterRemoval(group, `member ${member.memberId} left${req.reason ? `: ${req.reason}` : ''}`, ctx)
}
