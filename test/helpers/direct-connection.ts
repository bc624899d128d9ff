/**
 * For browser tests with two browser peers in one page: brings them to one direct (WebRTC)
 * connection that will not be closed under the test's first reads.
 *
 * Of crossing direct connections between two browsers, the one the lower peer id opened stays
 * (one-connection-per-peer.ts), and the mesh dialers of both may be dialing meanwhile. So the
 * peer with the lower id dials the other itself (a new connection even if one is up): once its
 * own connection is the only direct one, nothing in flight can replace it. Waiting instead for the
 * mesh dialers to get there did not always settle: when the lower peer's own dial failed under
 * load, it stayed connected through the higher peer's connection and never dialed again.
 */
import type { Connection } from '@libp2p/interface'
import { multiaddr } from '@multiformats/multiaddr'
import type { BrowserPeer } from '@tributary/mesh/browser'

const DIAL_ATTEMPTS = 3
const DIAL_TIMEOUT_MS = 15_000
const SETTLE_TIMEOUT_MS = 30_000

/** Polls `fn` every 50 ms until it returns something other than undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(fn: () => T | undefined | false, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const value = fn()
    if (value !== undefined && value !== false) return value
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
}

/** The one direct connection `from` has to `to` once settled (opened by the lower peer id). */
export async function settleDirectConnection(from: BrowserPeer, to: BrowserPeer): Promise<Connection> {
  const [lower, higher] = from.peer.peerId < to.peer.peerId ? [from, to] : [to, from]
  const higherAddr = await waitFor(
    () => higher.peer.addresses().find((addr) => addr.includes('/p2p-circuit/webrtc')),
    'a WebRTC address of the browser with the higher peer id',
    SETTLE_TIMEOUT_MS,
  )
  const openedByLower = (): Connection[] =>
    lower.peer.node
      .getConnections(higher.peer.node.peerId)
      .filter((c) => c.limits === undefined && c.direction === 'outbound' && c.status === 'open')
  for (let attempt = 1; attempt <= DIAL_ATTEMPTS && openedByLower().length === 0; attempt++) {
    await lower.peer.node
      .dial(multiaddr(higherAddr), { force: true, signal: AbortSignal.timeout(DIAL_TIMEOUT_MS) })
      .catch(() => {})
  }
  const kept = from === lower ? 'outbound' : 'inbound'
  return waitFor(
    () => {
      const direct = from.peer.node.getConnections(to.peer.node.peerId).filter((c) => c.limits === undefined)
      return direct.length === 1 && direct[0]!.status === 'open' && direct[0]!.direction === kept && direct[0]!
    },
    'one direct connection between the two browsers, opened by the lower peer id',
    SETTLE_TIMEOUT_MS,
  )
}
