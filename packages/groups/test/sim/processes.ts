/**
 * The actors of the group simulation: the coordinator's host (the `__consumer_offsets` partition
 * leader: a durable log that survives it, a coordinator that does not) and member processes (a
 * GroupMember plus a small application that polls, auto-commits and commits on revoke).
 */

import type { Rng } from '@tributary/test-utils/simulation'
import {
  type CoordinatorOptions,
  type CoordinatorOutput,
  decodeGroupRequest,
  decodeGroupResponse,
  encodeGroupRequest,
  encodeGroupResponse,
  GroupCoordinator,
  GroupMember,
  type MemberEvent,
  type MemberOptions,
  type MemberOutput,
  type OffsetsRecord,
  tpKey,
} from '../../src/index.ts'
import type { Owner, SafetyChecker } from './checker.ts'
import type { SimClock, SimNetwork, TimerHandle } from './world.ts'

export const GROUP = 'sim-group'

export interface SimStats {
  events: number
  rebalances: number
  failovers: number
  crashes: number
  restarts: number
  leaves: number
  stalls: number
  slowRevocations: number
  commitsSent: number
  commitsRefused: number
  lost: number
  revokes: number
}

export interface SimContext {
  clock: SimClock
  network: SimNetwork
  rng: Rng
  checker: SafetyChecker
  stats: SimStats
  counts: Map<string, number>
  host: CoordinatorHost
  processes: MemberProcess[]
  /** Chance that a revocation takes longer than the rebalance timeout (a slow commit-on-revoke). */
  slowRevocationRate: number
  owners(): Owner[]
  violation(message: string): void
  /** Debugging: every coordinator and member event, timestamped. */
  trace: ((line: string) => void) | undefined
}

export class CoordinatorHost {
  /** The partition's durable records: what a new coordinator recovers from. */
  readonly log: OffsetsRecord[] = []
  coordinator: GroupCoordinator | undefined
  /** Chance to crash after making records durable but before sending the answers. */
  crashAfterPersistRate = 0
  private timer: TimerHandle | undefined

  constructor(
    private readonly sim: SimContext,
    private readonly config: CoordinatorOptions,
  ) {}

  get up(): boolean {
    return this.coordinator !== undefined
  }

  generation(): number | undefined {
    return this.coordinator?.describeGroup(GROUP)?.generation
  }

  takeOver(): void {
    const now = this.sim.clock.now()
    this.coordinator = GroupCoordinator.recover(
      this.log,
      { partitionCount: (t) => this.sim.counts.get(t) },
      this.config,
      now,
    )
    // Partitions may have been added while no coordinator was up.
    this.topicsChanged()
    this.schedule()
  }

  crash(): void {
    this.coordinator = undefined
    this.sim.clock.cancel(this.timer)
  }

  receive(bytes: Uint8Array): void {
    if (this.coordinator === undefined) return
    this.run(() => this.coordinator!.handle(decodeGroupRequest(bytes), this.sim.clock.now()))
  }

  topicsChanged(): void {
    if (this.coordinator === undefined) return
    this.run(() => this.coordinator!.topicsChanged(this.sim.clock.now()))
  }

  private run(step: () => CoordinatorOutput): void {
    let out: CoordinatorOutput
    try {
      out = step()
    } catch (err) {
      this.sim.violation(`t=${this.sim.clock.now()}: coordinator threw: ${(err as Error).message}`)
      this.crash()
      return
    }
    const now = this.sim.clock.now()
    for (const record of out.records) {
      this.log.push(record)
      this.sim.checker.onRecord(record, this.generation(), this.sim.owners(), now)
    }
    this.sim.stats.rebalances += out.events.filter((e) => e.type === 'rebalance-started').length
    for (const e of out.events) this.sim.trace?.(`t=${now} coordinator ${JSON.stringify(e)}`)
    if (out.records.length > 0 && this.sim.rng.chance(this.crashAfterPersistRate)) {
      this.sim.stats.failovers++
      this.crash()
      this.sim.clock.after(this.sim.rng.int(20, 200), () => this.takeOver())
      return
    }
    for (const response of out.responses) {
      const bytes = encodeGroupResponse(response)
      this.sim.network.send(bytes, (b) => {
        const decoded = decodeGroupResponse(b)
        this.sim.processes.find((p) => p.nonce === decoded.recipient)?.receive(decoded)
      })
    }
    this.schedule()
  }

  private schedule(): void {
    this.sim.clock.cancel(this.timer)
    const next = this.coordinator?.nextDeadline()
    if (next === undefined) return
    this.timer = this.sim.clock.at(next, () => this.run(() => this.coordinator!.tick(this.sim.clock.now())))
  }
}

export class MemberProcess {
  member: GroupMember | undefined
  incarnation = 0
  readonly events: MemberEvent[] = []
  stalledUntil = 0
  private timer: TimerHandle | undefined
  private appTimer: TimerHandle | undefined
  private positions = new Map<string, number>()
  private revokeCommit: number | undefined
  private lastAutoCommit = 0

  constructor(
    private readonly sim: SimContext,
    readonly id: string,
    readonly options: MemberOptions,
  ) {}

  /** The process runs (a member that left still runs until restarted). */
  get alive(): boolean {
    return this.member !== undefined
  }

  /** The process runs a member that is in the group or trying to be. */
  get active(): boolean {
    return this.member !== undefined && this.member.state !== 'left' && this.member.state !== 'failed'
  }

  get nonce(): string | undefined {
    return this.member?.nonce
  }

  get name(): string {
    return `${this.id}#${this.incarnation}`
  }

  owner(): Owner | undefined {
    const m = this.member
    if (m === undefined) return undefined
    return { name: this.name, identity: this.options.groupInstanceId ?? m.id, memberId: m.id, assignment: m.assignment }
  }

  start(): void {
    this.incarnation++
    this.member = new GroupMember(this.options, { newSender: () => `${this.id}-${this.sim.rng.nonce(12)}` })
    this.positions = new Map()
    this.revokeCommit = undefined
    this.stalledUntil = 0
    this.apply(this.member.start(this.sim.clock.now()))
    this.appStep()
  }

  /** Gone without a word: no leave, no revocation. */
  crash(): void {
    this.member = undefined
    this.sim.clock.cancel(this.timer)
    this.sim.clock.cancel(this.appTimer)
  }

  leave(): void {
    if (this.member !== undefined) this.apply(this.member.leave(this.sim.clock.now()))
  }

  stall(ms: number): void {
    this.stalledUntil = this.sim.clock.now() + ms
  }

  /** Ends a stall at once: the application polls again. */
  resume(): void {
    this.stalledUntil = 0
    if (this.member !== undefined) this.apply(this.member.poll(this.sim.clock.now()))
  }

  receive(response: ReturnType<typeof decodeGroupResponse>): void {
    if (this.member !== undefined) this.apply(this.member.handle(response, this.sim.clock.now()))
  }

  private apply(out: MemberOutput): void {
    const member = this.member
    if (member === undefined) return
    const now = this.sim.clock.now()
    for (const request of out.requests) {
      if (request.kind === 'commit') this.sim.stats.commitsSent++
      this.sim.network.send(encodeGroupRequest(request), (b) => this.sim.host.receive(b))
    }
    for (const event of out.events) {
      this.sim.trace?.(`t=${now} ${this.name} ${JSON.stringify(event)}`)
      this.events.push(event)
      this.onEvent(event, now)
    }
    this.sim.clock.cancel(this.timer)
    const next = member.nextDeadline()
    if (next !== undefined) {
      this.timer = this.sim.clock.at(next, () => {
        if (this.member === member) this.apply(member.tick(this.sim.clock.now()))
      })
    }
  }

  private onEvent(event: MemberEvent, now: number): void {
    const member = this.member!
    switch (event.type) {
      case 'assigned':
        for (const tp of event.partitions) this.positions.set(tpKey(tp.topic, tp.partition), 0)
        this.sim.checker.onAssigned(this.owner()!, event.generation, now)
        break
      case 'revoke': {
        this.sim.stats.revokes++
        const offsets = event.partitions.map((tp) => ({
          ...tp,
          offset: this.positions.get(tpKey(tp.topic, tp.partition)) ?? 0,
          leaderEpoch: -1,
          metadata: '',
        }))
        const { requestId, ...out } = member.commit(offsets, now)
        this.revokeCommit = requestId
        this.apply(out)
        break
      }
      case 'committed':
        if (event.results.some((r) => r.errorCode !== 0) || event.error !== undefined) this.sim.stats.commitsRefused++
        if (event.requestId === this.revokeCommit) {
          this.revokeCommit = undefined
          const slow = this.sim.rng.chance(this.sim.slowRevocationRate)
          if (slow) this.sim.stats.slowRevocations++
          const delay = slow ? this.sim.rng.int(1_000, 2_500) : this.sim.rng.int(0, 15)
          this.sim.clock.after(Math.max(delay, this.stalledUntil - now), () => {
            if (this.member === member) this.apply(member.revocationDone(this.sim.clock.now()))
          })
        }
        break
      case 'lost':
        this.sim.stats.lost++
        for (const tp of event.partitions) this.positions.delete(tpKey(tp.topic, tp.partition))
        break
      case 'failed':
        this.sim.violation(`t=${now}: ${this.name} failed: ${event.error.message}`)
        break
      default:
        break
    }
  }

  /** The application: process a little, poll, auto-commit now and then. */
  private appStep(): void {
    const member = this.member
    if (member === undefined) return
    const now = this.sim.clock.now()
    if (now >= this.stalledUntil) {
      for (const [key, position] of this.positions) this.positions.set(key, position + this.sim.rng.int(0, 3))
      this.apply(member.poll(now))
      if (now - this.lastAutoCommit >= 200 && member.state === 'stable' && this.positions.size > 0) {
        this.lastAutoCommit = now
        const offsets = member.assignment.map((tp) => ({
          ...tp,
          offset: this.positions.get(tpKey(tp.topic, tp.partition)) ?? 0,
          leaderEpoch: -1,
          metadata: '',
        }))
        this.apply(member.commit(offsets, now))
      }
    }
    this.appTimer = this.sim.clock.after(this.sim.rng.int(20, 60), () => {
      if (this.member === member) this.appStep()
    })
  }
}
