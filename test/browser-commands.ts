/**
 * Custom Vitest browser commands: server-side functions a browser test calls through
 * `commands` from 'vitest/browser'. They get the Playwright page that hosts the test.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type {} from '@vitest/browser-playwright'
import type { CDPSession } from 'playwright-core'
import type { BrowserCommand } from 'vitest/node'
import { type PeerProcess, startPeerProcess } from './helpers/peer-process.ts'

/**
 * Chromium drops a DevTools quota override when the session that set it detaches, so one
 * session per page is kept open for the life of the page.
 */
const sessions = new WeakMap<object, Promise<CDPSession>>()

/**
 * Overrides the storage quota of the test frame's origin (`null` restores the real one), via
 * CDP `Storage.overrideQuotaForOrigin`, so tests can hit `QuotaExceededError` for real.
 * Chromium 156 enforces it against values it stores inline (under 64 KiB); larger values go to
 * blob files, which it did not count against the override.
 */
export const setStorageQuota: BrowserCommand<[quotaBytes: number | null]> = async (context, quotaBytes) => {
  const { page } = context
  const origin = new URL((await context.frame()).url()).origin
  let session = sessions.get(page)
  if (session === undefined) {
    session = page.context().newCDPSession(page)
    sessions.set(page, session)
  }
  const cdp = await session
  await cdp.send('Storage.overrideQuotaForOrigin', quotaBytes === null ? { origin } : { origin, quotaSize: quotaBytes })
}

const execFileAsync = promisify(execFile)

/** Peer processes started for browser tests, by the id handed to the page. */
const peers = new Map<string, PeerProcess>()

/**
 * Starts a real `tributary peer start` process on loopback (own temp data dir, free ports) for a
 * browser test, and returns its id and WebSocket multiaddr (with /p2p/) for the page to dial.
 * The test must call `stopPeerProcess` with the id; the page cannot spawn processes itself.
 */
export const startPeerProcessForPage: BrowserCommand<[]> = async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'tributary-browser-peer-'))
  const peer = await startPeerProcess(dataDir)
  const ws = peer.addresses.find((a) => a.includes('/ws/'))
  if (ws === undefined) {
    await peer.stop('SIGKILL')
    throw new Error(`the peer listens on no WebSocket address: ${peer.addresses.join(' ')}`)
  }
  peers.set(peer.peerId, peer)
  return { peerId: peer.peerId, ws }
}

/** Ends a peer process started by `startPeerProcessForPage` and removes its data dir. */
export const stopPeerProcess: BrowserCommand<[peerId: string]> = async (_context, peerId) => {
  const peer = peers.get(peerId)
  if (peer === undefined) return
  peers.delete(peerId)
  peer.proc.kill('SIGCONT') // a frozen process would not act on SIGTERM
  await peer.stop('SIGTERM')
  await rm(peer.dataDir, { recursive: true, force: true })
}

/**
 * Pauses (SIGSTOP) or resumes (SIGCONT) a peer process started by `startPeerProcessForPage`: the
 * process stays alive with its connections open but answers nothing, as a hung peer would.
 */
export const freezePeerProcess: BrowserCommand<[peerId: string, frozen: boolean]> = async (
  _context,
  peerId,
  frozen,
) => {
  const peer = peers.get(peerId)
  if (peer === undefined) throw new Error(`no peer process ${peerId} was started for this page`)
  peer.proc.kill(frozen ? 'SIGSTOP' : 'SIGCONT')
}

/** Peers stopped by `pausePeerProcess`: their data dir and ports, for `restartPeerProcess`. */
const paused = new Map<string, { dataDir: string; tcpPort: string; wsPort: string }>()

function portOf(address: string | undefined, what: string): string {
  const port = address?.match(/\/tcp\/(\d+)\//)?.[1]
  if (port === undefined) throw new Error(`no ${what} port in ${String(address)}`)
  return port
}

/**
 * Stops a peer started by `startPeerProcessForPage` (SIGTERM) but keeps its data dir and
 * remembers its ports, so `restartPeerProcess` brings the same peer back where the page dials it.
 */
export const pausePeerProcess: BrowserCommand<[peerId: string]> = async (_context, peerId) => {
  const peer = peers.get(peerId)
  if (peer === undefined) throw new Error(`no running peer ${peerId} started for this page`)
  const ws = peer.addresses.find((a) => a.includes('/ws/'))
  paused.set(peerId, { dataDir: peer.dataDir, tcpPort: portOf(peer.address, 'TCP'), wsPort: portOf(ws, 'WebSocket') })
  peers.delete(peerId)
  await peer.stop('SIGTERM')
}

/** Starts a paused peer again on its data dir (same identity, same logs) and its old ports. */
export const restartPeerProcess: BrowserCommand<[peerId: string]> = async (_context, peerId) => {
  const was = paused.get(peerId)
  if (was === undefined) throw new Error(`peer ${peerId} was not paused by pausePeerProcess`)
  const peer = await startPeerProcess(was.dataDir, { args: ['--port', was.tcpPort, '--ws-port', was.wsPort] })
  if (peer.peerId !== peerId) {
    await peer.stop('SIGKILL')
    throw new Error(`the peer came back as ${peer.peerId}, not ${peerId}`)
  }
  paused.delete(peerId)
  peers.set(peerId, peer)
  const ws = peer.addresses.find((a) => a.includes('/ws/'))
  return { peerId, ws }
}

/**
 * Reads one partition from offset 0 Node-side, with the `tributary consume` CLI as a user would
 * (a real child process), until no record arrived for `idleMs`; returns each record's offset,
 * key and value. Lets a page's test check what the mesh holds without trusting the page.
 */
export const consumePartitionFromNode: BrowserCommand<
  [args: { peerId: string; topic: string; partition: number; idleMs?: number }]
> = async (_context, { peerId, topic, partition, idleMs = 3_000 }) => {
  const peer = peers.get(peerId)
  if (peer === undefined) throw new Error(`no running peer ${peerId} started for this page`)
  const main = fileURLToPath(new URL('../apps/peer/src/main.ts', import.meta.url))
  const args = ['--conditions=source', '--import', 'tsx', main, 'consume', topic, '--partition', String(partition)]
  args.push('--offset', '0', '--format', 'json', '--timeout-ms', String(idleMs), '--peer', peer.address)
  const { stdout } = await execFileAsync(process.execPath, args, { timeout: 120_000, maxBuffer: 64 * 1024 * 1024 })
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const r = JSON.parse(line) as { offset: number | string; key: string | null; value: string | null }
      return { offset: Number(r.offset), key: r.key, value: r.value }
    })
}
