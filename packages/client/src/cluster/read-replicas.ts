/**
 * Where a consumer inside a peer reads a partition from, when not from its leader: Kafka's
 * preferred read replica (KIP-392), chosen by locality. In Kafka the leader picks a replica in
 * the consumer's rack; here the consumer picks, because only it knows its own connections:
 *
 * - `local`: this peer's own replica, while the offset lies in [log start, high watermark) of
 *   what it holds — nothing crosses the network, and it works offline.
 * - `nearby`: failing that, another peer that replicates the partition as an observer (a browser
 *   tab), to which this peer already has a direct (non-relayed, e.g. WebRTC) connection, and
 *   which is caught up enough: by its partition leader's own account (the leader's metadata
 *   names the observers fetching from it, their log end offsets and when each last caught up),
 *   it has recently been at the leader's log end and holds the offset asked for (as Kafka's
 *   selector takes only replicas whose log end reaches the fetch offset). The replica answers
 *   from its own log, never past the high watermark it learned, so a lagging one long-polls.
 *
 * Any failed read from a replica (out of range, not leader, connection lost, timeout) sets that
 * replica aside for the partition for `avoidMs`: the next fetch goes to the leader at the same
 * position, so nothing is reset, lost or read twice. The leaders' views are refreshed in the
 * background at most every `viewMaxAgeMs`; until one arrives the leader is read.
 */
import type { ClusterMetadata, ReplicaStateMetadata } from '../broker.js'
import { untilAborted } from '../retry.js'

export type ReadFrom = 'leader' | 'local' | 'nearby'

/** What this peer's own replica of a partition can serve. */
export interface LocalReplica {
  logStartOffset: number
  highWatermark: number
}

export interface ReadReplicasOptions {
  readFrom: ReadFrom
  selfPeerId: string
  /** This peer's own replica of a partition, if it holds one. */
  local?: (topic: string, partition: number) => LocalReplica | undefined
  /** Whether a direct (non-relayed) connection to the peer is open now. Needed for 'nearby'. */
  connectedDirectly?: (peerId: string) => boolean
  /** The leaders of a topic's partitions, each asked for its metadata (which fills replicaStates). */
  leaderViews?: (topic: string, signal: AbortSignal) => Promise<LeaderView[]>
  /** A replica that has not caught up with its leader for longer than this is not read. Default 10 s. */
  maxLagMs?: number
  /** How long a leader's view of its replicas is used. Default 5 s. */
  viewMaxAgeMs?: number
  /** How long a replica whose read failed is passed over for the partition. Default 10 s. */
  avoidMs?: number
  /** Bound on a view refresh. Default 5 s. */
  refreshTimeoutMs?: number
  now?: () => number
}

/** One partition as its leader described it. */
export interface LeaderView {
  partition: number
  leader: string
  replicaStates: readonly ReplicaStateMetadata[]
}

interface TopicViews {
  /** When the views in `partitions` were asked for (-Infinity: none yet). */
  fetchedAt: number
  /** When they were last asked for, answered or not: a failing leader is asked again only after viewMaxAgeMs. */
  attemptedAt: number
  partitions: Map<number, LeaderView>
}

const DEFAULT_MAX_LAG_MS = 10_000
const DEFAULT_VIEW_MAX_AGE_MS = 5_000
const DEFAULT_AVOID_MS = 10_000
const DEFAULT_REFRESH_TIMEOUT_MS = 5_000
/** Topics whose views are kept; past it the oldest is dropped (a consumer reads few topics). */
const MAX_TOPICS = 1024
/** Replica states looked at per partition (a leader names at most its replicas and observers). */
const MAX_REPLICA_STATES = 256

export class ReadReplicas {
  private readonly views = new Map<string, TopicViews>()
  private readonly refreshing = new Map<string, Promise<void>>()
  /** `topic/partition/peer` → until when it is passed over. */
  private readonly avoided = new Map<string, number>()
  private readonly lifetime = new AbortController()
  private readonly now: () => number

  constructor(private readonly options: ReadReplicasOptions) {
    this.now = options.now ?? Date.now
    if (
      options.readFrom === 'nearby' &&
      (options.connectedDirectly === undefined || options.leaderViews === undefined)
    ) {
      throw new TypeError("readFrom 'nearby' needs connectedDirectly and leaderViews")
    }
  }

  /**
   * The peer to read `topic`-`partition` at `offset` from instead of its leader, or undefined for
   * the leader. Waits only on a topic's first use with 'nearby', for its leaders' first answer
   * (until `signal` aborts, which rejects with its reason).
   */
  async choose(topic: string, partition: number, offset: number, signal?: AbortSignal): Promise<string | undefined> {
    const { readFrom, selfPeerId } = this.options
    if (readFrom === 'leader') return undefined
    const own = this.options.local?.(topic, partition)
    if (
      own !== undefined &&
      offset >= own.logStartOffset &&
      offset < own.highWatermark &&
      !this.isAvoided(topic, partition, selfPeerId)
    ) {
      return selfPeerId
    }
    // A partition this peer replicates itself is read from the leader past its own high
    // watermark: it will have those records shortly anyway.
    if (readFrom !== 'nearby' || own !== undefined) return undefined
    return this.nearby(topic, partition, offset, signal)
  }

  /** A read from `peer` failed: read the partition elsewhere for a while. */
  failed(topic: string, partition: number, peer: string): void {
    if (this.avoided.size >= MAX_TOPICS * 16) this.pruneAvoided()
    this.avoided.set(`${topic}/${partition}/${peer}`, this.now() + (this.options.avoidMs ?? DEFAULT_AVOID_MS))
  }

  close(): void {
    this.lifetime.abort(new Error('client closed'))
    this.views.clear()
    this.avoided.clear()
  }

  private async nearby(
    topic: string,
    partition: number,
    offset: number,
    signal: AbortSignal | undefined,
  ): Promise<string | undefined> {
    const now = this.now()
    const viewMaxAge = this.options.viewMaxAgeMs ?? DEFAULT_VIEW_MAX_AGE_MS
    let views = this.views.get(topic)
    if (views === undefined) {
      if (this.views.size >= MAX_TOPICS) this.views.delete(this.views.keys().next().value!)
      views = { fetchedAt: Number.NEGATIVE_INFINITY, attemptedAt: Number.NEGATIVE_INFINITY, partitions: new Map() }
      this.views.set(topic, views)
    }
    if (now - views.fetchedAt >= viewMaxAge && now - views.attemptedAt >= viewMaxAge) this.refresh(topic, views)
    // Until a topic has a view, fetches wait for the one being asked for (bounded by
    // refreshTimeoutMs), so a consumer starts where it will go on reading; later refreshes run
    // beside the fetches.
    const pending = this.refreshing.get(topic)
    if (views.fetchedAt === Number.NEGATIVE_INFINITY && pending !== undefined) await untilAborted(pending, signal)
    const view = views.partitions.get(partition)
    if (view === undefined) return undefined
    const maxLag = this.options.maxLagMs ?? DEFAULT_MAX_LAG_MS
    const age = this.now() - views.fetchedAt
    let best: { peerId: string; lag: number } | undefined
    for (const replica of view.replicaStates.slice(0, MAX_REPLICA_STATES)) {
      // Observers only: a voter follower answers NOT_LEADER (only replicas that serve replica reads observe).
      if (replica.voter || replica.peerId === this.options.selfPeerId || replica.peerId === view.leader) continue
      if (replica.caughtUpMsAgo < 0 || replica.caughtUpMsAgo + age > maxLag) continue
      if (replica.logEndOffset < offset) continue
      if (this.isAvoided(topic, partition, replica.peerId)) continue
      if (!this.options.connectedDirectly!(replica.peerId)) continue
      if (best === undefined || replica.caughtUpMsAgo < best.lag)
        best = { peerId: replica.peerId, lag: replica.caughtUpMsAgo }
    }
    return best?.peerId
  }

  private isAvoided(topic: string, partition: number, peer: string): boolean {
    const key = `${topic}/${partition}/${peer}`
    const until = this.avoided.get(key)
    if (until === undefined) return false
    if (until > this.now()) return true
    this.avoided.delete(key)
    return false
  }

  private pruneAvoided(): void {
    const now = this.now()
    for (const [key, until] of this.avoided) if (until <= now) this.avoided.delete(key)
    // Still full: forget the oldest entries (a replica read again early fails over again).
    for (const key of this.avoided.keys()) {
      if (this.avoided.size < MAX_TOPICS * 8) break
      this.avoided.delete(key)
    }
  }

  /** Asks the topic's leaders for their view of its replicas, once at a time per topic, in the background. */
  private refresh(topic: string, views: TopicViews): void {
    if (this.refreshing.has(topic) || this.lifetime.signal.aborted) return
    // A timer of our own rather than AbortSignal.any over AbortSignal.timeout: Node 20 may collect
    // an otherwise unreferenced timeout signal inside any(), which then never aborts (seen here).
    const deadline = new AbortController()
    const timer = setTimeout(
      () => deadline.abort(new Error(`no view of ${topic}'s replicas within the refresh timeout`)),
      this.options.refreshTimeoutMs ?? DEFAULT_REFRESH_TIMEOUT_MS,
    )
    const onClose = (): void => deadline.abort(this.lifetime.signal.reason)
    this.lifetime.signal.addEventListener('abort', onClose, { once: true })
    const { signal } = deadline
    const started = this.now()
    views.attemptedAt = started
    // Raced with the signal too, so a view source that ignores it still cannot hold fetches up.
    const running = untilAborted(this.options.leaderViews!(topic, signal), signal)
      .then((answer) => {
        // Dated from when it was asked for, so the lag bound errs on the safe side.
        views.fetchedAt = started
        views.partitions = new Map(answer.map((v) => [v.partition, v]))
      })
      .catch(() => {
        // No view: the leader is read until the next try, viewMaxAgeMs later.
      })
      .finally(() => {
        clearTimeout(timer)
        this.lifetime.signal.removeEventListener('abort', onClose)
        this.refreshing.delete(topic)
      })
    this.refreshing.set(topic, running)
  }

  /** Resolves when the view refreshes in progress have ended (for tests). */
  async settled(): Promise<void> {
    await Promise.all([...this.refreshing.values()])
  }
}

/** The partitions a metadata answer describes as their leader (only a leader fills replicaStates). */
export function leaderViewsOf(answer: ClusterMetadata, topic: string): LeaderView[] {
  const found = answer.topics.find((t) => t.name === topic)
  if (found === undefined || found.error !== undefined) return []
  return found.partitions
    .filter((p) => p.leader === answer.peerId)
    .map((p) => ({ partition: p.partition, leader: p.leader, replicaStates: p.replicaStates }))
}
