import '../../src/polyfills.js'
import { TributaryError } from '@tributary/wire'
import { afterEach, describe, expect, it } from 'vitest'
import { MAX_HEARTBEAT_BYTES, PROTOCOLS } from '../../src/constants.js'
import { decodeHeartbeat, encodeHeartbeat, type ValidHeartbeat } from '../../src/membership/heartbeat.js'
import { Membership } from '../../src/membership/index.js'
import type { MeshNode } from '../../src/node/index.js'
import { RpcClient } from '../../src/rpc/index.js'
import { NodeSession, waitFor } from '../helpers.js'

function heartbeat(node: MeshNode, overrides: Partial<ValidHeartbeat> = {}): ValidHeartbeat {
  return {
    peerId: node.peerId.toString(),
    incarnation: 1n,
    seq: 1n,
    roles: { voter: true, observer: false },
    storage: 'memory',
    version: '0.1.0',
    addresses: [],
    leaving: false,
    ...overrides,
  }
}

describe('membership > hello (heartbeats exchanged on connect)', () => {
  const session = new NodeSession()
  afterEach(() => session.stopAll())

  /** A peer running membership (gossip far apart, so what it learns it learns by hello) and a bare node. */
  async function peerAndStranger() {
    const node = await session.node({ wsPort: false })
    const membership = new Membership(node, { heartbeatIntervalMs: 60_000 })
    session.onCleanup(() => membership.stop())
    await membership.start()
    const stranger = await session.node({ wsPort: false })
    const client = new RpcClient(stranger, node.peerId, PROTOCOLS.membershipHello, { requestTimeoutMs: 5000 })
    session.onCleanup(() => client.close())
    await stranger.dial(node.getMultiaddrs()[0]!)
    return { node, membership, stranger, client }
  }

  it("answers a peer's own heartbeat with this peer's, and adds the sender to the view", async () => {
    const { node, membership, stranger, client } = await peerAndStranger()
    const answer = await client.request(encodeHeartbeat(heartbeat(stranger, { incarnation: 5n })))
    expect(answer.byteLength).toBeGreaterThan(0)
    expect(membership.get(stranger.peerId)).toMatchObject({ status: 'alive', incarnation: 5n })
    // The answer is this peer's current heartbeat: its identity and incarnation.
    expect(decodeHeartbeat(answer, node.peerId.toString())).toMatchObject({ incarnation: membership.incarnation })
  })

  it('refuses a heartbeat naming another peer or undecodable bytes with a typed error, and keeps serving', async () => {
    const { node, membership, stranger, client } = await peerAndStranger()
    const other = await session.node({ wsPort: false })
    const forged = await client.request(encodeHeartbeat(heartbeat(other))).catch((err: unknown) => err)
    expect(forged).toBeInstanceOf(TributaryError)
    expect((forged as TributaryError).message).toMatch(/is signed by/)
    expect(membership.get(other.peerId)).toBeUndefined()
    const garbage = await client.request(new Uint8Array([0xff, 0xff, 0xff, 0x0f])).catch((err: unknown) => err)
    expect(garbage).toBeInstanceOf(TributaryError)
    // A request over the heartbeat bound is refused before it is read.
    const huge = await client.request(new Uint8Array(MAX_HEARTBEAT_BYTES + 1)).catch((err: unknown) => err)
    expect(huge).toBeInstanceOf(TributaryError)
    expect(membership.members().map((m) => m.peerId)).toEqual([node.peerId.toString()])
    // Still serving: an honest hello goes through.
    const fresh = new RpcClient(stranger, node.peerId, PROTOCOLS.membershipHello, { requestTimeoutMs: 5000 })
    session.onCleanup(() => fresh.close())
    await fresh.request(encodeHeartbeat(heartbeat(stranger)))
    expect(membership.get(stranger.peerId)?.status).toBe('alive')
  })

  it('greets the mesh peers already connected when membership starts', async () => {
    // No IHAVE gossip and a minute between heartbeats: a's one heartbeat so far, published before
    // b existed, can reach b only by a hello.
    const quiet = { wsPort: false as const, gossipsub: { Dlazy: 0, gossipFactor: 0 } }
    const a = await session.node(quiet)
    const b = await session.node(quiet)
    const ma = new Membership(a, { heartbeatIntervalMs: 60_000 })
    session.onCleanup(() => ma.stop())
    await ma.start()
    await b.dial(a.getMultiaddrs()[0]!)
    // b runs no membership yet, so a's greeting on identify may find no handler; b greets a as it starts.
    const mb = new Membership(b, { heartbeatIntervalMs: 60_000 })
    session.onCleanup(() => mb.stop())
    await mb.start()
    await waitFor(() => mb.get(a.peerId)?.status === 'alive', { message: 'b to know a' })
    expect(mb.get(a.peerId)?.incarnation).toBe(ma.incarnation)
  })

  it('stops serving hellos when membership stops: nothing answers for a peer that said goodbye', async () => {
    const { membership, client } = await peerAndStranger()
    await membership.stop()
    const err = await client.request(new Uint8Array(1)).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(Error)
  })
})
