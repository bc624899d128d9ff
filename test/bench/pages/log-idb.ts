/**
 * Page side of `npm run bench -- log-idb` (test/bench/log-idb.ts builds it with Vite and
 * drives it in Chromium). Exposes `window.runLogIdbBench(options)`, which runs, in order:
 * 1. raw: plain `idb` puts of pre-encoded batches (one transaction per 1 MiB of rows), this
 *    browser's IndexedDB write speed and the reference for append MiB/s;
 * 2. append: batches of 1,000 records (16 B keys, 100 B values) encoded with
 *    encodeRecordBatchSync and appended with appendAsLeader to an IndexedDB log; only the
 *    appendAsLeader calls and the final flush are timed;
 * 3. scan: the whole log read back from offset 0, every record decoded;
 * 4. reopen after a clean close.
 * Every database it makes is deleted at the end.
 */
import { deleteIdbDatabase, openIdbLog } from '@tributary/log/idb'
import { decodeRecordBatchSync, encodeRecordBatchSync, iterateBatches, type RecordInput } from '@tributary/wire'
import { deleteDB, openDB } from 'idb'

export interface LogIdbBenchOptions {
  /** Stop appending at this many records... */
  maxRecords: number
  /** ...or once appending has taken this long, whichever comes first. */
  maxAppendSeconds: number
  /** Bytes written by the raw IndexedDB reference. */
  rawBytes: number
  readMaxBytes: number
}

export interface LogIdbBenchFigures {
  records: number
  batches: number
  logBytes: number
  segmentCount: number
  appendMs: number
  flushMs: number
  scanMs: number
  scanRecords: number
  rawBytes: number
  rawMs: number
  reopenCleanMs: number
  quotaBytes: number
  usageBeforeBytes: number
  userAgent: string
}

declare global {
  interface Window {
    runLogIdbBench(options: LogIdbBenchOptions): Promise<LogIdbBenchFigures>
  }
}

const KEY_BYTES = 16
const VALUE_BYTES = 100
const BATCH_RECORDS = 1000
/** Distinct random record sets the batches cycle through. */
const RING = 64
const RAW_TX_BYTES = 2 ** 20
const LOG_DB = 'tributary-bench-log'
const RAW_DB = 'tributary-bench-raw'

/** RING sets of BATCH_RECORDS records whose keys and values are views of random bytes. */
function recordRing(): RecordInput[][] {
  const recordBytes = KEY_BYTES + VALUE_BYTES
  const pool = new Uint8Array(RING * BATCH_RECORDS * recordBytes)
  // getRandomValues fills at most 65,536 bytes a call.
  for (let at = 0; at < pool.length; at += 65_536) crypto.getRandomValues(pool.subarray(at, at + 65_536))
  const ring: RecordInput[][] = []
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
    ring.push(set)
  }
  return ring
}

function batchRecords(ring: RecordInput[][], b: number, t0: number): RecordInput[] {
  const set = ring[b % RING]!
  for (let i = 0; i < set.length; i++) set[i]!.timestamp = t0 + b * BATCH_RECORDS + i
  return set
}

/** Plain idb puts of the same kind of bytes, one transaction per 1 MiB of rows. */
async function rawPuts(batches: readonly Uint8Array[], totalBytes: number): Promise<{ bytes: number; ms: number }> {
  await deleteDB(RAW_DB)
  const db = await openDB(RAW_DB, 1, {
    upgrade(database) {
      database.createObjectStore('rows')
    },
  })
  let bytes = 0
  let key = 0
  const started = performance.now()
  while (bytes < totalBytes) {
    const tx = db.transaction('rows', 'readwrite', { durability: 'relaxed' })
    const store = tx.objectStore('rows')
    const puts: Promise<unknown>[] = []
    let txBytes = 0
    while (txBytes < RAW_TX_BYTES) {
      const batch = batches[key % batches.length]!
      // A copy per row, as the log store makes: each row owns its buffer.
      puts.push(store.put(batch.slice().buffer, key++))
      txBytes += batch.length
    }
    await Promise.all([...puts, tx.done])
    bytes += txBytes
  }
  const ms = performance.now() - started
  db.close()
  await deleteDB(RAW_DB)
  return { bytes, ms }
}

window.runLogIdbBench = async (options: LogIdbBenchOptions): Promise<LogIdbBenchFigures> => {
  const estimate = await navigator.storage.estimate()
  const quota = estimate.quota ?? 0
  const usage = estimate.usage ?? 0
  const ring = recordRing()
  const t0 = Date.now()
  const sample = Array.from({ length: RING }, (_, r) => encodeRecordBatchSync({ records: ring[r]! }))
  const batchBytes = sample[0]!.length
  // Keep both databases well under the quota (they exist one after the other).
  const budget = Math.max(0, (quota - usage) * 0.5)
  const maxRecords = Math.min(options.maxRecords, Math.floor(budget / batchBytes) * BATCH_RECORDS)
  const raw = await rawPuts(sample, Math.min(options.rawBytes, budget))

  await deleteIdbDatabase(LOG_DB)
  let log = await openIdbLog({ name: 'bench-0', dbName: LOG_DB })
  try {
    const maxBatches = Math.ceil(maxRecords / BATCH_RECORDS)
    let appendMs = 0
    let expected = 0
    let b = 0
    for (; b < maxBatches && appendMs < options.maxAppendSeconds * 1000; b++) {
      // Encoded afresh: the log takes ownership of the bytes and stamps offsets into them.
      const bytes = encodeRecordBatchSync({ records: batchRecords(ring, b, t0) })
      const started = performance.now()
      const result = await log.appendAsLeader(bytes, 0)
      appendMs += performance.now() - started
      if (result.firstOffset !== expected)
        throw new Error(`batch ${b} got offset ${result.firstOffset}, expected ${expected}`)
      expected = result.lastOffset + 1
    }
    const flushStarted = performance.now()
    await log.flush()
    const flushMs = performance.now() - flushStarted
    const records = log.logEndOffset

    log.setHighWatermark(records)
    const scanStarted = performance.now()
    let scanRecords = 0
    let offset = 0
    while (offset < records) {
      const result = await log.read(offset, { maxBytes: options.readMaxBytes })
      if (result.batchCount === 0) throw new Error(`scan stalled at offset ${offset}`)
      for (const { pos } of iterateBatches(result.records)) {
        const decoded = decodeRecordBatchSync(result.records, pos, { verifyCrc: false })
        for (const record of decoded.records) {
          if (record.offset !== scanRecords)
            throw new Error(`scan found offset ${record.offset}, expected ${scanRecords}`)
          if (record.key?.length !== KEY_BYTES || record.value?.length !== VALUE_BYTES)
            throw new Error('scan found a bad record')
          scanRecords++
        }
      }
      offset = result.nextOffset
    }
    const scanMs = performance.now() - scanStarted

    const logBytes = log.sizeBytes
    const segmentCount = log.segmentCount
    await log.close()
    const reopenStarted = performance.now()
    log = await openIdbLog({ name: 'bench-0', dbName: LOG_DB })
    const reopenCleanMs = performance.now() - reopenStarted
    if (log.logEndOffset !== records) throw new Error(`reopened at ${log.logEndOffset}, expected ${records}`)

    return {
      records,
      batches: b,
      logBytes,
      segmentCount,
      appendMs,
      flushMs,
      scanMs,
      scanRecords,
      rawBytes: raw.bytes,
      rawMs: raw.ms,
      reopenCleanMs,
      quotaBytes: quota,
      usageBeforeBytes: usage,
      userAgent: navigator.userAgent,
    }
  } finally {
    await log.close()
    await deleteIdbDatabase(LOG_DB)
  }
}
