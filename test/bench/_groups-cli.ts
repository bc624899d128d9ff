/**
 * Runs one `tributary` CLI command for the groups benchmark (perf produce to fill the topic, perf
 * consume for the single-consumer reference) with the CPU it and the peers used.
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { type StepCpu, stepCpu } from './_client-cpu.ts'
import { endProcess, TS_NODE_ARGS } from './_mesh-cluster.ts'

const CLI = fileURLToPath(new URL('../../apps/peer/src/main.ts', import.meta.url))

export interface Step {
  stdout: string
  seconds: number
  cpu: StepCpu
}

/** Resolves with its stdout; rejects on a non-zero exit or after timeoutMs (the process SIGKILLed). */
export async function tributary(args: string[], timeoutMs: number, options: { peerPids: number[] }): Promise<Step> {
  const cpu = stepCpu(options.peerPids)
  const started = performance.now()
  const proc = spawn(process.execPath, [...TS_NODE_ARGS, CLI, ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
  let stdout = ''
  proc.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d
  })
  try {
    await new Promise<void>((resolveRun, reject) => {
      const timer = setTimeout(() => {
        proc.kill('SIGKILL')
        reject(new Error(`tributary ${args.join(' ')} did not finish within ${timeoutMs / 1000} s`))
      }, timeoutMs)
      proc.once('error', reject)
      proc.once('close', (code, signal) => {
        clearTimeout(timer)
        if (code === 0) resolveRun()
        else reject(new Error(`tributary ${args.join(' ')} exited with ${code ?? signal}: ${stdout}`))
      })
    })
    return { stdout, seconds: (performance.now() - started) / 1000, cpu: cpu() }
  } finally {
    await endProcess(proc, 'SIGKILL', 5000)
  }
}
