/**
 * Runs `tributary …` as a user would meet it: a child process (node + tsx on the sources), with
 * stdin given or closed, stdout and stderr captured. Every process is killed on its deadline and
 * by `killAllCli()` (call it in afterAll/afterEach).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const main = fileURLToPath(new URL('../../src/main.ts', import.meta.url))
export const CLI_ARGS = ['--conditions=source', '--import', 'tsx', main]
const running = new Set<ChildProcess>()

export interface CliRun {
  status: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

export interface CliOptions {
  input?: string | Buffer
  env?: NodeJS.ProcessEnv
  timeoutMs?: number
}

/** A running CLI process: its output so far, and a promise of how it ended. */
export interface CliProcess {
  proc: ChildProcess
  stdout(): string
  stderr(): string
  done: Promise<CliRun>
}

export function startCli(args: string[], options: CliOptions = {}): CliProcess {
  const proc = spawn(process.execPath, [...CLI_ARGS, ...args], {
    stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    env: { ...process.env, TRIBUTARY_PEER: '', ...options.env },
  })
  running.add(proc)
  let stdout = ''
  let stderr = ''
  proc.stdout!.setEncoding('utf8').on('data', (d: string) => {
    stdout += d
  })
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => {
    stderr += d
  })
  if (options.input !== undefined) {
    proc.stdin!.on('error', () => {}) // the CLI may exit (e.g. on a bad line) before reading it all
    proc.stdin!.end(options.input)
  }
  const timeoutMs = options.timeoutMs ?? 60_000
  const done = new Promise<CliRun>((resolve) => {
    const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs)
    proc.once('close', (status, signal) => {
      clearTimeout(timer)
      running.delete(proc)
      resolve({ status, signal, stdout, stderr })
    })
  })
  return { proc, stdout: () => stdout, stderr: () => stderr, done }
}

export function runCli(args: string[], options: CliOptions = {}): Promise<CliRun> {
  return startCli(args, options).done
}

export function killAllCli(): void {
  for (const proc of running) proc.kill('SIGKILL')
}
