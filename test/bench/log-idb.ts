/**
 * `npm run bench -- log-idb [--records N] [--seconds S]`: the IndexedDB partition log in real
 * Chromium.
 *
 * Builds test/bench/pages/log-idb.ts with Vite (workspace packages through the `source`
 * condition) into a temp dir, serves it on 127.0.0.1, opens it in Debian Chromium with a fresh
 * profile, and runs the page's benchmark (phases described there): raw IndexedDB puts as this
 * browser's reference, then append (records of a 16-byte key and a 100-byte value in batches
 * of 1,000, until N records (default 2,000,000) or S seconds (default 10) of appending,
 * whichever comes first), scan, and a clean reopen. Browser, server and temp dirs are removed
 * at the end. MiB means 2^20 bytes throughout, `_mb_` keys included.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type BrowserContext, chromium } from 'playwright-core'
import { build, defaultClientConditions } from 'vite'
import { chromiumArgs, chromiumPath } from '../chromium.ts'
import { type ServedPages, servePages } from '../helpers/static-pages.ts'
import type { LogIdbBenchFigures, LogIdbBenchOptions } from './pages/log-idb.ts'
import { printTable, type Row, writeResults } from './report.ts'

const MIB = 2 ** 20
const TARGET_APPEND_RECORDS_PER_S = 100_000
const PAGE_TIMEOUT_MS = 10 * 60_000
const USAGE = 'usage: npm run bench -- log-idb [--records N] [--seconds S]'
const pagesDir = fileURLToPath(new URL('./pages/', import.meta.url))

function parseArgs(argv: string[]): LogIdbBenchOptions {
  const options: LogIdbBenchOptions = {
    maxRecords: 2_000_000,
    maxAppendSeconds: 10,
    rawBytes: 256 * MIB,
    readMaxBytes: 4 * MIB,
  }
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]]
    const n = Number(value?.replaceAll('_', ''))
    if (flag === '--records' && Number.isSafeInteger(n) && n > 0) options.maxRecords = n
    else if (flag === '--seconds' && n > 0) options.maxAppendSeconds = n
    else throw new Error(`bad argument '${flag} ${value ?? ''}'; ${USAGE}`)
  }
  return options
}

function progress(msg: string): void {
  process.stderr.write(`[log-idb bench ${(performance.now() / 1000).toFixed(1)}s] ${msg}\n`)
}

async function buildPage(outDir: string, cacheDir: string): Promise<void> {
  await build({
    configFile: false,
    root: pagesDir,
    cacheDir,
    logLevel: 'warn',
    resolve: { conditions: ['source', ...defaultClientConditions] },
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2023',
      rolldownOptions: { input: join(pagesDir, 'log-idb.html') },
    },
  })
}

async function runInChromium(
  url: string,
  profileDir: string,
  options: LogIdbBenchOptions,
): Promise<LogIdbBenchFigures> {
  let context: BrowserContext | undefined
  try {
    context = await chromium.launchPersistentContext(profileDir, {
      executablePath: chromiumPath(),
      args: chromiumArgs,
      headless: true,
    })
    const page = context.pages()[0] ?? (await context.newPage())
    page.on('pageerror', (err) => progress(`page error: ${err.message}`))
    page.on('console', (msg) => {
      if (msg.type() === 'error' || msg.type() === 'warning') progress(`page ${msg.type()}: ${msg.text()}`)
    })
    await page.goto(url)
    await page.waitForFunction(() => typeof window.runLogIdbBench === 'function')
    progress(`running in ${await page.evaluate(() => navigator.userAgent)}`)
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<never>((_, fail) => {
      timer = setTimeout(
        () => fail(new Error(`log-idb bench: page did not finish in ${PAGE_TIMEOUT_MS / 1000} s`)),
        PAGE_TIMEOUT_MS,
      )
    })
    try {
      return await Promise.race([page.evaluate((opts) => window.runLogIdbBench(opts), options), timeout])
    } finally {
      clearTimeout(timer)
    }
  } finally {
    await context?.close()
  }
}

const round2 = (n: number): number => Math.round(n * 100) / 100
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US')

export default async function logIdbBench(argv: string[]): Promise<void> {
  const options = parseArgs(argv)
  const root = await mkdtemp(join(os.tmpdir(), 'tributary-log-idb-bench-'))
  const outDir = join(root, 'page')
  let server: ServedPages | undefined
  try {
    progress('building the page with Vite')
    await buildPage(outDir, join(root, 'vite-cache'))
    server = await servePages(outDir, 'log-idb.html')
    progress(
      `serving ${server.url}; appending up to ${fmt(options.maxRecords)} records or ${options.maxAppendSeconds} s`,
    )
    const figures = await runInChromium(server.url, join(root, 'profile'), options)

    const appendS = (figures.appendMs + figures.flushMs) / 1000
    const appendRecordsPerS = figures.records / appendS
    const appendMibPerS = figures.logBytes / MIB / appendS
    const rawMibPerS = figures.rawBytes / MIB / (figures.rawMs / 1000)
    const scanRecordsPerS = figures.scanRecords / (figures.scanMs / 1000)
    const scanMibPerS = figures.logBytes / MIB / (figures.scanMs / 1000)
    const appendPctOfRaw = (100 * appendMibPerS) / rawMibPerS
    const met = appendRecordsPerS >= TARGET_APPEND_RECORDS_PER_S
    const rows: Row[] = [
      {
        metric: 'append',
        value: Math.round(appendRecordsPerS),
        unit: 'records/s',
        reference: `target ≥ ${fmt(TARGET_APPEND_RECORDS_PER_S)}: ${met ? 'met' : 'MISSED'}`,
      },
      {
        metric: 'append',
        value: round2(appendMibPerS),
        unit: 'MiB/s',
        reference: `${round2(appendPctOfRaw)} % of raw IndexedDB`,
      },
      {
        metric: 'raw IndexedDB put',
        value: round2(rawMibPerS),
        unit: 'MiB/s',
        reference: `this browser's limit: plain idb, 1 MiB per transaction, ${fmt(figures.rawBytes / MIB)} MiB`,
      },
      {
        metric: 'scan',
        value: Math.round(scanRecordsPerS),
        unit: 'records/s',
        reference: `${round2(scanMibPerS)} MiB/s, every record decoded`,
      },
      { metric: 'flush (strict commit)', value: round2(figures.flushMs), unit: 'ms', reference: 'included in append' },
      {
        metric: 'reopen, clean',
        value: round2(figures.reopenCleanMs),
        unit: 'ms',
        reference: `${figures.segmentCount} segment(s)`,
      },
      { metric: 'log size', value: figures.logBytes, unit: 'bytes', reference: `${fmt(figures.records)} records` },
    ]
    printTable(
      `log (idb backend, Chromium): ${fmt(figures.records)} records, 16 B keys, 100 B values, 1,000 per batch`,
      rows,
    )
    writeResults('log-idb', {
      append_records_per_s: Math.round(appendRecordsPerS),
      append_mb_per_s: round2(appendMibPerS),
      raw_idb_mb_per_s: round2(rawMibPerS),
      append_pct_of_raw: round2(appendPctOfRaw),
      scan_records_per_s: Math.round(scanRecordsPerS),
      scan_mb_per_s: round2(scanMibPerS),
      flush_ms: round2(figures.flushMs),
      reopen_clean_ms: round2(figures.reopenCleanMs),
      log_bytes: figures.logBytes,
      records: figures.records,
      batches: figures.batches,
      segment_count: figures.segmentCount,
      append_s: round2(appendS),
      scan_s: round2(figures.scanMs / 1000),
      raw_bytes: figures.rawBytes,
      raw_s: round2(figures.rawMs / 1000),
      read_max_bytes: options.readMaxBytes,
      quota_bytes: figures.quotaBytes,
      browser: figures.userAgent,
      mb_unit: 'MiB (2^20 bytes)',
      append_target_met: met,
    })
  } finally {
    await server?.close()
    await rm(root, { recursive: true, force: true })
  }
}
