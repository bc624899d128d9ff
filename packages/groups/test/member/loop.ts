/**
 * A coordinator and members wired together directly (no loss, no delay), on a shared clock, for
 * member tests. Messages can be cut to model a member losing its coordinator.
 */
import {
  GroupCoordinator,
  GroupMember,
  type GroupRequest,
  type MemberEvent,
  type MemberOptions,
  type MemberOutput,
  type TopicPartition,
} from '../../src/index.ts'

export interface Attached {
  member: GroupMember
  events: MemberEvent[]
  sent: GroupRequest[]
  /** Call revocationDone as soon as a revoke arrives (the default). */
  autoRevoke: boolean
  /** Messages to and from this member are dropped. */
  cut: boolean
  /** The application polls at every step (false: it is stuck). */
  polling: boolean
}

export class Loop {
  now = 0
  readonly coordinator: GroupCoordinator
  readonly members: Attached[] = []
  /** Check at every step that no partition has two owners. */
  checkOwners = true
  private nonces = 0

  constructor(partitions = 6) {
    this.coordinator = new GroupCoordinator(
      { partitionCount: (topic) => (topic === 'orders' ? partitions : undefined) },
      { minSessionTimeoutMs: 100, initialRebalanceDelayMs: 0 },
    )
  }

  add(options: Partial<MemberOptions> = {}): Attached {
    const member = new GroupMember(
      {
        groupId: 'billing',
        topics: ['orders'],
        sessionTimeoutMs: 1_000,
        heartbeatIntervalMs: 200,
        requestTimeoutMs: 300,
        rebalanceTimeoutMs: 2_000,
        maxPollIntervalMs: 10_000,
        leaseMarginMs: 0,
        ...options,
      },
      { newSender: () => `n${++this.nonces}` },
    )
    const attached: Attached = { member, events: [], sent: [], autoRevoke: true, cut: false, polling: true }
    this.members.push(attached)
    return attached
  }

  start(a: Attached): void {
    this.apply(a, a.member.start(this.now))
  }

  /** Feeds a member's output through the coordinator and back until everything settles. */
  apply(a: Attached, output: MemberOutput): void {
    const queue: Array<[Attached, MemberOutput]> = [[a, output]]
    for (let rounds = 0; queue.length > 0; rounds++) {
      if (rounds > 10_000) throw new Error('message loop did not settle')
      const [from, out] = queue.shift()!
      from.events.push(...out.events)
      from.sent.push(...out.requests)
      if (out.events.some((e) => e.type === 'revoke') && from.autoRevoke) {
        queue.push([from, from.member.revocationDone(this.now)])
      }
      if (from.cut) continue
      for (const request of out.requests) {
        const { responses } = this.coordinator.handle(request, this.now)
        for (const response of responses) {
          const to = this.members.find((m) => m.member.nonce === response.recipient)
          if (to !== undefined && !to.cut) queue.push([to, to.member.handle(response, this.now)])
        }
      }
    }
  }

  /** Advances time step by step, ticking the coordinator and every member at each step. */
  advance(ms: number, step = 50): void {
    const end = this.now + ms
    while (this.now < end) {
      this.now = Math.min(end, this.now + step)
      const { responses } = this.coordinator.tick(this.now)
      for (const response of responses) {
        const to = this.members.find((m) => m.member.nonce === response.recipient)
        if (to !== undefined && !to.cut) this.apply(to, to.member.handle(response, this.now))
      }
      for (const a of this.members) {
        if (a.polling) this.apply(a, a.member.poll(this.now))
        this.apply(a, a.member.tick(this.now))
      }
      if (this.checkOwners) this.checkSingleOwners()
    }
  }

  /** No partition owned by two members at once (the invariant everything here exists for). */
  checkSingleOwners(): void {
    const seen = new Map<string, number>()
    this.members.forEach((a, i) => {
      for (const tp of a.member.assignment) {
        const key = `${tp.topic}-${tp.partition}`
        if (seen.has(key)) throw new Error(`${key} owned by members ${seen.get(key)} and ${i} at ${this.now}`)
        seen.set(key, i)
      }
    })
  }
}

export function ps(list: TopicPartition[]): number[] {
  return list.map((tp) => tp.partition)
}

export function eventTypes(a: Attached): string[] {
  return a.events.map((e) => e.type)
}
