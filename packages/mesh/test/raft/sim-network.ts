/**
 * The deterministic world the Raft simulation runs in: a seeded PRNG, a fake clock with an
 * event queue, and an in-memory network implementing RaftTransport that drops, delays,
 * duplicates, reorders (through random delays) and partitions. Every message goes through the
 * protobuf codec both ways, as it would over libp2p.
 */
import { EventQueue, Rng } from '@tributary/test-utils/simulation'
import { RequestTimedOutError } from '@tributary/wire'
import {
  decodeBeginQuorumEpochRequest,
  decodeEndQuorumEpochRequest,
  decodeQuorumEpochResponse,
  decodeReplicaFetchRequest,
  decodeReplicaFetchResponse,
  decodeTimeoutNowRequest,
  decodeVoteRequest,
  decodeVoteResponse,
  encodeBeginQuorumEpochRequest,
  encodeEndQuorumEpochRequest,
  encodeQuorumEpochResponse,
  encodeReplicaFetchRequest,
  encodeReplicaFetchResponse,
  encodeTimeoutNowRequest,
  encodeVoteRequest,
  encodeVoteResponse,
  type PartitionRaft,
  type RaftClock,
  type RaftRequestOptions,
  type RaftTransport,
} from '../../src/raft/index.js'

export { Rng }

interface SimEvent {
  at: number
  seq: number
  fn: () => void
  cancelled: boolean
}

/** A fake clock: timers are events in a queue ordered by (time, scheduling order). */
export class SimClock implements RaftClock {
  private time = 0
  private seq = 0
  private readonly queue = new EventQueue<SimEvent>()

  now(): number {
    return this.time
  }

  setTimeout(fn: () => void, ms: number): SimEvent {
    const event: SimEvent = { at: this.time + Math.max(0, ms), seq: this.seq++, fn, cancelled: false }
    this.queue.push(event)
    return event
  }

  clearTimeout(handle: unknown): void {
    if (handle !== undefined && handle !== null) (handle as SimEvent).cancelled = true
  }

  /** Removes and returns the next live event due at or before `until`, advancing time to it. */
  next(until: number): SimEvent | undefined {
    for (;;) {
      const top = this.queue.peek()
      if (top === undefined || top.at > until) return undefined
      this.queue.pop()
      if (top.cancelled) continue
      this.time = top.at
      return top
    }
  }

  advanceTo(t: number): void {
    if (t > this.time) this.time = t
  }
}

export interface NetworkConditions {
  dropRate: number
  duplicateRate: number
  minDelayMs: number
  maxDelayMs: number
  /** Chance that a message takes a long detour (reordering it behind later ones). */
  slowRate: number
  slowDelayMs: number
}

interface Endpoint {
  raft: PartitionRaft | undefined
  up: boolean
  incarnation: number
}

type Kind = 'vote' | 'begin' | 'end' | 'fetch' | 'timeoutNow'

interface Codec {
  encodeReq(r: unknown): Uint8Array
  decodeReq(b: Uint8Array): unknown
  encodeRes(r: unknown): Uint8Array
  decodeRes(b: Uint8Array): unknown
  handle(raft: PartitionRaft, req: unknown): Promise<unknown>
}

const CODECS: Record<Kind, Codec> = {
  vote: {
    encodeReq: (r) => encodeVoteRequest(r as never),
    decodeReq: decodeVoteRequest,
    encodeRes: (r) => encodeVoteResponse(r as never),
    decodeRes: decodeVoteResponse,
    handle: (raft, req) => raft.handleVote(req as never),
  },
  begin: {
    encodeReq: (r) => encodeBeginQuorumEpochRequest(r as never),
    decodeReq: decodeBeginQuorumEpochRequest,
    encodeRes: (r) => encodeQuorumEpochResponse(r as never),
    decodeRes: decodeQuorumEpochResponse,
    handle: (raft, req) => raft.handleBeginQuorumEpoch(req as never),
  },
  end: {
    encodeReq: (r) => encodeEndQuorumEpochRequest(r as never),
    decodeReq: decodeEndQuorumEpochRequest,
    encodeRes: (r) => encodeQuorumEpochResponse(r as never),
    decodeRes: decodeQuorumEpochResponse,
    handle: (raft, req) => raft.handleEndQuorumEpoch(req as never),
  },
  fetch: {
    encodeReq: (r) => encodeReplicaFetchRequest(r as never),
    decodeReq: decodeReplicaFetchRequest,
    encodeRes: (r) => encodeReplicaFetchResponse(r as never),
    decodeRes: decodeReplicaFetchResponse,
    handle: (raft, req) => raft.handleFetch(req as never),
  },
  timeoutNow: {
    encodeReq: (r) => encodeTimeoutNowRequest(r as never),
    decodeReq: decodeTimeoutNowRequest,
    encodeRes: (r) => encodeQuorumEpochResponse(r as never),
    decodeRes: decodeQuorumEpochResponse,
    handle: (raft, req) => raft.handleTimeoutNow(req as never),
  },
}

/** The in-memory network between simulated replicas. */
export class SimNetwork {
  readonly endpoints = new Map<string, Endpoint>()
  /** Peer → side of the current partition; undefined = fully connected. */
  private sides: Map<string, number> | undefined
  messages = 0

  constructor(
    private readonly clock: SimClock,
    private readonly rng: Rng,
    public conditions: NetworkConditions,
  ) {}

  add(id: string): Endpoint {
    const endpoint: Endpoint = { raft: undefined, up: false, incarnation: 0 }
    this.endpoints.set(id, endpoint)
    return endpoint
  }

  partition(sides: Map<string, number> | undefined): void {
    this.sides = sides
  }

  reachable(a: string, b: string): boolean {
    const ea = this.endpoints.get(a)
    const eb = this.endpoints.get(b)
    if (!ea?.up || !eb?.up || eb.raft === undefined) return false
    return this.sides === undefined || this.sides.get(a) === this.sides.get(b)
  }

  transportFor(from: string): RaftTransport {
    return {
      vote: (to, req, o) => this.call('vote', from, to, req, o) as never,
      beginQuorumEpoch: (to, req, o) => this.call('begin', from, to, req, o) as never,
      endQuorumEpoch: (to, req, o) => this.call('end', from, to, req, o) as never,
      fetch: (to, req, o) => this.call('fetch', from, to, req, o) as never,
      timeoutNow: (to, req, o) => this.call('timeoutNow', from, to, req, o) as never,
    }
  }

  private delay(): number {
    const c = this.conditions
    if (this.rng.chance(c.slowRate)) return this.rng.int(c.maxDelayMs, c.slowDelayMs)
    return this.rng.int(c.minDelayMs, c.maxDelayMs)
  }

  private call(kind: Kind, from: string, to: string, request: unknown, options: RaftRequestOptions): Promise<unknown> {
    const codec = CODECS[kind]
    const sender = this.endpoints.get(from)!
    const incarnation = sender.incarnation
    const alive = (): boolean => sender.up && sender.incarnation === incarnation
    const bytes = codec.encodeReq(request)
    return new Promise((resolve, reject) => {
      let settled = false
      const settle = (fn: () => void): void => {
        if (settled) return
        settled = true
        this.clock.clearTimeout(timer)
        options.signal.removeEventListener('abort', onAbort)
        fn()
      }
      const onAbort = (): void => settle(() => reject(options.signal.reason))
      const timer = this.clock.setTimeout(
        () => settle(() => reject(new RequestTimedOutError(`${kind} to ${to} timed out`))),
        options.timeoutMs,
      )
      options.signal.addEventListener('abort', onAbort, { once: true })

      const deliver = (): void => {
        if (!alive() || !this.reachable(from, to)) return
        const target = this.endpoints.get(to)!
        const raft = target.raft!
        const targetIncarnation = target.incarnation
        this.messages++
        const reply = (answer: () => void): void => {
          if (this.rng.chance(this.conditions.dropRate)) return
          this.clock.setTimeout(() => {
            if (alive() && target.incarnation === targetIncarnation && this.reachable(to, from)) settle(answer)
          }, this.delay())
        }
        codec.handle(raft, codec.decodeReq(bytes)).then(
          (response) => {
            const encoded = codec.encodeRes(response)
            reply(() => resolve(codec.decodeRes(encoded)))
          },
          (err: unknown) => reply(() => reject(err)),
        )
      }
      if (!this.rng.chance(this.conditions.dropRate)) this.clock.setTimeout(deliver, this.delay())
      if (this.rng.chance(this.conditions.duplicateRate)) this.clock.setTimeout(deliver, this.delay())
    })
  }
}
