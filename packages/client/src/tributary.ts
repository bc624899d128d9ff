/**
 * The entry point (KafkaJS's `Kafka` object): a connection to the mesh from which producers,
 * consumers and admin clients are made. `Tributary.connect` starts a light libp2p node of its own
 * (it listens on nothing and hosts no partitions) and finds the mesh through bootstrap peers;
 * `Tributary.fromPeer` serves the same API inside a running peer, reaching that peer's own
 * partitions without a network hop. `disconnect()` releases everything made from it.
 */
import type { Libp2p } from '@libp2p/interface'
import { type Multiaddr, multiaddr } from '@multiformats/multiaddr'
import { clientProtocolHandlers, type HandlerContext } from '@tributary/mesh/handlers'
import type { RpcHandler } from '@tributary/mesh/rpc'
import { createLightNode } from '#light-node'
import { Admin, type AdminOptions } from './admin/admin.js'
import { Cluster } from './cluster/cluster.js'
import type { ReadFrom } from './cluster/read-replicas.js'
import { Consumer, type ConsumerOptions } from './consumer/consumer.js'
import { ClientClosedError, InvalidArgumentError, NoPeerAvailableError } from './errors.js'
import type { ClientNode, LightNodeOptions } from './node/options.js'
import { type OutboxOptions, OutboxProducer } from './outbox/outbox-producer.js'
import { ConnectingTarget, clusterTarget } from './outbox/target.js'
import { type AutoCreatedTopic, Producer, type ProducerOptions } from './producer/producer.js'
import { type RetryOptions, resolveRetryOptions, sleep } from './retry.js'
import { LocalTransport } from './transport/local-transport.js'

export interface TributaryConfig {
  /** Multiaddrs of peers to reach the mesh through, with /p2p/<peer id> (e.g. '/ip4/127.0.0.1/tcp/4001/p2p/12D3Koo…'). */
  bootstrap: ReadonlyArray<string | Multiaddr>
  /** Per-request timeout, ms. Default 30,000. */
  requestTimeout?: number
  /** How long `connect` tries to reach a bootstrap peer, ms. Default 10,000. */
  connectionTimeout?: number
  /** Topic metadata older than this is refreshed before use, ms. Default 300,000 (KafkaJS's). */
  metadataMaxAge?: number
  /** Default retry settings of the producers, consumers and admins made from this connection. */
  retry?: RetryOptions
  /** The light node's identity and browser transport settings. */
  node?: LightNodeOptions
  signal?: AbortSignal
}

/**
 * Testing only, not a user feature (not exported from the package index): `connect`'s second
 * argument lets a fault-injection test stand between the SDK and its light node — for example to
 * lose chosen answers the way a cut connection would — while everything above the node (retries,
 * metadata, idempotence) runs unchanged. `disconnect()` still stops the real node.
 */
export interface ConnectInternals {
  wrapNode?: (node: ClientNode) => ClientNode
}

/** What `fromPeer` needs of a running peer (a Peer from @tributary/mesh is one). */
export type PeerLike = HandlerContext & {
  /** `getConnections` lets consumers find nearby replicas (`readFrom: 'nearby'`). */
  readonly node: ClientNode & Partial<Pick<Libp2p, 'getConnections'>>
  /** Protocols served on top of the mesh (consumer groups), looked up when first used. */
  protocolHandler?(protocol: string): RpcHandler | undefined
}

/** The peer's client handlers, and the protocols added to it later (the group service starts after the peer). */
class PeerHandlers extends Map<string, RpcHandler> {
  constructor(private readonly peer: PeerLike) {
    super(clientProtocolHandlers(peer))
  }

  override get(protocol: string): RpcHandler | undefined {
    return super.get(protocol) ?? this.peer.protocolHandler?.(protocol)
  }
}

/** A direct (non-relayed) connection to `peerId` is open on the peer's node. */
function connectedDirectly(node: PeerLike['node']): ((peerId: string) => boolean) | undefined {
  const getConnections = node.getConnections?.bind(node)
  if (getConnections === undefined) return undefined
  return (peerId) =>
    getConnections().some((c) => c.remotePeer.toString() === peerId && c.limits === undefined && c.status === 'open')
}

export interface FromPeerOptions {
  /**
   * Where consumers read partitions from (KIP-392's preferred read replica, chosen by locality).
   * - 'local' (default): on a peer that serves replica reads (a browser peer), its own replica,
   *   from its log start up to the high watermark it learned (offline too); outside that range
   *   the leader, so a lagging or trimmed replica never causes an out-of-range reset.
   * - 'nearby': as 'local', and a partition this peer does not replicate is read from another
   *   peer that observes it, is directly connected (e.g. over WebRTC, not through a relay) and
   *   caught up enough by its leader's account; on any failure there, the leader, at the same
   *   position. Opt-in (as Kafka's fetch-from-follower): it puts another tab to work, and costs
   *   a metadata request to each leader every few seconds. A topic's first fetch waits for its
   *   leaders' first answer (at most `requestTimeout`), so reading starts where it goes on.
   * - 'leader': always the leader.
   */
  readFrom?: ReadFrom
  requestTimeout?: number
  metadataMaxAge?: number
  retry?: RetryOptions
}

const DEFAULT_REQUEST_TIMEOUT_MS = 30_000
const DEFAULT_CONNECTION_TIMEOUT_MS = 10_000
const DEFAULT_METADATA_MAX_AGE_MS = 300_000

interface Closable {
  disconnect(): Promise<void>
}

export class Tributary {
  private readonly children = new Set<Closable>()
  private closing: Promise<void> | undefined

  private constructor(
    private readonly cluster: Cluster,
    private readonly metadataMaxAge: number,
    private readonly retry: RetryOptions | undefined,
    /** Stops the light node; undefined inside a peer (the peer's node is not ours to stop). */
    private readonly stopNode: (() => Promise<void>) | undefined,
  ) {}

  /** Connects to the mesh through the bootstrap peers; rejects with NoPeerAvailableError if none answers in time. */
  static async connect(config: TributaryConfig, internals: ConnectInternals = {}): Promise<Tributary> {
    if (typeof config !== 'object' || config === null)
      throw new InvalidArgumentError('connect takes { bootstrap: [...] }')
    const bootstrap = parseBootstrap(config.bootstrap)
    const requestTimeout = positive(config.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT_MS, 'requestTimeout')
    const connectionTimeout = positive(config.connectionTimeout ?? DEFAULT_CONNECTION_TIMEOUT_MS, 'connectionTimeout')
    const metadataMaxAge = positive(config.metadataMaxAge ?? DEFAULT_METADATA_MAX_AGE_MS, 'metadataMaxAge')
    if (config.retry !== undefined) resolveRetryOptions(config.retry)
    config.signal?.throwIfAborted()
    const light = await createLightNode(config.node)
    let cluster: Cluster | undefined
    try {
      const node = internals.wrapNode === undefined ? light : internals.wrapNode(light)
      cluster = new Cluster({ node, bootstrap, requestTimeoutMs: requestTimeout, metadataMaxAge })
      await reachMesh(cluster, connectionTimeout, config.signal)
    } catch (err) {
      cluster?.close()
      await Promise.resolve(light.stop()).catch(() => {})
      throw err
    }
    return new Tributary(cluster, metadataMaxAge, config.retry, async () => {
      await light.stop()
    })
  }

  /** The same API inside a running peer: its own partitions are reached without a network hop. */
  static fromPeer(peer: PeerLike, options: FromPeerOptions = {}): Tributary {
    const requestTimeout = positive(options.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT_MS, 'requestTimeout')
    const metadataMaxAge = positive(options.metadataMaxAge ?? DEFAULT_METADATA_MAX_AGE_MS, 'metadataMaxAge')
    if (options.retry !== undefined) resolveRetryOptions(options.retry)
    const readFrom = options.readFrom ?? 'local'
    if (readFrom !== 'leader' && readFrom !== 'local' && readFrom !== 'nearby') {
      throw new InvalidArgumentError(`readFrom must be 'leader', 'local' or 'nearby', got ${String(readFrom)}`)
    }
    const nearby = readFrom === 'nearby' ? connectedDirectly(peer.node) : undefined
    if (readFrom === 'nearby' && nearby === undefined) {
      throw new InvalidArgumentError("readFrom 'nearby' needs a peer whose node can list its connections")
    }
    const cluster = new Cluster({
      node: peer.node,
      bootstrap: [],
      local: {
        peerId: peer.peerId,
        transport: new LocalTransport(new PeerHandlers(peer), peer.peerId, requestTimeout),
      },
      requestTimeoutMs: requestTimeout,
      metadataMaxAge,
      ...((peer.servesReplicaReads === true && readFrom === 'local') || readFrom === 'nearby'
        ? {
            readFrom: {
              mode: readFrom,
              // Only a peer that serves replica reads keeps its replicas readable up to its high watermark.
              ...(peer.servesReplicaReads === true
                ? { local: (topic: string, partition: number) => peer.partitions.get(topic, partition)?.log }
                : {}),
              ...(nearby === undefined ? {} : { connectedDirectly: nearby }),
            },
          }
        : {}),
    })
    return new Tributary(cluster, metadataMaxAge, options.retry, undefined)
  }

  /** This client's libp2p peer id (inside a peer: the peer's). */
  get peerId(): string {
    return this.cluster.selfPeerId
  }

  producer(options: ProducerOptions = {}): Producer {
    this.assertOpen()
    let producer: Producer | undefined
    producer = new Producer(
      {
        cluster: this.cluster,
        onClose: () => this.children.delete(producer!),
        createTopic: (topic, signal) => this.autoCreateTopic(topic, signal),
      },
      { ...(this.retry === undefined ? {} : { retry: this.retry }), ...options },
    )
    this.children.add(producer)
    return producer
  }

  /**
   * An offline-first producer on this connection: records go to a durable outbox (IndexedDB in
   * browsers) and are delivered exactly once when the mesh is reachable. See `openOutbox` to
   * open one before any peer can be reached.
   */
  async outbox(options: OutboxOptions = {}): Promise<OutboxProducer> {
    this.assertOpen()
    let outbox: OutboxProducer | undefined
    outbox = await OutboxProducer.open(clusterTarget(this.cluster), options, () => this.children.delete(outbox!))
    this.children.add(outbox)
    return outbox
  }

  /**
   * Opens an outbox producer at once, without waiting for the mesh: it connects with `config` in
   * the background (and again after failures, with backoff) and delivers what was queued,
   * including what earlier producers on the same outbox left (e.g. before a page reload).
   * `close()` also ends its connection.
   */
  static async openOutbox(config: TributaryConfig & { outbox?: OutboxOptions }): Promise<OutboxProducer> {
    if (typeof config !== 'object' || config === null) {
      throw new InvalidArgumentError('openOutbox takes { bootstrap: [...], outbox: { name } }')
    }
    const { outbox, signal, ...connection } = config
    parseBootstrap(connection.bootstrap)
    signal?.throwIfAborted()
    const target = new ConnectingTarget(async (signal) => {
      const mesh = await Tributary.connect({ ...connection, signal })
      return clusterTarget(mesh.cluster, () => mesh.disconnect())
    })
    return OutboxProducer.open(target, { ...outbox, ...(signal === undefined ? {} : { signal }) })
  }

  consumer(options: ConsumerOptions = {}): Consumer {
    this.assertOpen()
    let consumer: Consumer | undefined
    consumer = new Consumer(
      { cluster: this.cluster, metadataMaxAge: this.metadataMaxAge, onClose: () => this.children.delete(consumer!) },
      { ...(this.retry === undefined ? {} : { retry: this.retry }), ...options },
    )
    this.children.add(consumer)
    return consumer
  }

  admin(options: AdminOptions = {}): Admin {
    this.assertOpen()
    let admin: Admin | undefined
    admin = new Admin(
      { cluster: this.cluster, onClose: () => this.children.delete(admin!) },
      { ...(this.retry === undefined ? {} : { retry: this.retry }), ...options },
    )
    this.children.add(admin)
    return admin
  }

  /** Disconnects every producer (sending what they hold), consumer and admin made here, then the node. Idempotent. */
  disconnect(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.allSettled([...this.children].map((child) => child.disconnect()))
      this.children.clear()
      this.cluster.close()
      await this.stopNode?.()
    })()
    return this.closing
  }

  /** A producer's auto-creation: the topic, with RF = the live voting peers (at most 3) unless given. */
  private async autoCreateTopic(topic: AutoCreatedTopic, signal: AbortSignal): Promise<void> {
    const replicationFactor =
      topic.replicationFactor ??
      Math.max(
        1,
        Math.min(
          3,
          (await this.cluster.metadata([], { signal })).peers.filter((p) => p.voter && p.status === 'alive').length,
        ),
      )
    const admin = new Admin({ cluster: this.cluster }, this.retry === undefined ? {} : { retry: this.retry })
    try {
      // false when another producer created it first: either way it exists now.
      await admin.createTopics({
        topics: [{ topic: topic.topic, numPartitions: topic.numPartitions, replicationFactor }],
        signal,
      })
    } finally {
      await admin.disconnect()
    }
  }

  private assertOpen(): void {
    if (this.closing !== undefined) throw new ClientClosedError('this Tributary connection is disconnected')
  }
}

function parseBootstrap(bootstrap: unknown): Multiaddr[] {
  if (!Array.isArray(bootstrap) || bootstrap.length === 0) {
    throw new InvalidArgumentError(
      "bootstrap must be a non-empty array of peer multiaddrs, e.g. ['/ip4/127.0.0.1/tcp/4001/p2p/12D3Koo…']",
    )
  }
  return bootstrap.map((address) => {
    if (typeof address !== 'string' && (typeof address !== 'object' || address === null)) {
      throw new InvalidArgumentError(`bootstrap address ${String(address)} is not a multiaddr`)
    }
    try {
      return typeof address === 'string' ? multiaddr(address) : (address as Multiaddr)
    } catch (err) {
      throw new InvalidArgumentError(`bootstrap address '${String(address)}' is not a valid multiaddr`, { cause: err })
    }
  })
}

/** Asks for metadata until a peer answers or the time is up, backing off between rounds. */
async function reachMesh(cluster: Cluster, timeoutMs: number, signal: AbortSignal | undefined): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let lastError: unknown
  for (let attempt = 0; Date.now() < deadline; attempt++) {
    const limit = AbortSignal.timeout(Math.max(1, deadline - Date.now()))
    try {
      await cluster.metadata([], { signal: signal === undefined ? limit : AbortSignal.any([signal, limit]) })
      return
    } catch (err) {
      signal?.throwIfAborted()
      lastError = err
    }
    const left = deadline - Date.now()
    if (left <= 0) break
    await sleep(Math.min(100 * 2 ** Math.min(attempt, 5), left), signal)
  }
  throw new NoPeerAvailableError(
    `could not reach the mesh within ${timeoutMs} ms: ${lastError instanceof Error ? lastError.message : 'no answer'}`,
    { cause: lastError },
  )
}

function positive(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new InvalidArgumentError(`${name} must be a positive integer of milliseconds, got ${String(value)}`)
  }
  return value
}
