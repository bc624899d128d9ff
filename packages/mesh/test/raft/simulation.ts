/**
 * Deterministic simulation of the per-partition Raft (after Kafka's RaftEventSimulationTest):
 * 3 or 5 voters (sometimes an observer, sometimes spare peers), each a real PartitionRaft over a
 * real in-memory log and quorum store, on a fake clock and a network that drops, delays,
 * duplicates, reorders and partitions. Replicas crash (losing everything in memory, keeping log
 * and quorum state) and restart; some crash for good, and the leader replaces them with a spare
 * (learner, then voter, then the lost one removed); leaders hand over to the preferred voter.
 * Clients produce to whoever leads, acks=all or acks=1. Invariants are checked as it runs and
 * at the end; everything random comes from one seed, so a failing seed replays.
 */
import { encodeRecordBatchSync } from '@tributary/wire'
import type { Logger } from '../../src/logger.js'
import type { PartitionRaft, RaftChange, RaftConfig } from '../../src/raft/index.js'
import type { QuorumRules } from '../../src/raft/types.js'
import { SafetyChecker } from './sim-checker.js'
import { hostAction, newestAssignment, type PublishedAssignment, placementOrder } from './sim-membership.js'
import { Rng, SimClock, SimNetwork } from './sim-network.js'
import { SimNode, type SimWorld } from './sim-node.js'

export interface SimulationOptions {
  seed: number
  voters: 3 | 5
  observers?: 0 | 1
  /** Peers that hold no replica at first: placement's picks when a voter is lost for good. */
  spares?: 0 | 1 | 2
  /** Whether voters crashed for good come back at the heal (and must then be removed quietly). */
  revive?: boolean
  /** Sim time with faults injected. */
  chaosMs?: number
  /** Sim time allowed, after healing, for a commit and for every replica to catch up. */
  healMs?: number
  /** Planted bugs (the checks must catch them). */
  rules?: Partial<QuorumRules>
  /** Planted bug: a quorum store that loses what it saved when the replica crashes. */
  forgetfulStore?: boolean
  /** Chance that a newly elected leader crashes within 40 ms (default 0.15). */
  newLeaderCrashRate?: number
  /** Message delays, ms (default 1-12): slower links keep changes uncommitted for longer. */
  delayMs?: [number, number]
  /** Raft settings over SIM_RAFT_CONFIG (slower links need longer timeouts). */
  config?: Partial<RaftConfig>
}

export interface SimulationResult {
  seed: number
  violations: string[]
  stats: {
    epochs: number
    leaders: number
    acked: number
    produced: number
    crashes: number
    messages: number
    committed: number
    /** Voters crashed for good, and replicas deleted because they were removed or given up on. */
    lost: number
    removed: number
    /** How often each log message was written: which code paths the run exercised. */
    logs: Record<string, number>
  }
}

export const SIM_RAFT_CONFIG: Partial<RaftConfig> = {
  electionTimeoutMs: 150,
  fetchTimeoutMs: 300,
  fetchMaxWaitMs: 60,
  requestTimeoutMs: 100,
  retryBackoffMs: 20,
  replicaLagTimeMaxMs: 300,
  replicaReplacementDelayMs: 400,
  leaderImbalanceCheckIntervalMs: 300,
  // A batch or two per fetch: followers then often hold an older epoch's tail without the new
  // leader's first record, the situation Raft's "commit only your own epoch" rule exists for.
  fetchMaxBytes: 160,
}

const MAX_EVENTS = 2_000_000
const utf8 = new TextEncoder()

export async function runSimulation(options: SimulationOptions): Promise<SimulationResult> {
  return new RaftSimulation(options).run()
}

class RaftSimulation {
  private readonly rng: Rng
  private readonly clock = new SimClock()
  private readonly net: SimNetwork
  private readonly nodes: SimNode[]
  private readonly voterIds: string[]
  private readonly observerIds: string[]
  private readonly placement: string[]
  private readonly violations: string[] = []
  private readonly checker: SafetyChecker
  private readonly dirty = new Set<SimNode>()
  private readonly acked: { value: string; offset: number }[] = []
  private published: PublishedAssignment | undefined
  private chaos = true
  private fullCheckDue = false
  private events = 0
  private produced = 0
  private inflight = 0
  private crashes = 0
  private lost = 0
  private removed = 0
  private pending = 0
  private readonly logCounts: Record<string, number> = {}

  constructor(private readonly options: SimulationOptions) {
    this.rng = new Rng(options.seed)
    this.net = new SimNetwork(this.clock, this.rng, {
      dropRate: 0,
      duplicateRate: 0.03,
      minDelayMs: options.delayMs?.[0] ?? 1,
      maxDelayMs: options.delayMs?.[1] ?? 12,
      slowRate: 0.03,
      slowDelayMs: 150,
    })
    this.voterIds = Array.from({ length: options.voters }, (_, i) => `v${i}`)
    this.observerIds = Array.from({ length: options.observers ?? 0 }, (_, i) => `o${i}`)
    const spareIds = Array.from({ length: options.spares ?? 0 }, (_, i) => `s${i}`)
    this.placement = placementOrder(options.seed, [...this.voterIds, ...spareIds])
    const world: SimWorld = {
      clock: this.clock,
      net: this.net,
      random: () => this.rng.next(),
      config: { ...SIM_RAFT_CONFIG, ...options.config },
      rules: options.rules,
      voterIds: this.voterIds,
      observerIds: this.observerIds,
      placement: {
        replicationFactor: options.voters,
        candidates: () => this.placement.filter((id) => !this.node(id).dead),
      },
      loggerFor: (id) => this.loggerFor(id),
      changed: (node, raft, change) => this.changed(node, raft, change),
    }
    this.nodes = [
      ...this.voterIds.map((id) => new SimNode(id, 'voter', world)),
      ...this.observerIds.map((id) => new SimNode(id, 'observer', world)),
      ...spareIds.map((id) => new SimNode(id, 'spare', world)),
    ]
    this.checker = new SafetyChecker((message) => this.violate(message), this.voterIds)
    for (const node of this.nodes) this.net.add(node.id)
  }

  async run(): Promise<SimulationResult> {
    for (const node of this.nodes) await this.startNode(node)
    this.every(
      () => this.rng.int(20, 120),
      () => this.chaosStep(),
    )
    this.every(
      () => this.rng.int(4, 30),
      () => this.produce(),
    )
    this.every(
      () => this.rng.int(10, 40),
      () => this.gossip(),
      true,
    )
    this.every(
      () => 400,
      () => {
        this.fullCheckDue = true
        if (process.env.RAFT_SIM_TRACE) console.log(this.clock.now(), this.net.messages, this.describeNodes())
      },
      true,
    )
    await this.runFor(this.options.chaosMs ?? 2000)
    this.chaos = false
    await this.heal()
    await this.awaitProgress(this.options.healMs ?? 4000)
    if (this.violations.length === 0) await this.finalChecks()
    for (const node of this.nodes) await node.raft?.stop({ resign: false })
    return {
      seed: this.options.seed,
      violations: this.violations,
      stats: {
        epochs: Math.max(...this.checker.epochsWithLeader, 0),
        leaders: this.checker.epochsWithLeader.length,
        acked: this.acked.length,
        produced: this.produced,
        crashes: this.crashes,
        messages: this.net.messages,
        committed: this.checker.committedEnd,
        lost: this.lost,
        removed: this.removed,
        logs: this.logCounts,
      },
    }
  }

  // ---- the event loop ----

  private async runFor(ms: number): Promise<void> {
    const end = this.clock.now() + ms
    while (this.violations.length === 0) {
      const event = this.clock.next(end)
      if (event === undefined) break
      if (++this.events > MAX_EVENTS) return this.violate(`more than ${MAX_EVENTS} events: runaway`)
      event.fn()
      // Memory logs and stores complete in microtasks: one macrotask turn drains every effect.
      await new Promise((resolve) => setImmediate(resolve))
      await this.checkDirty()
    }
    this.clock.advanceTo(end)
  }

  /** Runs `fn` every `interval()` while the chaos lasts (or for the whole run). */
  private every(interval: () => number, fn: () => void, always = false): void {
    const tick = (): void => {
      if (!this.chaos && !always) return
      fn()
      this.clock.setTimeout(tick, interval())
    }
    this.clock.setTimeout(tick, interval())
  }

  // ---- processes and replicas ----

  private async startNode(node: SimNode): Promise<void> {
    await node.start()
  }

  /** Crash: everything in memory is lost; the log data and quorum store survive. */
  private async crash(node: SimNode): Promise<void> {
    this.crashes++
    await node.crash(this.options.forgetfulStore === true)
  }

  /** A replica changed: check it, and crash some new leaders almost at once. */
  private changed(node: SimNode, raft: PartitionRaft, change: RaftChange | undefined): void {
    if (change?.role === 'leader') {
      this.checker.leaderElected(change.epoch, node.id)
      // Short-lived leaders, some of whose records reach only a minority, are what the subtle
      // election and commit rules are about.
      if (this.chaos && this.rng.chance(this.options.newLeaderCrashRate ?? 0.15)) {
        this.clock.setTimeout(
          () => {
            if (node.raft === raft && node.up) this.restartLater(node, this.crash(node))
          },
          this.rng.int(1, 40),
        )
      }
    }
    this.dirty.add(node)
  }

  /** Graceful stop: a leader resigns first (EndQuorumEpoch), then the process goes away. */
  private async shutdown(node: SimNode): Promise<void> {
    await node.raft?.stop()
    await this.crash(node)
  }

  /** The host deletes a replica the partition no longer needs (removed, or a learner given up on). */
  private async removeReplica(node: SimNode): Promise<void> {
    if (this.checker.committedVoters.includes(node.id)) {
      this.violate(`${node.id} deleted its replica while a voter of the committed set ${this.checker.committedVoters}`)
    }
    this.removed++
    await node.removeReplica()
  }

  /** Metadata reaches the hosts: the newest leader's assignment, acted on by every running node. */
  private gossip(): void {
    this.published = newestAssignment(this.nodes, this.published) ?? this.published
    const published = this.published
    if (published === undefined) return
    for (const node of this.nodes) {
      if (node.busy) continue
      const action = hostAction(node, published)
      if (action === undefined) continue
      node.busy = true
      this.pending++
      const work = action === 'remove' ? this.removeReplica(node) : node.openReplica(published)
      work
        .catch((err: unknown) => this.violate(`${action} on ${node.id} failed: ${String(err)}`))
        .finally(() => {
          node.busy = false
          this.pending--
        })
    }
  }

  private chaosStep(): void {
    const r = this.rng.next()
    const running = this.nodes.filter((n) => n.up && !n.busy)
    const spares = this.options.spares ?? 0
    // A voter lost for good: only a replacement brings the partition back to full strength. One
    // at a time (a lost majority cannot be repaired by anyone): the next only once the last was replaced.
    const repaired = [...this.checker.committedVoters, ...(this.published?.voters ?? [])].every(
      (id) => !this.node(id).dead,
    )
    if (r < 0.02 && this.lost < spares && repaired) {
      const victims = running.filter((n) => n.raft?.isVoter === true)
      if (victims.length === 0) return
      const node = this.rng.pick(victims)
      node.dead = true
      node.down = true
      this.lost++
      void this.crash(node)
    } else if (r < 0.08 && running.length > 0) {
      const node = this.rng.pick(running)
      this.restartLater(node, this.crash(node))
    } else if (r < 0.12 && running.length > 0) {
      const leader = running.find((n) => n.raft?.role === 'leader')
      const node = leader !== undefined && this.rng.chance(0.6) ? leader : this.rng.pick(running)
      this.restartLater(node, this.shutdown(node))
    } else if (r < 0.2) {
      const sides = new Map<string, number>()
      const leader = running.find((n) => n.raft?.role === 'leader')
      const isolateLeader = leader !== undefined && this.rng.chance(0.5)
      for (const n of this.nodes) sides.set(n.id, isolateLeader ? Number(n === leader) : this.rng.int(0, 1))
      this.net.partition(sides)
      this.clock.setTimeout(() => this.net.partition(undefined), this.rng.int(50, 900))
    } else if (r < 0.26) {
      this.net.conditions.dropRate = this.rng.pick([0, 0, 0.02, 0.1, 0.3])
    }
  }

  private restartLater(node: SimNode, stopping: Promise<void>): void {
    node.down = true
    this.pending++
    const restart = (): void => {
      const starting = node.dead ? Promise.resolve() : this.startNode(node)
      starting
        .catch((err: unknown) => this.violate(`restart of ${node.id} failed: ${String(err)}`))
        .finally(() => this.pending--)
    }
    stopping.then(() => this.clock.setTimeout(restart, this.rng.int(30, 600)))
  }

  // ---- clients ----

  private produce(): void {
    if (this.inflight >= 20) return
    const leaders = this.nodes.filter((n) => n.raft?.role === 'leader')
    if (leaders.length === 0) return
    const raft = this.rng.pick(leaders).raft!
    const acksAll = this.rng.chance(0.8)
    const n = ++this.produced
    const values = Array.from({ length: this.rng.int(1, 3) }, (_, i) => `s${this.options.seed}-r${n}-${i}`)
    const batch = encodeRecordBatchSync({
      records: values.map((v) => ({ value: utf8.encode(v), timestamp: this.clock.now() })),
    })
    this.inflight++
    this.write(raft, batch, values, acksAll)
      .catch(() => {})
      .finally(() => this.inflight--)
  }

  private async write(raft: PartitionRaft, batch: Uint8Array, values: string[], acksAll: boolean): Promise<void> {
    const appended = await raft.appendAsLeader(batch)
    if (!acksAll) return
    await raft.waitForCommit(appended.lastOffset, { epoch: appended.leaderEpoch, timeoutMs: 400 })
    if (raft.highWatermark <= appended.lastOffset) this.violate('waitForCommit resolved below the high watermark')
    for (const [i, value] of values.entries()) this.acked.push({ value, offset: appended.firstOffset + i })
  }

  // ---- healing and progress ----

  private async heal(): Promise<void> {
    this.net.partition(undefined)
    this.net.conditions.dropRate = 0
    // Pending stops, restarts and host actions finish on the clock (each within ~1 s of sim time).
    for (let i = 0; i < 100 && this.pending > 0; i++) await this.runFor(20)
    if (this.pending > 0) this.violate('restarts did not finish')
    for (const node of this.nodes) {
      if (node.dead && this.options.revive) node.dead = false
      if (!node.dead && node.down) await this.startNode(node)
    }
  }

  private leader(): SimNode | undefined {
    const leaders = this.nodes.filter((n) => n.raft?.role === 'leader')
    return leaders.sort((a, b) => b.raft!.epoch - a.raft!.epoch)[0]
  }

  private async awaitProgress(healMs: number): Promise<void> {
    const deadline = this.clock.now() + healMs
    let committed = false
    while (!committed && this.clock.now() < deadline && this.violations.length === 0) {
      const leader = this.leader()
      if (leader === undefined) {
        await this.runFor(25)
        continue
      }
      let done: boolean | undefined
      const value = `s${this.options.seed}-final`
      const batch = encodeRecordBatchSync({ records: [{ value: utf8.encode(value), timestamp: this.clock.now() }] })
      this.write(leader.raft!, batch, [value], true).then(
        () => {
          done = true
        },
        () => {
          done = false
        },
      )
      while (done === undefined && this.clock.now() < deadline) await this.runFor(10)
      committed = done === true
    }
    if (!committed) return this.violate(`no write committed within ${healMs} ms after healing`)
    while (this.clock.now() < deadline && this.violations.length === 0) {
      if (this.settled()) return
      await this.runFor(25)
    }
    this.violate(`replicas did not converge after healing: ${this.describeNodes()}`)
  }

  /**
   * Done healing: the replication factor is back (as many voters as at the start, none lost for
   * good, no learner or change pending), the preferred voter leads, only the voters and the
   * observers hold a replica, and every replica holds and has committed the same log.
   */
  private settled(): boolean {
    const leader = this.leader()?.raft
    const assignment = leader?.assignment()
    if (leader === undefined || assignment === undefined) return false
    const end = leader.log.logEndOffset
    const hosts = [...assignment.voters, ...this.observerIds].sort()
    const hosting = this.nodes.filter((n) => n.hosting && !n.dead).map((n) => n.id)
    return (
      assignment.voters.length === this.options.voters &&
      assignment.observers.join() === this.observerIds.join() &&
      assignment.voters.every((id) => !this.node(id).dead) &&
      assignment.voters[0] === leader.localId &&
      hosting.sort().join() === hosts.join() &&
      leader.highWatermark === end &&
      this.nodes.every((n) => !n.hosting || n.dead || (n.log?.logEndOffset === end && n.log.highWatermark === end))
    )
  }

  // ---- invariants ----

  private node(id: string): SimNode {
    return this.nodes.find((n) => n.id === id)!
  }

  private describeNodes(): string {
    return this.nodes
      .map((n) => {
        const state =
          n.raft === undefined ? (n.dead ? 'dead' : n.down ? 'down' : 'idle') : `${n.raft.role}/${n.raft.epoch}`
        return `${n.id}:${state} leo=${n.log?.logEndOffset} hw=${n.log?.highWatermark} voters=${n.raft?.voterSet?.voters.join(',')}`
      })
      .join(' | ')
  }

  private violate(message: string): void {
    if (this.violations.length < 20) this.violations.push(`t=${this.clock.now()} ${message}`)
  }

  private loggerFor(id: string): Logger {
    const count = (obj: object, msg?: string): void => {
      if (process.env.RAFT_SIM_NODE === id) console.log(this.clock.now(), id, msg, describe(obj))
      const key = msg ?? '?'
      this.logCounts[key] = (this.logCounts[key] ?? 0) + 1
    }
    return {
      debug: count,
      info: count,
      warn: count,
      error: (obj, msg) => this.violate(`${id} logged an error: ${msg ?? ''} ${describe(obj)}`),
    }
  }

  private async checkDirty(): Promise<void> {
    if (this.fullCheckDue) {
      this.fullCheckDue = false
      for (const node of this.nodes) if (node.log !== undefined) await this.verify(node, 0)
    }
    if (this.dirty.size === 0) return
    const nodes = [...this.dirty]
    this.dirty.clear()
    for (const node of nodes) {
      if (node.log === undefined) continue
      await this.verify(node, node.verified)
      if (node.raft?.role === 'leader') await this.checker.checkVoterChangesInFlight(node.id, node.log)
    }
  }

  private async verify(node: SimNode, from: number): Promise<void> {
    node.verified = await this.checker.verify(node.id, node.log!, from, node.verified)
  }

  private async finalChecks(): Promise<void> {
    for (const node of this.nodes) {
      if (!node.hosting || node.dead) continue
      await this.verify(node, 0)
      await this.checker.checkAcknowledged(node.id, node.log!, this.acked)
    }
  }
}

function describe(obj: object): string {
  return Object.entries(obj)
    .map(([k, v]) => `${k}=${v instanceof Error ? v.message : typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
    .join(' ')
}
