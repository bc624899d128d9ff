import '../../src/polyfills.js'
import { generateKeyPair } from '@libp2p/crypto/keys'
import type { PrivateKey } from '@libp2p/interface'
import { multiaddr } from '@multiformats/multiaddr'
import { afterEach, describe, expect, it } from 'vitest'
import { Membership, type MembershipInit } from '../../src/membership/index.js'
import type { MeshNode } from '../../src/node/index.js'
import { NodeSession, tcpAddr, waitFor } from '../helpers.js'

const FAST: MembershipInit = { heartbeatIntervalMs: 200, failureTimeoutMs: 1000 }
/**
 * A restarted peer whose first heartbeat gossip does not carry: published before any connection, it
 * reaches nobody, and its next one is a whole interval away. (Gossip can still hand the first one on
 * later, as an IHAVE; a restarted peer that grafts during the backoff its leave left behind is scored
 * below gossipsub's gossip threshold and its IHAVEs are ignored — the tests switch IHAVEs off instead.)
 */
const SLOW: MembershipInit = { heartbeatIntervalMs: 60_000, failureTimeoutMs: 1000 }
const NO_IHAVE = { Dlazy: 0, gossipFactor: 0 }

describe('membership > a peer restarted with the same identity', () => {
  const session = new NodeSession()
  afterEach(() => session.stopAll())

  async function member(node: MeshNode, init: MembershipInit = FAST): Promise<Membership> {
    const membership = new Membership(node, init)
    session.onCleanup(() => membership.stop())
    await membership.start()
    return membership
  }

  /** A seed, b and c (with a known key, so it can come back as itself), all alive everywhere. */
  async function cluster() {
    const key = await generateKeyPair('Ed25519')
    const seed = await session.node({ wsPort: false })
    const [b, c] = await Promise.all([
      session.node({ wsPort: false, bootstrap: [tcpAddr(seed)] }),
      session.node({ wsPort: false, bootstrap: [tcpAddr(seed)], privateKey: key }),
    ])
    const members = await Promise.all([member(seed), member(b), member(c)])
    await waitFor(() => members.every((m) => m.alive().length === 3), { message: 'all three alive everywhere' })
    return { seed, b, c, key, members }
  }

  /** Starts `key`'s next incarnation unconnected (so its first heartbeat reaches nobody), then dials `to`. */
  async function restart(key: PrivateKey, to: MeshNode, init: MembershipInit, quiet = false) {
    const node = await session.node({ wsPort: false, privateKey: key, ...(quiet ? { gossipsub: NO_IHAVE } : {}) })
    const membership = await member(node, init)
    await node.dial(multiaddr(tcpAddr(to)))
    return { node, membership }
  }

  it('is alive again for the peer it connects to as soon as it connects, not a heartbeat interval later', async () => {
    const { seed, c, key, members } = await cluster()
    const [seedView, bView, cOld] = members as [Membership, Membership, Membership]
    const id = c.peerId.toString()
    await cOld.stop()
    await c.stop()
    await waitFor(() => seedView.get(id)?.status === 'left' && bView.get(id)?.status === 'left', {
      message: 'c left everywhere',
    })
    const again = await restart(key, seed, SLOW, true)
    expect(again.membership.incarnation).toBeGreaterThan(cOld.incarnation)
    await waitFor(() => seedView.get(id)?.status === 'alive', { timeoutMs: 5000, message: 'the seed to see c alive' })
    expect(seedView.get(id)?.incarnation).toBe(again.membership.incarnation)
    // The exchange goes both ways: c knows the seed without waiting for gossip either.
    await waitFor(() => again.membership.get(seed.peerId)?.status === 'alive', { message: 'c to see the seed' })
  })

  it('crashing again before its first periodic heartbeat leaves it dead, not left', async () => {
    const { seed, c, key, members } = await cluster()
    const [seedView, , cOld] = members as [Membership, Membership, Membership]
    const id = c.peerId.toString()
    await cOld.stop()
    await c.stop()
    await waitFor(() => seedView.get(id)?.status === 'left', { message: 'c left' })
    const again = await restart(key, seed, SLOW, true)
    await waitFor(() => seedView.get(id)?.status === 'alive', { timeoutMs: 5000, message: 'the seed to see c back' })
    // A crash: the transport goes, no `leaving` heartbeat gets out.
    await again.node.stop()
    await waitFor(() => seedView.get(id)?.status === 'dead', { timeoutMs: 5000, message: 'c dead on the seed' })
  })

  it('one that crashed (no leave) and restarted at once is alive everywhere', async () => {
    const { seed, c, key, members } = await cluster()
    const [seedView, bView] = members as [Membership, Membership, Membership]
    const id = c.peerId.toString()
    await c.stop() // no membership.stop(): nothing announced
    const again = await restart(key, seed, FAST)
    await waitFor(
      () =>
        [seedView, bView].every(
          (view) => view.get(id)?.status === 'alive' && view.get(id)?.incarnation === again.membership.incarnation,
        ),
      { message: 'the new incarnation alive on the seed and b' },
    )
  })

  it('one that left cleanly and did not come back stays left everywhere', async () => {
    const { c, members } = await cluster()
    const [seedView, bView, cOld] = members as [Membership, Membership, Membership]
    const id = c.peerId.toString()
    await cOld.stop()
    await c.stop()
    await waitFor(() => [seedView, bView].every((view) => view.get(id)?.status === 'left'), {
      message: 'c left everywhere',
    })
    // Well past the failure timeout (counted in the seed's own heartbeats), c is still left, not dead or back.
    const since = seedView.get(seedView.peerId)!.lastSeenMs
    await waitFor(() => (seedView.get(seedView.peerId)?.lastSeenMs ?? 0) > since + 2 * FAST.failureTimeoutMs!, {
      message: 'two failure timeouts of the seed’s own heartbeats',
    })
    expect([seedView, bView].map((view) => view.get(id)?.status)).toEqual(['left', 'left'])
    expect(seedView.alive().map((m) => m.peerId)).not.toContain(id)
  })
})
