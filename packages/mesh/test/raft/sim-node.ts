/**
 * One simulated peer: a process that may be up, crashed or gone for good, and the replica of
 * the partition it may hold — a real PartitionRaft over an in-memory log and quorum store that
 * outlive crashes (as files would) and are deleted when the replica is removed.
 */
import type { Log } from '@tributary/log'
import { emptyPartitionData, type MemoryPartitionData, openMemoryLog } from '@tributary/log/memory'
import type { Logger } from '../../src/logger.js'
import {
  MemoryQuorumStateStore,
  PartitionRaft,
  type RaftChange,
  type RaftConfig,
  type ReplicaPlacement,
} from '../../src/raft/index.js'
import type { QuorumRules } from '../../src/raft/types.js'
import type { PublishedAssignment } from './sim-membership.js'
import type { SimClock, SimNetwork } from './sim-network.js'

export const PARTITION = 'topic-0'

export type NodeKind = 'voter' | 'observer' | 'spare'

/** What a node's replica is built from: the shared world of the simulation. */
export interface SimWorld {
  readonly clock: SimClock
  readonly net: SimNetwork
  readonly random: () => number
  readonly config: Partial<RaftConfig>
  readonly rules: Partial<QuorumRules> | undefined
  /** The partition's initial voters, and its configured observers. */
  readonly voterIds: readonly string[]
  readonly observerIds: readonly string[]
  readonly placement: ReplicaPlacement
  loggerFor(id: string): Logger
  /** Called on every change of the node's replica while it is the current one. */
  changed(node: SimNode, raft: PartitionRaft, change: RaftChange | undefined): void
}

export class SimNode {
  data: MemoryPartitionData = emptyPartitionData()
  store = new MemoryQuorumStateStore()
  log: Log | undefined
  raft: PartitionRaft | undefined
  /** Committed offsets below this were already compared with the committed record. */
  verified = 0
  /** Crashed or stopping, with a restart pending. */
  down = false
  /** Crashed for good. */
  dead = false
  /** Holds a replica (its raft runs whenever the process does). */
  hosting: boolean
  /** A replica is being started or deleted. */
  busy = false

  constructor(
    readonly id: string,
    readonly kind: NodeKind,
    private readonly world: SimWorld,
  ) {
    this.hosting = kind !== 'spare'
  }

  get up(): boolean {
    return !this.down && !this.dead
  }

  /** The process starts; it runs its replica if it holds one. */
  async start(): Promise<void> {
    this.down = false
    this.world.net.endpoints.get(this.id)!.up = true
    if (this.hosting) await this.openReplica(undefined)
  }

  /** Opens the replica: from its stored state, or — a new learner — from the published assignment. */
  async openReplica(assignment: PublishedAssignment | undefined): Promise<void> {
    const { world } = this
    this.hosting = true
    this.log = await openMemoryLog({ name: `${PARTITION}@${this.id}`, data: this.data, clock: () => world.clock.now() })
    const voters = assignment?.voters ?? world.voterIds
    const learner = !voters.includes(this.id) && this.kind !== 'observer'
    const raft = new PartitionRaft({
      partition: PARTITION,
      localId: this.id,
      voters,
      votersOffset: assignment?.votersOffset ?? -1,
      observers: [...world.observerIds, ...(learner ? [this.id] : [])],
      placement: world.placement,
      log: this.log,
      store: this.store,
      transport: world.net.transportFor(this.id),
      clock: world.clock,
      random: world.random,
      logger: world.loggerFor(this.id),
      config: world.config,
      rules: world.rules,
    })
    this.raft = raft
    this.verified = 0 // the reopened log's high watermark is its last checkpoint: verify again from 0
    world.net.endpoints.get(this.id)!.raft = raft
    raft.onChange((change) => {
      if (this.raft === raft) world.changed(this, raft, change)
    })
    await raft.start()
    world.changed(this, raft, undefined)
  }

  /** Crash: everything in memory is lost; the log data and quorum store survive (unless `forgetful`). */
  async crash(forgetful: boolean): Promise<void> {
    const raft = this.raft
    const endpoint = this.world.net.endpoints.get(this.id)!
    endpoint.up = false
    endpoint.incarnation++
    endpoint.raft = undefined
    this.raft = undefined
    this.log = undefined
    if (forgetful) this.store = new MemoryQuorumStateStore()
    await raft?.stop({ resign: false })
  }

  /** The host deletes the replica, its data and its quorum state; the process goes on. */
  async removeReplica(): Promise<void> {
    const raft = this.raft
    this.world.net.endpoints.get(this.id)!.raft = undefined
    this.raft = undefined
    this.log = undefined
    this.hosting = false
    await raft?.stop({ resign: false })
    this.data = emptyPartitionData()
    this.store = new MemoryQuorumStateStore()
    this.verified = 0
  }

  describe(): string {
    const r = this.raft
    const state = r === undefined ? (this.dead ? 'dead' : this.down ? 'down' : 'idle') : `${r.role}/${r.epoch}`
    return `${this.id}:${state} leo=${this.log?.logEndOffset} hw=${this.log?.highWatermark} voters=${r?.voterSet?.voters.join(',')}`
  }
}
