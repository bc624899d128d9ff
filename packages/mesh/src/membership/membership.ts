/**
 * Gossip membership over the gossipsub topic `tributary/membership/1`. Every peer publishes a signed
 * heartbeat each `heartbeatIntervalMs` (roles, storage kind, version, addresses); each peer keeps a
 * view of the others, judged from those heartbeats and libp2p connection events (member-view.ts),
 * and dials members it is not connected to until the mesh is full (mesh-dialer.ts). Two peers that
 * connect also exchange heartbeats directly (hello.ts), so a restarted peer is known at once.
 *
 * ```ts
 * const membership = new Membership(node, { roles: { voter: true, observer: false }, storage: 'fs' })
 * membership.addEventListener('member:leave', ({ detail }) => log(detail.member.peerId, detail.reason))
 * await membership.start()
 * membership.voters()            // alive members that may vote, this peer included
 * await membership.stop()        // publishes `leaving`: the others mark us 'left' at once
 * ```
 */
import { type GossipSub, type Message, TopicValidatorResult } from '@libp2p/gossipsub'
import { type Libp2p, type PeerId, TypedEventEmitter } from '@libp2p/interface'
import {
  DEFAULT_FAILURE_TIMEOUT_MS,
  DEFAULT_FORGET_AFTER_MS,
  DEFAULT_HEARTBEAT_INTERVAL_MS,
  DEFAULT_MAX_MEMBERS,
  DEFAULT_MESH_DIAL_BACKOFF_MS,
  DEFAULT_MESH_DIAL_CONCURRENCY,
  DEFAULT_MESH_DIAL_TIMEOUT_MS,
  DEFAULT_MESH_MAX_CONNECTIONS,
  DEFAULT_MESH_MAX_DIAL_BACKOFF_MS,
  LEAVE_PUBLISH_TIMEOUT_MS,
  MAX_ADDRESS_LENGTH,
  MAX_HEARTBEAT_ADDRESSES,
  TOPICS,
  TRIBUTARY_VERSION,
} from '../constants.js'
import { componentLogger, type Logger, silentLogger } from '../logger.js'
import { decodeHeartbeat, encodeHeartbeat, type ValidHeartbeat } from './heartbeat.js'
import { HelloExchange, type HelloNode } from './hello.js'
import { type IncarnationStore, nextIncarnation, timeIncarnation } from './incarnation.js'
import { MemberView, type Transition } from './member-view.js'
import { MeshDialer } from './mesh-dialer.js'
import {
  type Clock,
  type Member,
  type MemberLeave,
  type MemberRoles,
  type StorageKind,
  systemClock,
  systemTimers,
  type Timers,
} from './types.js'

export interface MembershipEvents {
  /** A peer appeared, restarted (new incarnation) or came back after being declared dead. */
  'member:join': CustomEvent<Member>
  /** Status alive ⇄ suspect, or roles, storage, version or addresses changed. */
  'member:update': CustomEvent<Member>
  /** The peer said goodbye ('left') or fell silent for the failure timeout ('failed'). */
  'member:leave': CustomEvent<MemberLeave>
}

export interface MeshDialOptions {
  /** Dial learned members at all. Default true. */
  enabled?: boolean
  /** No new dials once this many peers are connected. */
  maxConnections?: number
  concurrency?: number
  dialTimeoutMs?: number
  backoffMs?: number
  maxBackoffMs?: number
}

export interface MembershipInit {
  roles?: MemberRoles
  storage?: StorageKind
  version?: string
  heartbeatIntervalMs?: number
  failureTimeoutMs?: number
  /** Dead and left members are dropped from the view after this long. */
  forgetAfterMs?: number
  maxMembers?: number
  mesh?: MeshDialOptions
  /** Heartbeat exchange on each new connection (hello.ts): per attempt, and attempts per connection. */
  hello?: { timeoutMs?: number; attempts?: number; retryDelayMs?: number }
  /**
   * Fixed incarnation (tests). By default each start() takes a new one: start time in ms << 20 |
   * 20 random bits, and above the last one in `incarnationStore` (incarnation.ts).
   */
  incarnation?: bigint
  /** Keeps the last incarnation across restarts, so a clock stepped back cannot make a restart look old. */
  incarnationStore?: IncarnationStore
  clock?: Clock
  timers?: Timers
  logger?: Logger
}

/** What membership needs from a libp2p node. */
export type MembershipNode = Pick<
  Libp2p<{ pubsub: GossipSub }>,
  'peerId' | 'services' | 'getMultiaddrs' | 'getConnections' | 'dial' | 'addEventListener' | 'removeEventListener'
> &
  HelloNode

const HELLO_TIMEOUT_MS = 5000
const HELLO_ATTEMPTS = 3
const HELLO_RETRY_DELAY_MS = 250

const TOPIC = TOPICS.membership

export class Membership extends TypedEventEmitter<MembershipEvents> {
  readonly #node: MembershipNode
  readonly #self: string
  readonly #roles: MemberRoles
  readonly #storage: StorageKind
  readonly #version: string
  readonly #heartbeatIntervalMs: number
  readonly #fixedIncarnation: bigint | undefined
  readonly #incarnationStore: IncarnationStore | undefined
  #incarnation: bigint
  readonly #clock: Clock
  readonly #timers: Timers
  readonly #logger: Logger
  readonly #view: MemberView
  readonly #dialer: MeshDialer | undefined
  readonly #hello: HelloExchange
  #seq = 0n
  #timer: unknown
  #lifetime = new AbortController()
  #running = false

  constructor(node: MembershipNode, init: MembershipInit = {}) {
    super()
    this.#node = node
    this.#self = node.peerId.toString()
    this.#roles = { ...(init.roles ?? { voter: true, observer: false }) }
    this.#storage = init.storage ?? 'memory'
    this.#version = init.version ?? TRIBUTARY_VERSION
    this.#heartbeatIntervalMs = init.heartbeatIntervalMs ?? DEFAULT_HEARTBEAT_INTERVAL_MS
    this.#fixedIncarnation = init.incarnation
    this.#incarnationStore = init.incarnationStore
    this.#incarnation = init.incarnation ?? timeIncarnation()
    this.#clock = init.clock ?? systemClock
    this.#timers = init.timers ?? systemTimers
    this.#logger = componentLogger(init.logger ?? silentLogger, 'membership')
    this.#view = new MemberView({
      failureTimeoutMs: init.failureTimeoutMs ?? DEFAULT_FAILURE_TIMEOUT_MS,
      forgetAfterMs: init.forgetAfterMs ?? DEFAULT_FORGET_AFTER_MS,
      maxMembers: init.maxMembers ?? DEFAULT_MAX_MEMBERS,
    })
    this.#hello = new HelloExchange(node, {
      heartbeat: () => encodeHeartbeat(this.#nextHeartbeat(false)),
      receive: (heartbeat) => this.#receive(heartbeat),
      timeoutMs: init.hello?.timeoutMs ?? HELLO_TIMEOUT_MS,
      attempts: init.hello?.attempts ?? HELLO_ATTEMPTS,
      retryDelayMs: init.hello?.retryDelayMs ?? HELLO_RETRY_DELAY_MS,
      logger: this.#logger,
    })
    const mesh = init.mesh ?? {}
    this.#dialer =
      mesh.enabled === false
        ? undefined
        : new MeshDialer(node, {
            maxConnections: mesh.maxConnections ?? DEFAULT_MESH_MAX_CONNECTIONS,
            concurrency: mesh.concurrency ?? DEFAULT_MESH_DIAL_CONCURRENCY,
            dialTimeoutMs: mesh.dialTimeoutMs ?? DEFAULT_MESH_DIAL_TIMEOUT_MS,
            backoffMs: mesh.backoffMs ?? DEFAULT_MESH_DIAL_BACKOFF_MS,
            maxBackoffMs: mesh.maxBackoffMs ?? DEFAULT_MESH_MAX_DIAL_BACKOFF_MS,
            clock: this.#clock,
            logger: this.#logger,
          })
  }

  get peerId(): string {
    return this.#self
  }

  get incarnation(): bigint {
    return this.#incarnation
  }

  get running(): boolean {
    return this.#running
  }

  /** Every member in the view, this peer included, whatever its status. */
  members(): Member[] {
    return this.#view.members()
  }

  alive(): Member[] {
    return this.members().filter((member) => member.status === 'alive')
  }

  /** Alive members that may vote, this peer included when it may. */
  voters(): Member[] {
    return this.alive().filter((member) => member.roles.voter)
  }

  get(peerId: string | PeerId): Member | undefined {
    return this.#view.get(peerId.toString())
  }

  /**
   * Takes a new incarnation, subscribes, announces this peer, and starts heartbeats, failure
   * detection and mesh dialing. Idempotent.
   */
  async start(): Promise<void> {
    if (this.#running) return
    this.#running = true
    try {
      // A new one per start: after stop() the others hold the previous one 'left' for good.
      this.#incarnation = this.#fixedIncarnation ?? (await nextIncarnation(this.#incarnationStore))
      if (this.#fixedIncarnation !== undefined) await this.#incarnationStore?.save(this.#fixedIncarnation)
    } catch (err) {
      this.#running = false
      throw err
    }
    this.#lifetime = new AbortController()
    const { pubsub } = this.#node.services
    pubsub.topicValidators.set(TOPIC, this.#validate)
    pubsub.addEventListener('message', this.#onMessage)
    pubsub.subscribe(TOPIC)
    this.#node.addEventListener('peer:disconnect', this.#onDisconnect)
    const self = this.#nextHeartbeat(false)
    this.#view.upsertSelf(self, this.#clock.now())
    this.#emit({ type: 'join', member: this.#view.get(this.#self)! })
    this.#timer = this.#timers.setInterval(() => this.#tick(), this.#heartbeatIntervalMs)
    await this.#publish(self)
    await this.#hello.start()
  }

  /**
   * Publishes a `leaving` heartbeat (waiting at most LEAVE_PUBLISH_TIMEOUT_MS), then stops timers and
   * dials and clears the view. Call before stopping the libp2p node. Idempotent.
   *
   * `nodeStopping`: the libp2p node stops right after, so the topic is not unsubscribed. An
   * unsubscribe PRUNEs our gossipsub mesh links with a backoff, and a peer that restarts with the
   * same identity and GRAFTs within it is refused and held out of the others' meshes for the full
   * prune backoff (60 s): its heartbeats then travel only as gossip, slower. A node that stops
   * simply disconnects, which drops it from the meshes with no backoff. Without `nodeStopping` the
   * node lives on, and unsubscribing is what stops the others sending it membership gossip.
   */
  async stop(options: { nodeStopping?: boolean } = {}): Promise<void> {
    if (!this.#running) return
    this.#running = false
    this.#timers.clearInterval(this.#timer)
    this.#timer = undefined
    this.#lifetime.abort(new Error('membership stopped'))
    // First: a hello answered after our goodbye would only be ignored, but need not be sent.
    await this.#hello.stop()
    // The goodbye goes by gossip and, to the peers we are connected to, directly (hello.ts).
    const leaving = this.#nextHeartbeat(true)
    const signal = AbortSignal.timeout(LEAVE_PUBLISH_TIMEOUT_MS)
    await Promise.all([this.#publish(leaving, signal), this.#hello.goodbye(encodeHeartbeat(leaving), signal)])
    const { pubsub } = this.#node.services
    pubsub.removeEventListener('message', this.#onMessage)
    this.#node.removeEventListener('peer:disconnect', this.#onDisconnect)
    // Still subscribed until the node stops: heartbeats passing through are validated until then.
    if (options.nodeStopping !== true) {
      if (pubsub.topicValidators.get(TOPIC) === this.#validate) pubsub.topicValidators.delete(TOPIC)
      try {
        pubsub.unsubscribe(TOPIC)
      } catch (err) {
        this.#logger.debug({ err: (err as Error).message }, 'unsubscribe failed (node stopped?)')
      }
    }
    this.#view.clear()
  }

  /** One heartbeat period: announce ourselves, expire silent members, dial missing ones. */
  #tick(): void {
    if (!this.#running) return
    const now = this.#clock.now()
    const self = this.#nextHeartbeat(false)
    this.#view.upsertSelf(self, now)
    void this.#publish(self)
    for (const transition of this.#view.expire(now)) this.#emit(transition)
    this.#dialer?.tick(this.#view.members(), this.#lifetime.signal)
  }

  #nextHeartbeat(leaving: boolean): ValidHeartbeat {
    this.#seq++
    return {
      peerId: this.#self,
      incarnation: this.#incarnation,
      seq: this.#seq,
      roles: { ...this.#roles },
      storage: this.#storage,
      version: this.#version,
      addresses: this.#node
        .getMultiaddrs()
        .map((ma) => ma.toString())
        .filter((address) => address.length <= MAX_ADDRESS_LENGTH)
        .slice(0, MAX_HEARTBEAT_ADDRESSES),
      leaving,
    }
  }

  async #publish(heartbeat: ValidHeartbeat, signal?: AbortSignal): Promise<void> {
    try {
      const publishing = this.#node.services.pubsub.publish(TOPIC, encodeHeartbeat(heartbeat))
      if (signal === undefined) {
        await publishing
      } else {
        await Promise.race([publishing, new Promise((resolve) => signal.addEventListener('abort', resolve))])
      }
    } catch (err) {
      this.#logger.debug({ err: (err as Error).message, leaving: heartbeat.leaving }, 'heartbeat publish failed')
    }
  }

  /** Gossipsub topic validator: invalid heartbeats are rejected, so they are neither delivered nor forwarded. */
  readonly #validate = (_from: PeerId, message: Message): TopicValidatorResult => {
    if (message.type !== 'signed') return TopicValidatorResult.Reject
    try {
      decodeHeartbeat(message.data, message.from.toString())
      return TopicValidatorResult.Accept
    } catch (err) {
      this.#logger.debug({ from: message.from.toString(), err: (err as Error).message }, 'rejected heartbeat')
      return TopicValidatorResult.Reject
    }
  }

  readonly #onMessage = (event: CustomEvent<Message>): void => {
    const message = event.detail
    if (!this.#running || message.topic !== TOPIC || message.type !== 'signed') return
    let heartbeat: ValidHeartbeat
    try {
      heartbeat = decodeHeartbeat(message.data, message.from.toString())
    } catch {
      return // already rejected by #validate; only reachable if the validator was replaced
    }
    this.#receive(heartbeat)
  }

  /** A validated heartbeat, gossiped or from a hello. */
  #receive(heartbeat: ValidHeartbeat): void {
    if (!this.#running || heartbeat.peerId === this.#self) return
    const transition = this.#view.apply(heartbeat, this.#clock.now())
    if (transition !== undefined) this.#emit(transition)
  }

  readonly #onDisconnect = (event: CustomEvent<PeerId>): void => {
    if (!this.#running) return
    const transition = this.#view.suspect(event.detail.toString())
    if (transition !== undefined) this.#emit(transition)
  }

  #emit(transition: Transition): void {
    const { member } = transition
    this.#logger.debug({ peer: member.peerId, status: member.status, event: transition.type }, 'membership change')
    switch (transition.type) {
      case 'join':
        this.safeDispatchEvent('member:join', { detail: member })
        break
      case 'update':
        this.safeDispatchEvent('member:update', { detail: member })
        break
      case 'leave':
        this.safeDispatchEvent('member:leave', { detail: { member, reason: transition.reason } })
        break
    }
  }
}
