/**
 * Custom Vitest browser commands: server-side functions a browser test calls through
 * `commands` from 'vitest/browser'. They get the Playwright page that hosts the test.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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
  await peer.stop('SIGTERM')
  await rm(peer.dataDir, { recursive: true, force: true })
}
