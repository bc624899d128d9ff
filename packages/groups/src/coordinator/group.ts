/**
 * One consumer group as its coordinator holds it: Kafka's group states, the members, the current
 * generation and its assignment, who may hold what (holds.ts) and the committed offsets. Only the
 * transitions Kafka allows between states are possible; anything else is a coordinator bug.
 */
import type { OffsetCommitRecord } from '../records/offsets-records.js'
import type { TopicPartition } from '../topic-partition.js'
import { PartitionHolds } from './holds.js'

export type GroupState = 'Empty' | 'PreparingRebalance' | 'CompletingRebalance' | 'Stable' | 'Dead'

/** Kafka's `GroupState.validPreviousStates`. */
const VALID_PREVIOUS: Record<GroupState, readonly GroupState[]> = {
  Empty: ['PreparingRebalance'],
  PreparingRebalance: ['Stable', 'CompletingRebalance', 'Empty'],
  CompletingRebalance: ['PreparingRebalance'],
  Stable: ['CompletingRebalance'],
  Dead: ['Stable', 'PreparingRebalance', 'CompletingRebalance', 'Empty', 'Dead'],
}

export interface PendingJoin {
  sender: string
  requestId: number
}

/** A heartbeat whose answer the coordinator holds until a rebalance starts or `until`. */
export interface ParkedHeartbeat {
  groupId: string
  sender: string
  requestId: number
  until: number
}

export interface MemberState {
  memberId: string
  groupInstanceId: string | undefined
  clientId: string
  protocols: string[]
  topics: string[]
  sessionTimeoutMs: number
  rebalanceTimeoutMs: number
  /** When the coordinator last heard from the member (its session runs from here). */
  lastSeen: number
  /** Highest request id taken from the member for a join, sync, leave or commit: older ones are stale. */
  lastRequestId: number
  /** Its join in the current rebalance, answered when the rebalance completes. */
  pendingJoin: PendingJoin | undefined
  /** Its latest heartbeat, held so that a rebalance reaches it at once (HeartbeatBody.maxWaitMs). */
  parkedHeartbeat?: ParkedHeartbeat | undefined
  /** Its partitions in the current generation. */
  assignment: TopicPartition[]
  /** It fetched the current generation's assignment. */
  synced: boolean
  /** When its incarnation started, as its join said (orders static incarnations). */
  startedAt: number
}

export interface RebalanceTimers {
  reason: string
  /** An empty group's first rebalance: new members extend its wait (Kafka's InitialDelayedJoin). */
  initial: boolean
  startedAt: number
  /** The join phase may complete once every member rejoined and this time passed (initial delay). */
  notBefore: number
  /** The join phase completes at this time whoever rejoined (the rebalance timeout). */
  deadline: number
}

export class ConsumerGroup {
  state: GroupState = 'Empty'
  generation = 0
  protocolType: string | undefined
  protocol: string | undefined
  readonly members = new Map<string, MemberState>()
  /** groupInstanceId → member id of its current incarnation. */
  readonly instances = new Map<string, string>()
  readonly holds = new PartitionHolds()
  readonly offsets = new Map<string, OffsetCommitRecord>()
  /** Member ids removed lately (→ why), so their late requests are refused, not re-admitted. */
  readonly removed = new Map<string, string>()
  rebalance: RebalanceTimers | undefined
  /** In CompletingRebalance: members that have not synced by then are removed. */
  syncDeadline: number | undefined
  /** Partition counts the current generation was assigned with (a change triggers a rebalance). */
  assignedCounts = new Map<string, number>()
  stateTimestamp = 0

  constructor(readonly groupId: string) {}

  transition(to: GroupState, now: number): void {
    if (!VALID_PREVIOUS[to].includes(this.state)) {
      throw new Error(`group ${this.groupId}: illegal transition ${this.state} → ${to}`)
    }
    this.state = to
    this.stateTimestamp = now
  }

  isEmpty(): boolean {
    return this.members.size === 0
  }

  /** The instance id maps to another member: this request comes from a fenced incarnation. */
  isFencedInstance(memberId: string, groupInstanceId: string | undefined): boolean {
    if (groupInstanceId === undefined) return false
    const current = this.instances.get(groupInstanceId)
    return current !== undefined && current !== memberId
  }

  remember(memberId: string, reason: string, limit: number): void {
    this.removed.delete(memberId)
    this.removed.set(memberId, reason)
    // Maps iterate in insertion order: the first key is the oldest.
    while (this.removed.size > limit) this.removed.delete(this.removed.keys().next().value as string)
  }

  maxRebalanceTimeout(): number {
    let max = 0
    for (const m of this.members.values()) max = Math.max(max, m.rebalanceTimeoutMs)
    return max
  }
}
