import '../../src/polyfills.js'
import { afterEach, describe, expect, it } from 'vitest'
import { Membership, type MembershipInit } from '../../src/membership/index.js'
import type { MemberLeave } from '../../src/membership/types.js'
import type { MeshNode } from '../../src/node/index.js'
import { NodeSession, tcpAddr, waitFor } from '../helpers.js'

const FAST: MembershipInit = { heartbeatIntervalMs: 200, failureTimeoutMs: 1000 }

describe('membership > gossip over libp2p', () => {
  const session = new NodeSession()
  afterEach(() => session.stopAll())

  async function member(node: MeshNode, init: MembershipInit = {}): Promise<Membership> {
    const membership = new Membership(node, { ...FAST, ...init })
    session.onCleanup(() => membership.stop())
    await membership.start()
    return membership
  }

  /** A seed and two peers that only know the seed. */
  async function threePeers(init: MembershipInit = {}) {
    const seed = await session.node({ wsPort: false })
    const [b, c] = await Promise.all([
      session.node({ wsPort: false, bootstrap: [tcpAddr(seed)] }),
      session.node({ wsPort: false, bootstrap: [tcpAddr(seed)] }),
    ])
    const nodes = [seed, b, c]
    const members = await Promise.all([
      member(seed, { ...init, storage: 'fs' }),
      member(b, { ...init, storage: 'memory' }),
      member(c, { ...init, roles: { voter: false, observer: true }, storage: 'idb' }),
    ])
    const ids = nodes.map((node) => node.peerId.toString()).sort()
    await waitFor(
      () =>
        members.every(
          (m) =>
            JSON.stringify(
              m
                .alive()
                .map((x) => x.peerId)
                .sort(),
            ) === JSON.stringify(ids),
        ),
      { message: 'every peer sees all three alive' },
    )
    return { nodes, members, ids }
  }

  it('converges to a full view and a full mesh when two peers bootstrap to one seed', async () => {
    const { nodes, members, ids } = await threePeers()
    // b and c learned of each other through gossip and dialed the addresses in the heartbeats.
    await waitFor(
      () =>
        nodes.every((node) =>
          ids.every(
            (id) => id === node.peerId.toString() || node.getConnections().some((c) => c.remotePeer.toString() === id),
          ),
        ),
      { message: 'full mesh' },
    )
    const [seedView] = members
    const c = seedView!.get(nodes[2]!.peerId)!
    expect(c).toMatchObject({
      status: 'alive',
      storage: 'idb',
      roles: { voter: false, observer: true },
      version: '0.1.0',
    })
    expect(c.addresses[0]).toMatch(new RegExp(`/p2p/${nodes[2]!.peerId.toString()}$`))
    expect(c.incarnation).toBe(members[2]!.incarnation)
    expect(
      seedView!
        .voters()
        .map((m) => m.peerId)
        .sort(),
    ).toEqual([nodes[0]!, nodes[1]!].map((n) => n.peerId.toString()).sort())
  })

  it('relays heartbeats through the seed, and only the mesh dialer connects the other two', async () => {
    const { nodes } = await threePeers({ mesh: { enabled: false } })
    // Views converged through the seed alone; without the dialer b and c stay strangers.
    expect(nodes[1]!.getConnections(nodes[2]!.peerId)).toEqual([])
  })

  it('marks a cleanly stopped peer left at once, long before the failure timeout', async () => {
    const { nodes, members } = await threePeers({ failureTimeoutMs: 10_000 })
    const leaves: MemberLeave[] = []
    members[0]!.addEventListener('member:leave', (evt) => leaves.push(evt.detail))
    const started = Date.now()
    await members[2]!.stop()
    await nodes[2]!.stop()
    await waitFor(() => members.slice(0, 2).every((m) => m.get(nodes[2]!.peerId)?.status === 'left'), {
      timeoutMs: 3000,
    })
    expect(Date.now() - started).toBeLessThan(3000)
    expect(leaves).toMatchObject([{ reason: 'left', member: { peerId: nodes[2]!.peerId.toString() } }])
    expect(members[0]!.alive()).toHaveLength(2)
  })

  it('declares a peer that vanished without leaving dead after the failure timeout', async () => {
    const { nodes, members } = await threePeers()
    const victim = nodes[2]!.peerId
    const statuses: string[] = []
    members[0]!.addEventListener('member:update', (evt) => {
      if (evt.detail.peerId === victim.toString()) statuses.push(evt.detail.status)
    })
    const leaves: MemberLeave[] = []
    members[0]!.addEventListener('member:leave', (evt) => leaves.push(evt.detail))
    // Kill the transport under the membership: no `leaving` heartbeat gets out.
    await nodes[2]!.stop()
    const stoppedAt = Date.now()
    await waitFor(() => members[0]!.get(victim)?.status === 'dead', { timeoutMs: 4000 })
    const detectedMs = Date.now() - stoppedAt
    expect(statuses[0]).toBe('suspect') // the disconnect was noticed before the timeout
    expect(leaves).toMatchObject([{ reason: 'failed', member: { peerId: victim.toString(), status: 'dead' } }])
    expect(detectedMs).toBeGreaterThanOrEqual(FAST.failureTimeoutMs! - 250)
    expect(members[0]!.alive().map((m) => m.peerId)).not.toContain(victim.toString())
  })

  it('treats a restart (new incarnation) as a new join', async () => {
    const { nodes, members } = await threePeers()
    const joins: string[] = []
    members[0]!.addEventListener('member:join', (evt) => joins.push(evt.detail.peerId))
    const target = nodes[1]!
    const before = members[0]!.get(target.peerId)!.incarnation
    await members[1]!.stop()
    await waitFor(() => members[0]!.get(target.peerId)?.status === 'left')
    const restarted = await member(target)
    await waitFor(() => members[0]!.get(target.peerId)?.status === 'alive')
    expect(members[0]!.get(target.peerId)!.incarnation).toBe(restarted.incarnation)
    expect(restarted.incarnation).toBeGreaterThan(before)
    expect(joins).toEqual([target.peerId.toString()])
  })

  it('start and stop are idempotent, and stop clears its timers and view', async () => {
    const node = await session.node({ wsPort: false })
    const membership = await member(node)
    await membership.start()
    expect(membership.members()).toHaveLength(1)
    expect(membership.voters()[0]?.peerId).toBe(node.peerId.toString())
    await membership.stop()
    await membership.stop()
    expect(membership.running).toBe(false)
    expect(membership.members()).toEqual([])
    expect(node.services.pubsub.getTopics()).toEqual([])
  })
})
