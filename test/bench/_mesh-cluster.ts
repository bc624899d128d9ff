/**
 * The peer processes of `npm run bench -- mesh`: `tributary peer start` on loopback (fs
 * storage, free ports, warn-level logs), a seed and the rest bootstrapping to it; SIGKILL one
 * and restart it on its data dir; wait until every replica of a topic holds and commits the
 * same log; stop them all (SIGTERM, so a profiled peer writes its .cpuprofile).
 *
 * Peers are spawned here rather than through test/helpers/peer-process.ts because profiling
 * needs `--cpu-prof` on node's own command line (node refuses it in NODE_OPTIONS).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { waitFor } from '../helpers/peer-process.ts'

const PEER_MAIN = fileURLToPath(new URL('../../apps/peer/src/main.ts', import.meta.url))
export const TS_NODE_ARGS = ['--conditions=source', '--import', 'tsx']
const START_TIMEOUT_MS = 30_000
const STOP_GRACE_MS = 30_000
/** Kept of each process's output, for the error when it fails. */
const OUTPUT_TAIL_CHARS = 20_000

export interface MeshPeer {
  /** p1, p2, … (the data dir's name). */
  name: string
  dataDir: string
  peerId: string
  /** TCP multiaddr with /p2p/. */
  address: string
  httpPort: number
  proc: ChildProcess
  output(): string
}

/** Signals `proc` and waits for it to exit; SIGKILL after `graceMs`. */
export async function endProcess(proc: ChildProcess, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return
  const exited = new Promise<void>((resolveExit) => proc.once('exit', () => resolveExit()))
  proc.kill(signal)
  const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs)
  await exited
  clearTimeout(timer)
}

async function startPeer(
  name: string,
  dataDir: string,
  options: { bootstrap: string[]; profileDir: string | undefined; spawned: (proc: ChildProcess) => void },
): Promise<MeshPeer> {
  await rm(join(dataDir, 'peer.json'), { force: true })
  const cli = ['peer', 'start', '--data', dataDir, '--host', '127.0.0.1', '--log-level', 'warn']
  cli.push('--port', '0', '--ws-port', '0', '--http-port', '0')
  for (const b of options.bootstrap) cli.push('--bootstrap', b)
  const profiling = options.profileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', options.profileDir]
  const proc = spawn(process.execPath, [...profiling, ...TS_NODE_ARGS, PEER_MAIN, ...cli], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  options.spawned(proc)
  let output = ''
  const keep = (d: Buffer): void => {
    output = (output + d.toString()).slice(-OUTPUT_TAIL_CHARS)
  }
  proc.stdout?.on('data', keep)
  proc.stderr?.on('data', keep)
  try {
    const info = await waitFor(
      async () => {
        if (proc.exitCode !== null || proc.signalCode !== null) {
          throw new Error(`peer ${name} exited with ${proc.exitCode ?? proc.signalCode}: ${output.slice(-2000)}`)
        }
        const file = JSON.parse(await readFile(join(dataDir, 'peer.json'), 'utf8')) as {
          peerId: string
          addresses: string[]
          httpPort: number
          pid: number
        }
        return file.pid === proc.pid ? file : undefined
      },
      `peer ${name} to start`,
      START_TIMEOUT_MS,
    )
    const address = info.addresses.find((a) => !a.includes('/ws'))
    if (address === undefined) throw new Error(`peer ${name} has no TCP address: ${info.addresses.join(', ')}`)
    return { name, dataDir, peerId: info.peerId, address, httpPort: info.httpPort, proc, output: () => output }
  } catch (err) {
    await endProcess(proc, 'SIGKILL', 5000)
    throw err
  }
}

const isRunning = (peer: MeshPeer): boolean => peer.proc.exitCode === null && peer.proc.signalCode === null

/** Each hosted partition of `topic` on a peer: its log end offset and high watermark (from /metrics). */
async function replicaProgress(
  peer: MeshPeer,
  topic: string,
): Promise<Map<number, { logEndOffset: number; highWatermark: number }>> {
  const res = await fetch(`http://127.0.0.1:${peer.httpPort}/metrics`, { signal: AbortSignal.timeout(5000) })
  const found = new Map<number, { logEndOffset: number; highWatermark: number }>()
  const line = /^tributary_(log_end_offset|high_watermark)\{([^}]*)\} (\d+)$/gm
  for (const [, metric, labels, value] of (await res.text()).matchAll(line)) {
    if (!labels!.includes(`topic="${topic}"`)) continue
    const partition = Number(/partition="(\d+)"/.exec(labels!)?.[1])
    const entry = found.get(partition) ?? { logEndOffset: -1, highWatermark: -1 }
    if (metric === 'log_end_offset') entry.logEndOffset = Number(value)
    else entry.highWatermark = Number(value)
    found.set(partition, entry)
  }
  return found
}

export class MeshCluster {
  /** Every peer process ever spawned, starting ones included: stop() ends whatever still runs. */
  private readonly spawned = new Set<ChildProcess>()

  private constructor(
    /** The current process of each peer, in start order. */
    readonly peers: MeshPeer[],
    private readonly profileDir: string | undefined,
  ) {}

  private spawnPeer(name: string, dataDir: string, bootstrap: string[]): Promise<MeshPeer> {
    const spawned = (proc: ChildProcess): void => {
      this.spawned.add(proc)
    }
    return startPeer(name, dataDir, { bootstrap, profileDir: this.profileDir, spawned })
  }

  /** `size` peers in `<root>/p1…`, the first the seed the others bootstrap to; waits until all see each other. */
  static async start(root: string, size: number, profileDir?: string): Promise<MeshCluster> {
    const peers: MeshPeer[] = []
    const cluster = new MeshCluster(peers, profileDir)
    try {
      peers.push(await cluster.spawnPeer('p1', join(root, 'p1'), []))
      const rest = await Promise.all(
        Array.from({ length: size - 1 }, (_, i) =>
          cluster.spawnPeer(`p${i + 2}`, join(root, `p${i + 2}`), [peers[0]!.address]),
        ),
      )
      peers.push(...rest)
      await cluster.waitMesh()
      return cluster
    } catch (err) {
      await cluster.stop()
      throw err
    }
  }

  /** Waits until every running peer counts every running peer (itself included) alive. */
  async waitMesh(timeoutMs = 30_000): Promise<void> {
    const live = this.peers.filter(isRunning)
    await waitFor(
      async () => {
        for (const peer of live) {
          const res = await fetch(`http://127.0.0.1:${peer.httpPort}/health`, { signal: AbortSignal.timeout(5000) })
          if (((await res.json()) as { peers: number }).peers < live.length) return undefined
        }
        return true
      },
      `${live.length} peers to see each other`,
      timeoutMs,
    )
  }

  peer(peerId: string): MeshPeer {
    const peer = this.peers.find((p) => p.peerId === peerId)
    if (peer === undefined) throw new Error(`no peer ${peerId}`)
    return peer
  }

  get pids(): number[] {
    return this.peers.map((p) => p.proc.pid!)
  }

  /** SIGKILLs the peer; resolves once it exited, with the wall-clock time (ms) of the signal. */
  async kill(peerId: string): Promise<number> {
    const peer = this.peer(peerId)
    if (!isRunning(peer)) throw new Error(`peer ${peer.name} is not running`)
    const { proc } = peer
    const exited = new Promise<void>((resolveExit) => proc.once('exit', () => resolveExit()))
    const at = performance.timeOrigin + performance.now()
    proc.kill('SIGKILL')
    await exited
    return at
  }

  /** Starts a killed peer again on its data dir, bootstrapping to the running ones. */
  async restart(peerId: string): Promise<MeshPeer> {
    const before = this.peer(peerId)
    if (isRunning(before)) throw new Error(`peer ${before.name} is still running`)
    const bootstrap = this.peers.filter(isRunning).map((p) => p.address)
    const again = await this.spawnPeer(before.name, before.dataDir, bootstrap)
    this.peers[this.peers.indexOf(before)] = again
    if (again.peerId !== peerId) throw new Error(`${before.dataDir} came back as ${again.peerId}, not ${peerId}`)
    await this.waitMesh()
    return again
  }

  /**
   * Waits until every replica of every partition of `topic` has the same log end offset, equal
   * to its high watermark, on every peer (call it while nothing is produced).
   */
  async waitSettled(topic: string, partitions: number, timeoutMs = 60_000): Promise<void> {
    await waitFor(
      async () => {
        const views = await Promise.all(this.peers.map((p) => replicaProgress(p, topic)))
        for (let partition = 0; partition < partitions; partition++) {
          const ends = new Set<number>()
          for (const view of views) {
            const r = view.get(partition)
            if (r === undefined || r.highWatermark !== r.logEndOffset) return undefined
            ends.add(r.logEndOffset)
          }
          if (ends.size !== 1) return undefined
        }
        return true
      },
      `every replica of ${topic} to hold and commit the same log`,
      timeoutMs,
    )
  }

  /** Stops every peer process still running (SIGTERM; SIGKILL after a grace period). Safe to call twice. */
  async stop(): Promise<void> {
    await Promise.all([...this.spawned].map((proc) => endProcess(proc, 'SIGTERM', STOP_GRACE_MS)))
  }
}
