/**
 * The producer process of `npm run bench -- mesh` (see mesh.ts): a client libp2p node in its
 * own process, connected to every peer process, that creates a topic with replication factor 3,
 * runs the phases and sends its result (MeshProducerOutput) over the IPC channel it was started
 * with; progress goes to stderr. Produces go to each partition's leader (_mesh-router.ts).
 *
 *   node --conditions=source --import tsx test/bench/_mesh-producer.ts --peers <multiaddr,…>
 *     --peer-pids <pid,…> --phases <raw,acks-all,acks-1,latency,failover> [--seconds N]
 *     [--partitions N] [--window N] [--latency-batch N] [--rounds N]
 *
 * Phases run in the order given; the raw stream goes from this process to the first peer.
 * TRIBUTARY_BENCH_IN_FLIGHT=N (1–5, inherited from `npm run bench -- mesh`) sets the latency
 * phase's SDK producer `maxInFlightRequests` (default: the SDK's).
 *
 * The process applies `tuneGcForStreaming()` (@tributary/client/gc-tuning), as the README advises
 * for a process that produces at volume (without it, a major GC ran every ~0.2 s while producing).
 */
import '@tributary/mesh/polyfills'
import { type Message, Tributary } from '@tributary/client'
import { tuneGcForStreaming } from '@tributary/client/gc-tuning'
import { createMeshNode } from '@tributary/mesh/node'
import { TopicAlreadyExistsError } from '@tributary/wire'
import { failoverPhase, waitAgreed } from './_mesh-failover.ts'
import {
  DEFAULT_PHASES,
  type MeshProducerOutput,
  PHASES,
  type Phase,
  REPLICATION_FACTOR,
  sendResult,
} from './_mesh-ipc.ts'
import { LeaderRouter } from './_mesh-router.ts'
import {
  encodeRing,
  KEY_BYTES,
  LATENCY_RECORDS_PER_S,
  latencyPhase,
  type PhaseContext,
  producePhase,
  progress,
  RAW_CHUNK_BYTES,
  rawPhase,
  setProgressName,
  THROUGHPUT_BATCH_RECORDS,
  VALUE_BYTES,
} from './_peer-phases.ts'

tuneGcForStreaming()

interface Args {
  peers: string[]
  peerPids: number[]
  phases: Phase[]
  seconds: number
  partitions: number
  window: number
  latencyBatchRecords: number
  rounds: number
}

const USAGE =
  'usage: _mesh-producer.ts --peers <multiaddr,…> --peer-pids <pid,…> --phases <phase,…> [--seconds N] ' +
  '[--partitions N] [--window N] [--latency-batch N] [--rounds N]'

function parseArgs(argv: string[]): Args {
  const args: Args = {
    peers: [],
    peerPids: [],
    phases: [...DEFAULT_PHASES],
    seconds: 10,
    partitions: 3,
    window: 32,
    latencyBatchRecords: 10,
    rounds: 3,
  }
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value = ''] = [argv[i], argv[i + 1]]
    const n = Number(value)
    const count = Number.isSafeInteger(n) && n > 0
    if (flag === '--peers') args.peers = value.split(',')
    else if (flag === '--peer-pids') args.peerPids = value.split(',').map(Number)
    else if (flag === '--phases') args.phases = value.split(',') as Phase[]
    else if (flag === '--seconds' && n > 0) args.seconds = n
    else if (flag === '--partitions' && count) args.partitions = n
    else if (flag === '--window' && count) args.window = n
    else if (flag === '--latency-batch' && count) args.latencyBatchRecords = n
    else if (flag === '--rounds' && count) args.rounds = n
    else throw new Error(`bad argument '${flag} ${value}'; ${USAGE}`)
  }
  for (const phase of args.phases) if (!PHASES.includes(phase)) throw new Error(`unknown phase '${phase}'; ${USAGE}`)
  if (args.peers.length < REPLICATION_FACTOR) throw new Error(`needs ${REPLICATION_FACTOR} peers; ${USAGE}`)
  return args
}

/** Creates the topic and waits until every partition has an agreed leader that takes acks=all produces. */
async function createTopic(router: LeaderRouter, partitions: number): Promise<void> {
  const broker = router.broker(router.peerIds[0]!)
  const [created] = await broker.createTopics([
    { name: router.topic, partitions, replicationFactor: REPLICATION_FACTOR },
  ])
  if (created?.error !== undefined && !(created.error instanceof TopicAlreadyExistsError)) throw created.error
  await waitAgreed(router, partitions)
  const [probe] = encodeRing(1)
  for (let partition = 0; partition < partitions; partition++) await router.produce(partition, -1, probe!)
}

/** One acks=all produce per partition: a majority of each partition's replicas has caught up. */
async function catchUp(router: LeaderRouter, partitions: number): Promise<void> {
  const [probe] = encodeRing(1)
  await Promise.all(Array.from({ length: partitions }, (_, p) => router.produce(p, -1, probe!)))
}

/**
 * The latency phase through the SDK's Producer, as an application would send: idempotent,
 * acks=all, lingerMs 0, so records that arrive while a partition's batch is in flight ride
 * together in the next one (one batch in flight per partition). Each send of
 * `latencyBatchRecords` records is timed from its scheduled moment to its acknowledgement.
 */
async function sdkLatency(ctx: PhaseContext, args: Args): Promise<NonNullable<MeshProducerOutput['latency']>> {
  const mesh = await Tributary.connect({ bootstrap: args.peers })
  try {
    const producer = mesh.producer(inFlightOption())
    await producer.connect()
    const pool = new Uint8Array(KEY_BYTES + VALUE_BYTES).fill(0x61)
    const messages = Array.from({ length: args.partitions }, (_, partition): Message[] =>
      Array.from({ length: args.latencyBatchRecords }, () => ({
        key: pool.subarray(0, KEY_BYTES),
        value: pool.subarray(KEY_BYTES),
        partition,
      })),
    )
    // The SDK merges sends that arrive while their partition's batch is in flight, so a produce
    // request often carries several: counting both gives CPU per request, which does not move with
    // how much merging the machine's load caused.
    let sends = 0
    let requests = 0
    // Failed requests by error (retried, or failing their send): pipelining's out-of-order refusals show here.
    const failed = new Map<string, number>()
    const stopCounting = producer.on('producer.request', ({ payload }) => {
      requests++
      if (payload.error !== undefined) failed.set(payload.error.name, (failed.get(payload.error.name) ?? 0) + 1)
    })
    const send = (partition: number): Promise<unknown> => {
      sends++
      return producer.send({ topic: ctx.topic, acks: -1, messages: messages[partition]! })
    }
    const result = await latencyPhase({ ...ctx, send, sender: 'SDK Producer (idempotent, acks=all, lingerMs 0)' })
    stopCounting()
    if (failed.size > 0) progress(`latency: failed requests ${[...failed].map(([n, c]) => `${n} ×${c}`).join(', ')}`)
    return { ...result, requestsPerSend: requests / sends }
  } finally {
    await mesh.disconnect()
  }
}

/** The latency producer's in-flight window from TRIBUTARY_BENCH_IN_FLIGHT, if set. */
function inFlightOption(): { maxInFlightRequests?: number } {
  const raw = process.env.TRIBUTARY_BENCH_IN_FLIGHT
  if (raw === undefined || raw === '') return {}
  const n = Number(raw)
  if (!Number.isSafeInteger(n) || n < 1 || n > 5) throw new Error(`TRIBUTARY_BENCH_IN_FLIGHT must be 1–5, got '${raw}'`)
  progress(`latency: SDK producer with maxInFlightRequests ${n}`)
  return { maxInFlightRequests: n }
}

async function main(): Promise<void> {
  setProgressName('mesh bench producer')
  const args = parseArgs(process.argv.slice(2))
  const topic = `bench-mesh-${Date.now()}`
  const node = await createMeshNode({ host: '127.0.0.1', tcpPort: 0, wsPort: false })
  const router = new LeaderRouter(node, args.peers, topic)
  const rawPeer = router.peerIds[0]!
  const ctx: PhaseContext = {
    node,
    broker: router.broker(rawPeer),
    address: args.peers[0]!,
    topic,
    partitions: args.partitions,
    seconds: args.seconds,
    window: args.window,
    fetchMaxBytes: 0,
    latencyBatchRecords: args.latencyBatchRecords,
    peerPid: undefined,
    peerPids: args.peerPids,
  }
  const acksAll: PhaseContext = { ...ctx, acks: -1, send: (p, records) => router.produce(p, -1, records) }
  const acks1: PhaseContext = { ...ctx, acks: 1, send: (p, records) => router.produce(p, 1, records) }
  try {
    await createTopic(router, args.partitions)
    const leaders = Array.from({ length: args.partitions }, (_, p) => router.leaderOf(p) ?? '')
    progress(`${topic}: ${args.partitions} partitions × ${REPLICATION_FACTOR} replicas, leaders ready`)
    const output: MeshProducerOutput = {
      config: {
        topic,
        partitions: args.partitions,
        replicationFactor: REPLICATION_FACTOR,
        keyBytes: KEY_BYTES,
        valueBytes: VALUE_BYTES,
        throughputBatchRecords: THROUGHPUT_BATCH_RECORDS,
        produceWindow: args.window,
        latencyBatchRecords: args.latencyBatchRecords,
        latencyRecordsPerS: LATENCY_RECORDS_PER_S,
        rawChunkBytes: RAW_CHUNK_BYTES,
        rawPeer,
      },
      leaders,
      raw: [],
      retried: {},
    }
    for (const phase of args.phases) {
      if (phase === 'latency') {
        output.latency = await sdkLatency(acksAll, args)
        continue
      }
      if (phase === 'raw') output.raw.push(await rawPhase(ctx))
      else if (phase === 'acks-all') output.acksAll = await producePhase(acksAll)
      else if (phase === 'acks-1') output.acks1 = await producePhase(acks1)
      else {
        output.retried = Object.fromEntries(router.retried)
        output.failover = await failoverPhase(router, args.partitions, args.rounds)
      }
      // Followers of an acks=1 phase may trail: let them catch up before what comes next.
      if (phase === 'acks-1') await catchUp(router, args.partitions)
    }
    if (!args.phases.includes('failover')) output.retried = Object.fromEntries(router.retried)
    await sendResult(output)
  } finally {
    router.close()
    await node.stop()
  }
}

await main()
