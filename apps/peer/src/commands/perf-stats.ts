/**
 * The figures of Kafka's perf tools (`kafka-producer-perf-test`, `kafka-consumer-perf-test`):
 * records and MB (2^20 bytes) per second, and for produce the average, maximum and 50th, 95th,
 * 99th, 99.9th percentile latency. As in Kafka, latencies are sampled (at most
 * MAX_LATENCY_SAMPLES, evenly by record number) so memory stays bounded for any record count.
 */
export const MAX_LATENCY_SAMPLES = 500_000
const MB = 2 ** 20

export interface ThroughputFigures {
  records: number
  bytes: number
  seconds: number
  records_per_s: number
  mb_per_s: number
}

export interface LatencyFigures {
  latency_avg_ms: number
  latency_max_ms: number
  latency_p50_ms: number
  latency_p95_ms: number
  latency_p99_ms: number
  latency_p999_ms: number
}

export type ProduceFigures = ThroughputFigures & LatencyFigures

function round(n: number, digits = 2): number {
  const f = 10 ** digits
  return Math.round(n * f) / f
}

export function throughputFigures(records: number, bytes: number, seconds: number): ThroughputFigures {
  const s = Math.max(seconds, 1e-9)
  return {
    records,
    bytes,
    seconds: round(seconds, 3),
    records_per_s: round(records / s, 1),
    mb_per_s: round(bytes / MB / s, 2),
  }
}

/** Nearest-rank percentile of sorted samples (Kafka's: `sorted[(int)(n * p)]`). */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!
}

/** Counts acknowledged records and their latencies over the whole run and per reporting window. */
export class ProduceStats {
  private readonly sampleEvery: number
  private readonly samples: Float64Array
  private sampleCount = 0
  private records = 0
  private bytes = 0
  private latencySum = 0
  private latencyMax = 0
  private window = { records: 0, bytes: 0, latencySum: 0, latencyMax: 0, startMs: 0 }

  constructor(
    expectedRecords: number,
    private readonly startMs: number = performance.now(),
  ) {
    this.sampleEvery = Math.max(1, Math.ceil(expectedRecords / MAX_LATENCY_SAMPLES))
    this.samples = new Float64Array(Math.min(expectedRecords, MAX_LATENCY_SAMPLES) + 1)
    this.window.startMs = startMs
  }

  /** `count` records of `bytes` in total, acknowledged `latencyMs` after they were sent. */
  record(count: number, bytes: number, latencyMs: number): void {
    for (let i = 0; i < count; i++) {
      if ((this.records + i) % this.sampleEvery === 0 && this.sampleCount < this.samples.length)
        this.samples[this.sampleCount++] = latencyMs
    }
    this.records += count
    this.bytes += bytes
    this.latencySum += latencyMs * count
    this.latencyMax = Math.max(this.latencyMax, latencyMs)
    const w = this.window
    w.records += count
    w.bytes += bytes
    w.latencySum += latencyMs * count
    w.latencyMax = Math.max(w.latencyMax, latencyMs)
  }

  get acknowledged(): number {
    return this.records
  }

  /** The window since the last call, as Kafka's periodic line prints it; starts a new window. */
  takeWindow(nowMs: number = performance.now()): { figures: ThroughputFigures; avgMs: number; maxMs: number } {
    const w = this.window
    const out = {
      figures: throughputFigures(w.records, w.bytes, (nowMs - w.startMs) / 1000),
      avgMs: w.records === 0 ? 0 : round(w.latencySum / w.records),
      maxMs: round(w.latencyMax),
    }
    this.window = { records: 0, bytes: 0, latencySum: 0, latencyMax: 0, startMs: nowMs }
    return out
  }

  final(endMs: number = performance.now()): ProduceFigures {
    const sorted = this.samples.slice(0, this.sampleCount).sort()
    return {
      ...throughputFigures(this.records, this.bytes, (endMs - this.startMs) / 1000),
      latency_avg_ms: this.records === 0 ? 0 : round(this.latencySum / this.records),
      latency_max_ms: round(this.latencyMax),
      latency_p50_ms: round(percentile(sorted, 0.5)),
      latency_p95_ms: round(percentile(sorted, 0.95)),
      latency_p99_ms: round(percentile(sorted, 0.99)),
      latency_p999_ms: round(percentile(sorted, 0.999)),
    }
  }
}

const fmt = (n: number, digits = 1): string =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })

/** Kafka's periodic line: `N records sent, X records/sec (Y MB/sec), A ms avg latency, M ms max latency.` */
export function produceWindowLine(w: { figures: ThroughputFigures; avgMs: number; maxMs: number }): string {
  return (
    `${w.figures.records} records sent, ${fmt(w.figures.records_per_s)} records/sec ` +
    `(${fmt(w.figures.mb_per_s, 2)} MB/sec), ${fmt(w.avgMs)} ms avg latency, ${fmt(w.maxMs)} ms max latency.`
  )
}

export function produceFinalLine(f: ProduceFigures): string {
  return (
    `${f.records} records sent, ${fmt(f.records_per_s)} records/sec (${fmt(f.mb_per_s, 2)} MB/sec), ` +
    `${fmt(f.latency_avg_ms, 2)} ms avg latency, ${fmt(f.latency_max_ms, 2)} ms max latency, ` +
    `${fmt(f.latency_p50_ms, 2)} ms 50th, ${fmt(f.latency_p95_ms, 2)} ms 95th, ` +
    `${fmt(f.latency_p99_ms, 2)} ms 99th, ${fmt(f.latency_p999_ms, 2)} ms 99.9th.`
  )
}

export function consumeLine(f: ThroughputFigures): string {
  return (
    `${f.records} records consumed in ${fmt(f.seconds, 3)} s, ${fmt(f.records_per_s)} records/sec ` +
    `(${fmt(f.bytes / MB, 2)} MB, ${fmt(f.mb_per_s, 2)} MB/sec).`
  )
}
