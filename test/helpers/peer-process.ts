/**
 * Real peer processes for integration tests: `tributary peer start` on loopback with free
 * ports and its own data dir, found through the `peer.json` it writes. Every process a test
 * starts is ended by `stopAll()` (call it in afterEach/afterAll).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const main = fileURLToPath(new URL('../../apps/peer/src/main.ts', import.meta.url))
const running = new Set<PeerProcess>()

export interface PeerProcess {
  dataDir: string
  proc: ChildProcess
  peerId: string
  /** TCP multiaddr with /p2p/ (dialable by tests). */
  address: string
  addresses: string[]
  httpPort: number
  output(): string
  /** Sends a signal and waits for the process to exit. */
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

export async function waitFor<T>(
  fn: () => Promise<T | undefined | false> | T | undefined | false,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let lastError: unknown
  while (Date.now() < deadline) {
    try {
      const value = await fn()
      if (value !== undefined && value !== false) return value
    } catch (err) {
      lastError = err
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`)
}

/**
 * A seed peer in `<root>/a` and `count - 1` more (`b`, `c`, …) bootstrapped to it, started at once;
 * the seed first.
 */
export async function startSeededPeers(root: string, count: number): Promise<PeerProcess[]> {
  const seed = await startPeerProcess(join(root, 'a'))
  const names = Array.from({ length: count - 1 }, (_, i) => String.fromCharCode(98 + i))
  const others = await Promise.all(names.map((n) => startPeerProcess(join(root, n), { bootstrap: [seed.address] })))
  return [seed, ...others]
}

export async function startPeerProcess(
  dataDir: string,
  options: { bootstrap?: string[]; args?: string[] } = {},
): Promise<PeerProcess> {
  await rm(join(dataDir, 'peer.json'), { force: true })
  const args = [
    '--conditions=source',
    '--import',
    'tsx',
    main,
    'peer',
    'start',
    '--data',
    dataDir,
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    '--ws-port',
    '0',
    '--http-port',
    '0',
    '--log-level',
    'debug',
  ]
  for (const b of options.bootstrap ?? []) args.push('--bootstrap', b)
  args.push(...(options.args ?? []))
  const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  proc.stdout?.on('data', (d: Buffer) => {
    output = (output + d.toString()).slice(-200_000)
  })
  proc.stderr?.on('data', (d: Buffer) => {
    output = (output + d.toString()).slice(-200_000)
  })
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)))
  const handle: PeerProcess = {
    dataDir,
    proc,
    peerId: '',
    address: '',
    addresses: [],
    httpPort: 0,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal)
      const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000)
      const code = await exited
      clearTimeout(timer)
      running.delete(handle)
      return code
    },
  }
  running.add(handle)
  const info = await waitFor(
    async () => {
      if (proc.exitCode !== null) throw new Error(`peer exited with ${proc.exitCode}: ${output.slice(-2000)}`)
      const file = JSON.parse(await readFile(join(dataDir, 'peer.json'), 'utf8')) as {
        peerId: string
        addresses: string[]
        httpPort: number
        pid: number
      }
      return file.pid === proc.pid ? file : undefined
    },
    `peer in ${dataDir} to start`,
    30_000,
  ).catch(async (err: unknown) => {
    await handle.stop('SIGKILL')
    throw err
  })
  handle.peerId = info.peerId
  handle.addresses = info.addresses
  handle.address = info.addresses.find((a) => !a.includes('/ws'))!
  handle.httpPort = info.httpPort
  return handle
}

export async function health(peer: PeerProcess): Promise<{ status: string; peers: number; partitions: number }> {
  const res = await fetch(`http://127.0.0.1:${peer.httpPort}/health`, { signal: AbortSignal.timeout(5000) })
  return (await res.json()) as { status: string; peers: number; partitions: number }
}

export async function stopAll(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  await Promise.all([...running].map((p) => p.stop(signal)))
}
