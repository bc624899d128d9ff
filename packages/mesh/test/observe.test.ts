/**
 * `peer.observe`: a peer with no role in a partition's placement replicates it by choice, keeps
 * it through the leader's published assignments (which do not name it), and `unobserve` deletes
 * it. Real peers on loopback, in memory.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createPeer } from '../src/create-peer.js'
import { MemoryLogFactory } from '../src/partitions/memory-log-factory.js'
import type { Peer } from '../src/peer.js'
import { waitFor } from './helpers.js'

describe('mesh > observe', () => {
  const peers: Peer[] = []

  afterEach(async () => {
    await Promise.allSettled(peers.splice(0).map((p) => p.stop()))
  })

  it('hosts observed partitions as a non-voting replica, keeps them, and deletes them on unobserve', async () => {
    const options = { tcpPort: 0, wsPort: false as const, heartbeatIntervalMs: 200, failureTimeoutMs: 5000 }
    const leader = await createPeer(options)
    peers.push(leader)
    const storage = new MemoryLogFactory()
    const observer = await createPeer({ ...options, bootstrap: leader.addresses(), voter: false, storage })
    peers.push(observer)
    await waitFor(() => leader.members().find((m) => m.peerId === observer.peerId && m.status === 'alive'), {
      timeoutMs: 20_000,
      message: 'the observer alive in the leader',
    })
    await leader.createTopic({ name: 'followed', partitions: 2, replicationFactor: 1, configs: {} })
    await leader.createTopic({ name: 'ignored', partitions: 1, replicationFactor: 1, configs: {} })
    await observer.observe('followed', [1])
    const hosted = await waitFor(() => observer.partitions.get('followed', 1), {
      timeoutMs: 20_000,
      message: 'the observed partition hosted',
    })
    expect(hosted.raft.isVoter).toBe(false)
    expect(observer.partitions.get('followed', 0)).toBeUndefined()
    expect(observer.partitions.get('ignored', 0)).toBeUndefined()
    // Its leader admits it at its first fetch and reports it among the replicas, as an observer.
    const leaderReplica = leader.partitions.get('followed', 1)!
    await waitFor(() => leaderReplica.raft.replicaProgress().some((r) => r.id === observer.peerId && !r.voter), {
      timeoutMs: 20_000,
      message: 'the leader to track the observer',
    })
    await waitFor(() => hosted.raft.leaderId === leader.peerId, {
      timeoutMs: 20_000,
      message: 'the observer to follow the leader',
    })

    // The leader's published assignment names no observer; the chosen replica stays.
    await waitFor(() => observer.partitionStates.get('followed', 1)?.leader === leader.peerId, {
      timeoutMs: 20_000,
      message: 'the published assignment to reach the observer',
    })
    await observer.partitions.applyAssignment('followed', 1)
    expect(observer.partitions.get('followed', 1)).toBe(hosted)
    expect((await storage.stored()).map((s) => `${s.topic}-${s.partition}`)).toEqual(['followed-1'])

    await observer.unobserve('followed', [1])
    expect(observer.partitions.get('followed', 1)).toBeUndefined()
    expect(await storage.stored()).toEqual([])
    expect(observer.observed.list()).toEqual([])
  }, 60_000)
})
