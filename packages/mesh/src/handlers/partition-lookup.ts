import { LeaderNotAvailableError, NotLeaderOrFollowerError, UnknownTopicOrPartitionError } from '@tributary/wire'
import type { HostedPartition } from '../partitions/hosted-partition.js'
import type { HandlerContext } from './context.js'

export type Lookup = { hosted: HostedPartition } | { error: Error; leaderHint: string }

/** Finds the partition this peer leads, or the typed error (with the known leader) to answer. */
export function leaderPartition(ctx: HandlerContext, topic: string, partition: number): Lookup {
  const view = ctx.partitions.topic(topic)
  if (view === undefined) {
    return {
      error: new UnknownTopicOrPartitionError(`topic ${topic} does not exist (on ${short(ctx.peerId)})`),
      leaderHint: '',
    }
  }
  if (!Number.isInteger(partition) || partition < 0 || partition >= view.partitions) {
    return {
      error: new UnknownTopicOrPartitionError(
        `topic ${topic} has no partition ${partition} (it has ${view.partitions})`,
      ),
      leaderHint: '',
    }
  }
  const hosted = ctx.partitions.get(topic, partition)
  if (hosted?.isLeader === true) return { hosted }
  const leader = knownLeader(ctx, hosted, topic, partition)
  if (leader === '' || leader === ctx.peerId) {
    return {
      error: new LeaderNotAvailableError(
        `${topic}-${partition} has no leader yet (election in progress); retry shortly`,
      ),
      leaderHint: '',
    }
  }
  return {
    error: new NotLeaderOrFollowerError(`${topic}-${partition} is led by ${short(leader)}, not ${short(ctx.peerId)}`),
    leaderHint: leader,
  }
}

/**
 * The leader to name in a hint: a replica's own Raft view (fed by the leader's answers and
 * BeginQuorumEpoch) when it is at least as new as the gossiped record, which lags a hand-over or
 * an election by up to a publish interval; otherwise the gossiped one.
 */
function knownLeader(
  ctx: HandlerContext,
  hosted: HostedPartition | undefined,
  topic: string,
  partition: number,
): string {
  const gossiped = ctx.leaderOf(topic, partition)
  const local = hosted?.raft.leaderId
  if (local !== undefined && local !== '' && hosted !== undefined && hosted.raft.epoch >= (gossiped?.epoch ?? -1)) {
    return local
  }
  return gossiped?.leader ?? ''
}

function short(peerId: string): string {
  return peerId.length > 12 ? `…${peerId.slice(-8)}` : peerId || 'no peer yet'
}
