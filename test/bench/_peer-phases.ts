/**
 * The phases the producer process of `npm run bench -- peer` runs against one peer (see
 * _peer-producer.ts for the process, peer.ts for the benchmark). Records have 16-byte keys and
 * 100-byte values; MiB is 2^20 bytes. `npm run bench -- mesh` reuses the raw, produce and latency
 * phases with its own `send` (acks, routing to partition leaders) and `peerPids`.
 */
import { randomFillSync } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { multiaddr } from '@multiformats/multiaddr'
import type { Acks, Broker } from '@tributary/client'
import type { MeshNode } from '@tributary/mesh/node'
import {
  decodeRecordBatchSync,
  encodeRecordBatchSync,
  iterateBatches,
  type RecordInput,
  TopicAlreadyExistsError,
} from '@tributary/wire'
import { measureStreamThroughput } from '../../packages/mesh/src/perf.ts'
import {
  type LatencySummary,
  measureRoundTrips,
  type RoundTrips,
  summarizeLatencies,
} from '../../packages/mesh/src/perf-echo.ts'

export const KEY_BYTES = 16
export const VALUE_BYTES = 100
export const THROUGHPUT_BATCH_RECORDS = 1000
export const LATENCY_RECORDS_PER_S = 10_000
export const RAW_CHUNK_BYTES = 64 * 1024
export const ACKS: Acks = 1
const RING = 64
const MIB = 2 ** 20
const RAW_BYTES_AT_10_S = 512 * MIB
export const RAW_WARMUP_BYTES = 64 * MIB
const WARMUP_MS = 1000
/**
 * The produce phase warms up longer: V8 is still compiling the produce path for seconds. Measured
 * on this 2-core host, the peer's compiler threads took 34% of a core in the first second after a
 * 1 s warm-up, and 9-15% in the next three, CPU the measured window then shared with the peer's
 * main thread and the producer. With 3 s, produce was higher in 3 of 3 pairs (+2%, +4%, +18%).
 */
const PRODUCE_WARMUP_MS = 3000
/** The produce phase stops early at this many records (disk and fetch time stay bounded). */
const MAX_PRODUCE_RECORDS = 10_000_000
/** Latency: more produces than this unanswered means the peer stopped keeping up; fail instead of queueing. */
const MAX_LATENCY_OUTSTANDING = 1000
const TOPIC_READY_TIMEOUT_MS = 20_000

export interface PhaseContext {
  node: MeshNode
  broker: Broker
  /** The peer's TCP multiaddr (with /p2p/). */
  address: string
  topic: string
  partitions: number
  /** Scales the produce (seconds/2) and latency (seconds) phases and the raw upload. */
  seconds: number
  /** Produce requests in flight. */
  window: number
  fetchMaxBytes: number
  /** Records per produce in the latency phase; one goes out every latencyBatchRecords/10 ms. */
  latencyBatchRecords: number
  peerPid: number | undefined
  /** Several peer processes (a mesh): their CPU is summed as `peer`. Overrides peerPid. */
  peerPids?: number[]
  /** How the produce and latency phases send a batch; default: `broker.produce` with acks=1. */
  send?: Send
  /** The acks `send` uses (progress lines only). */
  acks?: Acks
  /** What `send` goes through, for the report; default the Broker with pre-encoded batches. */
  sender?: string
}

/** Produces `records` (one encoded batch) to `partition` of the context's topic. */
export type Send = (partition: number, records: Uint8Array) => Promise<unknown>

const acksName = (ctx: PhaseContext): string => {
  const acks = ctx.acks ?? ACKS
  return acks === -1 ? 'all' : `${acks}`
}

/** The context's `send`, or acks=1 produce through its broker. */
function sender(ctx: PhaseContext): Send {
  return ctx.send ?? ((partition, records) => ctx.broker.produce({ topic: ctx.topic, partition, acks: ACKS, records }))
}

export interface CpuSeconds {
  producer: number
  /** undefined when the peer's pid was not given or /proc is unavailable. */
  peer: number | undefined
  /** CPU seconds every other process on the machine used meanwhile (noise; undefined without /proc). */
  others: number | undefined
  /**
   * The peer's main thread (one peer only; undefined without /proc or schedstats): seconds it ran,
   * and seconds it was ready to run but waited for a core. The main thread runs everything a
   * produce needs except GC helpers, fsync and segment writes over 64 KiB (libuv's pool), so
   * `running` near the phase's length means the peer's JavaScript is the limit, and `waiting` is
   * what the other threads and processes on these cores cost it.
   */
  peerMainThread?: { running: number; waiting: number }
}

export interface RawResult {
  bytes: number
  seconds: number
  mbPerSec: number
  /** CPU every process used while `bytes` moved (warm-up excluded). */
  cpu: CpuSeconds
}

export interface ProduceResult {
  records: number
  batches: number
  bytes: number
  seconds: number
  recordsPerS: number
  mbPerS: number
  warmupRecords: number
  cpu: CpuSeconds
}

export interface FetchResult {
  records: number
  batches: number
  bytes: number
  requests: number
  seconds: number
  recordsPerS: number
  mbPerS: number
  cpu: CpuSeconds
}

/** Latencies are send → acknowledgement, ms. */
export interface LatencyResult extends LatencySummary {
  batches: number
  records: number
  intervalMs: number
  seconds: number
  recordsPerS: number
  /** Scheduled send time → acknowledgement (adds any lag of the sender behind its schedule). */
  scheduledP99: number
  scheduledMax: number
  /** How far behind its deadline a send went out, at most. */
  maxSendLagMs: number
  cpu: CpuSeconds
  /** What sent: the Broker with pre-encoded batches, or the SDK Producer. */
  sender: string
}

let progressName = 'peer bench producer'

/** Names the process in progress lines (another benchmark reusing these phases). */
export function setProgressName(name: string): void {
  progressName = name
}

export function progress(msg: string): void {
  process.stderr.write(`[${progressName} ${(performance.now() / 1000).toFixed(1)}s] ${msg}\n`)
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US')

/** What `pick` finds in a /proc file, or undefined (no /proc, or the process is gone). */
function readProc<T>(file: string, pick: (text: string) => T): T | undefined {
  try {
    return pick(readFileSync(file, 'utf8'))
  } catch {
    return undefined
  }
}

/**
 * user + system clock ticks of a process (USER_HZ, 100 on every Linux architecture Node supports):
 * the 14th and 15th fields of /proc/<pid>/stat.
 */
const processTicks = (pid: number): number | undefined =>
  readProc(`/proc/${pid}/stat`, (stat) => {
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return Number(fields[11]) + Number(fields[12])
  })

/** Nanoseconds a thread ran and waited on a run queue: the first two fields of its /proc schedstat. */
function threadSchedstat(pid: number): { running: number; waiting: number } | undefined {
  const [running, waiting] =
    readProc(`/proc/${pid}/task/${pid}/schedstat`, (text) => text.trim().split(' ').map(Number)) ?? []
  return Number.isFinite(running) && Number.isFinite(waiting) ? { running: running!, waiting: waiting! } : undefined
}

/** Busy ticks of the whole machine: the first line of /proc/stat less idle and iowait. */
const machineTicks = (): number | undefined =>
  readProc('/proc/stat', (stat) => {
    const [user, nice, system, , , irq, softirq, steal] = stat.split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number)
    return user! + nice! + system! + irq! + softirq! + (steal ?? 0)
  })

/** CPU seconds this process, the peer process(es) and everything else on the machine use from now on. */
export function cpuMeter(ctx: Pick<PhaseContext, 'peerPid' | 'peerPids'>): () => CpuSeconds {
  const pids = ctx.peerPids ?? (ctx.peerPid === undefined ? [] : [ctx.peerPid])
  const peerTicks = (): number | undefined => {
    let sum = 0
    for (const pid of pids) {
      const t = processTicks(pid)
      if (t === undefined) return undefined
      sum += t
    }
    return pids.length === 0 ? undefined : sum
  }
  const ownStarted = process.cpuUsage()
  const mainThread = (): ReturnType<typeof threadSchedstat> =>
    pids.length === 1 ? threadSchedstat(pids[0]!) : undefined
  const [peerStarted, machineStarted, selfStarted] = [peerTicks(), machineTicks(), processTicks(process.pid)]
  const mainStarted = mainThread()
  return () => {
    const own = process.cpuUsage(ownStarted)
    const [peerNow, machineNow, selfNow, mainNow] = [
      peerTicks(),
      machineTicks(),
      processTicks(process.pid),
      mainThread(),
    ]
    const peer = peerNow === undefined || peerStarted === undefined ? undefined : (peerNow - peerStarted) / 100
    const machine =
      machineNow === undefined || machineStarted === undefined ? undefined : (machineNow - machineStarted) / 100
    const self = selfNow === undefined || selfStarted === undefined ? undefined : (selfNow - selfStarted) / 100
    const others =
      machine === undefined || self === undefined || peer === undefined ? undefined : Math.max(0, machine - self - peer)
    const peerMainThread =
      mainNow === undefined || mainStarted === undefined
        ? undefined
        : {
            running: (mainNow.running - mainStarted.running) / 1e9,
            waiting: (mainNow.waiting - mainStarted.waiting) / 1e9,
          }
    return { producer: (own.user + own.system) / 1e6, peer, others, ...(peerMainThread && { peerMainThread }) }
  }
}

/** RING pre-encoded batches of `count` records with random 16-byte keys and 100-byte values. */
export function encodeRing(count: number): Uint8Array[] {
  const recordBytes = KEY_BYTES + VALUE_BYTES
  const ring: Uint8Array[] = []
  for (let r = 0; r < RING; r++) {
    const pool = randomFillSync(new Uint8Array(count * recordBytes))
    const timestamp = Date.now()
    const records: RecordInput[] = []
    for (let i = 0; i < count; i++) {
      const at = i * recordBytes
      records.push({
        key: pool.subarray(at, at + KEY_BYTES),
        value: pool.subarray(at + KEY_BYTES, at + recordBytes),
        timestamp,
      })
    }
    ring.push(encodeRecordBatchSync({ records }))
  }
  return ring
}

/**
 * One /tributary/perf stream over the same connection: what these two processes can move. A
 * 64 MiB stream first warms the code paths up (cold, the first run measured half the second).
 */
export async function rawPhase(ctx: PhaseContext): Promise<RawResult> {
  const scaled = (RAW_BYTES_AT_10_S * Math.min(1, ctx.seconds / 10)) / RAW_CHUNK_BYTES
  const sendBytes = Math.max(16 * MIB, Math.round(scaled) * RAW_CHUNK_BYTES)
  const peer = multiaddr(ctx.address)
  progress(`raw stream: 64 MiB warm-up, then ${fmt(sendBytes / MIB)} MiB in ${RAW_CHUNK_BYTES / 1024} KiB sends`)
  await measureStreamThroughput(ctx.node, peer, { sendBytes: RAW_WARMUP_BYTES, chunkBytes: RAW_CHUNK_BYTES })
  const cpu = cpuMeter(ctx)
  const result = await measureStreamThroughput(ctx.node, peer, { sendBytes, chunkBytes: RAW_CHUNK_BYTES })
  progress(`raw stream: ${result.mbPerSec.toFixed(1)} MiB/s`)
  return { bytes: result.bytes, seconds: result.seconds, mbPerSec: result.mbPerSec, cpu: cpu() }
}

/** Creates the topic (or reuses it) and waits until every partition takes produce requests. */
export async function createTopic(ctx: PhaseContext): Promise<void> {
  const { broker, topic, partitions } = ctx
  const [created] = await broker.createTopics([{ name: topic, partitions, replicationFactor: 1 }])
  if (created?.error !== undefined && !(created.error instanceof TopicAlreadyExistsError)) throw created.error
  const probe = encodeRecordBatchSync({ records: [{ key: null, value: new Uint8Array(1), timestamp: Date.now() }] })
  const deadline = Date.now() + TOPIC_READY_TIMEOUT_MS
  for (let partition = 0; partition < partitions; partition++) {
    for (;;) {
      try {
        await broker.produce({ topic, partition, acks: ACKS, records: probe })
        break
      } catch (err) {
        if (Date.now() > deadline) throw new Error(`${topic}-${partition} took no produce within 20 s`, { cause: err })
        await sleep(50)
      }
    }
  }
}

/** Keeps `window` produce requests in flight for `ms`; counts what was acknowledged. */
async function produceFor(
  ctx: PhaseContext,
  ring: Uint8Array[],
  ms: number,
  maxRecords: number,
): Promise<{ records: number; batches: number; bytes: number; seconds: number }> {
  const started = performance.now()
  const deadline = started + ms
  let sent = 0
  let batches = 0
  let bytes = 0
  const send = sender(ctx)
  const lane = async (): Promise<void> => {
    while (performance.now() < deadline && sent * THROUGHPUT_BATCH_RECORDS < maxRecords) {
      const b = sent++
      const records = ring[b % ring.length]!
      await send(b % ctx.partitions, records)
      batches++
      bytes += records.byteLength
    }
  }
  await Promise.all(Array.from({ length: ctx.window }, lane))
  return { records: batches * THROUGHPUT_BATCH_RECORDS, batches, bytes, seconds: (performance.now() - started) / 1000 }
}

export async function producePhase(ctx: PhaseContext): Promise<ProduceResult> {
  const ring = encodeRing(THROUGHPUT_BATCH_RECORDS)
  const warmup = await produceFor(ctx, ring, PRODUCE_WARMUP_MS, Number.POSITIVE_INFINITY)
  progress(
    `produce: warm-up ${fmt(warmup.records)} records; measuring ${ctx.seconds / 2} s with ${ctx.window} in flight, ` +
      `acks=${acksName(ctx)}`,
  )
  const cpu = cpuMeter(ctx)
  const run = await produceFor(ctx, ring, (ctx.seconds / 2) * 1000, MAX_PRODUCE_RECORDS)
  const recordsPerS = run.records / run.seconds
  const mbPerS = run.bytes / MIB / run.seconds
  progress(`produce: ${fmt(recordsPerS)} records/s, ${mbPerS.toFixed(1)} MiB/s`)
  return { ...run, recordsPerS, mbPerS, warmupRecords: warmup.records, cpu: cpu() }
}

/**
 * Reads every partition from offset 0 to its high watermark and decodes every record. The next
 * fetch goes out (its offsets taken from the batch headers) before the response in hand is
 * decoded, as a consumer's prefetch would.
 */
export async function fetchPhase(ctx: PhaseContext): Promise<FetchResult> {
  const { broker, topic } = ctx
  const all = Array.from({ length: ctx.partitions }, (_, partition) => ({ topic, partition, timestamp: -1 }))
  const ends = await broker.listOffsets(all)
  const end = new Map(ends.map((e) => [e.partition, e.offset]))
  const next = new Map(ends.map((e) => [e.partition, 0]))
  const expected = ends.reduce((sum, e) => sum + e.offset, 0)
  progress(`fetch: ${fmt(expected)} records from offset 0, ${ctx.fetchMaxBytes / MIB} MiB per fetch`)
  const cpu = cpuMeter(ctx)
  const started = performance.now()
  const request = () => {
    const behind = [...next].filter(([partition, offset]) => offset < end.get(partition)!)
    if (behind.length === 0) return undefined
    // Each partition gets its share of maxBytes (Kafka's max.partition.fetch.bytes), so all progress.
    const partitionMaxBytes = Math.ceil(ctx.fetchMaxBytes / behind.length)
    const partitions = behind.map(([partition, fetchOffset]) => ({ topic, partition, fetchOffset, partitionMaxBytes }))
    return broker.fetch({ maxWaitMs: 500, minBytes: 1, maxBytes: ctx.fetchMaxBytes, partitions })
  }
  let records = 0
  let batches = 0
  let bytes = 0
  let requests = 0
  let fieldBytes = 0
  let inFlight = request()
  while (inFlight !== undefined) {
    const response = await inFlight
    requests++
    let progressed = false
    for (const part of response) {
      if (part.error !== undefined) throw part.error
      for (const { header } of iterateBatches(part.records)) {
        next.set(part.partition, header.baseOffset + header.lastOffsetDelta + 1)
        progressed = true
      }
    }
    if (!progressed) throw new Error(`a fetch of ${topic} returned no records below the high watermark`)
    inFlight = request()
    for (const part of response) {
      for (const { pos } of iterateBatches(part.records)) {
        const batch = decodeRecordBatchSync(part.records, pos)
        for (const record of batch.records) fieldBytes += (record.key?.length ?? 0) + (record.value?.length ?? 0)
        records += batch.records.length
        batches++
      }
      bytes += part.records.byteLength
    }
  }
  const seconds = (performance.now() - started) / 1000
  if (records !== expected) throw new Error(`fetch decoded ${records} records, the partitions hold ${expected}`)
  if (fieldBytes === 0) throw new Error('fetch decoded no key or value bytes')
  const recordsPerS = records / seconds
  const mbPerS = bytes / MIB / seconds
  progress(`fetch: ${fmt(recordsPerS)} records/s, ${mbPerS.toFixed(1)} MiB/s in ${requests} fetches`)
  return { records, batches, bytes, requests, seconds, recordsPerS, mbPerS, cpu: cpu() }
}

/**
 * An open loop at a fixed rate: produce i goes out at t0 + i × interval whether or not earlier
 * ones were answered, so a slow answer shows up in the latencies and never shifts the schedule
 * (a late timer makes the sends that fell due go out at once). The harness keeps numbers only, in
 * arrays sized up front: holding a promise and a sample object per produce to the end was most of
 * what the producer process's young-generation collections had to copy, a cost the measured
 * produces then paid.
 */
async function schedule(
  ctx: PhaseContext,
  ring: Uint8Array[],
  count: number,
  intervalMs: number,
): Promise<{ latencies: Float64Array; scheduled: Float64Array; maxLag: number; seconds: number }> {
  /** Send → acknowledgement, and scheduled send → acknowledgement, in the order answers came. */
  const latencies = new Float64Array(count)
  const scheduled = new Float64Array(count)
  let answered = 0
  let outstanding = 0
  let failure: { error: unknown } | undefined
  let allAnswered: (() => void) | undefined
  let maxLag = 0
  const send = sender(ctx)
  const settled = (): void => {
    outstanding--
    if (outstanding === 0) allAnswered?.()
  }
  const t0 = performance.now() + 5
  for (let i = 0; i < count; i++) {
    const due = t0 + i * intervalMs
    const wait = due - performance.now()
    if (wait > 0) await sleep(wait)
    if (failure !== undefined) throw failure.error
    if (outstanding >= MAX_LATENCY_OUTSTANDING) {
      throw new Error(
        `${outstanding} produces unanswered: the peer does not keep up with ${fmt(LATENCY_RECORDS_PER_S)} records/s`,
      )
    }
    const sentAt = performance.now()
    maxLag = Math.max(maxLag, sentAt - due)
    outstanding++
    // Both outcomes are handled here, so sends still out when this throws are no unhandled rejections.
    send(i % ctx.partitions, ring[i % ring.length]!).then(
      () => {
        const now = performance.now()
        latencies[answered] = now - sentAt
        scheduled[answered] = now - due
        answered++
        settled()
      },
      (error: unknown) => {
        failure ??= { error }
        settled()
      },
    )
  }
  if (outstanding > 0) await new Promise<void>((resolve) => (allAnswered = resolve))
  if (failure !== undefined) throw failure.error
  return { latencies, scheduled, maxLag, seconds: (performance.now() - t0) / 1000 }
}

export interface RoundTripResult extends RoundTrips {
  intervalMs: number
  cpu: CpuSeconds
}

/**
 * The latency reference: round trips of one /tributary/perf-echo stream over the same connection,
 * at the latency phase's rate, each message as long as one of its produce batches. No Tributary
 * code runs on either side, so this is what libp2p and this machine cost a request and its
 * answer: the floor under the produce latency measured next.
 */
export async function roundTripPhase(ctx: PhaseContext): Promise<RoundTripResult> {
  const intervalMs = (ctx.latencyBatchRecords * 1000) / LATENCY_RECORDS_PER_S
  const messageBytes = encodeRing(ctx.latencyBatchRecords)[0]!.byteLength
  const count = Math.round((ctx.seconds * 1000) / intervalMs)
  const warmup = Math.round(WARMUP_MS / intervalMs)
  progress(`round trips: 1 s warm-up, then ${fmt(count)} echoes of ${messageBytes} bytes every ${intervalMs} ms`)
  const cpu = cpuMeter(ctx)
  const timeoutMs = (ctx.seconds * 1000 + WARMUP_MS) * 3 + 30_000
  const result = await measureRoundTrips(ctx.node, multiaddr(ctx.address), {
    count,
    warmup,
    intervalMs,
    messageBytes,
    timeoutMs,
  })
  progress(
    `round trips: p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, max ${result.max.toFixed(2)} ms`,
  )
  return { ...result, intervalMs, cpu: cpu() }
}

export async function latencyPhase(ctx: PhaseContext): Promise<LatencyResult> {
  const batchRecords = ctx.latencyBatchRecords
  const intervalMs = (batchRecords * 1000) / LATENCY_RECORDS_PER_S
  const ring = encodeRing(batchRecords)
  const total = Math.round((ctx.seconds * 1000) / intervalMs)
  const what = `${batchRecords} records every ${intervalMs} ms (${fmt(LATENCY_RECORDS_PER_S)} records/s), acks=${acksName(ctx)}`
  progress(`latency: 1 s warm-up, then ${fmt(total)} produces of ${what} via ${ctx.sender ?? 'the Broker'}`)
  await schedule(ctx, ring, Math.round(WARMUP_MS / intervalMs), intervalMs)
  const cpu = cpuMeter(ctx)
  const run = await schedule(ctx, ring, total, intervalMs)
  const scheduled = summarizeLatencies(run.scheduled)
  const result: LatencyResult = {
    batches: total,
    records: total * batchRecords,
    intervalMs,
    seconds: run.seconds,
    recordsPerS: (total * batchRecords) / run.seconds,
    ...summarizeLatencies(run.latencies),
    scheduledP99: scheduled.p99,
    scheduledMax: scheduled.max,
    maxSendLagMs: run.maxLag,
    cpu: cpu(),
    sender: ctx.sender ?? 'Broker, one pre-encoded batch per send',
  }
  progress(`latency: p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, max ${result.max.toFixed(2)} ms`)
  return result
}
