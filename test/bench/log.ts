/**
 * `npm run bench -- log [--records N] [--dir DIR]`: the fs partition log end to end.
 *
 * Records of a 16-byte key and a 100-byte value go into batches of 1,000. Phases, in order:
 * 1. raw write: this machine's sequential write speed (1 GiB of 1 MiB writes + one fdatasync),
 *    the reference for append MiB/s;
 * 2. encode: every batch encoded once and dropped (only the encode calls are timed);
 * 3. append: every batch encoded again, just before it is appended as a leader would (validate,
 *    assign offsets, write); only the appendAsLeader calls and the final flush are timed;
 * 4. scan: the whole log read back from offset 0, every record decoded;
 * 5. reopen after a clean close, then after a simulated crash (clean-shutdown marker removed).
 * Peak RSS is sampled over the whole run. The data lives in a temp dir (under DIR if given),
 * removed at the end. MiB means 2^20 bytes throughout, `_mb_` keys included.
 */
import { randomFillSync } from 'node:crypto'
import { mkdtemp, rm, unlink } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { setImmediate as yieldToEventLoop } from 'node:timers/promises'
import type { Log, Logger } from '@tributary/log'
import { openFsLog } from '@tributary/log/fs'
import { decodeRecordBatchSync, encodeRecordBatchSync, iterateBatches, type RecordInput } from '@tributary/wire'
import { measureRawWrite } from './_raw-write.ts'
import { printTable, type Row, writeResults } from './report.ts'

const KEY_BYTES = 16
const VALUE_BYTES = 100
const BATCH_RECORDS = 1000
/** Distinct pre-built record sets the batches cycle through (their contents are random). */
const RING = 64
const READ_MAX_BYTES = 4 * 2 ** 20
const LEADER_EPOCH = 0
/** fs-store.ts's CLEAN_SHUTDOWN_FILE; without it the next open recovers the active segment. */
const CLEAN_SHUTDOWN_FILE = '.clean-shutdown'
const MIB = 2 ** 20
const USAGE = 'usage: npm run bench -- log [--records N] [--dir DIR]'

const TARGETS = {
  encodeRecordsPerS: 3_000_000,
  appendRecordsPerS: 2_000_000,
  appendPctOfRaw: 50,
  scanRecordsPerS: 3_000_000,
  reopenCleanMs: 1000,
  reopenCrashMs: 3000,
  peakRssMb: 300,
}

interface Args {
  records: number
  /** Parent of the temp dir the log and the raw-write file live in. */
  dir: string
}

function parseArgs(argv: string[]): Args {
  const args: Args = { records: 10_000_000, dir: os.tmpdir() }
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]]
    const count = Number(value?.replaceAll('_', ''))
    if (flag === '--records' && Number.isSafeInteger(count) && count > 0) args.records = count
    else if (flag === '--dir' && value !== undefined) args.dir = value
    else throw new Error(`bad argument '${flag} ${value ?? ''}'; ${USAGE}`)
  }
  return args
}

function progress(msg: string): void {
  const rss = (process.memoryUsage.rss() / MIB).toFixed(0)
  process.stderr.write(`[log bench ${(performance.now() / 1000).toFixed(1)}s, rss ${rss} MiB] ${msg}\n`)
}

const perSecond = (n: number, ms: number): number => n / (ms / 1000)
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US')
const round2 = (n: number): number => Math.round(n * 100) / 100

/** User + system CPU seconds of the whole process (libuv's pool included) since `since`. */
function cpuSeconds(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since)
  return (used.user + used.system) / 1e6
}

/** Max RSS over the run: sampled every 50 ms, and the kernel's high-water mark at the end. */
function startRssSampler(): { stop(): { sampledMb: number; maxRssMb: number } } {
  let peak = process.memoryUsage.rss()
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss())
  }, 50)
  timer.unref()
  return {
    stop() {
      clearInterval(timer)
      peak = Math.max(peak, process.memoryUsage.rss())
      return { sampledMb: peak / MIB, maxRssMb: process.resourceUsage().maxRSS / 1024 } // maxRSS is in KiB
    },
  }
}

/** The batches' records: RING sets whose keys and values are distinct views of random bytes. */
class RecordSource {
  private readonly ring: RecordInput[][] = []
  private readonly t0 = Date.now()
  readonly batches: number

  constructor(readonly records: number) {
    this.batches = Math.ceil(records / BATCH_RECORDS)
    const recordBytes = KEY_BYTES + VALUE_BYTES
    const pool = randomFillSync(new Uint8Array(RING * BATCH_RECORDS * recordBytes))
    for (let r = 0; r < RING; r++) {
      const set: RecordInput[] = []
      for (let i = 0; i < BATCH_RECORDS; i++) {
        const at = (r * BATCH_RECORDS + i) * recordBytes
        set.push({
          key: pool.subarray(at, at + KEY_BYTES),
          value: pool.subarray(at + KEY_BYTES, at + recordBytes),
          timestamp: 0,
        })
      }
      this.ring.push(set)
    }
  }

  /** Batch `b`'s records, stamped with timestamps 1 ms apart across the whole log. */
  batch(b: number): RecordInput[] {
    const count = Math.min(BATCH_RECORDS, this.records - b * BATCH_RECORDS)
    const set = this.ring[b % RING]!
    const records = count === BATCH_RECORDS ? set : set.slice(0, count)
    const first = this.t0 + b * BATCH_RECORDS
    for (let i = 0; i < count; i++) records[i]!.timestamp = first + i
    return records
  }
}

/** What the log logs on open tells which path (clean or recovery) an open took. */
function openRecorder(): { logger: Logger; lastOpenClean: () => boolean | undefined; complaints: string[] } {
  let clean: boolean | undefined
  const complaints: string[] = []
  const logger: Logger = {
    debug: () => {},
    info: (obj, msg) => {
      if (msg === 'log opened') clean = (obj as { clean?: boolean }).clean
    },
    warn: (obj, msg) => complaints.push(`warn: ${msg ?? ''} ${JSON.stringify(obj)}`),
    error: (obj, msg) => complaints.push(`error: ${msg ?? ''} ${JSON.stringify(obj)}`),
  }
  return { logger, lastOpenClean: () => clean, complaints }
}

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`log bench: ${what}`)
}

async function encodeAll(source: RecordSource): Promise<{ ms: number; bytes: number }> {
  let ms = 0
  let bytes = 0
  for (let b = 0; b < source.batches; b++) {
    const records = source.batch(b)
    const started = performance.now()
    const encoded = encodeRecordBatchSync({ records })
    ms += performance.now() - started
    bytes += encoded.length
    if (b % 64 === 63) await yieldToEventLoop() // lets the RSS sampler run
  }
  return { ms, bytes }
}

async function appendAll(
  log: Log,
  source: RecordSource,
): Promise<{ ms: number; flushMs: number; wallMs: number; cpuS: number }> {
  const wallStarted = performance.now()
  const cpu = process.cpuUsage()
  const tenth = Math.ceil(source.batches / 10)
  let ms = 0
  let expected = 0
  for (let b = 0; b < source.batches; b++) {
    // Encoded afresh: the log takes ownership of the bytes and stamps offsets into them.
    const bytes = encodeRecordBatchSync({ records: source.batch(b) })
    const started = performance.now()
    const result = await log.appendAsLeader(bytes, LEADER_EPOCH)
    ms += performance.now() - started
    check(result.firstOffset === expected, `batch ${b} got offset ${result.firstOffset}, expected ${expected}`)
    expected = result.lastOffset + 1
    if ((b + 1) % tenth === 0) progress(`append: ${b + 1}/${source.batches} batches, ${log.segmentCount} segment(s)`)
  }
  const flushStarted = performance.now()
  await log.flush()
  const flushMs = performance.now() - flushStarted
  return { ms: ms + flushMs, flushMs, wallMs: performance.now() - wallStarted, cpuS: cpuSeconds(cpu) }
}

/** Reads the whole log back and decodes every record, checking offsets and field sizes. */
async function scanAll(log: Log): Promise<{ ms: number; cpuS: number; records: number; batches: number }> {
  log.setHighWatermark(log.logEndOffset)
  const end = log.logEndOffset
  const started = performance.now()
  const cpu = process.cpuUsage()
  let records = 0
  let batches = 0
  let fieldBytes = 0
  let offset = 0
  let nextReport = end / 10
  while (offset < end) {
    const chunk = await log.read(offset, { maxBytes: READ_MAX_BYTES, maxOffset: end })
    check(chunk.batchCount > 0, `read at offset ${offset} returned nothing`)
    for (const { pos } of iterateBatches(chunk.records)) {
      const batch = decodeRecordBatchSync(chunk.records, pos)
      check(batch.header.baseOffset === records, `batch at offset ${batch.header.baseOffset} where ${records} belongs`)
      for (const record of batch.records) fieldBytes += (record.key?.length ?? 0) + (record.value?.length ?? 0)
      records += batch.records.length
      batches++
    }
    offset = chunk.nextOffset
    if (offset >= nextReport) {
      progress(`scan: ${fmt(offset)}/${fmt(end)}`)
      nextReport += end / 10
    }
  }
  const ms = performance.now() - started
  check(
    fieldBytes === records * (KEY_BYTES + VALUE_BYTES),
    `scan saw ${fieldBytes} key+value bytes in ${records} records`,
  )
  return { ms, cpuS: cpuSeconds(cpu), records, batches }
}

/** Times opening a closed log; `crash` removes the clean-shutdown marker first. */
async function timeReopen(open: () => Promise<Log>, dir: string, crash: boolean): Promise<{ ms: number; log: Log }> {
  if (crash) await unlink(join(dir, CLEAN_SHUTDOWN_FILE))
  const started = performance.now()
  const log = await open()
  return { ms: performance.now() - started, log }
}

export default async function logBench(argv: string[]): Promise<void> {
  const args = parseArgs(argv)
  const rss = startRssSampler()
  const root = await mkdtemp(join(args.dir, 'tributary-log-bench-'))
  const dir = join(root, 'bench-0')
  const recorder = openRecorder()
  const open = (): Promise<Log> => openFsLog({ dir, name: 'bench-0', logger: recorder.logger })
  let log: Log | undefined
  try {
    const source = new RecordSource(args.records)
    const total = source.records
    progress(`${fmt(total)} records in ${fmt(source.batches)} batches; data in ${root}`)

    // Before the log exists, so none of the log's writeback overlaps it.
    progress('raw write: 1 GiB of 1 MiB writes + fdatasync')
    const raw = await measureRawWrite(root)
    progress(`raw write: ${fmt(raw.mibPerSecond)} MiB/s`)

    progress('encode')
    const encode = await encodeAll(source)
    const encodeRecordsPerS = perSecond(total, encode.ms)
    progress(`encode: ${fmt(encodeRecordsPerS)} records/s`)

    progress('append')
    log = await open()
    const append = await appendAll(log, source)
    const logBytes = log.sizeBytes
    const segmentCount = log.segmentCount
    check(log.logEndOffset === total, `log end offset ${log.logEndOffset} after appending ${total} records`)
    check(logBytes === encode.bytes, `log holds ${logBytes} bytes, ${encode.bytes} were encoded`)
    const appendRecordsPerS = perSecond(total, append.ms)
    const appendMibPerS = perSecond(logBytes / MIB, append.ms)
    const appendPctOfRaw = (100 * appendMibPerS) / raw.mibPerSecond
    progress(`append: ${fmt(appendRecordsPerS)} records/s, ${fmt(appendMibPerS)} MiB/s`)

    progress('scan')
    const scan = await scanAll(log)
    check(
      scan.records === total && scan.batches === source.batches,
      `scan decoded ${scan.records} records in ${scan.batches} batches`,
    )
    const scanRecordsPerS = perSecond(total, scan.ms)
    progress(`scan: ${fmt(scanRecordsPerS)} records/s`)

    const reopened: Record<'clean' | 'crash', number> = { clean: 0, crash: 0 }
    for (const kind of ['clean', 'crash'] as const) {
      await log.close()
      log = undefined
      const { ms, log: opened } = await timeReopen(open, dir, kind === 'crash')
      log = opened
      reopened[kind] = ms
      check(log.logEndOffset === total, `${kind} reopen: log end offset ${log.logEndOffset}, expected ${total}`)
      check(recorder.lastOpenClean() === (kind === 'clean'), `${kind} reopen took the wrong path`)
    }
    await log.close()
    log = undefined
    progress(`reopen: clean ${reopened.clean.toFixed(1)} ms, after crash ${reopened.crash.toFixed(1)} ms`)
    for (const complaint of recorder.complaints) progress(`log said ${complaint}`)

    const memory = rss.stop()
    const peakRssMb = Math.max(memory.sampledMb, memory.maxRssMb)
    const met = {
      encode: encodeRecordsPerS >= TARGETS.encodeRecordsPerS,
      appendRecords: appendRecordsPerS >= TARGETS.appendRecordsPerS,
      appendPct: appendPctOfRaw >= TARGETS.appendPctOfRaw,
      scan: scanRecordsPerS >= TARGETS.scanRecordsPerS,
      reopenClean: reopened.clean <= TARGETS.reopenCleanMs,
      reopenCrash: reopened.crash <= TARGETS.reopenCrashMs,
      peakRss: peakRssMb <= TARGETS.peakRssMb,
    }
    const mark = (ok: boolean): string => (ok ? 'met' : 'MISSED')
    const size = `log ${(logBytes / 1e9).toFixed(2)} GB`
    const rows: Row[] = [
      {
        metric: 'encode',
        value: Math.round(encodeRecordsPerS),
        unit: 'records/s',
        reference: `target ≥ 3,000,000: ${mark(met.encode)}`,
      },
      {
        metric: 'append',
        value: Math.round(appendRecordsPerS),
        unit: 'records/s',
        reference: `target ≥ 2,000,000: ${mark(met.appendRecords)}`,
      },
      {
        metric: 'append',
        value: Math.round(appendMibPerS),
        unit: 'MiB/s',
        reference: `${appendPctOfRaw.toFixed(0)}% of raw write, target ≥ 50%: ${mark(met.appendPct)}`,
      },
      {
        metric: 'raw write',
        value: Math.round(raw.mibPerSecond),
        unit: 'MiB/s',
        reference: '1 GiB of 1 MiB writes + 1 fdatasync',
      },
      {
        metric: 'scan',
        value: Math.round(scanRecordsPerS),
        unit: 'records/s',
        reference: `target ≥ 3,000,000: ${mark(met.scan)}`,
      },
      {
        metric: 'reopen, clean',
        value: round2(reopened.clean),
        unit: 'ms',
        reference: `target ≤ 1,000 (${size}): ${mark(met.reopenClean)}`,
      },
      {
        metric: 'reopen, crash',
        value: round2(reopened.crash),
        unit: 'ms',
        reference: `target ≤ 3,000 (${size}): ${mark(met.reopenCrash)}`,
      },
      {
        metric: 'log size',
        value: logBytes,
        unit: 'bytes',
        reference: `${segmentCount} segment(s), ${fmt(total)} records`,
      },
      {
        metric: 'peak RSS',
        value: Math.round(peakRssMb),
        unit: 'MiB',
        reference: `target ≤ 300: ${mark(met.peakRss)}`,
      },
    ]
    printTable(
      `log (fs backend): ${fmt(total)} records, ${KEY_BYTES} B keys, ${VALUE_BYTES} B values, ${BATCH_RECORDS} per batch`,
      rows,
    )
    writeResults('log', {
      encode_records_per_s: Math.round(encodeRecordsPerS),
      append_records_per_s: Math.round(appendRecordsPerS),
      append_mb_per_s: round2(appendMibPerS),
      raw_write_mb_per_s: round2(raw.mibPerSecond),
      append_pct_of_raw: round2(appendPctOfRaw),
      scan_records_per_s: Math.round(scanRecordsPerS),
      reopen_clean_ms: round2(reopened.clean),
      reopen_crash_ms: round2(reopened.crash),
      log_bytes: logBytes,
      peak_rss_mb: round2(peakRssMb),
      peak_rss_sampled_mb: round2(memory.sampledMb),
      max_rss_mb: round2(memory.maxRssMb),
      mb_unit: 'MiB (2^20 bytes)',
      records: total,
      batches: source.batches,
      batch_records: BATCH_RECORDS,
      key_bytes: KEY_BYTES,
      value_bytes: VALUE_BYTES,
      segment_count: segmentCount,
      encode_sample_records: total,
      encode_s: round2(encode.ms / 1000),
      append_s: round2(append.ms / 1000),
      append_flush_ms: round2(append.flushMs),
      append_phase_wall_s: round2(append.wallMs / 1000),
      append_phase_cpu_s: round2(append.cpuS),
      scan_s: round2(scan.ms / 1000),
      scan_cpu_s: round2(scan.cpuS),
      scan_read_max_bytes: READ_MAX_BYTES,
      raw_write_bytes: raw.bytes,
      raw_write_s: round2(raw.seconds),
      log_over_1gb: logBytes >= 1e9,
      encode_target_met: met.encode,
      append_target_met: met.appendRecords && met.appendPct,
      scan_target_met: met.scan,
      reopen_clean_target_met: met.reopenClean,
      reopen_crash_target_met: met.reopenCrash,
      peak_rss_target_met: met.peakRss,
    })
  } finally {
    rss.stop()
    await log?.close()
    await rm(root, { recursive: true, force: true })
  }
}
