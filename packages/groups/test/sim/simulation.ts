/**
 * Deterministic simulation of a consumer group (after Kafka's RaftEventSimulationTest): a
 * coordinator and 1-8 members on a fake clock and a network that drops, delays, duplicates and
 * reorders. Members join, leave, crash without a word and come back, static members restart,
 * applications stall past the max poll interval or revoke slowly, partitions are added, and the
 * coordinator fails over to a new one rebuilt from its records. Invariants are checked after
 * every event (checker.ts); after the chaos the network calms down and the group must settle
 * with every partition owned exactly once, and a static member restarting within its session
 * must cause no rebalance. Everything random comes from one seed, so a failing seed replays;
 * pass `trace` to see every coordinator and member event of a run.
 */

import { Rng } from '@tributary/test-utils/simulation'
import type { Assignor, CoordinatorRules } from '../../src/index.ts'
import { SafetyChecker } from './checker.ts'
import { CoordinatorHost, GROUP, MemberProcess, type SimContext, type SimStats } from './processes.ts'
import { CALM, type NetworkConditions, SimClock, SimNetwork } from './world.ts'

export interface SimulationOptions {
  seed: number
  /** Assignors every member lists (default: chosen by seed). */
  assignors?: string[]
  chaosMs?: number
  /** Sim time allowed after the chaos for the group to settle. */
  healMs?: number
  /** Planted bugs. */
  rules?: Partial<CoordinatorRules>
  coordinatorAssignors?: readonly Assignor[]
  trace?: (line: string) => void
}

export interface SimulationResult {
  seed: number
  assignors: string[]
  violations: string[]
  settledAt: number | undefined
  staticRestartChecked: boolean
  stats: SimStats & { generations: number; commitsLanded: number; messages: number; dropped: number }
}

const SESSION_MS = 600
const MAX_EVENTS = 3_000_000
const LOSSY: NetworkConditions = {
  dropRate: 0.05,
  duplicateRate: 0.03,
  minDelayMs: 1,
  maxDelayMs: 15,
  slowRate: 0.03,
  slowDelayMs: [100, 400],
}

export function runSimulation(options: SimulationOptions): SimulationResult {
  const rng = new Rng(options.seed)
  const clock = new SimClock()
  const checker = new SafetyChecker()
  const violations: string[] = []
  const stats: SimStats = {
    events: 0,
    rebalances: 0,
    failovers: 0,
    crashes: 0,
    restarts: 0,
    leaves: 0,
    stalls: 0,
    slowRevocations: 0,
    commitsSent: 0,
    commitsRefused: 0,
    lost: 0,
    revokes: 0,
  }
  const assignors =
    options.assignors ??
    rng.pick([
      ['cooperative-sticky'],
      ['cooperative-sticky'],
      ['range'],
      ['roundrobin'],
      ['cooperative-sticky', 'range'],
    ])
  const topics = rng.chance(0.6) ? ['orders'] : ['orders', 'audit']
  const counts = new Map(topics.map((t) => [t, rng.int(1, 8)]))
  const sim: SimContext = {
    clock,
    network: new SimNetwork(clock, rng),
    rng,
    checker,
    stats,
    counts,
    host: undefined as unknown as CoordinatorHost,
    processes: [],
    slowRevocationRate: 0.05,
    owners: () => sim.processes.flatMap((p) => p.owner() ?? []),
    violation: (message) => {
      if (violations.length < 20) violations.push(message)
    },
    trace: options.trace,
  }
  sim.host = new CoordinatorHost(sim, {
    minSessionTimeoutMs: 100,
    initialRebalanceDelayMs: rng.int(0, 100),
    rules: options.rules,
    ...(options.coordinatorAssignors === undefined ? {} : { assignors: options.coordinatorAssignors }),
  })
  sim.host.crashAfterPersistRate = 0.01
  sim.host.takeOver()

  const memberCount = rng.int(1, 8)
  const newProcess = (): MemberProcess => {
    const i = sim.processes.length
    const subset = topics.filter(() => rng.chance(0.5))
    const process = new MemberProcess(sim, `p${i}`, {
      groupId: GROUP,
      topics: rng.chance(0.8) || subset.length === 0 ? topics : subset,
      assignors,
      groupInstanceId: rng.chance(0.4) ? `instance-${i}` : undefined,
      sessionTimeoutMs: SESSION_MS,
      heartbeatIntervalMs: 100,
      rebalanceTimeoutMs: 1_500,
      maxPollIntervalMs: 1_000,
      requestTimeoutMs: 250,
      retryBackoffMs: 20,
      leaseMarginMs: 0,
      // Parked heartbeats (answered when a rebalance starts) and classic ones, mixed in one group.
      parkHeartbeats: rng.chance(0.7),
    })
    sim.processes.push(process)
    return process
  }
  for (let i = 0; i < memberCount; i++) {
    const process = newProcess()
    clock.after(rng.int(0, 200), () => process.start())
  }

  const run = (until: number, stop?: () => boolean): boolean => {
    while (clock.step(until)) {
      if (++stats.events > MAX_EVENTS) {
        sim.violation(`more than ${MAX_EVENTS} events`)
        return false
      }
      checker.checkOwners(sim.owners(), clock.now())
      if (violations.length > 0 || checker.violations.length > 0) return false
      if (stop?.()) return true
    }
    return false
  }

  // ---- chaos ----
  sim.network.conditions = LOSSY
  const chaosEnd = options.chaosMs ?? 6_000
  const scheduleChaos = (): void => {
    clock.after(rng.int(100, 400), () => {
      if (clock.now() >= chaosEnd) return
      chaosAction(sim, rng, newProcess, chaosEnd)
      scheduleChaos()
    })
  }
  scheduleChaos()
  run(chaosEnd)

  // ---- heal: calm network, crashed members come back, the group must settle ----
  sim.network.conditions = CALM
  sim.host.crashAfterPersistRate = 0
  sim.slowRevocationRate = 0
  for (const p of sim.processes) p.resume()
  if (!sim.host.up) sim.host.takeOver()
  for (const p of sim.processes) {
    if (!p.active && rng.chance(0.5)) {
      stats.restarts++
      p.start()
    }
  }
  // Members still leaving when the chaos ended may leave the group empty: keep one around.
  let healing = true
  const keepOne = (): void => {
    if (!healing) return
    if (!sim.processes.some((p) => p.active)) newProcess().start()
    clock.after(200, keepOne)
  }
  const healEnd = clock.now() + (options.healMs ?? 8_000)
  keepOne()
  let settledAt: number | undefined
  if (violations.length === 0 && checker.violations.length === 0) {
    if (run(healEnd, () => settled(sim))) settledAt = clock.now()
    else if (violations.length === 0 && checker.violations.length === 0) {
      sim.violation(`did not settle within ${options.healMs ?? 8_000} ms: ${describeState(sim)}`)
    }
  }
  healing = false

  // ---- a static member restarts within its session: no rebalance ----
  // First a session of calm: a member whose answers were lost in the chaos may still lose its
  // lease and rejoin right after the group looked settled; that rebalance is not the restart's.
  let calm = false
  if (settledAt !== undefined) {
    run(clock.now() + SESSION_MS)
    calm = run(clock.now() + 3_000, () => settled(sim))
    if (!calm) sim.violation(`did not settle again in a calm network: ${describeState(sim)}`)
  }
  let staticRestartChecked = false
  const staticProcess = sim.processes.find((p) => p.active && p.options.groupInstanceId !== undefined)
  if (calm && staticProcess !== undefined) {
    staticRestartChecked = true
    options.trace?.(`t=${clock.now()} settled; restarting static member ${staticProcess.name}`)
    const generation = sim.host.generation()
    const before = JSON.stringify(staticProcess.member!.assignment)
    const othersEvents = sim.processes.map((p) => p.events.length)
    const rebalances = stats.rebalances
    staticProcess.crash()
    clock.after(rng.int(50, SESSION_MS / 3), () => staticProcess.start())
    const back = run(clock.now() + 3_000, () => staticProcess.member?.state === 'stable')
    if (!back) sim.violation(`static member ${staticProcess.name} did not come back`)
    else {
      if (sim.host.generation() !== generation || stats.rebalances !== rebalances) {
        sim.violation(`static restart caused a rebalance (generation ${generation} → ${sim.host.generation()})`)
      }
      if (JSON.stringify(staticProcess.member!.assignment) !== before) {
        sim.violation(`static member came back with ${JSON.stringify(staticProcess.member!.assignment)}, had ${before}`)
      }
      sim.processes.forEach((p, i) => {
        if (p === staticProcess) return
        const since = p.events.slice(othersEvents[i])
        if (since.some((e) => e.type === 'revoke' || e.type === 'lost' || e.type === 'assigned')) {
          sim.violation(`static restart disturbed ${p.name}: ${since.map((e) => e.type).join(', ')}`)
        }
      })
    }
  }

  return {
    seed: options.seed,
    assignors,
    violations: [...checker.violations, ...violations],
    settledAt,
    staticRestartChecked,
    stats: {
      ...stats,
      generations: sim.host.generation() ?? 0,
      commitsLanded: checker.commitsLanded,
      messages: sim.network.sent,
      dropped: sim.network.dropped,
    },
  }
}

function chaosAction(sim: SimContext, rng: Rng, newProcess: () => MemberProcess, chaosEnd: number): void {
  const live = sim.processes.filter((p) => p.active)
  const dead = sim.processes.filter((p) => !p.active)
  const roll = rng.next()
  if (roll < 0.18 && live.length > 0) {
    sim.stats.crashes++
    const p = rng.pick(live)
    p.crash()
    // Static members mostly come back quickly (a reloaded tab); others maybe later, maybe never.
    const quick = p.options.groupInstanceId !== undefined && rng.chance(0.7)
    if (quick || rng.chance(0.4)) {
      sim.clock.after(quick ? rng.int(50, 300) : rng.int(300, 2_000), () => {
        // Chaos ends on time: the heal decides who comes back after it.
        if (!p.alive && sim.clock.now() < chaosEnd) {
          sim.stats.restarts++
          p.start()
        }
      })
    }
  } else if (roll < 0.28 && live.length > 0) {
    sim.stats.leaves++
    rng.pick(live).leave()
  } else if (roll < 0.4 && dead.length > 0) {
    sim.stats.restarts++
    rng.pick(dead).start()
  } else if (roll < 0.48 && sim.processes.length < 10) {
    newProcess().start()
  } else if (roll < 0.56 && live.length > 0) {
    sim.stats.stalls++
    rng.pick(live).stall(rng.int(300, 1_800))
  } else if (roll < 0.66 && sim.host.up) {
    sim.stats.failovers++
    sim.host.crash()
    sim.clock.after(rng.int(20, 500), () => {
      if (!sim.host.up) sim.host.takeOver()
    })
  } else if (roll < 0.7) {
    const topic = rng.pick([...sim.counts.keys()])
    sim.counts.set(topic, Math.min(12, sim.counts.get(topic)! + rng.int(1, 2)))
    sim.trace?.(`t=${sim.clock.now()} partitions of ${topic}: ${sim.counts.get(topic)}`)
    sim.host.topicsChanged()
  }
}

/** Every live member stable in the coordinator's generation, and every partition owned exactly once. */
function settled(sim: SimContext): boolean {
  if (!sim.host.up) return false
  const group = sim.host.coordinator!.describeGroup(GROUP)
  const live = sim.processes.filter((p) => p.active)
  if (group === undefined || group.state !== 'Stable' || group.members.length !== live.length) return false
  if (!live.every((p) => p.member!.state === 'stable' && p.member!.currentGeneration === group.generation)) return false
  const subscribed = new Set(live.flatMap((p) => p.options.topics))
  let expected = 0
  for (const topic of subscribed) expected += sim.counts.get(topic) ?? 0
  const owned = new Set<string>()
  for (const p of live) for (const tp of p.member!.assignment) owned.add(`${tp.topic}-${tp.partition}`)
  return owned.size === expected && live.reduce((n, p) => n + p.member!.assignment.length, 0) === expected
}

function describeState(sim: SimContext): string {
  const group = sim.host.coordinator?.describeGroup(GROUP)
  const members = sim.processes
    .filter((p) => p.active)
    .map(
      (p) =>
        `${p.name}:${p.member!.state}@${p.member!.currentGeneration}[${p.member!.assignment.map((tp) => `${tp.topic}-${tp.partition}`).join(' ')}]`,
    )
  return `partitions ${JSON.stringify([...sim.counts])}; coordinator ${group?.state}@${group?.generation} with ${group?.members.length} members; ${members.join(', ')}`
}
