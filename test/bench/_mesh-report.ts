/** The table and bench-results/mesh.json of `npm run bench -- mesh` (see mesh.ts). */
import os from 'node:os'
import { ATTEMPT_TIMEOUT_MS, RETRY_MS } from './_mesh-failover.ts'
import { type MeshProducerOutput, REPLICATION_FACTOR } from './_mesh-ipc.ts'
import type { CpuSeconds, ProduceResult } from './_peer-phases.ts'
import { printTable, type Row, writeResults } from './report.ts'

export const TARGETS = {
  acksAllRecordsPerS: 300_000,
  replicatedPctOfRaw: 40,
  latencyP99Ms: 10,
  failoverMs: 1500,
}

const round2 = (n: number): number => Math.round(n * 100) / 100
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US')
const mark = (ok: boolean): string => (ok ? 'met' : 'MISSED')

function cores(cpu: CpuSeconds, seconds: number): string {
  const perS = (cpuS: number | undefined): string => (cpuS === undefined ? '?' : `${round2(cpuS / seconds)}`)
  return `CPU cores: producer ${perS(cpu.producer)}, 3 peers ${perS(cpu.peer)}, others ${perS(cpu.others)}`
}

const MIB = 2 ** 20

/** CPU milliseconds per MiB moved by this process and by the peers together. */
function cpuPerMiB(cpu: CpuSeconds, bytes: number): { producer: number; peers: number | undefined } {
  const mib = bytes / MIB
  return { producer: (1000 * cpu.producer) / mib, peers: cpu.peer === undefined ? undefined : (1000 * cpu.peer) / mib }
}

const add = (a: number | undefined, b: number | undefined): number | undefined =>
  a === undefined || b === undefined ? undefined : a + b
const total = (cost: { producer: number; peers: number | undefined }): number => cost.producer + (cost.peers ?? 0)

function costRow(metric: string, cost: { producer: number; peers: number | undefined }, what: string): Row {
  const peers = cost.peers === undefined ? '?' : cost.peers.toFixed(1)
  return {
    metric,
    value: round2(total(cost)),
    unit: 'ms/MiB',
    reference: `${what}: producer ${cost.producer.toFixed(1)} + peers ${peers} ms of CPU per MiB`,
  }
}

function costFigures(phase: string, cost: { producer: number; peers: number | undefined }): Record<string, number> {
  return {
    [`${phase}_producer_cpu_ms_per_mb`]: round2(cost.producer),
    ...(cost.peers === undefined ? {} : { [`${phase}_peers_cpu_ms_per_mb`]: round2(cost.peers) }),
  }
}

function cpuFigures(phase: string, cpu: CpuSeconds): Record<string, number> {
  return {
    [`${phase}_producer_cpu_s`]: round2(cpu.producer),
    ...(cpu.peer === undefined ? {} : { [`${phase}_peers_cpu_s`]: round2(cpu.peer) }),
    ...(cpu.others === undefined ? {} : { [`${phase}_other_processes_cpu_s`]: round2(cpu.others) }),
  }
}

function produceFigures(phase: string, r: ProduceResult): Record<string, number> {
  return {
    [`${phase}_records`]: r.records,
    [`${phase}_bytes`]: r.bytes,
    [`${phase}_s`]: round2(r.seconds),
    [`${phase}_warmup_records`]: r.warmupRecords,
    ...cpuFigures(phase, r.cpu),
  }
}

/**
 * Prints the table of what ran; writes bench-results/mesh.json when every phase ran (`complete`).
 * `names` maps peer ids to the peers' names (p1…).
 */
export function report(output: MeshProducerOutput, complete: boolean, names: Map<string, string>): void {
  const { acksAll, acks1, latency, failover, config } = output
  const name = (peerId: string): string => names.get(peerId) ?? `…${peerId.slice(-8)}`
  const raw = output.raw.length === 0 ? Number.NaN : Math.max(...output.raw.map((r) => r.mbPerSec))
  const rawPair = `producer process → peer ${name(config.rawPeer)}`
  const ofRaw = (mbPerS: number): string =>
    Number.isNaN(raw) ? 'raw stream not measured' : `${((100 * mbPerS) / raw).toFixed(0)}% of raw stream`
  const rows: Row[] = []
  let rawCost: { producer: number; peers: number | undefined } | undefined
  const figures: Record<string, number | string | boolean> = {}
  if (output.raw.length > 0) {
    const runs = output.raw.map((r) => r.mbPerSec.toFixed(0)).join(' / ')
    rows.push({
      metric: 'raw stream',
      value: round2(raw),
      unit: 'MiB/s',
      reference: `${rawPair}, 1 perf stream; runs ${runs}`,
    })
    const bytes = output.raw.reduce((a, r) => a + r.bytes, 0)
    const cpu = output.raw.reduce(
      (a, r) => ({ producer: a.producer + r.cpu.producer, peer: add(a.peer, r.cpu.peer), others: undefined }),
      { producer: 0, peer: 0 } as CpuSeconds,
    )
    rawCost = cpuPerMiB(cpu, bytes)
    rows.push(costRow('CPU per MiB, raw', rawCost, 'the sender (producer process) + the peers'))
    Object.assign(figures, costFigures('raw_stream', rawCost))
  }
  if (acksAll !== undefined) {
    const pct = (100 * acksAll.mbPerS) / raw
    const met = { records: acksAll.recordsPerS >= TARGETS.acksAllRecordsPerS, pct: pct >= TARGETS.replicatedPctOfRaw }
    rows.push(
      {
        metric: 'produce, acks=all',
        value: Math.round(acksAll.recordsPerS),
        unit: 'records/s',
        reference: `target ≥ 300,000: ${mark(met.records)}; ${cores(acksAll.cpu, acksAll.seconds)}`,
      },
      {
        metric: 'replicated (acks=all)',
        value: round2(acksAll.mbPerS),
        unit: 'MiB/s',
        reference: `${ofRaw(acksAll.mbPerS)}, target ≥ 40%: ${mark(met.pct)}`,
      },
    )
    const cost = cpuPerMiB(acksAll.cpu, acksAll.bytes)
    const times = rawCost === undefined ? '' : `; ${(total(cost) / total(rawCost)).toFixed(1)}× the raw stream's`
    if (rawCost !== undefined && rawCost.peers !== undefined) {
      // Replication moves every byte over REPLICATION_FACTOR hops (producer → leader, leader → each
      // follower), each costing at least what one hop of the raw stream costs its sender and
      // receiver, and all four processes share this machine's cores: the most the protocol could
      // replicate here even if it added nothing to the transport.
      const machineCores = os.availableParallelism()
      const ceiling = (1000 * machineCores) / (REPLICATION_FACTOR * total(rawCost))
      rows.push({
        metric: 'replication ceiling',
        value: round2(ceiling),
        unit: 'MiB/s',
        reference:
          `${ofRaw(ceiling)}: ${machineCores} cores ÷ (${REPLICATION_FACTOR} hops × ` +
          `${total(rawCost).toFixed(1)} ms CPU per raw MiB); acks=all reached ${Math.round((100 * acksAll.mbPerS) / ceiling)}% of it`,
      })
      Object.assign(figures, {
        replicated_ceiling_mb_per_s: round2(ceiling),
        replicated_ceiling_pct_of_raw: round2((100 * ceiling) / raw),
        machine_cores: machineCores,
      })
    }
    rows.push(costRow('CPU per MiB, acks=all', cost, `producer + 3 peers${times}`))
    Object.assign(figures, costFigures('acks_all', cost))
    Object.assign(figures, {
      acks_all_records_per_s: Math.round(acksAll.recordsPerS),
      replicated_mb_per_s: round2(acksAll.mbPerS),
      replicated_pct_of_raw: round2(pct),
      ...produceFigures('acks_all', acksAll),
      acks_all_target_met: met.records,
      replicated_target_met: met.pct,
    })
  }
  if (acks1 !== undefined) {
    rows.push(
      {
        metric: 'produce, acks=1',
        value: Math.round(acks1.recordsPerS),
        unit: 'records/s',
        reference: cores(acks1.cpu, acks1.seconds),
      },
      {
        metric: 'produce, acks=1',
        value: round2(acks1.mbPerS),
        unit: 'MiB/s',
        reference: ofRaw(acks1.mbPerS),
      },
    )
    Object.assign(figures, {
      acks_1_records_per_s: Math.round(acks1.recordsPerS),
      acks_1_mb_per_s: round2(acks1.mbPerS),
      ...produceFigures('acks_1', acks1),
    })
  }
  if (latency !== undefined) {
    const perProduce = (cpuS: number | undefined): string =>
      cpuS === undefined ? '?' : ((1000 * cpuS) / latency.batches).toFixed(2)
    const requests = latency.requestsPerSend === undefined ? undefined : latency.batches * latency.requestsPerSend
    const perRequest = (cpuS: number | undefined): string =>
      cpuS === undefined || requests === undefined ? '?' : ((1000 * cpuS) / requests).toFixed(2)
    const met = latency.p99 <= TARGETS.latencyP99Ms
    rows.push(
      {
        metric: 'latency p50',
        value: round2(latency.p50),
        unit: 'ms',
        reference:
          `acks=all, send → ack at ${fmt(latency.recordsPerS)} records/s; CPU per produce: ` +
          `producer ${perProduce(latency.cpu.producer)} + peers ${perProduce(latency.cpu.peer)} ms`,
      },
      { metric: 'latency p90', value: round2(latency.p90), unit: 'ms', reference: `sent by the ${latency.sender}` },
      {
        metric: 'latency p99',
        value: round2(latency.p99),
        unit: 'ms',
        reference: `target ≤ 10: ${mark(met)}; ${cores(latency.cpu, latency.seconds)}`,
      },
      {
        metric: 'latency p99.9',
        value: round2(latency.p999),
        unit: 'ms',
        reference:
          requests === undefined
            ? ''
            : `${fmt(requests)} produce requests (sends merged while their partition's batch was in flight); ` +
              `CPU per request: producer ${perRequest(latency.cpu.producer)} + peers ${perRequest(latency.cpu.peer)} ms`,
      },
      {
        metric: 'latency max',
        value: round2(latency.max),
        unit: 'ms',
        reference: `from the scheduled send: p99 ${round2(latency.scheduledP99)}, max ${round2(latency.scheduledMax)}`,
      },
    )
    Object.assign(figures, {
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
      latency_sender: latency.sender,
      latency_producer_cpu_ms_per_produce: round2((1000 * latency.cpu.producer) / latency.batches),
      ...(latency.cpu.peer === undefined
        ? {}
        : { latency_peers_cpu_ms_per_produce: round2((1000 * latency.cpu.peer) / latency.batches) }),
      ...(requests === undefined
        ? {}
        : {
            latency_produce_requests: Math.round(requests),
            latency_producer_cpu_ms_per_request: round2((1000 * latency.cpu.producer) / requests),
            ...(latency.cpu.peer === undefined
              ? {}
              : { latency_peers_cpu_ms_per_request: round2((1000 * latency.cpu.peer) / requests) }),
          }),
      latency_acks: 'all',
      latency_batch_records: config.latencyBatchRecords,
      latency_interval_ms: latency.intervalMs,
      latency_s: round2(latency.seconds),
      ...cpuFigures('latency', latency.cpu),
      latency_target_met: met,
    })
  }
  if (failover !== undefined) {
    const met = failover.medianMs <= TARGETS.failoverMs
    const each = failover.rounds.map((r) => r.failoverMs.toFixed(0)).join(' / ')
    rows.push({
      metric: 'failover (median)',
      value: Math.round(failover.medianMs),
      unit: 'ms',
      reference: `target ≤ 1,500: ${mark(met)}; rounds ${each} ms`,
    })
    figures.failover_ms = Math.round(failover.medianMs)
    for (const r of failover.rounds) {
      const errors = Object.entries(r.errors)
        .map(([error, n]) => `${n} ${error}`)
        .join(', ')
      rows.push({
        metric: `failover round ${r.round}`,
        value: Math.round(r.failoverMs),
        unit: 'ms',
        reference:
          `killed ${name(r.killed)}, ${name(r.newLeader)} acked, epoch ${r.epochBefore} → ${r.epochAfter}; ` +
          `${r.attempts} attempts: ${errors}`,
      })
      Object.assign(figures, {
        [`failover_round_${r.round}_ms`]: Math.round(r.failoverMs),
        [`failover_round_${r.round}_attempts`]: r.attempts,
        [`failover_round_${r.round}_errors`]: errors,
        [`failover_round_${r.round}_recovery_s`]: round2(r.recoveryMs / 1000),
      })
    }
    Object.assign(figures, {
      failover_rounds: failover.rounds.length,
      failover_retry_ms: RETRY_MS,
      failover_attempt_timeout_ms: ATTEMPT_TIMEOUT_MS,
      failover_target_met: met,
    })
  }
  const leaders = output.leaders.map(name).join(' ')
  printTable(
    `mesh: 3 peers + 1 producer process on loopback, RF ${config.replicationFactor}, ${config.partitions} partition(s) ` +
      `led by ${leaders}; ${config.keyBytes} B keys, ${config.valueBytes} B values; produce ` +
      `${config.throughputBatchRecords} records/batch × ${config.produceWindow} in flight`,
    rows,
  )
  const retried = Object.entries(output.retried)
  if (retried.length > 0) console.log(`\nproduces retried: ${retried.map(([e, n]) => `${n} ${e}`).join(', ')}`)
  if (!complete) {
    console.log('\nnot every phase ran: bench-results/mesh.json left as it was')
    return
  }
  writeResults('mesh', {
    acks_all_records_per_s: figures.acks_all_records_per_s!,
    acks_1_records_per_s: figures.acks_1_records_per_s!,
    raw_stream_mb_per_s: round2(raw),
    replicated_mb_per_s: figures.replicated_mb_per_s!,
    latency_p50_ms: figures.latency_p50_ms!,
    latency_p99_ms: figures.latency_p99_ms!,
    failover_ms: figures.failover_ms!,
    ...figures,
    raw_stream_pair: rawPair,
    raw_stream_before_mb_per_s: round2(output.raw[0]!.mbPerSec),
    raw_stream_after_mb_per_s: round2(output.raw.at(-1)!.mbPerSec),
    raw_stream_bytes: output.raw[0]!.bytes,
    raw_stream_chunk_bytes: config.rawChunkBytes,
    mb_unit: 'MiB (2^20 bytes)',
    peers: 3,
    partitions: config.partitions,
    replication_factor: config.replicationFactor,
    partition_leaders: leaders,
    key_bytes: config.keyBytes,
    value_bytes: config.valueBytes,
    produce_batch_records: config.throughputBatchRecords,
    produce_window: config.produceWindow,
    produces_retried: retried.reduce((sum, [, n]) => sum + n, 0),
  })
}
