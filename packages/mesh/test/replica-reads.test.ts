/**
 * A peer that serves replica reads (as browser peers do) answers fetches from its observer
 * replica only up to the high watermark it learned, even when its log already holds records the
 * leader has not committed. Real peers on loopback, in memory.
 */
import { Tributary } from '@tributary/client'
import { afterEach, describe, expect, it } from 'vitest'
import { readFromPeer } from '../src/browser/read-from-peer.js'
import { createPeer } from '../src/create-peer.js'
import type { Peer } from '../src/peer.js'
import { valuesOf } from './browser-helpers.js'
import { waitFor } from './helpers.js'

// Long fetch timeouts: the leader must not resign while the test holds its other voter down.
const raft = { fetchTimeoutMs: 30_000, electionTimeoutMs: 500, fetchMaxWaitMs: 300 }

describe('mesh > replica reads', () => {
  const peers: Peer[] = []
  let client: Tributary | undefined

  afterEach(async () => {
    await client?.disconnect()
    client = undefined
    await Promise.allSettled(peers.splice(0).map((p) => p.stop()))
  })

  it('an observer serves fetches from its replica, never past the high watermark it learned', async () => {
    const options = { tcpPort: 0, wsPort: false as const, heartbeatIntervalMs: 200, failureTimeoutMs: 5000, raft }
    const a = await createPeer(options)
    peers.push(a)
    const b = await createPeer({ ...options, bootstrap: a.addresses() })
    peers.push(b)
    const observer = await createPeer({ ...options, bootstrap: a.addresses(), voter: false, servesReplicaReads: true })
    peers.push(observer)
    for (const peer of peers) {
      await waitFor(() => peer.voters().length === 2, { timeoutMs: 20_000, message: 'two voters' })
    }
    await waitFor(() => a.members().find((m) => m.peerId === observer.peerId && m.status === 'alive'), {
      timeoutMs: 20_000,
      message: 'the observer alive in the leader-to-be',
    })
    await a.createTopic({ name: 'reads', partitions: 1, replicationFactor: 2, configs: {} })
    await observer.observe('reads')
    const leader = await waitFor(() => peers.find((p) => p.partitions.get('reads', 0)?.isLeader), {
      timeoutMs: 20_000,
      message: 'a leader',
    })
    const follower = leader === a ? b : a

    client = await Tributary.connect({ bootstrap: [a.addresses()[0]!], requestTimeout: 10_000 })
    const producer = client.producer({ idempotent: false })
    const committed = Array.from({ length: 10 }, (_, i) => `committed-${i}`)
    await producer.send({ topic: 'reads', acks: -1, messages: committed.map((value) => ({ value })) })
    const leaderLog = leader.partitions.get('reads', 0)!.log
    const hosted = await waitFor(
      () => {
        const h = observer.partitions.get('reads', 0)
        return h?.log.highWatermark === leaderLog.highWatermark ? h : undefined
      },
      { timeoutMs: 20_000, message: 'the observer to learn the high watermark' },
    )
    const committedEnd = hosted.log.highWatermark

    // Without the other voter nothing more commits; acks=1 writes still reach the leader's log.
    await follower.stop()
    peers.splice(peers.indexOf(follower), 1)
    const pending = Array.from({ length: 5 }, (_, i) => `pending-${i}`)
    await producer.send({ topic: 'reads', acks: 1, messages: pending.map((value) => ({ value })) })
    await producer.disconnect()
    await waitFor(() => hosted.log.logEndOffset > committedEnd, {
      timeoutMs: 20_000,
      message: 'the observer to hold the uncommitted records',
    })
    expect(hosted.log.highWatermark).toBe(committedEnd)

    const read = await readFromPeer(leader.node, observer.node.peerId, { topic: 'reads', partition: 0, offset: 0 })
    expect(valuesOf(read.records)).toEqual(committed)
    expect(read.highWatermark).toBe(committedEnd)
    expect(read.logEndOffset).toBeGreaterThan(committedEnd)
  }, 60_000)
})
