/**
 * The producer process of `npm run bench -- peer` (see peer.ts): a client libp2p node in its own
 * process that measures one peer process over loopback (_peer-phases.ts) and prints one JSON line
 * (ProducerOutput) on stdout; progress goes to stderr.
 *
 *   node --conditions=source --import tsx test/bench/_peer-producer.ts <peer multiaddr> <phases>
 *     [--seconds N] [--partitions N] [--window N] [--fetch-max-bytes N] [--latency-batch N]
 *     [--peer-pid PID] [--topic NAME]
 *
 * <phases>: comma-separated raw, produce, fetch, roundtrip, latency, run in the order given, or `all`
 * (raw,produce,fetch,roundtrip,latency,raw: the raw stream is measured before and after the log
 * work, the raw round trip just before the produce latency it is the floor of).
 * `--topic` reuses a topic an earlier run left on the peer (to profile one phase on its own).
 *
 * The process applies `tuneGcForStreaming()` (@tributary/client/gc-tuning), as the README advises
 * for a process that produces at volume (without it, a major GC ran every ~0.2 s while producing).
 */
import '@tributary/mesh/polyfills'
import { multiaddr } from '@multiformats/multiaddr'
import { Broker } from '@tributary/client'
import { tuneGcForStreaming } from '@tributary/client/gc-tuning'
import { createMeshNode } from '@tributary/mesh/node'
import {
  ACKS,
  createTopic,
  type FetchResult,
  fetchPhase,
  KEY_BYTES,
  LATENCY_RECORDS_PER_S,
  type LatencyResult,
  latencyPhase,
  type PhaseContext,
  type ProduceResult,
  producePhase,
  RAW_CHUNK_BYTES,
  type RawResult,
  type RoundTripResult,
  rawPhase,
  roundTripPhase,
  THROUGHPUT_BATCH_RECORDS,
  VALUE_BYTES,
} from './_peer-phases.ts'

tuneGcForStreaming()

const USAGE =
  'usage: _peer-producer.ts <peer multiaddr> <raw,produce,fetch,roundtrip,latency | all> [--seconds N] [--partitions N] ' +
  '[--window N] [--fetch-max-bytes N] [--latency-batch N] [--peer-pid PID] [--topic NAME]'
const PHASES = ['raw', 'produce', 'fetch', 'roundtrip', 'latency'] as const
type Phase = (typeof PHASES)[number]

const DEFAULTS = {
  seconds: 10,
  partitions: 1,
  window: 32,
  /** 4 MiB fetched faster than 2, 8 or 16 MiB here (less to copy and collect per response). */
  fetchMaxBytes: 4 * 2 ** 20,
  /** 10 records every 1 ms. */
  latencyBatchRecords: 10,
}

export interface ProducerOutput {
  config: {
    topic: string
    partitions: number
    keyBytes: number
    valueBytes: number
    acks: number
    throughputBatchRecords: number
    produceWindow: number
    fetchMaxBytes: number
    latencyBatchRecords: number
    latencyRecordsPerS: number
    rawChunkBytes: number
  }
  raw: RawResult[]
  produce?: ProduceResult
  fetch?: FetchResult
  roundTrip?: RoundTripResult
  latency?: LatencyResult
}

type Args = Omit<PhaseContext, 'node' | 'broker' | 'topic'> & { phases: Phase[]; topic: string | undefined }

function parseArgs(argv: string[]): Args {
  const [address, phaseList, ...rest] = argv
  if (address === undefined || phaseList === undefined) throw new Error(USAGE)
  const phases = (phaseList === 'all' ? 'raw,produce,fetch,roundtrip,latency,raw' : phaseList).split(',') as Phase[]
  for (const phase of phases) if (!PHASES.includes(phase)) throw new Error(`unknown phase '${phase}'; ${USAGE}`)
  const args: Args = { ...DEFAULTS, address, phases, peerPid: undefined, topic: undefined }
  for (let i = 0; i < rest.length; i += 2) {
    const [flag, value] = [rest[i], rest[i + 1]]
    const n = Number(value)
    const count = Number.isSafeInteger(n) && n > 0
    if (flag === '--topic' && value !== undefined) args.topic = value
    else if (flag === '--seconds' && n > 0) args.seconds = n
    else if (flag === '--partitions' && count) args.partitions = n
    else if (flag === '--window' && count) args.window = n
    else if (flag === '--fetch-max-bytes' && count) args.fetchMaxBytes = n
    else if (flag === '--latency-batch' && count) args.latencyBatchRecords = n
    else if (flag === '--peer-pid' && count) args.peerPid = n
    else throw new Error(`bad argument '${flag} ${value ?? ''}'; ${USAGE}`)
  }
  return args
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2))
  const node = await createMeshNode({ host: '127.0.0.1', tcpPort: 0, wsPort: false })
  const broker = new Broker(node, multiaddr(args.address), { requestTimeoutMs: 30_000 })
  const ctx: PhaseContext = { ...args, node, broker, topic: args.topic ?? `bench-peer-${Date.now()}` }
  const output: ProducerOutput = {
    config: {
      topic: ctx.topic,
      partitions: ctx.partitions,
      keyBytes: KEY_BYTES,
      valueBytes: VALUE_BYTES,
      acks: ACKS,
      throughputBatchRecords: THROUGHPUT_BATCH_RECORDS,
      produceWindow: ctx.window,
      fetchMaxBytes: ctx.fetchMaxBytes,
      latencyBatchRecords: ctx.latencyBatchRecords,
      latencyRecordsPerS: LATENCY_RECORDS_PER_S,
      rawChunkBytes: RAW_CHUNK_BYTES,
    },
    raw: [],
  }
  try {
    if (args.phases.some((p) => p !== 'raw' && p !== 'roundtrip')) await createTopic(ctx)
    for (const phase of args.phases) {
      if (phase === 'raw') output.raw.push(await rawPhase(ctx))
      else if (phase === 'produce') output.produce = await producePhase(ctx)
      else if (phase === 'fetch') output.fetch = await fetchPhase(ctx)
      else if (phase === 'roundtrip') output.roundTrip = await roundTripPhase(ctx)
      else output.latency = await latencyPhase(ctx)
    }
  } finally {
    broker.close()
    await node.stop()
  }
  process.stdout.write(`${JSON.stringify(output)}\n`)
}

await main()
