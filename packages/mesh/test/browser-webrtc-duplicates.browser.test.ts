/**
 * Two browser peers that dial each other at the same moment (each through the relay, each over
 * WebRTC) end with one direct connection between them, not two.
 */
import { multiaddr } from '@multiformats/multiaddr'
import { deleteIdbDatabase } from '@tributary/log/idb'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { commands } from 'vitest/browser'
import { type BrowserPeer, createBrowserPeer, PeerDatabase } from '../src/browser/index.js'
import { isDirect } from '../src/rpc/connection-choice.js'
import { uniqueName, waitFor } from './browser-helpers.js'

declare module 'vitest/browser' {
  interface BrowserCommands {
    startPeerProcessForPage(): Promise<{ peerId: string; ws: string }>
    stopPeerProcess(peerId: string): Promise<void>
  }
}

describe('mesh > browser peers > one WebRTC connection per pair', () => {
  let relay: { peerId: string; ws: string } | undefined
  const started: BrowserPeer[] = []
  const names = [uniqueName('dup-a'), uniqueName('dup-b')]

  beforeAll(async () => {
    relay = await commands.startPeerProcessForPage()
  }, 60_000)

  afterAll(async () => {
    for (const bp of started) await bp.stop().catch(() => {})
    if (relay !== undefined) await commands.stopPeerProcess(relay.peerId)
    for (const name of names) {
      await PeerDatabase.delete(`${name}-peer`).catch(() => {})
      await deleteIdbDatabase(`${name}-logs`).catch(() => {})
    }
  }, 60_000)

  const pair = async (): Promise<[BrowserPeer, BrowserPeer]> => {
    const options = { bootstrap: [relay!.ws], allowInsecureWebSockets: true }
    const a = await createBrowserPeer({ ...options, name: names[0] })
    started.push(a)
    const b = await createBrowserPeer({ ...options, name: names[1] })
    started.push(b)
    return [a, b]
  }
  const stopPair = async (): Promise<void> => {
    for (const bp of started.splice(0)) await bp.stop()
  }
  // A failed test's peers are stopped too: the next test opens the same identities.
  afterEach(async () => {
    for (const bp of started.splice(0)) await bp.stop().catch(() => {})
  }, 60_000)
  const rtcOf = (p: BrowserPeer) =>
    waitFor(() => p.peer.addresses().find((addr) => addr.includes('/p2p-circuit/webrtc')), 'a WebRTC address')
  /**
   * A dial that may be tried again: libp2p gives each address 6 s, which a WebRTC dial through the
   * relay can exceed on a loaded machine. At most 4 attempts, within 60 s.
   */
  const dialWithRetries = async (from: BrowserPeer, addr: string, force = false) => {
    const deadline = Date.now() + 60_000
    for (let attempt = 1; ; attempt++) {
      try {
        return await from.peer.node.dial(multiaddr(addr), { signal: AbortSignal.timeout(20_000), force })
      } catch (err) {
        if (attempt >= 4 || Date.now() > deadline) throw err
      }
    }
  }
  const direct = (from: BrowserPeer, to: BrowserPeer) =>
    from.peer.node.getConnections(to.peer.node.peerId).filter(isDirect)
  /** Every connection between the two, from each side: for a failure's message. */
  const connectionsOf = (x: BrowserPeer, y: BrowserPeer) => () => {
    const side = (from: BrowserPeer, to: BrowserPeer) =>
      `${from.peer.peerId < to.peer.peerId ? 'lower' : 'higher'}: ` +
      from.peer.node
        .getConnections(to.peer.node.peerId)
        .map(
          (c) =>
            `${c.direction} ${c.limits === undefined ? 'direct' : 'limited'} ${c.status} opened ${c.timeline.open}`,
        )
        .join(', ')
    return `${side(x, y)}; ${side(y, x)}`
  }

  it('simultaneous dials leave one direct connection, the same one on both sides', async () => {
    const [a, b] = await pair()
    const [aAddr, bAddr] = await Promise.all([rtcOf(a), rtcOf(b)])

    // Both dial at once (reproduced without the tie-break: each side kept an inbound and an
    // outbound WebRTC connection to the other, for as long as it was watched).
    const dials = await Promise.allSettled([
      a.peer.node.dial(multiaddr(bAddr), { signal: AbortSignal.timeout(20_000) }),
      b.peer.node.dial(multiaddr(aAddr), { signal: AbortSignal.timeout(20_000) }),
    ])
    // The same connection seen from both ends: the one the lower peer id opened, when its dial
    // opened one. On a loaded machine a WebRTC dial through the relay can time out (libp2p gives
    // an address 6 s), and the higher peer's connection is then the only one, kept alike. (Each
    // side may briefly hold a different single one while a close travels: wait for agreement.)
    const aIsLower = a.peer.peerId < b.peer.peerId
    const lowerDial = dials[aIsLower ? 0 : 1]
    const lowerOpened = lowerDial.status === 'fulfilled' && lowerDial.value.direction === 'outbound'
    const [aKept, bKept] = await waitFor(
      () => {
        const fromA = direct(a, b)
        const fromB = direct(b, a)
        if (fromA.length !== 1 || fromB.length !== 1 || fromA[0]!.direction === fromB[0]!.direction) return false
        const openedByA = fromA[0]!.direction === 'outbound'
        return (!lowerOpened || openedByA === aIsLower) && ([fromA[0]!, fromB[0]!] as const)
      },
      `one direct connection on each side${lowerOpened ? ', opened by the lower peer id' : ''}`,
      30_000,
      () =>
        `${connectionsOf(a, b)()}; dials: ${dials.map((d) => (d.status === 'fulfilled' ? d.value.direction : String(d.reason))).join(', ')}`,
    )
    expect(aKept.remoteAddr.toString()).toContain('/webrtc')
    // It carries streams both ways.
    await a.peer.node.services.ping.ping(b.peer.node.peerId, { signal: AbortSignal.timeout(10_000) })
    await b.peer.node.services.ping.ping(a.peer.node.peerId, { signal: AbortSignal.timeout(10_000) })
    expect(direct(a, b)).toEqual([aKept])
    expect(direct(b, a)).toEqual([bKept])
    await stopPair()
  }, 120_000)

  it('a second connection, whichever side opens it, resolves to the one the lower peer id opened', async () => {
    const [a, b] = await pair()
    const [lower, higher] = a.peer.peerId < b.peer.peerId ? [a, b] : [b, a]
    // The higher peer dials first; then the lower one opens a second link regardless (force).
    await dialWithRetries(higher, await rtcOf(lower))
    // Usually the higher peer's dial; the lower peer's mesh dialer (it dials members it learns
    // of) may have won the race, and then that one is the first.
    const first = await waitFor(() => {
      const d = direct(higher, lower)
      return d.length === 1 && d[0]
    }, 'one direct connection')
    await dialWithRetries(lower, await rtcOf(higher), true)
    const kept = await waitFor(
      () => {
        const fromLower = direct(lower, higher)
        const fromHigher = direct(higher, lower)
        return (
          fromLower.length === 1 &&
          fromHigher.length === 1 &&
          fromLower[0]!.direction === 'outbound' &&
          fromHigher[0]!.direction === 'inbound' &&
          fromHigher[0]
        )
      },
      "only the lower peer's connection left on both sides",
      30_000,
      connectionsOf(lower, higher),
    )
    // The higher peer's own connection was closed; or, when the lower peer had opened the first,
    // the oldest of its connections stays.
    if (first.direction === 'outbound') expect(first.status).not.toBe('open')
    else expect(kept).toBe(first)
    // A further dial from the higher peer reuses it rather than opening another.
    const again = await higher.peer.node.dial(lower.peer.node.peerId, { signal: AbortSignal.timeout(10_000) })
    expect(again).toBe(kept)
    await stopPair()
  }, 120_000)
})
