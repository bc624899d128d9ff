/**
 * `npm run bench -- mesh [--seconds N] [--partitions N] [--window N] [--latency-batch N]
 *   [--rounds N] [--phases raw,acks-all,latency,acks-1,raw,failover] [--profile DIR]`: three peer
 * processes and one producer process on loopback, a topic with replication factor 3 (every
 * partition a Raft group of all three peers), records of a 16-byte key and a 100-byte value.
 *
 * This process starts the peers (`tributary peer start`, fs storage, temp dirs; _mesh-cluster.ts)
 * and the producer process (_mesh-producer.ts), which sends every produce to its partition's
 * leader and runs, in order:
 * 1. raw stream: one /tributary/perf stream from the producer process to the first peer (512 MiB
 *    in 64 KiB sends after a 64 MiB warm-up) — what two of these processes move with no protocol
 *    on top. (Peer ↔ peer would need a hook in the peer process to start a perf client; the
 *    peer has none, so the pair measured is producer → peer.)
 * 2. acks=all: batches of 1,000 records, `--window` (32) produces in flight over `--partitions`
 *    (3), for `--seconds`/2 s after a 1 s warm-up; MiB/s counts the record-batch bytes
 *    acknowledged — committed by a majority — and is `replicated_mb_per_s`;
 * 3. latency at 10,000 records/s, acks=all: `--latency-batch` (10) records every 1 ms for
 *    `--seconds` s after a 1 s warm-up, on absolute deadlines (open loop), send → acknowledgement
 *    (with every replica in sync: acks=all leaves no backlog behind);
 * 4. acks=1: as 2, acknowledged once the leader appended (followers still replicate all, and
 *    lag behind for seconds afterwards);
 * 5. raw stream again (the better run is the reference);
 * 6. failover, `--rounds` (3) times: acks=all produces to partition 0 back to back, SIGKILL of
 *    its leader's process, time from the signal to the first acks=all produce another peer
 *    acknowledges (_mesh-failover.ts); the killed peer is restarted on its data dir and the
 *    cluster left to settle before the next round. `failover_ms` is the median.
 * CPU columns: seconds of CPU per second of the phase used by the producer process, the three
 * peers together, and every other process on the machine (noise: this machine is shared). CPU per
 * MiB compares what the processes spend per byte on the raw stream and on replicated produce; CPU
 * per produce, what one acks=all produce of the latency phase costs. `--profile DIR` runs every
 * process under `--cpu-prof` and prints the top self-time functions (a peer killed in a failover
 * round leaves no profile). bench-results/mesh.json is written when every phase ran.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises'
import os from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { topSelfTime } from './_cpu-profile.ts'
import { endProcess, MeshCluster, TS_NODE_ARGS } from './_mesh-cluster.ts'
import {
  DEFAULT_PHASES,
  type MeshProducerOutput,
  PHASES,
  type Phase,
  REPLICATION_FACTOR,
  type ToOrchestrator,
  type ToProducer,
} from './_mesh-ipc.ts'
import { report } from './_mesh-report.ts'

const PRODUCER = fileURLToPath(new URL('./_mesh-producer.ts', import.meta.url))
/** Flags handed to the producer process as they are. */
const PRODUCER_FLAGS = ['--seconds', '--partitions', '--window', '--latency-batch', '--rounds']
const USAGE =
  `usage: npm run bench -- mesh [${PRODUCER_FLAGS.map((f) => `${f} N`).join('] [')}] ` +
  `[--phases ${DEFAULT_PHASES.join(',')}] [--profile DIR]`

interface Args {
  seconds: number
  rounds: number
  phases: Phase[]
  producerFlags: string[]
  /** Where every process writes its .cpuprofile; unset: no profiling. */
  profile: string | undefined
}

function parseArgs(argv: string[]): Args {
  const args: Args = { seconds: 10, rounds: 3, phases: [...DEFAULT_PHASES], producerFlags: [], profile: undefined }
  for (let i = 0; i < argv.length; i += 2) {
    const [flag = '', value] = [argv[i], argv[i + 1]]
    if (flag === '--profile' && value !== undefined) args.profile = resolve(value)
    else if (flag === '--phases' && value !== undefined) args.phases = value.split(',') as Phase[]
    else if (PRODUCER_FLAGS.includes(flag) && Number(value) > 0) args.producerFlags.push(flag, value!)
    else throw new Error(`bad argument '${flag} ${value ?? ''}'; ${USAGE}`)
    if (flag === '--seconds') args.seconds = Number(value)
    if (flag === '--rounds') args.rounds = Number(value)
  }
  for (const phase of args.phases) if (!PHASES.includes(phase)) throw new Error(`unknown phase '${phase}'; ${USAGE}`)
  return args
}

function progress(msg: string): void {
  process.stderr.write(`[mesh bench ${(performance.now() / 1000).toFixed(1)}s] ${msg}\n`)
}

/** Answers the producer's questions: kill a peer, restart it and wait until the cluster settled. */
async function answer(cluster: MeshCluster, message: ToOrchestrator): Promise<ToProducer> {
  try {
    if (message.type === 'kill') {
      const atMs = await cluster.kill(message.peerId)
      progress(`SIGKILLed ${cluster.peer(message.peerId).name} (…${message.peerId.slice(-8)})`)
      return { type: 'killed', peerId: message.peerId, atMs }
    }
    if (message.type === 'restart') {
      const peer = await cluster.restart(message.peerId)
      progress(`restarted ${peer.name} (pid ${peer.proc.pid}); waiting until every replica holds the same log`)
      await cluster.waitSettled(message.topic, message.partitions)
      return { type: 'restarted', peerId: peer.peerId, address: peer.address, pid: peer.proc.pid! }
    }
    return { type: 'failed', message: `unexpected message ${message.type}` }
  } catch (err) {
    return { type: 'failed', message: err instanceof Error ? err.message : String(err) }
  }
}

/** Runs the producer process to completion (bounded in time) and returns the result it sent. */
function runProducer(
  cluster: MeshCluster,
  args: Args,
  started: (proc: ChildProcess) => void,
): Promise<MeshProducerOutput> {
  const profiling = args.profile === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', args.profile]
  const producerArgs = [
    ...['--peers', cluster.peers.map((p) => p.address).join(',')],
    ...['--peer-pids', cluster.pids.join(','), '--phases', args.phases.join(',')],
    ...args.producerFlags,
  ]
  const proc = spawn(process.execPath, [...profiling, ...TS_NODE_ARGS, PRODUCER, ...producerArgs], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  started(proc)
  // About 3 × seconds of phases, raw streams, and per failover round a restart and catch-up.
  const budgetMs = 240_000 + args.seconds * 30_000 + args.rounds * 120_000
  let result: MeshProducerOutput | undefined
  proc.on('message', (message: ToOrchestrator) => {
    if (message.type === 'result') {
      result = message.output
      return
    }
    void answer(cluster, message).then((reply) => {
      if (proc.connected) proc.send(reply)
    })
  })
  return new Promise<MeshProducerOutput>((resolveRun, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL')
      reject(new Error(`producer did not finish within ${budgetMs / 1000} s`))
    }, budgetMs)
    proc.once('error', reject)
    proc.once('exit', (code, signal) => {
      clearTimeout(timer)
      if (code !== 0) return reject(new Error(`producer exited with ${code ?? signal}`))
      if (result === undefined) return reject(new Error('producer exited without sending its result'))
      resolveRun(result)
    })
  })
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US')

/** Main-thread profiles only: CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile, thread 0 is main. */
async function printProfiles(dir: string, names: Map<number, string>): Promise<void> {
  for (const file of (await readdir(dir)).sort()) {
    const [, , , pid, thread] = file.split('.')
    const name = names.get(Number(pid))
    if (!file.endsWith('.cpuprofile') || thread !== '0' || name === undefined) continue
    const { totalMs, idlePct, hotspots } = topSelfTime(join(dir, file))
    console.log(
      `\n${name} (${join(dir, file)}): ${fmt(totalMs)} ms sampled, ${idlePct.toFixed(0)}% idle; top self time`,
    )
    for (const h of hotspots)
      console.log(`  ${h.selfPct.toFixed(1).padStart(5)}%  ${fmt(h.selfMs).padStart(7)} ms  ${h.where}`)
  }
}

export default async function meshBench(argv: string[]): Promise<void> {
  const args = parseArgs(argv)
  const root = await mkdtemp(join(os.tmpdir(), 'tributary-mesh-bench-'))
  if (args.profile !== undefined) await mkdir(args.profile, { recursive: true })
  let cluster: MeshCluster | undefined
  let producer: ChildProcess | undefined
  const profiled = new Map<number, string>()
  try {
    cluster = await MeshCluster.start(root, REPLICATION_FACTOR, args.profile)
    for (const p of cluster.peers) progress(`peer ${p.name} ${p.address} (pid ${p.proc.pid})`)
    progress(`data in ${root}`)
    const output = await runProducer(cluster, args, (proc) => {
      producer = proc
      profiled.set(proc.pid!, 'producer process')
    })
    for (const p of cluster.peers) profiled.set(p.proc.pid!, `peer process ${p.name}`)
    await cluster.stop() // writes the peers' profiles
    const names = new Map(cluster.peers.map((p) => [p.peerId, p.name]))
    report(
      output,
      PHASES.every((p) => args.phases.includes(p)),
      names,
    )
    if (args.profile !== undefined) await printProfiles(args.profile, profiled)
  } finally {
    if (producer !== undefined) await endProcess(producer, 'SIGKILL', 5000)
    await cluster?.stop()
    await rm(root, { recursive: true, force: true })
  }
}
