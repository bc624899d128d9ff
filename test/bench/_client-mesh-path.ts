/**
 * The raw mesh path of `npm run bench -- client`: the mesh benchmark's producer process
 * (_mesh-producer.ts) run for its acks=all phase only, against the client benchmark's peers and
 * with its partition count — pre-encoded batches of 1,000 records (16-byte keys, 100-byte values)
 * sent by the Broker straight to each partition's leader, 32 in flight. What the SDK is measured
 * against.
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { endProcess, type MeshCluster, TS_NODE_ARGS } from './_mesh-cluster.ts'
import type { MeshProducerOutput, ToOrchestrator } from './_mesh-ipc.ts'
import type { ProduceResult } from './_peer-phases.ts'

const PRODUCER = fileURLToPath(new URL('./_mesh-producer.ts', import.meta.url))

export async function meshAcksAll(cluster: MeshCluster, partitions: number, seconds: number): Promise<ProduceResult> {
  const args = [
    ...['--peers', cluster.peers.map((p) => p.address).join(',')],
    ...['--peer-pids', cluster.pids.join(','), '--phases', 'acks-all'],
    ...['--partitions', String(partitions), '--seconds', String(seconds)],
  ]
  const proc = spawn(process.execPath, [...TS_NODE_ARGS, PRODUCER, ...args], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  // Topic creation, a 1 s warm-up and seconds/2 of produce; generous for a loaded machine.
  const budgetMs = 120_000 + seconds * 10_000
  let output: MeshProducerOutput | undefined
  proc.on('message', (message: ToOrchestrator) => {
    // Only the failover phase asks questions; it is not run here.
    if (message.type === 'result') output = message.output
  })
  try {
    return await new Promise<ProduceResult>((resolveRun, reject) => {
      const timer = setTimeout(() => {
        proc.kill('SIGKILL')
        reject(new Error(`the mesh producer did not finish within ${budgetMs / 1000} s`))
      }, budgetMs)
      proc.once('error', reject)
      proc.once('exit', (code, signal) => {
        clearTimeout(timer)
        if (code !== 0) return reject(new Error(`the mesh producer exited with ${code ?? signal}`))
        if (output?.acksAll === undefined) return reject(new Error('the mesh producer sent no acks=all result'))
        resolveRun(output.acksAll)
      })
    })
  } finally {
    await endProcess(proc, 'SIGKILL', 5000)
  }
}
