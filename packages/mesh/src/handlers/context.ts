import type { PartitionManager } from '../partitions/partition-manager.js'
import type { TopicView } from '../partitions/topic-view.js'

export interface MemberView {
  peerId: string
  addresses: string[]
  voter: boolean
  storage: string
  status: string
  version: string
}

export interface TopicSpec {
  name: string
  partitions: number
  replicationFactor: number
  configs: Record<string, string>
}

/** What the request handlers see of the peer: a narrow surface, easy to fake in tests. */
export interface HandlerContext {
  readonly peerId: string
  readonly partitions: PartitionManager
  members(): MemberView[]
  topics(): TopicView[]
  createTopic(spec: TopicSpec): Promise<TopicView>
  deleteTopic(name: string): Promise<void>
  alterConfigs(name: string, configs: Record<string, string>): Promise<void>
  /**
   * Who leads a partition as far as this peer knows: its own replica's Raft state if it holds
   * one, else the leadership record gossiped by the leader; undefined while unknown.
   */
  leaderOf(topic: string, partition: number): { leader: string; epoch: number; inSync: string[] } | undefined
  /** Milliseconds since the epoch. */
  now(): number
  /**
   * Fetches for partitions this peer hosts but does not lead are served from its replica, up to
   * its high watermark, instead of being sent to the leader (browser peers). Default false.
   */
  readonly servesReplicaReads?: boolean
}
