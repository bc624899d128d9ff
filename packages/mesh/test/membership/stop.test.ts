import '../../src/polyfills.js'
import { generateKeyPair } from '@libp2p/crypto/keys'
import { multiaddr } from '@multiformats/multiaddr'
import { afterEach, describe, expect, it } from 'vitest'
import { TOPICS } from '../../src/constants.js'
import { Membership, type MembershipInit } from '../../src/membership/index.js'
import type { MeshNode } from '../../src/node/index.js'
import { NodeSession, tcpAddr, waitFor } from '../helpers.js'

const FAST: MembershipInit = { heartbeatIntervalMs: 200, failureTimeoutMs: 1000 }
/**
 * How long a restarted peer may take to be in the seed's gossip mesh for the membership topic:
 * a connection, the subscription exchange and a gossipsub heartbeat (1 s) or two. Below the 10 s
 * backoff an unsubscribe's PRUNE leaves behind (a GRAFT within it is refused and the backoff
 * refreshed to 60 s), so this fails if the leave had unsubscribed.
 */
const MESH_JOIN_TIMEOUT_MS = 8_000

describe('membership > stop', () => {
  const session = new NodeSession()
  afterEach(() => session.stopAll())

  async function member(node: MeshNode): Promise<Membership> {
    const membership = new Membership(node, FAST)
    session.onCleanup(() => membership.stop())
    await membership.start()
    return membership
  }

  /** Whether `peerId` is in `node`'s gossipsub mesh of the topic (the class has it; the GossipSub interface does not). */
  const inMesh = (node: MeshNode, peerId: string): boolean =>
    (node.services.pubsub as unknown as { getMeshPeers(topic: string): string[] })
      .getMeshPeers(TOPICS.membership)
      .includes(peerId)

  it('a peer stopping as soon as it is seen, before any gossip links it, is seen as left, not dead', async () => {
    // Membership with gossip heartbeats far apart: the seed knows b only from the direct hello,
    // and b's gossip has likely reached no subscriber yet when it stops.
    const seed = await session.node({ wsPort: false })
    const b = await session.node({ wsPort: false, bootstrap: [tcpAddr(seed)] })
    const slow: MembershipInit = { heartbeatIntervalMs: 60_000, failureTimeoutMs: 120_000 }
    const seedView = new Membership(seed, slow)
    session.onCleanup(() => seedView.stop())
    await seedView.start()
    const bView = new Membership(b, slow)
    await bView.start()
    const id = b.peerId.toString()
    await waitFor(() => seedView.get(id)?.status === 'alive', { message: 'b alive on the seed (by hello)' })
    const seen: string[] = []
    seedView.addEventListener('member:leave', ({ detail }) => seen.push(`${detail.member.peerId} ${detail.reason}`))
    await bView.stop({ nodeStopping: true })
    await b.stop()
    // Told directly: no failure timeout (2 minutes here) had to pass.
    await waitFor(() => seedView.get(id)?.status === 'left', { message: 'b left on the seed' })
    expect(seen.filter((s) => s.startsWith(id))).toHaveLength(1)
  })

  it('before its node stops: announces the leave, keeps the subscription, and the peer restarted as itself is in the mesh at once', async () => {
    const key = await generateKeyPair('Ed25519')
    const seed = await session.node({ wsPort: false })
    const c = await session.node({ wsPort: false, bootstrap: [tcpAddr(seed)], privateKey: key })
    const [seedView, cOld] = await Promise.all([member(seed), member(c)])
    const id = c.peerId.toString()
    await waitFor(() => seedView.get(id)?.status === 'alive' && inMesh(seed, id), {
      message: 'c alive on the seed and in its gossip mesh',
    })

    await cOld.stop({ nodeStopping: true })
    // The node is still up: its subscription stands (an unsubscribe would have announced its end).
    expect(c.services.pubsub.getTopics()).toContain(TOPICS.membership)
    await c.stop()
    await waitFor(() => seedView.get(id)?.status === 'left', { message: 'the leave announced to the seed' })

    const again = await session.node({ wsPort: false, privateKey: key })
    const cNew = await member(again)
    await again.dial(multiaddr(tcpAddr(seed)))
    await waitFor(() => inMesh(seed, id) && inMesh(again, seed.peerId.toString()), {
      timeoutMs: MESH_JOIN_TIMEOUT_MS,
      message: 'the restarted c and the seed in each other’s gossip mesh',
    })
    await waitFor(() => seedView.get(id)?.status === 'alive', { message: 'the restarted c alive on the seed' })
    expect(seedView.get(id)?.incarnation).toBe(cNew.incarnation)
  })

  it('alone, its node living on: unsubscribes, so the others stop counting it in the topic', async () => {
    const seed = await session.node({ wsPort: false })
    const b = await session.node({ wsPort: false, bootstrap: [tcpAddr(seed)] })
    const [seedView, bView] = await Promise.all([member(seed), member(b)])
    const id = b.peerId.toString()
    const subscribed = (): boolean =>
      seed.services.pubsub.getSubscribers(TOPICS.membership).some((peer) => peer.toString() === id)
    await waitFor(() => seedView.get(id)?.status === 'alive' && subscribed(), { message: 'b alive and subscribed' })

    await bView.stop()
    expect(b.services.pubsub.getTopics()).not.toContain(TOPICS.membership)
    // The unsubscribe reaches the seed with gossipsub's traffic: a default 5 s was too tight for a
    // loaded CI run (the suite's other tests beside it).
    await waitFor(() => seedView.get(id)?.status === 'left' && !subscribed(), {
      message: 'b left and no longer subscribed, as seen by the seed',
      timeoutMs: 20_000,
    })
    expect(b.getConnections().some((conn) => conn.remotePeer.equals(seed.peerId))).toBe(true)
  })
})
