/**
 * `npm run bench -- peer [--seconds N] [--partitions N] [--window N] [--fetch-max-bytes N]
 *   [--latency-batch N] [--memory-limit MIB] [--profile DIR]`: one peer process and one producer
 * process on loopback, replication factor 1, records of a 16-byte key and a 100-byte value.
 *
 * With `--memory-limit MIB`, this process first moves into a memory cgroup of that limit when
 * the machine lets it (_memory-cgroup.ts), so the log's page cache recycles as on a host whose
 * memory is in use instead of growing into free memory (below). It starts the peer (`tributary
 * peer start`, fs storage, in a temp dir), then the producer process (_peer-producer.ts), which
 * runs over its one connection to the peer:
 * 1. raw stream: /tributary/perf uploads 512 MiB in 64 KiB sends (after a 64 MiB warm-up) — what
 *    these two processes move with no protocol on top;
 * 2. produce, acks=1: pre-encoded batches of 1,000 records, `--window` (32) requests in flight, for
 *    `--seconds`/2 s after a 3 s warm-up (V8 is still compiling after 1 s); MiB/s counts the
 *    record-batch bytes acknowledged;
 * 3. fetch: everything produced (warm-up included) read back from offset 0, `--fetch-max-bytes`
 *    (4 MiB) per fetch, the next fetch in flight while a response is decoded, every record decoded;
 * 4. raw round trips: /tributary/perf-echo over the same connection, one message the size of a
 *    latency batch every 1 ms for `--seconds` s after a 1 s warm-up — the latency reference, what
 *    libp2p and this machine cost a request and its answer with no Tributary code on either side;
 * 5. latency at 10,000 records/s: `--latency-batch` (10) records every 1 ms for `--seconds` s after
 *    a 1 s warm-up, sent on absolute deadlines (open loop), each produce timed from its send to
 *    its acknowledgement;
 * 6. raw stream again; the better of the two runs is the reference for "% of raw".
 * Then, with the processes stopped and out of the cgroup, this process writes 512 MiB into a new
 * file's page cache (the storage side of an acks=1 produce), then again right after deleting it,
 * into the pages that freed: on a VM whose host takes back free memory, new pages cost many times
 * recycled ones (see measurePageCacheWrite). The produce row also reports the peer's CPU per MiB
 * and how much of the phase its main thread ran and waited for a core (/proc schedstat), to tell
 * a slow peer from a busy machine.
 * "produce ceiling" is what this machine's cores allow an acks=1 produce with no cost beyond the raw
 * stream's CPU per MiB and the page-cache write's (see produceCeiling).
 * `--seconds` (default 10) scales phases 2 and 4 and the raw upload. `--profile DIR` runs both
 * processes under `--cpu-prof` and prints their top self-time functions. MiB = 2^20 bytes.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startPeerProcess, stopAll, waitFor } from '../helpers/peer-process.ts'
import { topSelfTime } from './_cpu-profile.ts'
import { enterMemoryCgroup, type MemoryCgroup } from './_memory-cgroup.ts'
import type { CpuSeconds, RawResult } from './_peer-phases.ts'
import type { ProducerOutput } from './_peer-producer.ts'
import { measurePageCacheWrite, type PageCacheWrites, type RawWriteResult } from './_raw-write.ts'
import { printTable, type Row, writeResults } from './report.ts'

const PRODUCER = fileURLToPath(new URL('./_peer-producer.ts', import.meta.url))
const PEER_MAIN = fileURLToPath(new URL('../../apps/peer/src/main.ts', import.meta.url))
const TS_NODE_ARGS = ['--conditions=source', '--import', 'tsx']
/** Flags handed to the producer process as they are. */
const PRODUCER_FLAGS = ['--seconds', '--partitions', '--window', '--fetch-max-bytes', '--latency-batch']
const USAGE = `usage: npm run bench -- peer [${PRODUCER_FLAGS.map((f) => `${f} N`).join('] [')}] [--memory-limit MIB] [--profile DIR]`
/**
 * No memory limit unless asked for: under 1,536 MiB the fetch phase read what the limit had
 * evicted from disk (954k records/s in one of six runs, against ≥ 1.23M otherwise).
 */
const MEMORY_LIMIT_MIB = 0

const TARGETS = {
  produceRecordsPerS: 500_000,
  producePctOfRaw: 50,
  fetchRecordsPerS: 1_000_000,
  latencyP99Ms: 5,
}

interface Args {
  seconds: number
  producerFlags: string[]
  /** Where both processes write their .cpuprofile; unset: no profiling. */
  profile: string | undefined
  /** The memory cgroup limit for this process, the peer and the producer; 0: none. */
  memoryLimitMiB: number
}

function parseArgs(argv: string[]): Args {
  const args: Args = { seconds: 10, producerFlags: [], profile: undefined, memoryLimitMiB: MEMORY_LIMIT_MIB }
  for (let i = 0; i < argv.length; i += 2) {
    const [flag = '', value] = [argv[i], argv[i + 1]]
    if (flag === '--profile' && value !== undefined) args.profile = resolve(value)
    else if (flag === '--memory-limit' && Number.isInteger(Number(value)) && Number(value) >= 0)
      args.memoryLimitMiB = Number(value)
    else if (PRODUCER_FLAGS.includes(flag) && Number(value) > 0) args.producerFlags.push(flag, value!)
    else throw new Error(`bad argument '${flag} ${value ?? ''}'; ${USAGE}`)
    if (flag === '--seconds') args.seconds = Number(value)
  }
  return args
}

function progress(msg: string): void {
  process.stderr.write(`[peer bench ${(performance.now() / 1000).toFixed(1)}s] ${msg}\n`)
}

interface RunningPeer {
  address: string
  pid: number
  stop(): Promise<void>
}

/** The peer through the shared test helper, or (profiling) spawned here under `--cpu-prof`. */
async function startPeer(dataDir: string, profileDir: string | undefined): Promise<RunningPeer> {
  if (profileDir === undefined) {
    // startPeerProcess passes --log-level debug; the later flag wins and keeps the peer quiet.
    const peer = await startPeerProcess(dataDir, { args: ['--log-level', 'warn'] })
    return { address: peer.address, pid: peer.proc.pid!, stop: async () => void (await peer.stop('SIGTERM')) }
  }
  // startPeerProcess puts its args after the script, and node refuses --cpu-prof in NODE_OPTIONS.
  const cli = ['peer', 'start', '--data', dataDir, '--host', '127.0.0.1', '--log-level', 'warn']
  cli.push('--port', '0', '--ws-port', '0', '--http-port', '0')
  const nodeArgs = ['--cpu-prof', '--cpu-prof-dir', profileDir, ...TS_NODE_ARGS, PEER_MAIN, ...cli]
  const proc = spawn(process.execPath, nodeArgs, { stdio: ['ignore', 'ignore', 'inherit'] })
  const stop = (): Promise<void> => endProcess(proc, 'SIGTERM', 30_000)
  try {
    const info = await waitFor(
      async () => {
        if (proc.exitCode !== null) throw new Error(`peer exited with ${proc.exitCode}`)
        const file = JSON.parse(await readFile(join(dataDir, 'peer.json'), 'utf8')) as {
          addresses: string[]
          pid: number
        }
        return file.pid === proc.pid ? file : undefined
      },
      'the profiled peer to start',
      30_000,
    )
    return { address: info.addresses.find((a) => !a.includes('/ws'))!, pid: proc.pid!, stop }
  } catch (err) {
    await stop()
    throw err
  }
}

/** Signals `proc` and waits for it to exit; SIGKILL after `graceMs`. */
async function endProcess(proc: ChildProcess, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return
  const exited = new Promise<void>((resolveExit) => proc.once('exit', () => resolveExit()))
  proc.kill(signal)
  const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs)
  await exited
  clearTimeout(timer)
}

/** Runs the producer process to completion (bounded in time) and parses its one JSON line. */
function runProducer(peer: RunningPeer, args: Args, started: (proc: ChildProcess) => void): Promise<ProducerOutput> {
  const profiling = args.profile === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', args.profile]
  const producerArgs = [peer.address, 'all', ...args.producerFlags, '--peer-pid', `${peer.pid}`]
  const proc = spawn(process.execPath, [...profiling, ...TS_NODE_ARGS, PRODUCER, ...producerArgs], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  started(proc)
  // The phases take about 2.5 × seconds plus the fetch; far beyond that is a hang.
  const budgetMs = 180_000 + args.seconds * 20_000
  let stdout = ''
  proc.stdout?.on('data', (d: Buffer) => {
    stdout += d.toString()
  })
  return new Promise<ProducerOutput>((resolveRun, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL')
      reject(new Error(`producer did not finish within ${budgetMs / 1000} s`))
    }, budgetMs)
    proc.once('error', reject)
    proc.once('exit', (code, signal) => {
      clearTimeout(timer)
      if (code !== 0) return reject(new Error(`producer exited with ${code ?? signal}`))
      try {
        resolveRun(JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as ProducerOutput)
      } catch {
        reject(new Error(`producer printed no result line: ${stdout.slice(-500)}`))
      }
    })
  })
}

const MIB = 2 ** 20
const round2 = (n: number): number => Math.round(n * 100) / 100
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US')
const mark = (ok: boolean): string => (ok ? 'met' : 'MISSED')
const cpuPerMiB = (write: RawWriteResult): string =>
  write.cpuSeconds === undefined
    ? ''
    : `; ${((1000 * write.cpuSeconds) / (write.bytes / MIB)).toFixed(2)} ms CPU per MiB`

/**
 * The most an acks=1 produce could move on this machine, whatever the code: each byte crosses the
 * stream (at least what the raw stream cost both processes per MiB) and is written into the page
 * cache of a new file (what the page-cache write cost per MiB), and both processes share this
 * machine's cores. Undefined when a CPU figure is missing (no /proc).
 */
function produceCeiling(
  raw: RawResult,
  write: RawWriteResult,
): { mbPerS: number; cores: number; rawMsPerMiB: number; writeMsPerMiB: number } | undefined {
  if (raw.cpu.peer === undefined || write.cpuSeconds === undefined) return undefined
  const rawMsPerMiB = (1000 * (raw.cpu.producer + raw.cpu.peer)) / (raw.bytes / MIB)
  const writeMsPerMiB = (1000 * write.cpuSeconds) / (write.bytes / MIB)
  const cores = os.availableParallelism()
  return { mbPerS: (1000 * cores) / (rawMsPerMiB + writeMsPerMiB), cores, rawMsPerMiB, writeMsPerMiB }
}

/** Prints the table and writes bench-results/peer.json. */
function report(output: ProducerOutput, writes: PageCacheWrites, cgroup: MemoryCgroup): void {
  const { produce, fetch, roundTrip, latency, config } = output
  if (
    produce === undefined ||
    fetch === undefined ||
    roundTrip === undefined ||
    latency === undefined ||
    output.raw.length === 0
  ) {
    throw new Error('the producer skipped a phase')
  }
  const best = output.raw.reduce((a, r) => (r.mbPerSec > a.mbPerSec ? r : a))
  const raw = best.mbPerSec
  const producePct = (100 * produce.mbPerS) / raw
  const ceiling = produceCeiling(best, writes.fresh)
  const recycledCeiling = produceCeiling(best, writes.recycled)
  const met = {
    produce: produce.recordsPerS >= TARGETS.produceRecordsPerS,
    producePct: producePct >= TARGETS.producePctOfRaw,
    fetch: fetch.recordsPerS >= TARGETS.fetchRecordsPerS,
    latency: latency.p99 <= TARGETS.latencyP99Ms,
  }
  const perS = (cpuS: number | undefined, seconds: number): string =>
    cpuS === undefined ? '?' : `${round2(cpuS / seconds)}`
  const cores = (cpu: CpuSeconds, seconds: number): string =>
    `CPU cores: producer ${perS(cpu.producer, seconds)}, peer ${perS(cpu.peer, seconds)}, others ${perS(cpu.others, seconds)}`
  const mainThread = (cpu: CpuSeconds, seconds: number): string => {
    const main = cpu.peerMainThread
    if (main === undefined) return 'not measured (no /proc schedstat)'
    const pct = (s: number): string => `${((100 * s) / seconds).toFixed(0)}%`
    return `ran ${pct(main.running)}, waited for a core ${pct(main.waiting)} of the phase`
  }
  const rawRuns = output.raw.map((r) => r.mbPerSec.toFixed(0)).join(' / ')
  const rows: Row[] = [
    {
      metric: 'raw stream',
      value: round2(raw),
      unit: 'MiB/s',
      reference: `1 perf stream, best of ${rawRuns} (before / after)`,
    },
    {
      metric: 'produce, acks=1',
      value: Math.round(produce.recordsPerS),
      unit: 'records/s',
      reference: `target ≥ 500,000: ${mark(met.produce)}; ${cores(produce.cpu, produce.seconds)}`,
    },
    {
      metric: 'produce, acks=1',
      value: round2(produce.mbPerS),
      unit: 'MiB/s',
      reference: `${producePct.toFixed(0)}% of raw stream, target ≥ 50%: ${mark(met.producePct)}`,
    },
    {
      metric: 'page-cache write',
      value: round2(writes.fresh.mibPerSecond),
      unit: 'MiB/s',
      reference:
        `this machine, after the run: ${fmt(writes.fresh.bytes / MIB)} MiB into a new file in 128 KiB writes, ` +
        `no fsync${cpuPerMiB(writes.fresh)}`,
    },
    {
      metric: 'page-cache rewrite',
      value: round2(writes.recycled.mibPerSecond),
      unit: 'MiB/s',
      reference: `the same again right after deleting that file, into the pages it freed${cpuPerMiB(writes.recycled)}`,
    },
    ...(ceiling === undefined
      ? []
      : [
          {
            metric: 'produce ceiling',
            value: round2(ceiling.mbPerS),
            unit: 'MiB/s',
            reference:
              `${((100 * ceiling.mbPerS) / raw).toFixed(0)}% of raw: ${ceiling.cores} cores ÷ (raw stream ` +
              `${ceiling.rawMsPerMiB.toFixed(2)} + page-cache write ${ceiling.writeMsPerMiB.toFixed(2)} ms CPU per MiB); ` +
              `produce reached ${((100 * produce.mbPerS) / ceiling.mbPerS).toFixed(0)}% of it` +
              (recycledCeiling === undefined
                ? ''
                : `; with recycled pages ${fmt(recycledCeiling.mbPerS)} MiB/s, ${((100 * recycledCeiling.mbPerS) / raw).toFixed(0)}% of raw`),
          },
        ]),
    ...(produce.cpu.peer === undefined
      ? []
      : [
          {
            metric: 'produce, peer CPU',
            value: round2((1000 * produce.cpu.peer) / (produce.mbPerS * produce.seconds)),
            unit: 'ms/MiB',
            reference: `peer main thread ${mainThread(produce.cpu, produce.seconds)}`,
          },
        ]),
    {
      metric: 'fetch',
      value: Math.round(fetch.recordsPerS),
      unit: 'records/s',
      reference: `target ≥ 1,000,000: ${mark(met.fetch)}; ${cores(fetch.cpu, fetch.seconds)}`,
    },
    {
      metric: 'fetch',
      value: round2(fetch.mbPerS),
      unit: 'MiB/s',
      reference: `${((100 * fetch.mbPerS) / raw).toFixed(0)}% of raw stream; ${fmt(fetch.records)} records, ${fetch.requests} fetches`,
    },
    {
      metric: 'raw round trip p50',
      value: round2(roundTrip.p50),
      unit: 'ms',
      reference: `1 perf-echo stream, ${roundTrip.messageBytes} B every ${roundTrip.intervalMs} ms: libp2p and this machine, no Tributary code`,
    },
    {
      metric: 'raw round trip p99',
      value: round2(roundTrip.p99),
      unit: 'ms',
      reference: `p99.9 ${round2(roundTrip.p999)}, max ${round2(roundTrip.max)}; the floor under produce latency, measured just before it`,
    },
    {
      metric: 'latency p50',
      value: round2(latency.p50),
      unit: 'ms',
      reference: `send → ack at ${fmt(latency.recordsPerS)} records/s`,
    },
    { metric: 'latency p90', value: round2(latency.p90), unit: 'ms' },
    {
      metric: 'latency p99',
      value: round2(latency.p99),
      unit: 'ms',
      reference: `target ≤ 5: ${mark(met.latency)}; raw round trip p99 ${round2(roundTrip.p99)}; ${cores(latency.cpu, latency.seconds)}`,
    },
    { metric: 'latency p99.9', value: round2(latency.p999), unit: 'ms' },
    {
      metric: 'latency max',
      value: round2(latency.max),
      unit: 'ms',
      reference: `from the scheduled send: p99 ${round2(latency.scheduledP99)}, max ${round2(latency.scheduledMax)}`,
    },
  ]
  printTable(
    `peer: 1 peer + 1 producer process on loopback, RF 1, ${config.partitions} partition(s), ${config.keyBytes} B keys, ` +
      `${config.valueBytes} B values; produce ${config.throughputBatchRecords} records/batch × ${config.produceWindow} in flight ` +
      `for ${round2(produce.seconds)} s; latency ${config.latencyBatchRecords} records every ${latency.intervalMs} ms for ${round2(latency.seconds)} s`,
    rows,
  )
  console.log(
    cgroup.entered
      ? `peer and producer ran in a ${fmt(cgroup.limitBytes / MIB)} MiB memory cgroup: their page cache recycled ` +
          'as on a host whose memory is in use'
      : `peer and producer ran with no memory limit (${cgroup.reason}): the log grew into free memory`,
  )
  const cpuFigures = (phase: string, cpu: CpuSeconds) => ({
    [`${phase}_producer_cpu_s`]: round2(cpu.producer),
    ...(cpu.peer === undefined ? {} : { [`${phase}_peer_cpu_s`]: round2(cpu.peer) }),
    ...(cpu.others === undefined ? {} : { [`${phase}_other_processes_cpu_s`]: round2(cpu.others) }),
    ...(cpu.peerMainThread === undefined
      ? {}
      : {
          [`${phase}_peer_main_thread_running_s`]: round2(cpu.peerMainThread.running),
          [`${phase}_peer_main_thread_waiting_s`]: round2(cpu.peerMainThread.waiting),
        }),
  })
  writeResults('peer', {
    produce_records_per_s: Math.round(produce.recordsPerS),
    produced_mb_per_s: round2(produce.mbPerS),
    produce_pct_of_raw: round2(producePct),
    fetch_records_per_s: Math.round(fetch.recordsPerS),
    fetch_mb_per_s: round2(fetch.mbPerS),
    raw_stream_mb_per_s: round2(raw),
    page_cache_write_mb_per_s: round2(writes.fresh.mibPerSecond),
    page_cache_rewrite_mb_per_s: round2(writes.recycled.mibPerSecond),
    memory_limit_mib: cgroup.entered ? cgroup.limitBytes / MIB : 0,
    ...(ceiling === undefined
      ? {}
      : {
          raw_stream_cpu_ms_per_mb: round2(ceiling.rawMsPerMiB),
          page_cache_write_cpu_ms_per_mb: round2(ceiling.writeMsPerMiB),
          produce_ceiling_mb_per_s: round2(ceiling.mbPerS),
          produce_ceiling_pct_of_raw: round2((100 * ceiling.mbPerS) / raw),
          ...(recycledCeiling === undefined
            ? {}
            : {
                page_cache_rewrite_cpu_ms_per_mb: round2(recycledCeiling.writeMsPerMiB),
                produce_ceiling_recycled_pages_mb_per_s: round2(recycledCeiling.mbPerS),
              }),
          machine_cores: ceiling.cores,
        }),
    raw_stream_before_mb_per_s: round2(output.raw[0]!.mbPerSec),
    raw_stream_after_mb_per_s: round2(output.raw.at(-1)!.mbPerSec),
    raw_round_trip_p50_ms: round2(roundTrip.p50),
    raw_round_trip_p99_ms: round2(roundTrip.p99),
    raw_round_trip_p999_ms: round2(roundTrip.p999),
    raw_round_trip_max_ms: round2(roundTrip.max),
    raw_round_trip_message_bytes: roundTrip.messageBytes,
    ...cpuFigures('raw_round_trip', roundTrip.cpu),
    latency_p50_ms: round2(latency.p50),
    latency_p90_ms: round2(latency.p90),
    latency_p99_ms: round2(latency.p99),
    latency_p999_ms: round2(latency.p999),
    latency_max_ms: round2(latency.max),
    latency_mean_ms: round2(latency.mean),
    latency_scheduled_p99_ms: round2(latency.scheduledP99),
    latency_scheduled_max_ms: round2(latency.scheduledMax),
    latency_max_send_lag_ms: round2(latency.maxSendLagMs),
    latency_records_per_s: Math.round(latency.recordsPerS),
    mb_unit: 'MiB (2^20 bytes)',
    partitions: config.partitions,
    replication_factor: 1,
    acks: config.acks,
    key_bytes: config.keyBytes,
    value_bytes: config.valueBytes,
    produce_batch_records: config.throughputBatchRecords,
    produce_window: config.produceWindow,
    produce_records: produce.records,
    produce_bytes: produce.bytes,
    produce_s: round2(produce.seconds),
    produce_warmup_records: produce.warmupRecords,
    ...cpuFigures('produce', produce.cpu),
    ...(produce.cpu.peer === undefined
      ? {}
      : { produce_peer_cpu_ms_per_mb: round2((1000 * produce.cpu.peer) / (produce.mbPerS * produce.seconds)) }),
    fetch_records: fetch.records,
    fetch_bytes: fetch.bytes,
    fetch_requests: fetch.requests,
    fetch_max_bytes: config.fetchMaxBytes,
    fetch_s: round2(fetch.seconds),
    ...cpuFigures('fetch', fetch.cpu),
    latency_batch_records: config.latencyBatchRecords,
    latency_interval_ms: latency.intervalMs,
    latency_batches: latency.batches,
    latency_s: round2(latency.seconds),
    ...cpuFigures('latency', latency.cpu),
    raw_stream_bytes: output.raw[0]!.bytes,
    raw_stream_s: round2(best.seconds),
    ...cpuFigures('raw_stream', best.cpu),
    raw_stream_chunk_bytes: config.rawChunkBytes,
    produce_target_met: met.produce && met.producePct,
    fetch_target_met: met.fetch,
    latency_target_met: met.latency,
  })
}

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

export default async function peerBench(argv: string[]): Promise<void> {
  const args = parseArgs(argv)
  const root = await mkdtemp(join(os.tmpdir(), 'tributary-peer-bench-'))
  if (args.profile !== undefined) await mkdir(args.profile, { recursive: true })
  let peer: RunningPeer | undefined
  let producer: ChildProcess | undefined
  const cgroup: MemoryCgroup =
    args.memoryLimitMiB === 0
      ? { entered: false, reason: 'no --memory-limit' }
      : await enterMemoryCgroup(`tributary-peer-bench-${process.pid}`, args.memoryLimitMiB * MIB)
  progress(cgroup.entered ? `memory cgroup ${cgroup.dir}` : `no memory limit: ${cgroup.reason}`)
  try {
    peer = await startPeer(join(root, 'peer'), args.profile)
    progress(`peer ${peer.address} (pid ${peer.pid}), data in ${root}`)
    const profiled = new Map([[peer.pid, 'peer process']])
    const output = await runProducer(peer, args, (proc) => {
      producer = proc
      profiled.set(proc.pid!, 'producer process')
    })
    await peer.stop() // writes the peer's profile
    peer = undefined
    // Outside the group again, so the page-cache figures are this machine's, not the limit's.
    if (cgroup.entered) await cgroup.leave()
    progress('page-cache write: 512 MiB into a new file, then again into the pages it freed')
    report(output, await measurePageCacheWrite(root), cgroup)
    if (args.profile !== undefined) await printProfiles(args.profile, profiled)
  } finally {
    if (producer !== undefined) await endProcess(producer, 'SIGKILL', 5000)
    await peer?.stop()
    await stopAll()
    if (cgroup.entered) await cgroup.leave()
    await rm(root, { recursive: true, force: true })
  }
}
