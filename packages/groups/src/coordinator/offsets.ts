/**
 * OffsetCommit and OffsetFetch on the coordinator. A commit lands only from a current member, in
 * the current generation, for partitions that member holds (or, while the group has no members,
 * from outside any generation: Kafka's "simple" commit). A member may commit while the group
 * prepares a rebalance (KIP-429: that is when eager members commit what they revoke) but not
 * before it fetched the new generation's assignment. Each accepted partition becomes a record;
 * the answer waits for it to be durable (see output.ts).
 */
import {
  CoordinatorNotAvailableError,
  IllegalGenerationError,
  OffsetMetadataTooLargeError,
  PartitionNotOwnedError,
  RebalanceInProgressError,
  type TributaryError,
  UnknownMemberIdError,
  UnknownTopicOrPartitionError,
} from '@tributary/wire'
import { MAX_OFFSET_METADATA_LENGTH } from '../constants.js'
import type {
  FetchedOffset,
  OffsetCommitBody,
  OffsetFetchBody,
  PartitionResult,
  RequestHeader,
} from '../protocol/messages.js'
import { offsetCommitRecord } from '../records/offsets-records.js'
import { formatTopicPartition, fromKey, keyOf, sortTopicPartitions } from '../topic-partition.js'
import type { HandlerContext } from './context.js'
import type { ConsumerGroup } from './group.js'
import { identify } from './membership.js'

type CommitRequest = RequestHeader & OffsetCommitBody

/** `group` is undefined when it does not exist; a simple commit creates it through `create`. */
export function handleCommit(
  existing: ConsumerGroup | undefined,
  req: CommitRequest,
  ctx: HandlerContext,
  create: () => ConsumerGroup | undefined,
): void {
  const { out, config } = ctx
  if (req.generation === -1) {
    if (existing !== undefined && !existing.isEmpty()) {
      out.fail(req, new UnknownMemberIdError(`group ${req.groupId} has members; commit as one of them`))
      return
    }
    const group = existing ?? create()
    if (group === undefined) return
    commitPartitions(group, req, ctx, () => undefined)
    return
  }
  if (existing === undefined) {
    out.fail(req, new IllegalGenerationError(`group ${req.groupId} has no generation ${req.generation}`))
    return
  }
  if (existing.state === 'Dead') {
    out.fail(req, new CoordinatorNotAvailableError(`group ${req.groupId} is being removed`))
    return
  }
  const member = identify(existing, req, ctx)
  if (member === undefined) return
  const fence = config.rules.fenceCommits
  if (fence && req.requestId < member.lastRequestId) return
  member.lastRequestId = Math.max(member.lastRequestId, req.requestId)
  member.lastSeen = ctx.now
  if (fence && req.generation !== existing.generation) {
    out.fail(
      req,
      new IllegalGenerationError(
        `commit from generation ${req.generation} refused: group ${req.groupId} is at generation ${existing.generation}`,
      ),
      true,
    )
    return
  }
  if (existing.state === 'CompletingRebalance' && !member.synced) {
    out.fail(req, new RebalanceInProgressError(`group ${req.groupId} is completing a rebalance; sync first`), true)
    return
  }
  const held = existing.holds.heldBy(member.memberId)
  commitPartitions(existing, req, ctx, (key) =>
    fence && !held.has(key)
      ? new PartitionNotOwnedError(
          `member ${member.memberId} does not hold ${formatTopicPartition(fromKey(key))} in generation ${existing.generation}`,
        )
      : undefined,
  )
}

function commitPartitions(
  group: ConsumerGroup,
  req: CommitRequest,
  ctx: HandlerContext,
  ownership: (key: string) => TributaryError | undefined,
): void {
  const results: PartitionResult[] = []
  for (const o of req.offsets) {
    const key = keyOf(o)
    const count = ctx.components.partitionCount(o.topic)
    let error: TributaryError | undefined
    if (count === undefined || o.partition >= count) {
      error = new UnknownTopicOrPartitionError(`${formatTopicPartition(o)} does not exist`)
    } else if (o.metadata.length > MAX_OFFSET_METADATA_LENGTH) {
      error = new OffsetMetadataTooLargeError(
        `metadata of ${o.metadata.length} characters for ${formatTopicPartition(o)}; the limit is ${MAX_OFFSET_METADATA_LENGTH}`,
      )
    } else {
      error = ownership(key)
    }
    if (error === undefined) {
      const value = {
        offset: o.offset,
        leaderEpoch: o.leaderEpoch,
        metadata: o.metadata,
        commitTimestamp: Math.max(0, ctx.now),
        generation: req.generation,
        memberId: req.memberId,
      }
      group.offsets.set(key, value)
      ctx.out.records.push(offsetCommitRecord(group.groupId, o, value))
    }
    results.push({
      topic: o.topic,
      partition: o.partition,
      errorCode: error?.code ?? 0,
      errorMessage: error?.message.slice(0, 1024) ?? '',
    })
  }
  ctx.out.respond(req, { kind: 'commit', results }, { sessionRenewed: req.generation !== -1 })
}

export function committedOffsets(group: ConsumerGroup | undefined, body: OffsetFetchBody): FetchedOffset[] {
  const wanted =
    body.partitions === undefined
      ? sortTopicPartitions([...(group?.offsets.keys() ?? [])].map(fromKey))
      : sortTopicPartitions(body.partitions)
  return wanted.map((tp) => {
    const committed = group?.offsets.get(keyOf(tp))
    return {
      topic: tp.topic,
      partition: tp.partition,
      offset: committed?.offset ?? -1,
      leaderEpoch: committed?.leaderEpoch ?? -1,
      metadata: committed?.metadata ?? '',
    }
  })
}
