/**
 * The admin client's consumer-group operations as the user calls them: their arguments checked,
 * each coordinator call retried (groups.ts makes the calls). `Admin` checks it is open, then
 * hands over here.
 */
import type { Cluster } from '../cluster/cluster.js'
import { InvalidArgumentError } from '../errors.js'
import type { Retrier } from '../retry.js'
import {
  coordinatorRequest,
  describeGroup,
  type GroupDescription,
  type GroupOffsetLag,
  groupLag,
  listGroups,
  toDescription,
} from './groups.js'
import { checkTopicName } from './validate.js'

/** What the group operations use of their admin client. */
export interface GroupAdminContext {
  readonly cluster: Cluster
  readonly retrier: Retrier
}

export interface GroupListing {
  groupId: string
  protocolType: string
  state: string
  members: number
}

export interface SetOffsetsOptions {
  groupId: string
  topic: string
  partitions: Array<{ partition: number; offset: string | number }>
  signal?: AbortSignal
}

export async function listAllGroups(ctx: GroupAdminContext, signal: AbortSignal | undefined): Promise<GroupListing[]> {
  return ctx.retrier(() => listGroups(ctx.cluster, signal), opts(signal))
}

export async function describeGroups(
  ctx: GroupAdminContext,
  groupIds: string[],
  signal: AbortSignal | undefined,
): Promise<GroupDescription[]> {
  checkGroupIds(groupIds)
  const groups: GroupDescription[] = []
  for (const groupId of groupIds) {
    const group = await ctx.retrier(() => describeGroup(ctx.cluster, groupId, signal), opts(signal))
    groups.push(toDescription(group))
  }
  return groups
}

export async function describeGroupWithLag(
  ctx: GroupAdminContext,
  groupId: string,
  options: { topics?: string[]; signal?: AbortSignal },
): Promise<GroupDescription & { offsets: GroupOffsetLag[] }> {
  checkGroupIds([groupId])
  options.topics?.forEach(checkTopicName)
  return ctx.retrier(async () => {
    const group = await describeGroup(ctx.cluster, groupId, options.signal)
    const offsets = await groupLag(ctx.cluster, group, options.topics, options.signal)
    return { ...toDescription(group), offsets }
  }, opts(options.signal))
}

/** Committed offsets of a group, grouped by topic, as describeGroupWithLag found them. */
export function offsetsByTopic(
  offsets: GroupOffsetLag[],
): Array<{ topic: string; partitions: Array<{ partition: number; offset: string }> }> {
  const byTopic = new Map<string, Array<{ partition: number; offset: string }>>()
  for (const o of offsets)
    byTopic.set(o.topic, [...(byTopic.get(o.topic) ?? []), { partition: o.partition, offset: o.offset }])
  return [...byTopic].map(([topic, partitions]) => ({ topic, partitions }))
}

export async function deleteGroups(
  ctx: GroupAdminContext,
  groupIds: string[],
  signal: AbortSignal | undefined,
): Promise<void> {
  checkGroupIds(groupIds)
  for (const groupId of groupIds) {
    await ctx.retrier(() => coordinatorRequest(ctx.cluster, { kind: 'delete', groupId }, signal), opts(signal))
  }
}

export async function setGroupOffsets(ctx: GroupAdminContext, options: SetOffsetsOptions): Promise<void> {
  checkGroupIds([options.groupId])
  checkTopicName(options.topic)
  if (!Array.isArray(options.partitions) || options.partitions.length === 0)
    throw new InvalidArgumentError('setOffsets takes partitions: [{ partition, offset }]')
  const offsets = options.partitions.map((p) => {
    const offset = typeof p?.offset === 'string' && /^\d+$/.test(p.offset) ? Number(p.offset) : p?.offset
    if (!Number.isInteger(p?.partition) || p.partition < 0 || !Number.isSafeInteger(offset) || (offset as number) < 0) {
      throw new InvalidArgumentError(`setOffsets: ${JSON.stringify(p)} is not { partition, offset ≥ 0 }`)
    }
    return { topic: options.topic, partition: p.partition, offset: offset as number }
  })
  await ctx.retrier(
    () => coordinatorRequest(ctx.cluster, { kind: 'alter-offsets', groupId: options.groupId, offsets }, options.signal),
    opts(options.signal),
  )
}

function checkGroupIds(groupIds: string[]): void {
  if (!Array.isArray(groupIds) || groupIds.length === 0)
    throw new InvalidArgumentError('name at least one group id (an array of strings)')
  for (const id of groupIds) {
    if (typeof id !== 'string' || id.length === 0 || id.length > 255)
      throw new InvalidArgumentError(`a group id must be a string of 1 to 255 characters, got ${String(id)}`)
  }
}

function opts(signal: AbortSignal | undefined): { signal?: AbortSignal } {
  return signal === undefined ? {} : { signal }
}
