/**
 * Messages between `npm run bench -- mesh` (which owns the peer processes) and its producer
 * process, over node's IPC channel. The producer asks for a peer to be killed or restarted and
 * waits for the answer; one question is outstanding at a time. It ends by sending its result.
 */
import type { FailoverResult } from './_mesh-failover.ts'
import type { LatencyResult, ProduceResult, RawResult } from './_peer-phases.ts'

export const PHASES = ['raw', 'acks-all', 'acks-1', 'latency', 'failover'] as const
export type Phase = (typeof PHASES)[number]
/**
 * The benchmark: the raw stream before and after the log work (the better run is the reference).
 * Latency comes right after acks=all, with every replica in sync: after acks=1 the followers are
 * still replicating its backlog for seconds, and acks=all latency would measure that catch-up.
 */
export const DEFAULT_PHASES: readonly Phase[] = ['raw', 'acks-all', 'latency', 'acks-1', 'raw', 'failover']
export const REPLICATION_FACTOR = 3

export interface MeshProducerOutput {
  config: {
    topic: string
    partitions: number
    replicationFactor: number
    keyBytes: number
    valueBytes: number
    throughputBatchRecords: number
    produceWindow: number
    latencyBatchRecords: number
    latencyRecordsPerS: number
    rawChunkBytes: number
    /** Peer id of the raw stream's other end. */
    rawPeer: string
  }
  /** Leader of each partition when the topic was ready (peer ids). */
  leaders: string[]
  /** Each raw stream run, with the CPU it took (its 64 MiB warm-up excluded). */
  raw: RawResult[]
  acksAll?: ProduceResult
  acks1?: ProduceResult
  /** `requestsPerSend`: produce requests the SDK sent per send (warm-up included; below 1 when sends merged). */
  latency?: LatencyResult & { requestsPerSend?: number }
  failover?: FailoverResult
  /** Retriable errors the throughput and latency phases retried, by name (expected: none). */
  retried: Record<string, number>
}

export type ToOrchestrator =
  | { type: 'kill'; peerId: string }
  /** Restart a killed peer and answer once every replica of `topic` holds and commits the same log. */
  | { type: 'restart'; peerId: string; topic: string; partitions: number }
  | { type: 'result'; output: MeshProducerOutput }

export type ToProducer =
  /** `atMs`: wall-clock time of the SIGKILL (performance.timeOrigin + performance.now()). */
  | { type: 'killed'; peerId: string; atMs: number }
  | { type: 'restarted'; peerId: string; address: string; pid: number }
  | { type: 'failed'; message: string }

/** How long the producer waits for an answer (a restart includes the catch-up). */
const ANSWER_TIMEOUT_MS = 120_000

function send(message: ToOrchestrator): Promise<void> {
  return new Promise((resolveSend, reject) => {
    if (process.send === undefined) return reject(new Error('no IPC channel: run me through npm run bench -- mesh'))
    process.send(message, undefined, {}, (err) => (err === null ? resolveSend() : reject(err)))
  })
}

/** Sends `message` and waits for the orchestrator's answer. */
export async function ask(message: ToOrchestrator): Promise<ToProducer> {
  const answer = new Promise<ToProducer>((resolveAnswer, reject) => {
    const timer = setTimeout(() => {
      process.off('message', onMessage)
      reject(new Error(`no answer to '${message.type}' within ${ANSWER_TIMEOUT_MS / 1000} s`))
    }, ANSWER_TIMEOUT_MS)
    const onMessage = (reply: ToProducer): void => {
      clearTimeout(timer)
      process.off('message', onMessage)
      if (reply.type === 'failed') reject(new Error(`orchestrator: ${reply.message}`))
      else resolveAnswer(reply)
    }
    process.on('message', onMessage)
  })
  await send(message)
  return answer
}

/** Sends the result and closes the channel (an open channel keeps this process alive). */
export async function sendResult(output: MeshProducerOutput): Promise<void> {
  await send({ type: 'result', output })
  process.disconnect?.()
}
