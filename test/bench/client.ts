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
 * ≥ 1,000,000 records/s. Writes bench-results/client.json.
 */
import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { meshAcksAll } from './_client-mesh-path.ts'
import { endProcess, MeshCluster, TS_NODE_ARGS } from './_mesh-cluster.ts'
import { printTable, writeResults } from './report.ts'

const CLI = fileURLToPath(new URL('../../apps/peer/src/main.ts', import.meta.url))
const PARTITIONS = 6
const REPLICATION_FACTOR = 3
const RECORD_SIZE = 100
const TOPIC = 'bench-client'
const USAGE = 'usage: npm run bench -- client [--records N] [--seconds N]'

interface Args {
  records: number
  /** The raw mesh path's acks=all phase measures seconds/2 after a 1 s warm-up (as in the mesh bench). */
  seconds: number
}

function parseArgs(argv: string[]): Args {
  const args: Args = { records: 2_000_000, seconds: 10 }
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value = ''] = [argv[i], argv[i + 1]]
    const n = Number(value)
    if (flag === '--records' && Number.isSafeInteger(n) && n > 0) args.records = n
    else if (flag === '--seconds' && n > 0) args.seconds = n
    else throw new Error(`bad argument '${flag} ${value}'; ${USAGE}`)
  }
  return args
}

function progress(msg: string): void {
  process.stderr.write(`[client bench ${(performance.now() / 1000).toFixed(1)}s] ${msg}\n`)
}

/** Runs `tributary <args>`; resolves with its stdout, rejects on a non-zero exit or after timeoutMs. */
async function tributary(args: string[], timeoutMs: number): Promise<string> {
  const proc = spawn(process.execPath, [...TS_NODE_ARGS, CLI, ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
  let stdout = ''
  proc.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d
  })
  try {
    return await new Promise<string>((resolveRun, reject) => {
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
  } finally {
    await endProcess(proc, 'SIGKILL', 5000)
  }
}

export default async function clientBench(argv: string[]): Promise<void> {
  const args = parseArgs(argv)
  const root = await mkdtemp(join(os.tmpdir(), 'tributary-client-bench-'))
  let cluster: MeshCluster | undefined
  try {
    cluster = await MeshCluster.start(root, REPLICATION_FACTOR)
    for (const p of cluster.peers) progress(`peer ${p.name} ${p.address} (pid ${p.proc.pid})`)
    const peer = ['--peer', cluster.peers.map((p) => p.address).join(',')]
    // Generous budgets: the machine is shared, and a run this size takes tens of seconds.
    const budgetMs = 120_000 + args.records / 10
    await tributary(
      ['topics', 'create', TOPIC, '--partitions', String(PARTITIONS), '--replication-factor', '3', ...peer],
      60_000,
    )
    progress(
      `${TOPIC}: ${PARTITIONS} partitions × ${REPLICATION_FACTOR} replicas; perf produce of ${args.records} records`,
    )
    const produce = JSON.parse(
      await tributary(
        ['perf', 'produce', '--topic', TOPIC, '--num-records', String(args.records)].concat([
          '--record-size',
          String(RECORD_SIZE),
          '--acks',
          'all',
          '--json',
          ...peer,
        ]),
        budgetMs,
      ),
    ) as Record<string, number>
    progress(`perf produce: ${Math.round(produce.records_per_s!)} records/s; perf consume`)
    const consume = JSON.parse(
      await tributary(
        ['perf', 'consume', '--topic', TOPIC, '--messages', String(args.records), '--json', ...peer],
        budgetMs,
      ),
    ) as Record<string, number>
    progress(`perf consume: ${Math.round(consume.records_per_s!)} records/s; the raw mesh path (acks=all)`)
    const mesh = await meshAcksAll(cluster, PARTITIONS, args.seconds)
    report(produce, consume, mesh.recordsPerS, mesh.mbPerS, args)
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
): void {
  const produceRate = produce.records_per_s!
  const ratio = produceRate / meshRecordsPerS
  const consumeRate = consume.records_per_s!
  const round = (n: number, d = 1): number => Math.round(n * 10 ** d) / 10 ** d
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
  })
}
