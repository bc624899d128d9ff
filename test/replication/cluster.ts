/**
 * A cluster of peer processes for fault tests: start, kill (SIGKILL), restart on the same
 * data dir, pause (SIGSTOP) and resume (SIGCONT) peers by id, and ask the live ones about
 * partition leadership (client metadata) and replica progress (each peer's /metrics).
 */
import { createWriteStream, mkdirSync } from 'node:fs'
import { basename, join } from 'node:path'
import { multiaddr } from '@multiformats/multiaddr'
import { Broker, type PartitionMetadata } from '@tributary/client'
import type { MeshNode } from '@tributary/mesh/node'
import { type PeerProcess, startPeerProcess, waitFor } from '../helpers/peer-process.ts'

/** Client requests to a paused peer hang until this; produce timeouts stay below it. */
export const REQUEST_TIMEOUT_MS = 5000

/** What replicas log when a Raft safety rule broke (committed data diverged, two leaders in one epoch). */
const SAFETY_ALARMS = ['divergence below the HW', 'two leaders', 'batch from the future']

/** One replica's log as its peer reports it (`tributary_log_end_offset`, `tributary_high_watermark`). */
export interface ReplicaProgress {
  logEndOffset: number
  highWatermark: number
}

export class Cluster {
  /** The current process of each peer, by peer id (a restart replaces it). */
  private readonly current = new Map<string, PeerProcess>()
  /** Every process ever started, killed ones included (their logs are in `logDir`). */
  readonly history: PeerProcess[] = []
  private readonly paused = new Set<string>()
  private readonly brokers = new Map<string, Broker>()
  /** Log lines in which a peer reports that a Raft safety rule broke. */
  readonly alarms: string[] = []

  private constructor(
    readonly client: MeshNode,
    readonly root: string,
    /** Extra `peer start` arguments every process gets (timing flags of a test). */
    private readonly args: string[],
  ) {}

  /** Where every process's full output (JSON logs, debug level) is written. */
  get logDir(): string {
    return join(this.root, 'peer-logs')
  }

  /** A seed and `size - 1` peers bootstrapping to it, each in `<root>/<n>`. */
  static async start(client: MeshNode, root: string, size: number, args: string[] = []): Promise<Cluster> {
    const cluster = new Cluster(client, root, args)
    const seed = cluster.track(await startPeerProcess(join(root, 'p0'), { args }))
    const rest = await Promise.all(
      Array.from({ length: size - 1 }, (_, i) =>
        startPeerProcess(join(root, `p${i + 1}`), { bootstrap: [seed.address], args }),
      ),
    )
    for (const peer of rest) cluster.track(peer)
    return cluster
  }

  private track(peer: PeerProcess): PeerProcess {
    this.current.set(peer.peerId, peer)
    this.history.push(peer)
    // The whole output goes to a file (the helper keeps only a tail), and alarms are watched as
    // it is written.
    mkdirSync(this.logDir, { recursive: true })
    const file = createWriteStream(
      join(this.logDir, `${basename(peer.dataDir)}-${this.history.length}-${peer.peerId.slice(-8)}.log`),
    )
    peer.proc.stdout?.on('data', (chunk: Buffer) => file.write(chunk))
    peer.proc.stderr?.on('data', (chunk: Buffer) => file.write(chunk))
    peer.proc.once('exit', () => file.end())
    let partial = ''
    peer.proc.stdout?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n')
      partial = lines.pop() ?? ''
      for (const line of lines) {
        if (SAFETY_ALARMS.some((a) => line.includes(a)) && this.alarms.length < 100) {
          this.alarms.push(`${peer.peerId.slice(-8)}: ${line.slice(0, 2000)}`)
        }
      }
    })
    return peer
  }

  get ids(): string[] {
    return [...this.current.keys()]
  }

  peer(id: string): PeerProcess {
    const peer = this.current.get(id)
    if (peer === undefined) throw new Error(`no peer ${id}`)
    return peer
  }

  isRunning(id: string): boolean {
    const proc = this.current.get(id)?.proc
    return proc !== undefined && proc.exitCode === null && proc.signalCode === null
  }

  /** Running and not paused: answers requests. */
  isLive(id: string): boolean {
    return this.isRunning(id) && !this.paused.has(id)
  }

  live(): string[] {
    return this.ids.filter((id) => this.isLive(id))
  }

  /** A client for the peer's current process (its address changes with every restart). */
  broker(id: string): Broker {
    const peer = this.peer(id)
    const key = `${id} ${peer.address}`
    let broker = this.brokers.get(key)
    if (broker === undefined) {
      broker = new Broker(this.client, multiaddr(peer.address), { requestTimeoutMs: REQUEST_TIMEOUT_MS })
      this.brokers.set(key, broker)
    }
    return broker
  }

  async kill(id: string): Promise<void> {
    this.paused.delete(id)
    await this.peer(id).stop('SIGKILL')
  }

  /** Starts the peer again on its data dir, bootstrapping to every live peer. */
  async restart(id: string): Promise<PeerProcess> {
    const before = this.peer(id)
    if (this.isRunning(id)) throw new Error(`peer ${id} is still running`)
    const bootstrap = this.live()
      .filter((other) => other !== id)
      .map((other) => this.peer(other).address)
    const again = await startPeerProcess(before.dataDir, { bootstrap, args: this.args })
    if (again.peerId !== id) throw new Error(`restart of ${before.dataDir} came back as ${again.peerId}`)
    return this.track(again)
  }

  pause(id: string): void {
    this.peer(id).proc.kill('SIGSTOP')
    this.paused.add(id)
  }

  resume(id: string): void {
    this.peer(id).proc.kill('SIGCONT')
    this.paused.delete(id)
  }

  /**
   * Every partition of `topic` as the live peers report it, keeping for each the answer with
   * the highest leader epoch that names a leader (gossip reaches peers at different times).
   */
  async partitions(topic: string): Promise<PartitionMetadata[]> {
    const answers = await Promise.all(
      this.live().map((id) =>
        this.broker(id)
          .metadata([topic])
          .then((m) => m.topics[0]?.partitions ?? [])
          .catch(() => [] as PartitionMetadata[]),
      ),
    )
    const best = new Map<number, PartitionMetadata>()
    for (const partitions of answers) {
      for (const p of partitions) {
        const seen = best.get(p.partition)
        if (seen === undefined || (p.leader !== '' && (seen.leader === '' || p.leaderEpoch > seen.leaderEpoch))) {
          best.set(p.partition, p)
        }
      }
    }
    return [...best.values()].sort((a, b) => a.partition - b.partition)
  }

  /** Waits until every partition has a leader that every live peer names, with every replica in sync. */
  async waitLeadersInSync(topic: string, partitions: number, timeoutMs = 20_000): Promise<PartitionMetadata[]> {
    return waitFor(
      async () => {
        const views = await Promise.all(
          this.live().map(async (id) => (await this.broker(id).metadata([topic])).topics[0]?.partitions ?? []),
        )
        const first = views[0] ?? []
        if (first.length !== partitions) return undefined
        for (const p of first) {
          if (p.leader === '' || p.inSync.length !== p.replicas.length) return undefined
          for (const view of views) {
            const other = view.find((q) => q.partition === p.partition)
            if (other?.leader !== p.leader || other.leaderEpoch !== p.leaderEpoch) return undefined
          }
        }
        return first
      },
      `every partition of ${topic} to have a leader known everywhere and all replicas in sync`,
      timeoutMs,
    )
  }

  /** A live peer's /metrics text. */
  async metrics(id: string): Promise<string> {
    const res = await fetch(`http://127.0.0.1:${this.peer(id).httpPort}/metrics`, {
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    })
    return res.text()
  }

  /** Each hosted replica of `topic` on a live peer: partition → its log end offset and high watermark. */
  async progress(id: string, topic: string): Promise<Map<number, ReplicaProgress>> {
    const text = await this.metrics(id)
    const found = new Map<number, ReplicaProgress>()
    const line = /^tributary_(log_end_offset|high_watermark)\{([^}]*)\} (\d+)$/gm
    for (const [, metric, labels, value] of text.matchAll(line)) {
      if (!labels!.includes(`topic="${topic}"`)) continue
      const partition = Number(/partition="(\d+)"/.exec(labels!)?.[1])
      const entry = found.get(partition) ?? { logEndOffset: -1, highWatermark: -1 }
      if (metric === 'log_end_offset') entry.logEndOffset = Number(value)
      else entry.highWatermark = Number(value)
      found.set(partition, entry)
    }
    return found
  }

  /**
   * Waits until every replica of every partition of `topic` has committed (high watermark) at
   * least the offset its leader had reached when this was called: the replicas caught up.
   */
  async waitCaughtUp(topic: string, partitions: number, timeoutMs = 20_000): Promise<void> {
    const targets = await waitFor(
      async () => {
        const meta = await this.partitions(topic)
        if (meta.length !== partitions || meta.some((p) => p.leader === '' || !this.isLive(p.leader))) return undefined
        const ends = new Map<number, number>()
        for (const p of meta) {
          const end = (await this.progress(p.leader, topic)).get(p.partition)?.logEndOffset
          if (end === undefined || end < 0) return undefined
          ends.set(p.partition, end)
        }
        return { meta, ends }
      },
      `the leaders of ${topic} to report their log ends`,
      timeoutMs,
    )
    await waitFor(
      async () => {
        for (const p of targets.meta) {
          for (const replica of p.replicas) {
            if (!this.isLive(replica)) return undefined
            const hw = (await this.progress(replica, topic)).get(p.partition)?.highWatermark ?? -1
            if (hw < targets.ends.get(p.partition)!) return undefined
          }
        }
        return true
      },
      `every replica of ${topic} to catch up with its leader`,
      timeoutMs,
    )
  }

  /**
   * Waits until no replica of `topic` moves any more and all of them agree: the same log end
   * offset, equal to the high watermark, on every replica (call it once producing has stopped).
   * Every peer must hold a replica of every partition (replication factor = cluster size).
   */
  async waitSettled(topic: string, partitions: number, timeoutMs = 20_000): Promise<void> {
    await waitFor(
      async () => {
        for (let p = 0; p < partitions; p++) {
          const seen = new Set<string>()
          for (const id of this.ids) {
            if (!this.isLive(id)) return undefined
            const r = (await this.progress(id, topic)).get(p)
            if (r === undefined || r.highWatermark !== r.logEndOffset) return undefined
            seen.add(`${r.logEndOffset}`)
          }
          if (seen.size !== 1) return undefined
        }
        return true
      },
      `every replica of ${topic} to hold and commit the same log end`,
      timeoutMs,
    )
  }

  /** Stops every running peer cleanly (SIGTERM) at once; resolves with their exit codes. */
  async stopAll(): Promise<Array<number | null>> {
    for (const id of [...this.paused]) this.resume(id)
    return Promise.all(this.ids.filter((id) => this.isRunning(id)).map((id) => this.peer(id).stop('SIGTERM')))
  }

  close(): void {
    for (const broker of this.brokers.values()) broker.close()
    this.brokers.clear()
  }
}
