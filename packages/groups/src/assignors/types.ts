/**
 * What an assignor sees and returns. Assignors are pure functions of their input: the same group
 * (in any order) always yields the same assignment, which is what lets a new coordinator after a
 * failover, or a test, predict it.
 */
import type { TopicPartition } from '../topic-partition.js'

/**
 * Kafka's rebalance protocols (KIP-429). Eager: every member gives up all its partitions before
 * rejoining. Cooperative: members keep what they hold while rebalancing and give up only what
 * moves, one generation before its new owner gets it.
 */
export type RebalanceProtocol = 'eager' | 'cooperative'

export interface AssignorMember {
  memberId: string
  /** Static members sort by instance id, so a restart (new member id) keeps its place. */
  groupInstanceId?: string | undefined
  topics: readonly string[]
  /** What the member holds now; members never share a partition here. Eager assignors ignore it. */
  owned: readonly TopicPartition[]
}

export interface AssignorInput {
  members: readonly AssignorMember[]
  /** Partition count of every existing topic; subscribed topics missing here are skipped. */
  partitionCounts: ReadonlyMap<string, number>
}

/** Member id → its partitions in canonical order. Every input member has an entry, maybe empty. */
export type GroupAssignment = Map<string, TopicPartition[]>

export interface Assignor {
  /** The protocol name members announce (Kafka's names: `range`, `roundrobin`, `cooperative-sticky`). */
  readonly name: string
  readonly rebalanceProtocol: RebalanceProtocol
  assign(input: AssignorInput): GroupAssignment
}
