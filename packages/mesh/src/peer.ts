import type { Libp2p } from '@libp2p/interface'
import { DEFAULT_PEER_RAFT, PROTOCOLS } from './constants.js'
import { adminHandler } from './handlers/admin.js'
import type { HandlerContext, MemberView as HandlerMember, TopicSpec } from './handlers/context.js'
import { fetchHandler } from './handlers/fetch.js'
import { metadataHandler } from './handlers/metadata.js'
import { listOffsetsHandler } from './handlers/offsets.js'
import { produceHandler } from './handlers/produce.js'
import { LeadershipPublisher } from './leadership-publisher.js'
import { componentLogger, type Logger } from './logger.js'
import { type IncarnationStore, Membership } from './membership/index.js'
import { browserVotersAllowed, MetadataStore, PartitionStates, TopicRegistry } from './metadata/index.js'
import { MetadataSync, type SnapshotPersistence } from './metadata-sync.js'
import type { MeshNodeOptions } from './node/create-node.js'
import type { MeshServices } from './node/services.js'
import type { HostedPartition } from './partitions/hosted-partition.js'
import type { PartitionLogFactory } from './partitions/log-factory.js'
import { MemoryLogFactory } from './partitions/memory-log-factory.js'
import { ObservedPartitions } from './partitions/observed-partitions.js'
import { PartitionManager } from './partitions/partition-manager.js'
import type { TopicView } from './partitions/topic-view.js'
import { PeerProtocols, type RequestEvent } from './peer-protocols.js'
import { registerPerfProtocol } from './perf.js'
import { registerPerfEchoProtocol } from './perf-echo.js'
import { placeReplicas } from './placement.js'
import type { RaftConfig } from './raft/index.js'
import { RaftRpc, type ReplicaFetchStats } from './raft-rpc.js'
import { followMetadata, removeStaleReplicas } from './replica-reconciliation.js'
import type { RpcHandler, RpcServerOptions, UnregisterRpcHandler } from './rpc/index.js'

export interface PeerOptions
  extends Pick<MeshNodeOptions, 'host' | 'tcpPort' | 'wsPort' | 'announce' | 'dataDir' | 'bootstrap' | 'privateKey'> {
  /** Where partition logs live; default in memory. */
  storage?: PartitionLogFactory
  /** Keeps cluster metadata across restarts; default none. */
  metadataPersistence?: SnapshotPersistence
  /** May vote in partition Raft groups and be placed as a replica (stable Node peers). Default true. */
  voter?: boolean
  /**
   * Partitions this peer replicates as an observer by choice (see `observe`); load it before
   * the peer starts so a restarted peer keeps those replicas. Default: an empty set in memory.
   */
  observed?: ObservedPartitions
  /** Serve fetches for hosted partitions it does not lead from its own replica (browser peers). Default false. */
  servesReplicaReads?: boolean
  heartbeatIntervalMs?: number
  failureTimeoutMs?: number
  /** Keeps the membership incarnation across restarts (createPeer: a file in the data dir). */
  incarnationStore?: IncarnationStore
  retentionCheckIntervalMs?: number
  /**
   * Per-partition Raft settings: election and fetch timeouts, long-poll wait, ISR lag, the
   * replacement delay of a voter out of sync, preferred-leader balancing.
   */
  raft?: Partial<RaftConfig>
  logger?: Logger
}

/**
 * The libp2p node a peer runs on: the Node one (TCP, WebSockets, relay server) or the browser one
 * (WebSockets, WebRTC, relay client). The peer needs only the services both have.
 */
export type PeerNode = Libp2p<MeshServices>

/**
 * Starts a peer on a node already created (by `createPeer` in Node, `createBrowserPeer` in a
 * page); the node is stopped if the peer cannot start.
 */
export async function startPeer(node: PeerNode, options: PeerOptions, logger: Logger): Promise<Peer> {
  const peer = new Peer(node, options, logger)
  try {
    await peer.start()
  } catch (err) {
    await peer.stop().catch(() => {})
    throw err
  }
  return peer
}

/**
 * A Tributary peer (a Kafka broker and a ZooKeeper member at once): it gossips membership
 * and topic metadata, holds the partition replicas placement gives it, and serves produce,
 * fetch, list-offsets, metadata and admin requests for the partitions it leads.
 */
export type { RequestEvent } from './peer-protocols.js'

export class Peer implements HandlerContext {
  readonly peerId: string
  readonly membership: Membership
  readonly store: MetadataStore
  readonly registry: TopicRegistry
  readonly partitions: PartitionManager
  readonly partitionStates: PartitionStates
  private readonly raftRpc: RaftRpc
  private readonly sync: MetadataSync
  private readonly leadership: LeadershipPublisher
  /** Times a hosted replica saw its partition's leader change (for metrics). */
  leaderChanges = 0
  private readonly lastLeaders = new Map<HostedPartition, string | undefined>()
  private readonly protocols: PeerProtocols
  private readonly partitionListeners = new Set<(hosted: HostedPartition) => void>()
  private readonly logger: Logger
  private stopping: Promise<void> | undefined
  readonly startedAtMs = Date.now()
  readonly observed: ObservedPartitions
  readonly servesReplicaReads: boolean

  constructor(
    readonly node: PeerNode,
    private readonly options: PeerOptions,
    logger: Logger,
  ) {
    this.peerId = node.peerId.toString()
    this.logger = componentLogger(logger, 'peer')
    this.protocols = new PeerProtocols(node, this.logger)
    const storage = options.storage ?? new MemoryLogFactory()
    this.observed = options.observed ?? new ObservedPartitions()
    this.servesReplicaReads = options.servesReplicaReads ?? false
    this.membership = new Membership(node, {
      // A browser peer may follow partitions as an observer whether or not it offers to vote.
      roles: { voter: options.voter ?? true, observer: !(options.voter ?? true) || storage.kind === 'idb' },
      storage: storage.kind,
      ...(options.heartbeatIntervalMs === undefined ? {} : { heartbeatIntervalMs: options.heartbeatIntervalMs }),
      ...(options.failureTimeoutMs === undefined ? {} : { failureTimeoutMs: options.failureTimeoutMs }),
      ...(options.incarnationStore === undefined ? {} : { incarnationStore: options.incarnationStore }),
      logger,
    })
    this.store = new MetadataStore({ peerId: this.peerId, logger })
    this.registry = new TopicRegistry(this.store, { logger })
    this.partitionStates = new PartitionStates(this.store, { logger })
    this.raftRpc = new RaftRpc(node, componentLogger(logger, 'raft'))
    this.partitions = new PartitionManager({
      peerId: this.peerId,
      factory: storage,
      logger: componentLogger(logger, 'partitions'),
      transport: this.raftRpc,
      raftConfig: { ...DEFAULT_PEER_RAFT, ...options.raft },
      published: (topic, partition) => this.leadership.published(topic, partition),
      candidates: (topic, partition) => {
        // Placement's rendezvous order over the voting peers alive now: every leader of the
        // partition ranks them the same, so a replacement is deterministic.
        const voters = this.voters(topic.configs)
        return voters.length === 0 ? [] : placeReplicas(topic.topicId, partition, voters.length, voters)
      },
      observing: (topic, partition) => this.observed.has(topic, partition),
      // Peers that announce the observer role (browser tabs) may follow any partition led here.
      admitObserver: (peerId) =>
        this.membership.members().some((m) => m.peerId === peerId && m.roles.observer && m.status === 'alive'),
      onRaftChange: (hosted) => {
        const leader = hosted.raft.leaderId
        if (this.lastLeaders.get(hosted) !== leader) {
          if (leader !== undefined) this.leaderChanges++
          this.lastLeaders.set(hosted, leader)
        }
        this.leadership.publish(hosted)
        for (const listener of this.partitionListeners) listener(hosted)
      },
      ...(options.retentionCheckIntervalMs === undefined
        ? {}
        : { retentionCheckIntervalMs: options.retentionCheckIntervalMs }),
    })
    this.leadership = new LeadershipPublisher({
      peerId: this.peerId,
      partitions: this.partitions,
      partitionStates: this.partitionStates,
      logger: this.logger,
      stopping: () => this.stopping !== undefined,
    })
    this.sync = new MetadataSync({
      node,
      store: this.store,
      logger: componentLogger(logger, 'metadata'),
      persistence: options.metadataPersistence,
    })
  }

  /** @internal */
  async start(): Promise<void> {
    followMetadata(this.store, this.registry, this.partitions, this.logger)
    await this.raftRpc.start((key) => this.partitions.byRaft(key))
    await this.sync.load()
    await removeStaleReplicas(this.store, this.registry, this.options.storage, this.logger)
    this.partitions.start()
    this.leadership.start()
    const handlers: Array<[string, RpcHandler]> = [
      [PROTOCOLS.produce, produceHandler(this)],
      [PROTOCOLS.fetch, fetchHandler(this)],
      [PROTOCOLS.offsets, listOffsetsHandler(this)],
      [PROTOCOLS.metadata, metadataHandler(this)],
      [PROTOCOLS.admin, adminHandler(this)],
    ]
    for (const [protocol, handler] of handlers) await this.protocols.serve(protocol, handler)
    this.protocols.keep(await registerPerfProtocol(this.node, { logger: this.logger }))
    this.protocols.keep(await registerPerfEchoProtocol(this.node, { logger: this.logger }))
    await this.sync.start()
    this.node.addEventListener('peer:disconnect', this.onDisconnect)
    await this.membership.start()
    this.logger.info({ peerId: this.peerId, addresses: this.addresses() }, 'peer started')
  }

  /** A lost connection to a partition's leader lets its followers stand at once, not after the fetch timeout. */
  private readonly onDisconnect = (evt: CustomEvent<{ toString(): string }>): void => {
    const gone = evt.detail.toString()
    for (const hosted of this.partitions.list()) {
      if (hosted.raft.leaderId === gone) hosted.raft.leaderUnreachable(gone).catch(() => {})
    }
  }

  /** Replica fetches this peer served as leader, alone or bundled per follower (replica-fetch-bundles.ts). */
  replicaFetchStats(): ReplicaFetchStats {
    return this.raftRpc.fetchStats()
  }

  /** Called after every request served; costs nothing when nobody listens. */
  onRequest(listener: (event: RequestEvent) => void): () => void {
    return this.protocols.onRequest(listener)
  }

  /**
   * Serves one more request protocol on this peer, instrumented like the built-in ones (see
   * onRequest) and unregistered by `stop()` or the returned function. For services built on top
   * of the mesh (consumer groups) that the mesh itself must not depend on.
   */
  async registerProtocol(
    protocol: string,
    handler: RpcHandler,
    options: Omit<RpcServerOptions, 'logger'> = {},
  ): Promise<UnregisterRpcHandler> {
    if (this.stopping !== undefined) throw new Error('peer is stopping')
    return this.protocols.add(protocol, handler, options)
  }

  /**
   * The handler of a protocol added with `registerProtocol`, for a client running inside this
   * peer (libp2p refuses to dial its own peer id, so such a client calls handlers directly).
   */
  protocolHandler(protocol: string): RpcHandler | undefined {
    return this.protocols.handler(protocol)
  }

  /**
   * Called whenever a replica this peer hosts changes Raft state (role, leader, epoch, high
   * watermark): how services find out that this peer started or stopped leading a partition.
   */
  onPartitionChange(listener: (hosted: HostedPartition) => void): () => void {
    this.partitionListeners.add(listener)
    return () => this.partitionListeners.delete(listener)
  }

  /**
   * Replicates `partitions` of `topic` (all, now and later, when omitted) as an observer: the
   * replica fetches from the leader like a follower without voting, keeps its data across
   * restarts (the choice is persisted with the peer's storage) and resumes from its log end. It
   * stays until `unobserve`, even when no assignment names this peer.
   */
  async observe(topic: string, partitions?: readonly number[]): Promise<void> {
    if (this.stopping !== undefined) throw new Error('peer is stopping')
    await this.observed.add(topic, partitions)
    await this.reconcileTopic(topic)
  }

  /** Stops observing; replicas no assignment names are closed and their data deleted. */
  async unobserve(topic: string, partitions?: readonly number[]): Promise<void> {
    await this.observed.remove(topic, partitions)
    const view = this.partitions.topic(topic)
    for (const hosted of this.partitions.list()) {
      if (hosted.topic !== topic || this.observed.has(topic, hosted.partition) || view === undefined) continue
      if (!this.partitions.assignment(view, hosted.partition).observers.includes(this.peerId) && !hosted.raft.isVoter) {
        await this.partitions.release(topic, hosted.partition)
      }
    }
  }

  private async reconcileTopic(topic: string): Promise<void> {
    const view = this.partitions.topic(topic)
    if (view === undefined) return // observed from when the topic appears
    for (let p = 0; p < view.partitions; p++) {
      if (this.observed.has(topic, p)) await this.partitions.applyAssignment(topic, p)
    }
  }

  addresses(): string[] {
    return this.node.getMultiaddrs().map((ma) => ma.toString())
  }

  members(): HandlerMember[] {
    return this.membership.members().map((m) => ({
      peerId: m.peerId,
      addresses: m.addresses,
      voter: m.roles.voter,
      storage: m.storage,
      status: m.status,
      version: m.version,
    }))
  }

  /**
   * Every topic, each partition's replica list being its current voter set: the topic's
   * placement until a leader replaced a voter, then the committed set that leader published.
   */
  topics(): TopicView[] {
    return this.registry.listTopics().map((topic) => {
      let replicas: Array<readonly string[]> | undefined
      for (let p = 0; p < topic.partitions; p++) {
        const published = this.leadership.published(topic, p)
        if (published === undefined || published.votersOffset < 0) continue
        replicas ??= [...topic.replicas]
        replicas[p] = published.voters
      }
      return replicas === undefined ? topic : { ...topic, replicas }
    })
  }

  /**
   * Voters placement may put replicas on: alive ones, and suspect ones (a connection dropped
   * but their heartbeats are not overdue) — a transient disconnect must not shrink placement
   * to whoever is still connected. This peer is included when it votes. Browser peers
   * (IndexedDB storage) that offer to vote count only for a topic whose `configs` allow them
   * (`browser.voters.allowed=true`); without configs, never.
   */
  voters(configs?: Readonly<Record<string, string>>): string[] {
    const browsers = browserVotersAllowed(configs)
    const eligible = this.membership
      .members()
      .filter(
        (m) => m.roles.voter && (m.status === 'alive' || m.status === 'suspect') && (browsers || m.storage !== 'idb'),
      )
    const ids = new Set(eligible.map((m) => m.peerId))
    if ((this.options.voter ?? true) && (browsers || this.options.storage?.kind !== 'idb')) ids.add(this.peerId)
    return [...ids].sort()
  }

  async createTopic(spec: TopicSpec): Promise<TopicView> {
    const voters = this.voters(spec.configs)
    return this.registry.createTopic(spec, voters, new Set(voters.filter((id) => !this.isBrowserPeer(id))))
  }

  /** A peer that stores in IndexedDB: a browser tab, reachable only through relays and WebRTC. */
  private isBrowserPeer(peerId: string): boolean {
    if (peerId === this.peerId) return this.options.storage?.kind === 'idb'
    return this.membership.members().find((m) => m.peerId === peerId)?.storage === 'idb'
  }

  async deleteTopic(name: string): Promise<void> {
    const deleted = this.registry.deleteTopic(name)
    this.partitionStates.forget(name, deleted.partitions)
  }

  leaderOf(topic: string, partition: number): { leader: string; epoch: number; inSync: string[] } | undefined {
    return this.leadership.leaderOf(topic, partition)
  }

  async alterConfigs(name: string, configs: Record<string, string>): Promise<void> {
    this.registry.alterConfigs(name, configs)
  }

  now(): number {
    return Date.now()
  }

  /** Leaves the mesh cleanly: announces the leave, flushes and closes every log. Idempotent. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.node.removeEventListener('peer:disconnect', this.onDisconnect)
      await this.protocols.stop()
      await this.membership
        .stop({ nodeStopping: true })
        .catch((err: unknown) => this.logger.warn({ err }, 'membership stop failed'))
      this.leadership.stop()
      await this.sync.stop().catch((err: unknown) => this.logger.warn({ err }, 'metadata sync stop failed'))
      this.registry.close()
      await this.partitions.stop()
      await this.raftRpc.stop()
      await this.node.stop()
      this.logger.info({ peerId: this.peerId }, 'peer stopped')
    })()
    return this.stopping
  }
}
