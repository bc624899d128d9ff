/**
 * Deterministic simulation of the per-partition Raft (after Kafka's RaftEventSimulationTest):
 * 3 or 5 voters (and sometimes an observer), each a real PartitionRaft over a real in-memory
 * log and quorum store, on a fake clock and a network that drops, delays, duplicates, reorders
 * and partitions. Replicas crash (losing everything in memory, keeping log and quorum state)
 * and restart; clients produce to whoever leads, acks=all or acks=1. Invariants are checked as
 * it runs and at the end; everything random comes from one seed, so a failing seed replays.
 */
import type { Log } from '@tributary/log'
import { emptyPartitionData, type MemoryPartitionData, openMemoryLog } from '@tributary/log/memory'
import { encodeRecordBatchSync } from '@tributary/wire'
import type { Logger } from '../../src/logger.js'
import { MemoryQuorumStateStore, PartitionRaft, type RaftConfig } from '../../src/raft/index.js'
import type { QuorumRules } from '../../src/raft/types.js'
import { SafetyChecker } from './sim-checker.js'
import { Rng, SimClock, SimNetwork } from './sim-network.js'

export interface SimulationOptions {
  seed: number
  voters: 3 | 5
  observers?: 0 | 1
  /** Sim time with faults injected. */
  chaosMs?: number
  /** Sim time allowed, after healing, for a commit and for every replica to catch up. */
  healMs?: number
  /** Planted bugs (the checks must catch them). */
  rules?: Partial<QuorumRules>
  /** Planted bug: a quorum store that loses what it saved when the replica crashes. */
  forgetfulStore?: boolean
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
  // A batch or two per fetch: followers then often hold an older epoch's tail without the new
  // leader's first record, the situation Raft's "commit only your own epoch" rule exists for.
  fetchMaxBytes: 160,
}

const PARTITION = 'topic-0'
const MAX_EVENTS = 2_000_000
const utf8 = new TextEncoder()

class SimNode {
  readonly data: MemoryPartitionData = emptyPartitionData()
  store = new MemoryQuorumStateStore()
  log: Log | undefined
  raft: PartitionRaft | undefined
  /** Committed offsets below this were already compared with the committed record. */
  verified = 0
  /** Crashed or stopping, with a restart pending. */
  down = false

  constructor(
    readonly id: string,
    readonly voter: boolean,
  ) {}
}

export async function runSimulation(options: SimulationOptions): Promise<SimulationResult> {
  return new RaftSimulation(options).run()
}

class RaftSimulation {
  private readonly rng: Rng
  private readonly clock = new SimClock()
  private readonly net: SimNetwork
  private readonly nodes: SimNode[]
  private readonly voterIds: string[]
  private readonly violations: string[] = []
  private readonly checker = new SafetyChecker((message) => this.violate(message))
  private readonly dirty = new Set<SimNode>()
  private readonly acked: { value: string; offset: number }[] = []
  private chaos = true
  private fullCheckDue = false
  private events = 0
  private produced = 0
  private inflight = 0
  private crashes = 0
  private pendingRestarts = 0
  private readonly logCounts: Record<string, number> = {}

  constructor(private readonly options: SimulationOptions) {
    this.rng = new Rng(options.seed)
    this.net = new SimNetwork(this.clock, this.rng, {
      dropRate: 0,
      duplicateRate: 0.03,
      minDelayMs: 1,
      maxDelayMs: 12,
      slowRate: 0.03,
      slowDelayMs: 150,
    })
    this.voterIds = Array.from({ length: options.voters }, (_, i) => `v${i}`)
    const observerIds = Array.from({ length: options.observers ?? 0 }, (_, i) => `o${i}`)
    this.nodes = [
      ...this.voterIds.map((id) => new SimNode(id, true)),
      ...observerIds.map((id) => new SimNode(id, false)),
    ]
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
      () => 400,
      () => {
        this.fullCheckDue = true
        if (process.env.RAFT_SIM_TRACE)
          console.log(
            this.clock.now(),
            this.net.messages,
            this.nodes
              .map(
                (n) =>
                  `${n.id}:${n.raft?.role}/${n.raft?.epoch}/${n.raft?.leaderId} leo=${n.log?.logEndOffset} hw=${n.log?.highWatermark}`,
              )
              .join(' | '),
          )
      },
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

  private every(interval: () => number, fn: () => void): void {
    const tick = (): void => {
      if (!this.chaos) return
      fn()
      this.clock.setTimeout(tick, interval())
    }
    this.clock.setTimeout(tick, interval())
  }

  // ---- replicas ----

  private async startNode(node: SimNode): Promise<void> {
    node.log = await openMemoryLog({ name: `${PARTITION}@${node.id}`, data: node.data, clock: () => this.clock.now() })
    const raft = new PartitionRaft({
      partition: PARTITION,
      localId: node.id,
      voters: this.voterIds,
      observers: this.nodes.filter((n) => !n.voter).map((n) => n.id),
      log: node.log,
      store: node.store,
      transport: this.net.transportFor(node.id),
      clock: this.clock,
      random: () => this.rng.next(),
      logger: this.loggerFor(node.id),
      config: SIM_RAFT_CONFIG,
      rules: this.options.rules,
    })
    node.raft = raft
    node.down = false
    node.verified = 0 // the reopened log's high watermark is its last checkpoint: verify again from 0
    const endpoint = this.net.endpoints.get(node.id)!
    endpoint.raft = raft
    endpoint.up = true
    raft.onChange((change) => {
      if (change.role === 'leader') {
        this.checker.leaderElected(change.epoch, node.id)
        // Short-lived leaders, some of whose records reach only a minority, are what the
        // subtle election and commit rules are about: crash some new leaders almost at once.
        if (this.chaos && this.rng.chance(0.15)) {
          this.clock.setTimeout(
            () => {
              if (node.raft === raft && !node.down) this.restartLater(node, this.crash(node))
            },
            this.rng.int(1, 40),
          )
        }
      }
      if (node.raft === raft) this.dirty.add(node)
    })
    await raft.start()
    this.dirty.add(node)
  }

  /** Crash: everything in memory is lost; the log data and quorum store survive. */
  private async crash(node: SimNode): Promise<void> {
    const raft = node.raft
    if (raft === undefined) return
    this.crashes++
    const endpoint = this.net.endpoints.get(node.id)!
    endpoint.up = false
    endpoint.incarnation++
    endpoint.raft = undefined
    node.raft = undefined
    node.log = undefined
    if (this.options.forgetfulStore) node.store = new MemoryQuorumStateStore()
    await raft.stop({ resign: false })
  }

  /** Graceful stop: a leader resigns first (EndQuorumEpoch), then the process goes away. */
  private async shutdown(node: SimNode): Promise<void> {
    await node.raft?.stop()
    await this.crash(node)
  }

  private chaosStep(): void {
    const r = this.rng.next()
    const running = this.nodes.filter((n) => n.raft !== undefined && !n.down)
    if (r < 0.08 && running.length > 0) {
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
    this.pendingRestarts++
    const restart = (): void => {
      this.startNode(node)
        .catch((err: unknown) => this.violate(`restart of ${node.id} failed: ${String(err)}`))
        .finally(() => this.pendingRestarts--)
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
    // Pending stops and restarts finish on the clock (each within ~1 s of sim time).
    for (let i = 0; i < 100 && this.pendingRestarts > 0; i++) await this.runFor(20)
    if (this.pendingRestarts > 0) this.violate('restarts did not finish')
    for (const node of this.nodes) if (node.raft === undefined) await this.startNode(node)
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
      const leader = this.leader()?.raft
      const end = leader?.log.logEndOffset
      const converged =
        leader !== undefined &&
        leader.highWatermark === end &&
        this.nodes.every((n) => n.log?.logEndOffset === end && n.log.highWatermark === end)
      if (converged) return
      await this.runFor(25)
    }
    const state = this.nodes.map(
      (n) => `${n.id}:${n.raft?.role}/${n.raft?.epoch} leo=${n.log?.logEndOffset} hw=${n.log?.highWatermark}`,
    )
    this.violate(`replicas did not converge after healing: ${state.join(' ')}`)
  }

  // ---- invariants ----

  private violate(message: string): void {
    if (this.violations.length < 20) this.violations.push(`t=${this.clock.now()} ${message}`)
  }

  private loggerFor(id: string): Logger {
    const count = (_obj: object, msg?: string): void => {
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
    for (const node of nodes) if (node.log !== undefined) await this.verify(node, node.verified)
  }

  private async verify(node: SimNode, from: number): Promise<void> {
    node.verified = await this.checker.verify(node.id, node.log!, from, node.verified)
  }

  private async finalChecks(): Promise<void> {
    for (const node of this.nodes) {
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
