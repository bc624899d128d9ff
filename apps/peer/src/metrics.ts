import type { RequestEvent } from '@tributary/mesh'
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'

/** What the metrics read from a running peer. */
export interface ObservedPeer {
  peerId: string
  members(): Array<{ status: string }>
  hostedPartitions(): Array<{
    topic: string
    partition: number
    logStartOffset: number
    logEndOffset: number
    highWatermark: number
    sizeBytes: number
    leader: boolean
    /** Voters of the partition, and (on its leader) the in-sync ones and each replica's lag in offsets. */
    voters: number
    inSync: number
    replicaLag: Array<{ replica: string; lagOffsets: number }>
  }>
  leaderChanges(): number
  /** What this peer's replicas did as leaders: voters added and removed, leadership hand-overs. */
  raftStats(): { votersAdded: number; votersRemoved: number; leadershipTransfers: number }
  /** Replica fetches served as leader: alone, and in bundles (with the fetches those held). */
  replicaFetchStats(): { single: number; bundles: number; bundledFetches: number }
  onRequest(listener: (event: RequestEvent) => void): () => void
}

/**
 * Prometheus metrics of a peer. Gauges are computed when scraped (no bookkeeping on the hot
 * path); request counters and latency histograms are fed by the peer's request events.
 */
export function createMetrics(peer: ObservedPeer): { registry: Registry; stop(): void } {
  const registry = new Registry()
  registry.setDefaultLabels({ peer: peer.peerId })
  collectDefaultMetrics({ register: registry, prefix: 'tributary_' })

  new Gauge({
    name: 'tributary_peers',
    help: 'Peers in the mesh as this peer sees them, by status',
    labelNames: ['status'],
    registers: [registry],
    collect() {
      this.reset()
      for (const member of peer.members()) this.inc({ status: member.status })
    },
  })
  new Gauge({
    name: 'tributary_partitions_hosted',
    help: 'Partition replicas held by this peer',
    labelNames: ['role'],
    registers: [registry],
    collect() {
      this.reset()
      for (const p of peer.hostedPartitions()) this.inc({ role: p.leader ? 'leader' : 'follower' })
    },
  })
  const perPartition = (
    name: string,
    help: string,
    pick: (p: ReturnType<ObservedPeer['hostedPartitions']>[number]) => number,
  ) =>
    new Gauge({
      name,
      help,
      labelNames: ['topic', 'partition'],
      registers: [registry],
      collect() {
        this.reset()
        for (const p of peer.hostedPartitions()) this.set({ topic: p.topic, partition: String(p.partition) }, pick(p))
      },
    })
  perPartition('tributary_log_start_offset', 'First offset held by the partition log', (p) => p.logStartOffset)
  perPartition('tributary_log_end_offset', 'Next offset the partition log will assign', (p) => p.logEndOffset)
  perPartition(
    'tributary_high_watermark',
    'Offsets below it are committed and visible to consumers',
    (p) => p.highWatermark,
  )
  perPartition('tributary_log_size_bytes', 'Bytes held in the partition log segments', (p) => p.sizeBytes)

  new Gauge({
    name: 'tributary_partition_in_sync_voters',
    help: 'In-sync voters of each partition this peer leads',
    labelNames: ['topic', 'partition'],
    registers: [registry],
    collect() {
      this.reset()
      for (const p of peer.hostedPartitions())
        if (p.leader) this.set({ topic: p.topic, partition: String(p.partition) }, p.inSync)
    },
  })
  new Gauge({
    name: 'tributary_under_replicated_partitions',
    help: 'Partitions this peer leads with fewer in-sync voters than voters',
    registers: [registry],
    collect() {
      this.set(peer.hostedPartitions().filter((p) => p.leader && p.inSync < p.voters).length)
    },
  })
  new Gauge({
    name: 'tributary_replication_lag_offsets',
    help: "How far each follower's log end is behind the leader's, on partitions this peer leads",
    labelNames: ['topic', 'partition', 'replica'],
    registers: [registry],
    collect() {
      this.reset()
      for (const p of peer.hostedPartitions()) {
        for (const r of p.replicaLag)
          this.set({ topic: p.topic, partition: String(p.partition), replica: r.replica }, r.lagOffsets)
      }
    },
  })
  new Counter({
    name: 'tributary_leader_changes_total',
    help: 'Leader changes seen by the partition replicas on this peer',
    registers: [registry],
    collect() {
      this.reset()
      this.inc(peer.leaderChanges())
    },
  })

  new Counter({
    name: 'tributary_voter_changes_total',
    help: 'Voters added to and removed from partitions this peer led (a replaced voter counts one of each)',
    labelNames: ['change'],
    registers: [registry],
    collect() {
      this.reset()
      const stats = peer.raftStats()
      this.inc({ change: 'added' }, stats.votersAdded)
      this.inc({ change: 'removed' }, stats.votersRemoved)
    },
  })
  new Counter({
    name: 'tributary_replica_fetches_served_total',
    help: "Replica fetches served as leader, by how they came: alone, or in a bundle of one follower's fetches to this peer",
    labelNames: ['via'],
    registers: [registry],
    collect() {
      this.reset()
      const stats = peer.replicaFetchStats()
      this.inc({ via: 'single' }, stats.single)
      this.inc({ via: 'bundle' }, stats.bundledFetches)
    },
  })
  new Counter({
    name: 'tributary_replica_fetch_bundles_served_total',
    help: 'Bundles of replica fetches served as leader (each one request from one follower)',
    registers: [registry],
    collect() {
      this.reset()
      this.inc(peer.replicaFetchStats().bundles)
    },
  })
  new Counter({
    name: 'tributary_leadership_transfers_total',
    help: 'Hand-overs of leadership to a preferred leader started by this peer',
    registers: [registry],
    collect() {
      this.reset()
      this.inc(peer.raftStats().leadershipTransfers)
    },
  })

  const requests = new Counter({
    name: 'tributary_requests_total',
    help: 'Requests served',
    labelNames: ['protocol', 'outcome'],
    registers: [registry],
  })
  const bytesIn = new Counter({
    name: 'tributary_request_bytes_in_total',
    help: 'Request bytes received',
    labelNames: ['protocol'],
    registers: [registry],
  })
  const bytesOut = new Counter({
    name: 'tributary_response_bytes_out_total',
    help: 'Response bytes sent',
    labelNames: ['protocol'],
    registers: [registry],
  })
  const latency = new Histogram({
    name: 'tributary_request_duration_seconds',
    help: 'Time to serve a request (fetch includes its long-poll wait)',
    labelNames: ['protocol'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5, 30],
    registers: [registry],
  })
  // Each request updates four series of its protocol: their label children are looked up once per
  // protocol (prom-client hashes the labels on every inc/observe otherwise — a few µs per request).
  type ProtocolSeries = {
    ok: ReturnType<typeof requests.labels>
    error: ReturnType<typeof requests.labels>
    bytesIn: ReturnType<typeof bytesIn.labels>
    bytesOut: ReturnType<typeof bytesOut.labels>
    latency: ReturnType<typeof latency.labels>
  }
  const series = new Map<string, ProtocolSeries>()
  const seriesOf = (protocol: string): ProtocolSeries => {
    let s = series.get(protocol)
    if (s === undefined) {
      s = {
        ok: requests.labels({ protocol, outcome: 'ok' }),
        error: requests.labels({ protocol, outcome: 'error' }),
        bytesIn: bytesIn.labels({ protocol }),
        bytesOut: bytesOut.labels({ protocol }),
        latency: latency.labels({ protocol }),
      }
      series.set(protocol, s)
    }
    return s
  }
  const stop = peer.onRequest((event) => {
    const s = seriesOf(event.protocol)
    ;(event.ok ? s.ok : s.error).inc()
    s.bytesIn.inc(event.bytesIn)
    s.bytesOut.inc(event.bytesOut)
    s.latency.observe(event.durationMs / 1000)
  })
  return { registry, stop }
}
