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
  const leader = ctx.leaderOf(topic, partition)?.leader ?? ''
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

function short(peerId: string): string {
  return peerId.length > 12 ? `…${peerId.slice(-8)}` : peerId || 'no peer yet'
}
