/**
 * Consumer-group administration for the admin client (KafkaJS's listGroups, describeGroups,
 * deleteGroups, fetchOffsets, setOffsets, resetOffsets, plus describeGroup with lag). Listing
 * asks every peer for the groups it coordinates; everything else goes to the group's
 * coordinator (the leader of its `__consumer_offsets` partition), following NOT_COORDINATOR hints.
 */
import {
  CONSUMER_OFFSETS_TOPIC,
  coordinatorPartitionFor,
  type DescribedGroup,
  type GroupAdminRequest,
  type GroupAdminResponse,
  type ListedGroup,
} from '@tributary/groups'
import { ErrorCode, errorFromCode, GroupIdNotFoundError, type TributaryError } from '@tributary/wire'
import type { Cluster } from '../cluster/cluster.js'
import { NoPeerAvailableError } from '../errors.js'
import { fetchOffsets } from './describe.js'

export interface GroupOffsetLag {
  topic: string
  partition: number
  /** The group's committed offset ('-1': none). */
  offset: string
  /** The partition's high watermark: the next offset a consumer will see. */
  logEndOffset: string
  /** logEndOffset − committed offset (the whole log when nothing is committed). */
  lag: string
}

export interface GroupDescription {
  groupId: string
  state: string
  generation: number
  protocolType: string
  protocol: string
  members: Array<{
    memberId: string
    groupInstanceId: string | undefined
    clientId: string
    assignment: Array<{ topic: string; partitions: number[] }>
  }>
}

const signalOpts = (signal: AbortSignal | undefined): { signal?: AbortSignal } =>
  signal === undefined ? {} : { signal }

/** Every group of the mesh: each peer lists those it coordinates; peers that do not answer are skipped. */
export async function listGroups(cluster: Cluster, signal: AbortSignal | undefined): Promise<ListedGroup[]> {
  const meta = await cluster.metadata([], signalOpts(signal))
  const peers = meta.peers.filter((p) => p.voter && p.status !== 'dead').map((p) => p.peerId)
  const answers = await Promise.allSettled(
    peers.map((peer) => cluster.broker(peer).groupAdmin({ kind: 'list' }, signalOpts(signal))),
  )
  if (answers.every((a) => a.status === 'rejected') && answers.length > 0) {
    throw new NoPeerAvailableError('no peer answered the group listing')
  }
  const groups = new Map<string, ListedGroup>()
  for (const a of answers) {
    if (a.status !== 'fulfilled') continue
    for (const g of a.value.groups) if (!groups.has(g.groupId)) groups.set(g.groupId, g)
  }
  return [...groups.values()].sort((x, y) => (x.groupId < y.groupId ? -1 : x.groupId > y.groupId ? 1 : 0))
}

/** One request to a group's coordinator; a typed error (retriable when the coordinator moved or loads). */
export async function coordinatorRequest(
  cluster: Cluster,
  request: Exclude<GroupAdminRequest, { kind: 'list' }>,
  signal: AbortSignal | undefined,
): Promise<GroupAdminResponse> {
  let topic: Awaited<ReturnType<Cluster['topic']>>
  try {
    topic = await cluster.topic(CONSUMER_OFFSETS_TOPIC, signalOpts(signal))
  } catch {
    throw new GroupIdNotFoundError(`group ${request.groupId} does not exist (no group has been created yet)`)
  }
  const partition = coordinatorPartitionFor(request.groupId, topic.partitions.length)
  let target = topic.partitions[partition]?.leader ?? ''
  if (target === '') target = (await cluster.metadata([], signalOpts(signal))).peerId
  // At most one redirect: a second NOT_COORDINATOR goes back to the retrier, which refreshes metadata.
  for (let hop = 0; ; hop++) {
    let response: GroupAdminResponse
    try {
      response = await cluster.broker(target).groupAdmin(request, signalOpts(signal))
    } catch (err) {
      // The coordinator's peer is unreachable (stopped, killed): without this every retry would
      // dial it again until the cached metadata aged out, long after a new leader was elected.
      cluster.invalidate(CONSUMER_OFFSETS_TOPIC)
      throw err
    }
    if (response.errorCode === 0) return response
    if (response.errorCode === ErrorCode.NOT_COORDINATOR && response.coordinatorHint !== undefined && hop === 0) {
      target = response.coordinatorHint
      continue
    }
    if (response.errorCode === ErrorCode.NOT_COORDINATOR || response.errorCode === ErrorCode.COORDINATOR_NOT_AVAILABLE)
      cluster.invalidate(CONSUMER_OFFSETS_TOPIC)
    throw errorFromCode(response.errorCode, response.errorMessage) as TributaryError
  }
}

export async function describeGroup(
  cluster: Cluster,
  groupId: string,
  signal: AbortSignal | undefined,
): Promise<DescribedGroup> {
  const response = await coordinatorRequest(cluster, { kind: 'describe', groupId }, signal)
  if (response.group === undefined) throw new GroupIdNotFoundError(`group ${groupId} does not exist`)
  return response.group
}

export function toDescription(group: DescribedGroup): GroupDescription {
  return {
    groupId: group.groupId,
    state: group.state,
    generation: group.generation,
    protocolType: group.protocolType,
    protocol: group.protocol,
    members: group.members.map((m) => {
      const byTopic = new Map<string, number[]>()
      for (const tp of m.assignment) byTopic.set(tp.topic, [...(byTopic.get(tp.topic) ?? []), tp.partition])
      return {
        memberId: m.memberId,
        groupInstanceId: m.groupInstanceId,
        clientId: m.clientId,
        assignment: [...byTopic].map(([topic, partitions]) => ({
          topic,
          partitions: partitions.sort((a, b) => a - b),
        })),
      }
    }),
  }
}

/** Committed offsets of every partition of `topics` (or of every topic the group committed to), with lag. */
export async function groupLag(
  cluster: Cluster,
  group: DescribedGroup,
  topics: string[] | undefined,
  signal: AbortSignal | undefined,
): Promise<GroupOffsetLag[]> {
  const names = topics ?? [...new Set(group.offsets.map((o) => o.topic))].sort()
  const out: GroupOffsetLag[] = []
  for (const topic of names) {
    const meta = await cluster.topic(topic, signalOpts(signal))
    const partitions = meta.partitions.map((p) => p.partition)
    const ends = await fetchOffsets(cluster, topic, partitions, -1, signal)
    for (const { partition, offset: end } of ends) {
      const committed = group.offsets.find((o) => o.topic === topic && o.partition === partition)?.offset ?? -1
      const lag = committed < 0 ? end : Math.max(0, end - committed)
      out.push({ topic, partition, offset: String(committed), logEndOffset: String(end), lag: String(lag) })
    }
  }
  return out
}
