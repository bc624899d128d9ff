/**
 * A peer's side of partition leadership in the gossiped metadata: the partitions it leads are
 * published (leader, epoch, committed voter set, in-sync voters, observers, offsets) on every
 * Raft change and re-checked every second for in-sync changes; and who leads a partition is
 * read from the local replica when it knows a leader at least as new as the gossiped one.
 */
import type { Logger } from './logger.js'
import type { PartitionStates } from './metadata/index.js'
import type { HostedPartition } from './partitions/hosted-partition.js'
import type { PartitionManager } from './partitions/partition-manager.js'
import type { TopicView } from './partitions/topic-view.js'
import type { Assignment } from './raft/index.js'

/** How often leaders re-check and publish their partitions' in-sync sets. */
const LEADERSHIP_PUBLISH_INTERVAL_MS = 1000

export interface LeadershipPublisherInit {
  peerId: string
  partitions: PartitionManager
  partitionStates: PartitionStates
  logger: Logger
  /** True once the peer is stopping: nothing more is published. */
  stopping: () => boolean
}

export class LeadershipPublisher {
  private timer: ReturnType<typeof setInterval> | undefined

  constructor(private readonly init: LeadershipPublisherInit) {}

  /** Starts the periodic re-check. */
  start(): void {
    this.timer = setInterval(() => {
      for (const hosted of this.init.partitions.list()) if (hosted.isLeader) this.publish(hosted)
    }, LEADERSHIP_PUBLISH_INTERVAL_MS)
    this.timer.unref?.()
  }

  stop(): void {
    clearInterval(this.timer)
  }

  /** A leader records its partition's leadership in the gossiped metadata (only real changes are written). */
  publish(hosted: HostedPartition): void {
    const { partitions, partitionStates, peerId, logger } = this.init
    const { raft } = hosted
    if (!hosted.isLeader || this.init.stopping()) return
    const view = partitions.topic(hosted.topic)
    const assignment = raft.assignment()
    if (view === undefined || view.topicId !== hosted.topicId || assignment === undefined) return
    try {
      partitionStates.publish({
        topic: hosted.topic,
        partition: hosted.partition,
        topicId: hosted.topicId,
        leader: peerId,
        leaderEpoch: raft.epoch,
        voters: [...assignment.voters],
        votersOffset: assignment.votersOffset,
        inSync: raft.inSyncVoters().filter((v) => assignment.voters.includes(v)),
        observers: [...assignment.observers],
        highWatermark: hosted.log.highWatermark,
        logEndOffset: hosted.log.logEndOffset,
      })
    } catch (err) {
      logger.warn({ err, partition: hosted.name }, 'could not publish partition leadership')
    }
  }

  /** The assignment the leader of a partition last published, if it is for this topic id. */
  published(topic: TopicView, partition: number): Assignment | undefined {
    const state = this.init.partitionStates.get(topic.name, partition)
    if (state === undefined || state.topicId !== topic.topicId || state.voters.length === 0) return undefined
    return { voters: state.voters, votersOffset: state.votersOffset, observers: state.observers }
  }

  leaderOf(topic: string, partition: number): { leader: string; epoch: number; inSync: string[] } | undefined {
    const { partitions, partitionStates } = this.init
    const hosted = partitions.get(topic, partition)
    const gossiped = partitionStates.get(topic, partition)
    const current =
      gossiped !== undefined && gossiped.topicId === partitions.topic(topic)?.topicId ? gossiped : undefined
    if (hosted?.raft.leaderId !== undefined && hosted.raft.epoch >= (current?.leaderEpoch ?? -1)) {
      const inSync = hosted.isLeader ? hosted.raft.inSyncVoters() : (current?.inSync ?? [])
      return { leader: hosted.raft.leaderId, epoch: hosted.raft.epoch, inSync }
    }
    return current === undefined
      ? undefined
      : { leader: current.leader, epoch: current.leaderEpoch, inSync: current.inSync }
  }
}
