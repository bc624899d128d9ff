/**
 * `npm run bench -- client [--records N] [--seconds N]`: the SDK through the `tributary` CLI
 * against three peer processes on loopback (fs storage, temp dirs), a topic of 6 partitions with
 * replication factor 3 and 100-byte values:
 * 1. `tributary perf produce --acks all --json` (keyless records, the SDK's sticky partitioner
 *    and batching, idempotent): records/s, MB/s and latency percentiles;
 * 2. `tributary perf consume --json` reading those records back from the beginning;
 * 3. in the same run, the raw mesh path for comparison: the mesh benchmark's acks=all phase
 *    (_client-mesh-path.ts) against the same peers, its own topic with the same partitions.
 * Targets: the SDK keeps at least 80% of the raw path's acks=all records/s; consume
 * ≥ 1,000,000 records/s. Writes bench-results/client.json (when every phase ran).
 *
 * Each step prints the CPU cores used by the CLI process, the peers and every other process on
 * the machine (a shared machine's noise), averaged over the whole step (the CLI's start included),
 * and writes them with the figures. `--profile DIR` runs the CLI processes and the peers
 * under `node --cpu-prof` and prints each one's top self-time functions; `--phases produce,consume`
 * leaves out the raw mesh path.
 */
import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises'
import os from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { coresLine, type StepCpu, stepCpu } from './_client-cpu.ts'
import { meshAcksAll } from './_client-mesh-path.ts'
import { topSelfTime } from './_cpu-profile.ts'
import { endProcess, MeshCluster, TS_NODE_ARGS } from './_mesh-cluster.ts'
import { printTable, writeResults } from './report.ts'

const CLI = fileURLToPath(new URL('../../apps/peer/src/main.ts', import.meta.url))
const PARTITIONS = 6
const REPLICATION_FACTOR = 3
const RECORD_SIZE = 100
const TOPIC = 'bench-client'
const PHASES = ['produce', 'consume', 'mesh'] as const
type Phase = (typeof PHASES)[number]
const USAGE =
  'usage: npm run bench -- client [--records N] [--seconds N] [--phases produce,consume,mesh] [--profile DIR]'

interface Args {
  records: number
  /** The raw mesh path's acks=all phase measures seconds/2 after a 1 s warm-up (as in the mesh bench). */
  seconds: number
  phases: Phase[]
  /** Where every CLI and peer process writes its .cpuprofile; unset: no profiling. */
  profile: string | undefined
}

function parseArgs(argv: string[]): Args {
  const args: Args = { records: 2_000_000, seconds: 10, phases: [...PHASES], profile: undefined }
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value = ''] = [argv[i], argv[i + 1]]
    const n = Number(value)
    if (flag === '--records' && Number.isSafeInteger(n) && n > 0) args.records = n
    else if (flag === '--seconds' && n > 0) args.seconds = n
    else if (flag === '--profile' && value !== '') args.profile = resolve(value)
    else if (flag === '--phases' && value.split(',').every((p) => (PHASES as readonly string[]).includes(p)))
      args.phases = value.split(',') as Phase[]
    else throw new Error(`bad argument '${flag} ${value}'; ${USAGE}`)
  }
  if (args.phases.includes('consume') && !args.phases.includes('produce'))
    throw new Error(`consume reads what produce wrote: --phases needs produce with consume; ${USAGE}`)
  return args
}

function progress(msg: string): void {
  process.stderr.write(`[client bench ${(performance.now() / 1000).toFixed(1)}s] ${msg}\n`)
}

interface Step {
  stdout: string
  pid: number
  seconds: number
  cpu: StepCpu
}

/** Runs `tributary <args>`; resolves with its stdout, rejects on a non-zero exit or after timeoutMs. */
async function tributary(
  args: string[],
  timeoutMs: number,
  options: { peerPids: number[]; profile: string | undefined },
): Promise<Step> {
  const profiling = options.profile === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', options.profile]
  const cpu = stepCpu(options.peerPids)
  const started = performance.now()
  const proc = spawn(process.execPath, [...profiling, ...TS_NODE_ARGS, CLI, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let stdout = ''
  proc.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d
  })
  try {
    const stdoutDone = await new Promise<string>((resolveRun, reject) => {
      const timer = setTimeout(() => {
        proc.kill('SIGKILL')
        reject(new Error(`tributary ${args.join(' ')} did not finish within ${timeoutMs / 1000} s`))
      }, timeoutMs)
      proc.once('error', reject)
      proc.once('close', (code, signal) => {
        clearTimeout(timer)
        if (code === 0) resolveRun(stdout)
        else reject(new Error(`tributary ${args.join(' ')} exited with ${code ?? signal}: ${stdout}`))
      })
    })
    return { stdout: stdoutDone, pid: proc.pid!, seconds: (performance.now() - started) / 1000, cpu: cpu() }
  } finally {
    await endProcess(proc, 'SIGKILL', 5000)
  }
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US')
const round = (n: number, d = 1): number => Math.round(n * 10 ** d) / 10 ** d

/** Main-thread profiles only: CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile, thread 0 is main. */
async function printProfiles(dir: string, names: Map<number, string>): Promise<void> {
  for (const file of (await readdir(dir)).sort()) {
    const [, , , pid, thread] = file.split('.')
    const name = names.get(Number(pid))
    if (!file.endsWith('.cpuprofile') || thread !== '0' || name === undefined) continue
    const { totalMs, idlePct, hotspots } = topSelfTime(join(dir, file), 25)
    console.log(
      `\n${name} (${join(dir, file)}): ${fmt(totalMs)} ms sampled, ${idlePct.toFixed(0)}% idle; top self time`,
    )
    for (const h of hotspots)
      console.log(`  ${h.selfPct.toFixed(1).padStart(5)}%  ${fmt(h.selfMs).padStart(7)} ms  ${h.where}`)
  }
}

export default async function clientBench(argv: string[]): Promise<void> {
  const args = parseArgs(argv)
  const root = await mkdtemp(join(os.tmpdir(), 'tributary-client-bench-'))
  if (args.profile !== undefined) await mkdir(args.profile, { recursive: true })
  const profiled = new Map<number, string>()
  /** CPU cores per step and process group, written with the figures (others: the machine's noise). */
  const cores: Record<string, number> = {}
  const noteCores = (step: string, seconds: number, cpu: Record<string, number | undefined>): void => {
    for (const [who, s] of Object.entries(cpu))
      if (s !== undefined) cores[`${step}_${who}_cores`] = round(s / seconds, 2)
  }
  let cluster: MeshCluster | undefined
  try {
    cluster = await MeshCluster.start(root, REPLICATION_FACTOR, args.profile)
    for (const p of cluster.peers) progress(`peer ${p.name} ${p.address} (pid ${p.proc.pid})`)
    const peer = ['--peer', cluster.peers.map((p) => p.address).join(',')]
    const run = { peerPids: cluster.pids, profile: args.profile }
    // Generous budgets: the machine is shared, and a run this size takes tens of seconds.
    const budgetMs = 120_000 + args.records / 10
    await tributary(
      ['topics', 'create', TOPIC, '--partitions', String(PARTITIONS), '--replication-factor', '3', ...peer],
      60_000,
      { ...run, profile: undefined },
    )
    progress(
      `${TOPIC}: ${PARTITIONS} partitions × ${REPLICATION_FACTOR} replicas; perf produce of ${args.records} records`,
    )
    const produceStep = await tributary(
      ['perf', 'produce', '--topic', TOPIC, '--num-records', String(args.records)].concat([
        '--record-size',
        String(RECORD_SIZE),
        '--acks',
        'all',
        '--json',
        ...peer,
      ]),
      budgetMs,
      run,
    )
    profiled.set(produceStep.pid, 'tributary perf produce')
    noteCores('produce', produceStep.seconds, { ...produceStep.cpu })
    const produce = JSON.parse(produceStep.stdout) as Record<string, number>
    progress(
      `perf produce: ${fmt(produce.records_per_s!)} records/s; ${coresLine(produceStep.cpu, produceStep.seconds)}`,
    )
    let consume: Record<string, number> | undefined
    if (args.phases.includes('consume')) {
      const consumeStep = await tributary(
        ['perf', 'consume', '--topic', TOPIC, '--messages', String(args.records), '--json', ...peer],
        budgetMs,
        run,
      )
      profiled.set(consumeStep.pid, 'tributary perf consume')
      noteCores('consume', consumeStep.seconds, { ...consumeStep.cpu })
      consume = JSON.parse(consumeStep.stdout) as Record<string, number>
      progress(
        `perf consume: ${fmt(consume.records_per_s!)} records/s; ${coresLine(consumeStep.cpu, consumeStep.seconds)}`,
      )
    }
    let mesh: Awaited<ReturnType<typeof meshAcksAll>> | undefined
    if (args.phases.includes('mesh')) {
      progress('the raw mesh path (acks=all)')
      mesh = await meshAcksAll(cluster, PARTITIONS, args.seconds)
      const { cpu, seconds } = mesh
      noteCores('acks_all', seconds, { producer: cpu.producer, peers: cpu.peer, others: cpu.others })
      const perS = (n: number | undefined): string => (n === undefined ? '?' : (n / seconds).toFixed(2))
      progress(
        `raw mesh path: ${fmt(mesh.recordsPerS)} records/s; CPU cores: producer ${perS(cpu.producer)}, ` +
          `3 peers ${perS(cpu.peer)}, others ${perS(cpu.others)}`,
      )
    }
    for (const p of cluster.peers) profiled.set(p.proc.pid!, `peer process ${p.name}`)
    await cluster.stop() // writes the peers' profiles
    if (consume !== undefined && mesh !== undefined)
      report(produce, consume, mesh.recordsPerS, mesh.mbPerS, args, cores)
    if (args.profile !== undefined) await printProfiles(args.profile, profiled)
  } finally {
    await cluster?.stop()
    await rm(root, { recursive: true, force: true })
  }
}

function report(
  produce: Record<string, number>,
  consume: Record<string, number>,
  meshRecordsPerS: number,
  meshMbPerS: number,
  args: Args,
  cores: Record<string, number>,
): void {
  const produceRate = produce.records_per_s!
  const ratio = produceRate / meshRecordsPerS
  const consumeRate = consume.records_per_s!
  printTable(
    `client: tributary perf produce/consume, 3 peers, ${PARTITIONS} partitions × RF ${REPLICATION_FACTOR}, ` +
      `${RECORD_SIZE}-byte values, ${args.records.toLocaleString('en-US')} records`,
    [
      {
        metric: 'produce_records_per_s',
        value: round(produceRate),
        unit: 'rec/s',
        reference: `${(ratio * 100).toFixed(0)}% of the raw mesh path (target ≥ 80%)`,
      },
      { metric: 'produce_mb_per_s', value: round(produce.mb_per_s!, 2), unit: 'MiB/s', reference: 'values only' },
      { metric: 'produce_p50_ms', value: produce.latency_p50_ms!, unit: 'ms', reference: 'send call → acks=all' },
      { metric: 'produce_p99_ms', value: produce.latency_p99_ms!, unit: 'ms', reference: 'send call → acks=all' },
      { metric: 'produce_p999_ms', value: produce.latency_p999_ms!, unit: 'ms', reference: '' },
      {
        metric: 'consume_records_per_s',
        value: round(consumeRate),
        unit: 'rec/s',
        reference: `target ≥ 1,000,000 (${consumeRate >= 1_000_000 ? 'met' : 'not met'})`,
      },
      { metric: 'consume_mb_per_s', value: round(consume.mb_per_s!, 2), unit: 'MiB/s', reference: '' },
      {
        metric: 'acks_all_records_per_s',
        value: round(meshRecordsPerS),
        unit: 'rec/s',
        reference: 'raw mesh path, same peers (Broker, 1,000-record batches, 32 in flight)',
      },
      { metric: 'acks_all_mb_per_s', value: round(meshMbPerS, 2), unit: 'MiB/s', reference: 'batch bytes incl. keys' },
    ],
  )
  writeResults('client', {
    produce_records_per_s: round(produceRate),
    produce_mb_per_s: round(produce.mb_per_s!, 2),
    produce_p50_ms: produce.latency_p50_ms!,
    produce_p95_ms: produce.latency_p95_ms!,
    produce_p99_ms: produce.latency_p99_ms!,
    produce_p999_ms: produce.latency_p999_ms!,
    consume_records_per_s: round(consumeRate),
    consume_mb_per_s: round(consume.mb_per_s!, 2),
    acks_all_records_per_s: round(meshRecordsPerS),
    acks_all_mb_per_s: round(meshMbPerS, 2),
    sdk_vs_mesh_ratio: round(ratio, 3),
    sdk_within_20_percent: ratio >= 0.8,
    consume_target_met: consumeRate >= 1_000_000,
    records: args.records,
    partitions: PARTITIONS,
    replication_factor: REPLICATION_FACTOR,
    record_size: RECORD_SIZE,
    ...cores,
  })
}
