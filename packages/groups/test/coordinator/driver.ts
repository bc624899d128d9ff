/** Drives a GroupCoordinator by hand in tests: builds requests, keeps the time, collects records. */
import {
  type CommitOffset,
  type CoordinatorEvent,
  type CoordinatorOptions,
  GroupCoordinator,
  type GroupRequest,
  type GroupResponse,
  type OffsetsRecord,
  type TopicPartition,
} from '../../src/index.ts'

export const GROUP = 'billing'
export const SESSION = 1_000
export const REBALANCE = 3_000

export interface JoinOptions {
  memberId?: string
  instance?: string
  topics?: string[]
  protocols?: string[]
  owned?: TopicPartition[]
  ownedGeneration?: number
  session?: number
  rebalance?: number
  reason?: string
  /** When the joining incarnation started (default: now). */
  startedAt?: number
}

export class Driver {
  coordinator: GroupCoordinator
  now = 1_000
  readonly records: OffsetsRecord[] = []
  readonly events: CoordinatorEvent[] = []
  readonly counts: Map<string, number>
  private readonly ids = new Map<string, number>()

  constructor(
    counts: Record<string, number> = { orders: 6 },
    readonly config: CoordinatorOptions = {},
  ) {
    this.counts = new Map(Object.entries(counts))
    this.coordinator = this.fresh()
  }

  fresh(): GroupCoordinator {
    return new GroupCoordinator(
      { partitionCount: (topic) => this.counts.get(topic) },
      { minSessionTimeoutMs: 100, initialRebalanceDelayMs: 0, ...this.config },
    )
  }

  /** A new coordinator rebuilt from every record so far, as after a failover. */
  failover(): void {
    this.coordinator = GroupCoordinator.recover(
      this.records,
      { partitionCount: (topic) => this.counts.get(topic) },
      { minSessionTimeoutMs: 100, initialRebalanceDelayMs: 0, ...this.config },
      this.now,
    )
  }

  handle(request: GroupRequest): GroupResponse[] {
    const out = this.coordinator.handle(request, this.now)
    this.records.push(...out.records)
    this.events.push(...out.events)
    return out.responses
  }

  advance(ms: number): GroupResponse[] {
    this.now += ms
    const out = this.coordinator.tick(this.now)
    this.records.push(...out.records)
    this.events.push(...out.events)
    return out.responses
  }

  nextId(sender: string): number {
    const id = (this.ids.get(sender) ?? 0) + 1
    this.ids.set(sender, id)
    return id
  }

  join(sender: string, o: JoinOptions = {}): GroupResponse[] {
    return this.handle({
      groupId: GROUP,
      sender,
      requestId: this.nextId(sender),
      kind: 'join',
      memberId: o.memberId ?? '',
      groupInstanceId: o.instance,
      clientId: 'c',
      protocolType: 'consumer',
      protocols: o.protocols ?? ['cooperative-sticky'],
      sessionTimeoutMs: o.session ?? SESSION,
      rebalanceTimeoutMs: o.rebalance ?? REBALANCE,
      topics: o.topics ?? ['orders'],
      owned: o.owned ?? [],
      ownedGeneration: o.ownedGeneration ?? -1,
      reason: o.reason ?? '',
      startedAt: o.startedAt ?? this.now,
    })
  }

  sync(sender: string, generation: number, instance?: string): GroupResponse[] {
    return this.handle({
      groupId: GROUP,
      sender,
      requestId: this.nextId(sender),
      kind: 'sync',
      memberId: `c-${sender}`,
      groupInstanceId: instance,
      generation,
    })
  }

  heartbeat(
    sender: string,
    generation: number,
    instance?: string,
    memberId = `c-${sender}`,
    maxWaitMs?: number,
  ): GroupResponse[] {
    return this.handle({
      groupId: GROUP,
      sender,
      requestId: this.nextId(sender),
      kind: 'heartbeat',
      memberId,
      groupInstanceId: instance,
      generation,
      ...(maxWaitMs === undefined ? {} : { maxWaitMs }),
    })
  }

  leave(sender: string, instance?: string): GroupResponse[] {
    return this.handle({
      groupId: GROUP,
      sender,
      requestId: this.nextId(sender),
      kind: 'leave',
      memberId: `c-${sender}`,
      groupInstanceId: instance,
      reason: '',
    })
  }

  commit(
    sender: string,
    generation: number,
    offsets: Array<Partial<CommitOffset> & { partition: number }>,
    o: { instance?: string; memberId?: string; requestId?: number } = {},
  ): GroupResponse[] {
    return this.handle({
      groupId: GROUP,
      sender,
      requestId: o.requestId ?? this.nextId(sender),
      kind: 'commit',
      memberId: o.memberId ?? (generation === -1 ? '' : `c-${sender}`),
      groupInstanceId: o.instance,
      generation,
      offsets: offsets.map((x) => ({ topic: 'orders', offset: 10, leaderEpoch: -1, metadata: '', ...x })),
    })
  }

  describe() {
    return this.coordinator.describeGroup(GROUP)
  }

  assignmentOf(sender: string): number[] {
    const m = this.describe()?.members.find((x) => x.memberId === `c-${sender}`)
    return (m?.assignment ?? []).map((tp) => tp.partition)
  }
}

export function only(responses: GroupResponse[]): GroupResponse {
  if (responses.length !== 1) throw new Error(`expected one response, got ${responses.length}`)
  return responses[0]!
}

export function partitions(response: GroupResponse, field: 'assignment' | 'revoke' = 'assignment'): number[] {
  if (response.kind !== 'sync') throw new Error(`not a sync response: ${response.kind}`)
  return response[field].map((tp) => tp.partition)
}

export function tp(...ps: number[]): TopicPartition[] {
  return ps.map((partition) => ({ topic: 'orders', partition }))
}
