/**
 * `npm run bench -- browser [--records N] [--outbox N] [--per-send N] [--profile DIR] [--only outbox]`: browser tabs as clients
 * and peers of a mesh of three peer processes on loopback (fs storage, temp dirs), a topic of one
 * partition with replication factor 3, records of a 16-byte key and a 100-byte value.
 *
 * Test/bench/pages/browser.ts is built with Vite and opened in two pages, A and B, of one Debian
 * Chromium (fresh profile). Steps, each timed in the page and compared with a reference from the
 * same run:
 * 1. produce: page A's SDK producer (light client over WebSockets, idempotent, acks=all) sends N
 *    records (default 200,000), `--per-send` (1,000) a `send` call, up to 5 calls in flight —
 *    reference: the same producer and sends from this Node process over TCP;
 * 2. consume: page A reads them back from offset 0 — reference: the same consumer from Node;
 * 3. outbox drain: page A opens an outbox (one record sent to prove it is connected), the context
 *    goes offline (`navigator.onLine` false: the outbox tries nothing) and the outbox's WebSockets
 *    are closed (as a lost network closes them; Chromium's emulation does not), `--outbox` records
 *    (default 50,000) are queued in IndexedDB, the context goes online, and the drain is timed
 *    from the page's `online` event until every record is acknowledged (acks=all) — reference:
 *    step 1 (the same records through the producer while online);
 * 4. WebRTC replication: page A's browser peer observes the partition (replicated from the Node
 *    leader over WebSockets into IndexedDB: the reference), page B's browser peer dials A's WebRTC
 *    address through a Node relay and copies the partition from A's replica into its own
 *    IndexedDB log over the direct connection.
 * Each step also prints the CPU cores used by Chromium, the peers, this process and the rest of
 * the machine. `--profile DIR` writes a CPU profile of the working page per step
 * (_browser-profile.ts) and prints its top self-time functions. Writes bench-results/browser.json.
 * `--only outbox` runs step 3 alone (for working on the drain) and writes no results file.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import { join, resolve } from 'node:path'
import { Tributary } from '@tributary/client'
import { type BrowserContext, chromium, type Page } from 'playwright-core'
import { chromiumArgs, chromiumPath } from '../chromium.ts'
import { type BrowserStepCpu, browserCoresLine, browserStepCpu } from './_browser-cpu.ts'
import { consumeFromNode, produceFromNode } from './_browser-node-client.ts'
import { buildBrowserPage, serveBrowserPage } from './_browser-page.ts'
import { profiled } from './_browser-profile.ts'
import { MeshCluster } from './_mesh-cluster.ts'
import { printTable, type Row, writeResults } from './report.ts'

const OUTBOX_TOPIC = 'bench-browser-outbox'
const TARGETS = { produce: 50_000, consume: 100_000, webrtc: 20_000, outbox: 50_000 }
const IN_FLIGHT = 5
const REPLICATION_FACTOR = 3
const RECORD_BYTES = 16 + 100
const STEP_TIMEOUT_MS = 180_000
const USAGE =
  'usage: npm run bench -- browser [--records N] [--outbox N] [--per-send N] [--profile DIR] [--only outbox]'

interface Args {
  records: number
  outbox: number
  perSend: number
  /** Where each step's page CPU profile goes; unset: no profiling. */
  profile: string | undefined
  /** Run only this step (no results file). */
  only: 'outbox' | undefined
}

function parseArgs(argv: string[]): Args {
  const args: Args = { records: 200_000, outbox: 50_000, perSend: 1000, profile: undefined, only: undefined }
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value = ''] = [argv[i], argv[i + 1]]
    const n = Number(value.replaceAll('_', ''))
    const count = Number.isSafeInteger(n) && n > 0
    if (flag === '--records' && count) args.records = n
    else if (flag === '--outbox' && count) args.outbox = n
    else if (flag === '--per-send' && count) args.perSend = n
    else if (flag === '--profile' && value !== '') args.profile = resolve(value)
    else if (flag === '--only' && value === 'outbox') args.only = value
    else throw new Error(`bad argument '${flag} ${value}'; ${USAGE}`)
  }
  return args
}

function progress(msg: string): void {
  process.stderr.write(`[browser bench ${(performance.now() / 1000).toFixed(1)}s] ${msg}\n`)
}

/** Runs `step`, failing after STEP_TIMEOUT_MS; returns its result with the CPU used meanwhile. */
async function measured<T>(
  what: string,
  pids: readonly number[],
  step: () => Promise<T>,
): Promise<{ result: T; cpu: BrowserStepCpu; seconds: number }> {
  const cpu = browserStepCpu(pids)
  const started = performance.now()
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`${what}: not done in ${STEP_TIMEOUT_MS / 1000} s`)), STEP_TIMEOUT_MS)
  })
  try {
    const result = await Promise.race([step(), timeout])
    const seconds = (performance.now() - started) / 1000
    const used = cpu()
    progress(`${what}: ${(seconds).toFixed(2)} s wall; ${browserCoresLine(used, seconds)}`)
    return { result, cpu: used, seconds }
  } finally {
    clearTimeout(timer)
  }
}

/** The WebSocket multiaddrs a page on 127.0.0.1 dials, from each peer's /bootstrap.json. */
async function webSocketAddresses(cluster: MeshCluster): Promise<string[]> {
  const all: string[] = []
  for (const peer of cluster.peers) {
    const res = await fetch(`http://127.0.0.1:${peer.httpPort}/bootstrap.json`, { signal: AbortSignal.timeout(5000) })
    all.push(...((await res.json()) as { addresses: string[] }).addresses)
  }
  if (all.length === 0) throw new Error('no peer offers a WebSocket address')
  return all
}

async function highWatermark(mesh: Tributary, topic: string): Promise<number> {
  const [p0] = await mesh.admin().fetchTopicOffsets(topic)
  return Number(p0!.high)
}

async function openPage(context: BrowserContext, url: string, name: string): Promise<Page> {
  const page = await context.newPage()
  page.on('pageerror', (err) => progress(`page ${name} error: ${err.message}`))
  page.on('console', (msg) => {
    if (msg.type() === 'error') progress(`page ${name} console: ${msg.text()}`)
  })
  await page.goto(url)
  await page.waitForFunction(() => typeof window.browserBench === 'object')
  return page
}

const perS = (t: { records: number; ms: number }): number => Math.round(t.records / (t.ms / 1000))
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US')
const versus = (target: number, value: number): string =>
  `target ≥ ${fmt(target)}: ${value >= target ? 'met' : 'MISSED'}`
const cores = (m: { cpu: BrowserStepCpu; seconds: number }): string =>
  browserCoresLine(m.cpu, m.seconds).replace('CPU cores: ', 'cores ')

/**
 * Step 3: page A opens an outbox (connected: one record acknowledged), the context goes offline,
 * `args.outbox` records are queued, the context comes online; timed until all are acknowledged.
 */
async function outboxStep(args: Args, context: BrowserContext, a: Page, ws: string[], pids: readonly number[]) {
  progress(`outbox: ${fmt(args.outbox)} records queued offline`)
  await a.evaluate((o) => window.browserBench.outboxOpen(o), {
    bootstrap: ws,
    name: 'bench',
    maxRecords: args.outbox + 1,
    topic: OUTBOX_TOPIC,
  })
  await context.setOffline(true)
  await a.waitForFunction(() => !navigator.onLine)
  // Chromium's offline emulation keeps open WebSockets open; a lost network would not.
  const dropped = await a.evaluate(() => window.browserBench.dropConnections())
  progress(`offline: the outbox's ${dropped} WebSockets closed`)
  const queued = await a.evaluate((o) => window.browserBench.outboxEnqueue(o), {
    topic: OUTBOX_TOPIC,
    records: args.outbox,
    perEnqueue: args.perSend,
  })
  if (queued.pending !== args.outbox) throw new Error(`outbox holds ${queued.pending}, not ${args.outbox}`)
  await a.evaluate(() => window.browserBench.outboxArm())
  const drain = await measured('outbox drain', pids, async () => {
    await context.setOffline(false)
    return profiled(args.profile, 'outbox-drain', a, () =>
      a.evaluate((n) => window.browserBench.outboxDrained(n), args.outbox),
    )
  })
  const d = drain.result
  progress(
    `outbox drain: ${d.requests} produce requests, ${d.deliveries} batches acknowledged; first request ${d.firstRequestMs.toFixed(0)} ms and first acknowledgement ${d.firstDeliveryMs.toFixed(0)} ms after the online event; IndexedDB: unsealed read ${d.unsealedMs.toFixed(0)} ms, seal commit ${d.sealCommitMs.toFixed(0)} ms, acknowledged-batch commits ${d.ackCommitMs.toFixed(0)} ms, batch reads ${d.batchesMs.toFixed(0)} ms`,
  )
  for (const line of d.timeline) progress(`  drain ${line}`)
  return { queued, drain }
}

export default async function browserBench(argv: string[]): Promise<void> {
  const args = parseArgs(argv)
  const root = await mkdtemp(join(os.tmpdir(), 'tributary-browser-bench-'))
  let server: Awaited<ReturnType<typeof serveBrowserPage>> | undefined
  let cluster: MeshCluster | undefined
  let context: BrowserContext | undefined
  let admin: Tributary | undefined
  try {
    if (args.profile !== undefined) await mkdir(args.profile, { recursive: true })
    progress('building the page with Vite')
    await buildBrowserPage(join(root, 'page'), join(root, 'vite-cache'))
    server = await serveBrowserPage(join(root, 'page'))
    progress('starting 3 peer processes')
    cluster = await MeshCluster.start(join(root, 'peers'), 3)
    const pids = cluster.pids
    const ws = await webSocketAddresses(cluster)
    admin = await Tributary.connect({ bootstrap: cluster.peers.map((p) => p.address), connectionTimeout: 30_000 })
    const topics = { page: 'bench-browser', node: 'bench-browser-node', outbox: OUTBOX_TOPIC }
    await admin.admin().createTopics({
      topics: Object.values(topics).map((topic) => ({
        topic,
        numPartitions: 1,
        replicationFactor: REPLICATION_FACTOR,
      })),
    })

    context = await chromium.launchPersistentContext(join(root, 'profile'), {
      executablePath: chromiumPath(),
      args: chromiumArgs,
      headless: true,
      // Host ICE candidates for WebRTC on loopback (PLATFORM.md).
      permissions: ['microphone', 'camera'],
    })
    const a = await openPage(context, server.url, 'A')
    const b = await openPage(context, server.url, 'B')
    progress(`pages open in ${await a.evaluate(() => navigator.userAgent)}`)

    if (args.only === 'outbox') {
      const { queued, drain } = await outboxStep(args, context, a, ws, pids)
      const outboxEnd = await highWatermark(admin, topics.outbox)
      if (outboxEnd < args.outbox + 1)
        throw new Error(`the outbox topic ends at ${outboxEnd}, not ≥ ${args.outbox + 1}`)
      await a.evaluate(() => window.browserBench.cleanup())
      const drained = perS(drain.result)
      printTable(
        `browser outbox only: ${fmt(args.outbox)} records, ${fmt(args.perSend)} per enqueue (no results file)`,
        [
          { metric: 'outbox drain', value: drained, unit: 'records/s', reference: versus(TARGETS.outbox, drained) },
          { metric: '  outbox enqueue', value: perS(queued), unit: 'records/s', reference: 'offline, into IndexedDB' },
        ],
      )
      console.log(`  drain cores: ${cores(drain)}`)
      return
    }

    const { records, perSend } = args
    const produceArgs = { records, perSend, inFlight: IN_FLIGHT }
    progress(`reference: ${fmt(records)} records from Node`)
    const nodeProduce = await measured('Node produce', pids, () =>
      produceFromNode(admin!, { topic: topics.node, ...produceArgs }),
    )
    const nodeConsume = await measured('Node consume', pids, () =>
      consumeFromNode(admin!, { topic: topics.node, records }),
    )

    progress(`page A: ${fmt(records)} records`)
    await a.evaluate((bootstrap) => window.browserBench.connect(bootstrap), ws)
    const produce = await measured('page produce', pids, () =>
      profiled(args.profile, 'produce', a, () =>
        a.evaluate((o) => window.browserBench.produce(o), { topic: topics.page, ...produceArgs }),
      ),
    )
    const consume = await measured('page consume', pids, () =>
      profiled(args.profile, 'consume', a, () =>
        a.evaluate((o) => window.browserBench.consume(o), { topic: topics.page, records }),
      ),
    )
    if (consume.result.records < records) throw new Error(`page consumed ${consume.result.records} of ${records}`)

    const { queued, drain } = await outboxStep(args, context, a, ws, pids)
    const outboxEnd = await highWatermark(admin, topics.outbox)
    if (outboxEnd < args.outbox + 1) throw new Error(`the outbox topic ends at ${outboxEnd}, not ≥ ${args.outbox + 1}`)

    progress('WebRTC: page A observes the partition, page B copies it from A')
    const untilOffset = await highWatermark(admin, topics.page)
    await a.evaluate((o) => window.browserBench.startPeer(o), { name: 'bench-a', bootstrap: ws })
    const observe = await measured('page A observes (WebSockets)', pids, () =>
      profiled(args.profile, 'observe', a, () =>
        a.evaluate((o) => window.browserBench.observe(o), { topic: topics.page, untilOffset }),
      ),
    )
    if (observe.result.records !== records) throw new Error(`A replicated ${observe.result.records} of ${records}`)
    const address = await a.evaluate(() => window.browserBench.rtcAddress())
    await b.evaluate((o) => window.browserBench.startPeer(o), { name: 'bench-b', bootstrap: ws })
    const webrtc = await measured('page B copies from A (WebRTC)', pids, () =>
      profiled(args.profile, 'webrtc-copy', b, () =>
        b.evaluate((o) => window.browserBench.replicateFrom(o), { address, topic: topics.page, untilOffset }),
      ),
    )
    progress(`WebRTC copy: ${fmt(webrtc.result.bytes ?? 0)} bytes, ${webrtc.result.retries ?? 0} reads retried`)
    for (const e of webrtc.result.dialErrors ?? []) progress(`  a dial failed: ${e}`)
    for (const e of webrtc.result.retryErrors ?? []) progress(`  a read failed at ${e}`)
    if (webrtc.result.records !== records) throw new Error(`B copied ${webrtc.result.records} of ${records}`)

    for (const page of [a, b]) await page.evaluate(() => window.browserBench.cleanup())

    const figures = {
      produce: perS(produce.result),
      nodeProduce: perS({ records, ms: nodeProduce.result }),
      consume: perS(consume.result),
      nodeConsume: perS({ records, ms: nodeConsume.result }),
      outbox: perS(drain.result),
      enqueue: perS(queued),
      webrtc: perS(webrtc.result),
      observe: perS(observe.result),
    }
    const rows: Row[] = [
      {
        metric: 'browser produce',
        value: figures.produce,
        unit: 'records/s',
        reference: versus(TARGETS.produce, figures.produce),
      },
      {
        metric: '  Node produce',
        value: figures.nodeProduce,
        unit: 'records/s',
        reference: 'reference: same producer from Node (TCP)',
      },
      {
        metric: 'browser consume',
        value: figures.consume,
        unit: 'records/s',
        reference: versus(TARGETS.consume, figures.consume),
      },
      {
        metric: '  Node consume',
        value: figures.nodeConsume,
        unit: 'records/s',
        reference: 'reference: same consumer from Node (TCP)',
      },
      {
        metric: 'outbox drain',
        value: figures.outbox,
        unit: 'records/s',
        reference: versus(TARGETS.outbox, figures.outbox),
      },
      { metric: '  outbox enqueue', value: figures.enqueue, unit: 'records/s', reference: 'offline, into IndexedDB' },
      {
        metric: 'WebRTC replicate',
        value: figures.webrtc,
        unit: 'records/s',
        reference: versus(TARGETS.webrtc, figures.webrtc),
      },
      {
        metric: '  observe over WS',
        value: figures.observe,
        unit: 'records/s',
        reference: 'reference: A replicating from the Node leader',
      },
    ]
    printTable(
      `browser (Chromium, 3 peers, RF ${REPLICATION_FACTOR}, 1 partition): ${fmt(records)} records (outbox ${fmt(args.outbox)}), 16 B keys, 100 B values, ${fmt(perSend)} per send`,
      rows,
    )
    const steps = { produce, nodeProduce, consume, nodeConsume, drain, observe, webrtc }
    console.log('\nCPU cores per step (browser = Chromium, bench = this process: driver and Node reference clients)')
    for (const [name, m] of Object.entries(steps)) console.log(`  ${name.padEnd(12)} ${cores(m)}`)

    const results: Record<string, number | string | boolean> = {
      browser_produce_records_per_s: figures.produce,
      browser_consume_records_per_s: figures.consume,
      webrtc_replicate_records_per_s: figures.webrtc,
      outbox_drain_records_per_s: figures.outbox,
      node_produce_records_per_s: figures.nodeProduce,
      node_consume_records_per_s: figures.nodeConsume,
      outbox_enqueue_records_per_s: figures.enqueue,
      observe_ws_records_per_s: figures.observe,
      browser_produce_mb_per_s: Math.round(((figures.produce * RECORD_BYTES) / 2 ** 20) * 100) / 100,
      webrtc_replicate_bytes: webrtc.result.bytes ?? 0,
      webrtc_read_retries: webrtc.result.retries ?? 0,
      webrtc_failed_dials: webrtc.result.dialErrors?.length ?? 0,
      outbox_drain_requests: drain.result.requests,
      outbox_drain_first_request_ms: Math.round(drain.result.firstRequestMs),
      outbox_drain_unsealed_read_ms: Math.round(drain.result.unsealedMs),
      outbox_drain_seal_commit_ms: Math.round(drain.result.sealCommitMs),
      outbox_drain_ack_commits_ms: Math.round(drain.result.ackCommitMs),
      records: records,
      outbox_records: args.outbox,
      per_send: perSend,
      in_flight: IN_FLIGHT,
      produce_target_met: figures.produce >= TARGETS.produce,
      consume_target_met: figures.consume >= TARGETS.consume,
      webrtc_target_met: figures.webrtc >= TARGETS.webrtc,
      outbox_target_met: figures.outbox >= TARGETS.outbox,
      browser: await a.evaluate(() => navigator.userAgent),
    }
    for (const [name, m] of Object.entries(steps)) {
      for (const side of ['browser', 'peers', 'bench', 'others'] as const) {
        const used = m.cpu[side]
        if (used !== undefined) results[`${name}_cores_${side}`] = Math.round((used / m.seconds) * 100) / 100
      }
    }
    writeResults('browser', results)
  } finally {
    await context?.close().catch(() => {})
    await admin?.disconnect().catch(() => {})
    await cluster?.stop()
    await server?.close()
    await rm(root, { recursive: true, force: true })
  }
}
