/**
 * Parked heartbeats (HeartbeatBody.maxWaitMs): the coordinator holds each member's latest heartbeat
 * and answers it when a rebalance starts, when the member is removed, when its next heartbeat
 * arrives, or when its wait runs out. Members thus hear of a rebalance within one round trip
 * instead of at their next heartbeat: KIP-848's push without a second protocol.
 */
import type { TributaryError } from '@tributary/wire'
import type { HandlerContext } from './context.js'
import type { ConsumerGroup, MemberState } from './group.js'

/**
 * Answers a member's parked heartbeat: with `error` (a rebalance started, the member was
 * removed), or as a plain heartbeat answer when its wait ran out or a newer heartbeat came.
 */
export function answerParkedHeartbeat(member: MemberState, ctx: HandlerContext, error?: TributaryError): void {
  const parked = member.parkedHeartbeat
  if (parked === undefined) return
  member.parkedHeartbeat = undefined
  ctx.out.respond(parked, { kind: 'heartbeat' }, { ...(error === undefined ? {} : { error }), sessionRenewed: true })
}

/** Parked heartbeats whose wait ran out get their plain answer. */
export function answerDueHeartbeats(group: ConsumerGroup, ctx: HandlerContext): void {
  for (const member of group.members.values()) {
    if (member.parkedHeartbeat !== undefined && ctx.now >= member.parkedHeartbeat.until)
      answerParkedHeartbeat(member, ctx)
  }
}

/** Every parked heartbeat of the group answered with `error` (a rebalance started). */
export function answerAllParked(group: ConsumerGroup, ctx: HandlerContext, error: TributaryError): void {
  for (const member of group.members.values()) answerParkedHeartbeat(member, ctx, error)
}

/** The earliest time a parked heartbeat of the group is due for its plain answer. */
export function nextParkedDue(group: ConsumerGroup): number | undefined {
  let next: number | undefined
  for (const member of group.members.values()) {
    const until = member.parkedHeartbeat?.until
    if (until !== undefined && (next === undefined || until < next)) next = until
  }
  return next
}
