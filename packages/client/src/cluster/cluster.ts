/**
 * The client's view of the mesh (KafkaJS's `cluster/`): a Broker per peer, and a metadata cache
 * mapping each topic-partition to its leader. Metadata comes from whichever peer answers — the
 * last one that did, then the bootstrap peers, then every peer learned since — so losing the
 * bootstrap peer loses nothing. A topic's entry is refreshed when older than `metadataMaxAge`,
 * when a request fails in a way that means the map is wrong (unknown topic, no leader, a peer
 * unreachable), and is patched at once from a NOT_LEADER_OR_FOLLOWER answer's leader hint.
 */
import { peerIdFromString } from '@libp2p/peer-id'
import { type Multiaddr, multiaddr } from '@multiformats/multiaddr'
import {
  LeaderNotAvailableError,
  NetworkError,
  NotLeaderOrFollowerError,
  RequestTimedOutError,
  TributaryError,
  UnknownTopicOrPartitionError,
} from '@tributary/wire'
import { Broker, type ClusterMetadata, type PartitionMetadata, type TopicMetadata } from '../broker.js'
import { ClientClosedError, NoPeerAvailableError, partitionName } from '../errors.js'
import type { ClientNode } from '../node/options.js'
import type { BrokerTransport } from '../transport/transport.js'
import { type LeaderView, type LocalReplica, leaderViewsOf, type ReadFrom, ReadReplicas } from './read-replicas.js'

export type PeerInfo = ClusterMetadata['peers'][number]

export interface ClusterOptions {
  node: ClientNode
  /** Peers to ask first (multiaddrs, ideally with /p2p/<id>). */
  bootstrap: readonly Multiaddr[]
  /** Inside a peer: that peer's id and a transport straight into its handlers. */
  local?: { peerId: string; transport: BrokerTransport }
  requestTimeoutMs: number
  /** A topic's metadata older than this is fetched again before use. */
  metadataMaxAge: number
  now?: () => number
  /**
   * Reading from a replica other than the leader (KIP-392's preferred read replica, see
   * read-replicas.ts): inside a peer that serves replica reads, its own replica ('local'), and
   * with 'nearby' also directly connected observers. Absent: always the leader.
   */
  readFrom?: {
    mode: ReadFrom
    /** This peer's own replica of a partition, if it holds one. */
    local?: (topic: string, partition: number) => LocalReplica | undefined
    /** Whether a direct (non-relayed) connection to the peer is open now (needed for 'nearby'). */
    connectedDirectly?: (peerId: string) => boolean
  }
}

interface CachedTopic {
  metadata: TopicMetadata
  fetchedAt: number
}

/** Most peers whose addresses are kept; metadata from a huge mesh is trimmed to this many. */
const MAX_KNOWN_PEERS = 1024
/** Leaders asked at once for their view of a topic's replicas. */
const MAX_VIEW_LEADERS = 64

export class Cluster {
  private readonly brokers = new Map<string, Broker>()
  private readonly topics = new Map<string, CachedTopic>()
  private readonly refreshing = new Map<string, Promise<TopicMetadata>>()
  private knownPeers: PeerInfo[] = []
  private peerSignature = ''
  /** The peer that last answered a metadata request: asked first next time. */
  private preferred: string | undefined
  private closed = false
  private readonly now: () => number
  private readonly readReplicas: ReadReplicas | undefined

  constructor(private readonly options: ClusterOptions) {
    this.now = options.now ?? Date.now
    const readFrom = options.readFrom
    this.readReplicas =
      readFrom === undefined || readFrom.mode === 'leader'
        ? undefined
        : new ReadReplicas({
            readFrom: readFrom.mode,
            selfPeerId: this.selfPeerId,
            ...(readFrom.local === undefined ? {} : { local: readFrom.local }),
            ...(readFrom.connectedDirectly === undefined ? {} : { connectedDirectly: readFrom.connectedDirectly }),
            leaderViews: (topic, signal) => this.leaderViews(topic, signal),
            refreshTimeoutMs: options.requestTimeoutMs,
            now: this.now,
          })
  }

  get selfPeerId(): string {
    return this.options.node.peerId.toString()
  }

  /** The peers the last metadata answer named. */
  get peers(): readonly PeerInfo[] {
    return this.knownPeers
  }

  /** The broker for a peer id (the local handlers when it is the peer we run in). */
  broker(peerId: string): Broker {
    if (this.closed) throw new ClientClosedError('the client is disconnected')
    let broker = this.brokers.get(peerId)
    if (broker === undefined) {
      const local = this.options.local
      if (local !== undefined && local.peerId === peerId) {
        broker = new Broker(this.options.node, this.options.node.peerId, {
          transport: local.transport,
          requestTimeoutMs: this.options.requestTimeoutMs,
        })
      } else {
        let id: ReturnType<typeof peerIdFromString>
        try {
          id = peerIdFromString(peerId)
        } catch (err) {
          throw new TributaryError(`metadata named an invalid peer id '${peerId.slice(0, 80)}'`, { cause: err })
        }
        broker = new Broker(this.options.node, id, { requestTimeoutMs: this.options.requestTimeoutMs })
      }
      this.brokers.set(peerId, broker)
    }
    return broker
  }

  private bootstrapBroker(address: Multiaddr): Broker {
    const key = `bootstrap ${address.toString()}`
    let broker = this.brokers.get(key)
    if (broker === undefined) {
      broker = new Broker(this.options.node, address, { requestTimeoutMs: this.options.requestTimeoutMs })
      this.brokers.set(key, broker)
    }
    return broker
  }

  /** Brokers to ask for metadata, best first, each once. */
  private metadataCandidates(): Array<{ name: string; broker: () => Broker }> {
    const seen = new Set<string>()
    const out: Array<{ name: string; broker: () => Broker }> = []
    const add = (name: string, broker: () => Broker): void => {
      if (seen.has(name)) return
      seen.add(name)
      out.push({ name, broker })
    }
    if (this.preferred !== undefined) add(this.preferred, () => this.broker(this.preferred!))
    if (this.options.local !== undefined) add(this.options.local.peerId, () => this.broker(this.options.local!.peerId))
    for (const address of this.options.bootstrap) {
      const id = address.getComponents().findLast((c) => c.name === 'p2p')?.value
      add(id ?? address.toString(), () =>
        id !== undefined && this.brokers.has(id) ? this.broker(id) : this.bootstrapBroker(address),
      )
    }
    for (const peer of this.knownPeers)
      if (peer.peerId !== this.selfPeerId) add(peer.peerId, () => this.broker(peer.peerId))
    return out
  }

  /**
   * Cluster metadata from the first peer that answers. Updates the topic cache with what it
   * returned and the peer store with the peers' addresses.
   */
  async metadata(topics?: string[], options: { signal?: AbortSignal } = {}): Promise<ClusterMetadata> {
    if (this.closed) throw new ClientClosedError('the client is disconnected')
    const tried: string[] = []
    let lastError: unknown
    for (const candidate of this.metadataCandidates()) {
      options.signal?.throwIfAborted()
      try {
        const answer = await candidate.broker().metadata(topics, options)
        this.preferred = answer.peerId
        this.learnPeers(answer.peers)
        const at = this.now()
        for (const topic of answer.topics) {
          if (topic.error === undefined) this.topics.set(topic.name, { metadata: this.merge(topic), fetchedAt: at })
          else this.topics.delete(topic.name)
        }
        return answer
      } catch (err) {
        if (options.signal?.aborted) throw options.signal.reason
        if (this.closed) throw new ClientClosedError('the client is disconnected')
        tried.push(candidate.name)
        lastError = err
        if (this.preferred === candidate.name) this.preferred = undefined
      }
    }
    const reason = lastError instanceof Error ? `: ${lastError.message}` : ''
    throw new NoPeerAvailableError(
      tried.length === 0
        ? 'no peer to ask: give Tributary.connect at least one bootstrap address'
        : `no peer answered a metadata request (tried ${tried.length}: ${tried.slice(0, 5).join(', ')})${reason}`,
      { cause: lastError },
    )
  }

  /**
   * Keeps a partition's leader learned from a NOT_LEADER hint when the answer is not newer: peers
   * learn leadership by gossip, and one that lags must not undo what a leader told us directly.
   */
  private merge(fresh: TopicMetadata): TopicMetadata {
    const cached = this.topics.get(fresh.name)?.metadata
    if (cached === undefined || cached.topicId !== fresh.topicId) return fresh
    return {
      ...fresh,
      partitions: fresh.partitions.map((p) => {
        const old = cached.partitions[p.partition]
        return old !== undefined && old.leader !== '' && old.leaderEpoch > p.leaderEpoch ? { ...p, ...pick(old) } : p
      }),
    }
  }

  private learnPeers(peers: PeerInfo[]): void {
    const kept = peers.slice(0, MAX_KNOWN_PEERS)
    this.knownPeers = kept
    const signature = kept.map((p) => `${p.peerId}=${p.addresses.join(',')}`).join(';')
    if (signature === this.peerSignature) return
    this.peerSignature = signature
    for (const peer of kept) {
      if (peer.peerId === this.selfPeerId) continue
      const multiaddrs: Multiaddr[] = []
      for (const address of peer.addresses.slice(0, 32)) {
        try {
          multiaddrs.push(multiaddr(address))
        } catch {
          // An address this node cannot parse is one it cannot dial either.
        }
      }
      try {
        void this.options.node.peerStore.merge(peerIdFromString(peer.peerId), { multiaddrs }).catch(() => {})
      } catch {
        // An invalid peer id in metadata: that peer stays undialable by id.
      }
    }
  }

  /** A topic's metadata, from the cache unless stale or `refresh`. Throws the topic's typed error. */
  async topic(topic: string, options: { signal?: AbortSignal; refresh?: boolean } = {}): Promise<TopicMetadata> {
    const cached = this.topics.get(topic)
    if (
      cached !== undefined &&
      options.refresh !== true &&
      this.now() - cached.fetchedAt < this.options.metadataMaxAge
    ) {
      return cached.metadata
    }
    let pending = this.refreshing.get(topic)
    if (pending === undefined) {
      pending = this.fetchTopic(topic, options.signal).finally(() => this.refreshing.delete(topic))
      this.refreshing.set(topic, pending)
    }
    return pending
  }

  private async fetchTopic(topic: string, signal: AbortSignal | undefined): Promise<TopicMetadata> {
    const answer = await this.metadata([topic], signal === undefined ? {} : { signal })
    const found = answer.topics.find((t) => t.name === topic)
    if (found === undefined) throw new UnknownTopicOrPartitionError(`topic ${topic} does not exist`)
    if (found.error !== undefined) throw found.error
    return this.topics.get(topic)?.metadata ?? found
  }

  /** Where to read a partition from at `offset` other than its leader, if anywhere (ClusterOptions.readFrom). */
  async readReplicaFor(
    topic: string,
    partition: number,
    offset: number,
    options: { signal?: AbortSignal } = {},
  ): Promise<string | undefined> {
    return this.readReplicas?.choose(topic, partition, offset, options.signal)
  }

  /** A read from a replica chosen by readReplicaFor failed: the partition is read from its leader for a while. */
  readReplicaFailed(topic: string, partition: number, peerId: string): void {
    this.readReplicas?.failed(topic, partition, peerId)
  }

  /**
   * Each partition of `topic` as its leader describes it (the leader alone names the observers
   * fetching from it, and how far each has got): one metadata request per distinct leader.
   */
  private async leaderViews(topic: string, signal: AbortSignal): Promise<LeaderView[]> {
    const meta = await this.topic(topic, { signal })
    const leaders = [...new Set(meta.partitions.map((p) => p.leader).filter((l) => l !== ''))]
    const answers = await Promise.allSettled(
      leaders.slice(0, MAX_VIEW_LEADERS).map((leader) => this.broker(leader).metadata([topic], { signal })),
    )
    return answers.flatMap((a) => (a.status === 'fulfilled' ? leaderViewsOf(a.value, topic) : []))
  }

  /** The leader of a partition and its broker. LeaderNotAvailableError (retriable) while there is none. */

  async leader(
    topic: string,
    partition: number,
    options: { signal?: AbortSignal } = {},
  ): Promise<{ broker: Broker; leader: string; metadata: PartitionMetadata }> {
    const meta = await this.topic(topic, options)
    const p = meta.partitions[partition]
    if (p === undefined) {
      throw new UnknownTopicOrPartitionError(
        `topic ${topic} has no partition ${partition} (it has ${meta.partitions.length})`,
      )
    }
    if (p.leader === '') {
      this.invalidate(topic)
      throw new LeaderNotAvailableError(`${partitionName(topic, partition)} has no leader yet (election in progress)`)
    }
    return { broker: this.broker(p.leader), leader: p.leader, metadata: p }
  }

  /**
   * Learns from a failed partition request: a NOT_LEADER hint moves the partition's leader at
   * once; errors that mean the map is wrong (or the peer is gone) make the topic refresh on next use.
   */
  onPartitionError(topic: string, partition: number, err: unknown): void {
    if (err instanceof NotLeaderOrFollowerError) {
      const hint = (err as NotLeaderOrFollowerError & { leaderHint?: string }).leaderHint
      const cached = this.topics.get(topic)
      const p = cached?.metadata.partitions[partition]
      if (hint !== undefined && hint !== '' && cached !== undefined && p !== undefined && hint !== p.leader) {
        const partitions = [...cached.metadata.partitions]
        partitions[partition] = { ...p, leader: hint }
        cached.metadata = { ...cached.metadata, partitions }
        return
      }
      this.invalidate(topic)
      return
    }
    if (
      err instanceof UnknownTopicOrPartitionError ||
      err instanceof LeaderNotAvailableError ||
      err instanceof NetworkError ||
      err instanceof RequestTimedOutError ||
      (err instanceof TributaryError && err.retriable)
    ) {
      this.invalidate(topic)
    }
  }

  invalidate(topic: string): void {
    const cached = this.topics.get(topic)
    if (cached !== undefined) cached.fetchedAt = Number.NEGATIVE_INFINITY
  }

  /** Topics whose metadata is cached (for consumers re-resolving patterns). */
  cachedTopics(): string[] {
    return [...this.topics.keys()]
  }

  close(): void {
    this.closed = true
    this.readReplicas?.close()
    for (const broker of this.brokers.values()) broker.close()
    this.brokers.clear()
    this.topics.clear()
  }
}

function pick(p: PartitionMetadata): Pick<PartitionMetadata, 'leader' | 'leaderEpoch' | 'inSync'> {
  return { leader: p.leader, leaderEpoch: p.leaderEpoch, inSync: p.inSync }
}
