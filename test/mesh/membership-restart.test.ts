/**
 * Issue 3, "everyone's view converges after joins, leaves and crashes", with real peer processes
 * under produce traffic: a peer stopped cleanly and started again on its data dir (same identity)
 * must be seen alive again by every peer, however quickly it comes back; so must one SIGKILLed and
 * restarted; one that left and stays away must not be seen alive anywhere.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { multiaddr } from '@multiformats/multiaddr'
import { Broker } from '@tributary/client'
import { createMeshNode, type MeshNode } from '@tributary/mesh/node'
import { encodeRecordBatchSync } from '@tributary/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  health,
  type PeerProcess,
  startPeerProcess,
  startSeededPeers,
  stopAll,
  waitFor,
} from '../helpers/peer-process.ts'

const enc = new TextEncoder()
let root: string
let client: MeshNode
const peers: PeerProcess[] = []
const brokers = new Map<string, Broker>()

function broker(peer: PeerProcess): Broker {
  const key = `${peer.peerId}@${peer.address}`
  let b = brokers.get(key)
  if (b === undefined) {
    b = new Broker(client, multiaddr(peer.address), { requestTimeoutMs: 10_000 })
    brokers.set(key, b)
  }
  return b
}

/** Each running peer's view of `target`: its status there, or 'absent'. */
async function views(target: string): Promise<string[]> {
  const running = peers.filter((peer) => peer.proc.exitCode === null && peer.proc.signalCode === null)
  return Promise.all(
    running.map(async (peer) => {
      if (peer.peerId === target) return 'self'
      const meta = await broker(peer).metadata([], { signal: AbortSignal.timeout(10_000) })
      return meta.peers.find((p) => p.peerId === target)?.status ?? 'absent'
    }),
  )
}

/** The membership lines of every peer's log, for a failure message. */
function membershipLog(): string {
  return peers
    .map((peer) => {
      const lines = peer
        .output()
        .split('\n')
        .filter((line) => line.includes('"component":"membership"'))
        .slice(-40)
      return `--- ${peer.dataDir} ${peer.peerId}\n${lines.join('\n')}`
    })
    .join('\n')
}

async function expectSeen(target: string, status: (s: string) => boolean, what: string, timeoutMs = 30_000) {
  try {
    await waitFor(async () => (await views(target)).every((s) => s === 'self' || status(s)), what, timeoutMs)
  } catch (err) {
    throw new Error(
      `${(err as Error).message}; views: ${JSON.stringify(await views(target).catch(() => []))}\n${membershipLog()}`,
    )
  }
}

/** Produce traffic to every partition's leader until `signal` aborts; errors (leaders moving) are expected. */
async function load(signal: AbortSignal): Promise<number> {
  let sent = 0
  const values = Array.from({ length: 200 }, (_, i) => ({
    key: enc.encode(`k${i}`),
    value: enc.encode('v'.repeat(100)),
  }))
  // Each request gets its own signal, ended by `signal` or a timeout: a request to a peer that is
  // restarting waits in a dial, and its listeners stay on its own signal rather than piling up
  // (dozens of them during the restarts) on the one shared by the whole load.
  const request = () => AbortSignal.any([signal, AbortSignal.timeout(10_000)])
  // Bounded: at most 100,000 rounds, and every round awaits network round trips.
  for (let round = 0; round < 100_000 && !signal.aborted; round++) {
    const seed = peers[0]!
    try {
      const meta = await broker(seed).metadata(['load'], { signal: request() })
      await Promise.all(
        (meta.topics[0]?.partitions ?? []).map(async ({ partition, leader }) => {
          const owner = peers.find((p) => p.peerId === leader)
          if (owner === undefined) return
          const records = encodeRecordBatchSync({ records: values.map((v) => ({ ...v, timestamp: Date.now() })) })
          await broker(owner).produce({ topic: 'load', partition, acks: 1, records }, { signal: request() })
          sent++
        }),
      )
    } catch {
      if (signal.aborted) break
    }
  }
  return sent
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tributary-membership-'))
  client = await createMeshNode({ tcpPort: 0, wsPort: false })
  peers.push(...(await startSeededPeers(root, 3)))
  const seed = peers[0]!
  for (const peer of peers) await expectSeen(peer.peerId, (s) => s === 'alive', `${peer.dataDir} alive everywhere`)
  const created = await broker(seed).createTopics([{ name: 'load', partitions: 6, replicationFactor: 1 }])
  expect(created[0]?.error).toBeUndefined()
}, 90_000)

afterAll(async () => {
  for (const b of brokers.values()) b.close()
  await client?.stop()
  await stopAll('SIGKILL')
  await rm(root, { recursive: true, force: true })
})

/** Restarts `peers[index]` on its data dir, bootstrapping to the seed, after stopping it with `signal`. */
async function restart(index: number, signal: NodeJS.Signals): Promise<PeerProcess> {
  const before = peers[index]!
  expect(await before.stop(signal)).toBe(signal === 'SIGKILL' ? null : 0)
  const again = await startPeerProcess(before.dataDir, { bootstrap: [peers[0]!.address] })
  expect(again.peerId).toBe(before.peerId)
  peers[index] = again
  // Its own view holding another peer alive means the process is past start-up (its signal
  // handlers are installed just after peer.json is written), so a SIGTERM now is a clean stop.
  await waitFor(async () => (await health(again)).peers >= 2, `${again.dataDir} to see another peer`)
  return again
}

describe('mesh > membership across restarts', () => {
  it('a peer stopped cleanly and restarted at once, several times under load, is alive in every view', async () => {
    const traffic = new AbortController()
    const loading = load(traffic.signal)
    try {
      // No waiting between restarts for the others to notice: each new incarnation goes down
      // as soon as it is up, its leave racing its first heartbeats.
      for (let i = 0; i < 3; i++) await restart(2, 'SIGTERM')
      await expectSeen(peers[2]!.peerId, (s) => s === 'alive', 'the last incarnation alive everywhere')
    } finally {
      traffic.abort()
      expect(await loading).toBeGreaterThan(0)
    }
  }, 240_000)

  it('a peer that crashed (SIGKILL, no leave) and restarted at once is alive in every view', async () => {
    await restart(2, 'SIGKILL')
    await expectSeen(peers[2]!.peerId, (s) => s === 'alive', 'the restarted peer alive everywhere')
  }, 120_000)

  it('a peer restarted after a clean leave, then crashed, is dead everywhere, not left', async () => {
    const again = await restart(2, 'SIGTERM')
    await expectSeen(again.peerId, (s) => s === 'alive', 'the new incarnation alive everywhere')
    await again.stop('SIGKILL')
    // 'dead' after the failure timeout (5 s): the crash is no goodbye.
    await expectSeen(again.peerId, (s) => s === 'dead', 'the crashed peer dead everywhere', 60_000)
    await restart(2, 'SIGKILL')
    await expectSeen(peers[2]!.peerId, (s) => s === 'alive', 'the peer back after that')
  }, 180_000)

  it('a peer restarted after a clean leave that crashes the moment it is connected is dead where it was seen', async () => {
    const again = await restart(2, 'SIGTERM')
    await again.stop('SIGKILL')
    // The seed it bootstrapped to had its heartbeat in the connection's hello, so it turns the peer
    // dead. A peer it never reached and whose gossip it did not live to see may keep its goodbye,
    // 'left': either way nobody may hold it alive once the failure timeout has passed.
    await waitFor(
      async () =>
        (await broker(peers[0]!).metadata([])).peers.find((p) => p.peerId === again.peerId)?.status === 'dead',
      'the seed to declare the crashed peer dead',
      60_000,
    )
    // Others heard it later, or not at all: each turns it dead in its own failure timeout, or keeps 'left'.
    await expectSeen(again.peerId, (s) => s === 'dead' || s === 'left', 'the crashed peer alive nowhere', 60_000)
    await restart(2, 'SIGKILL')
    await expectSeen(peers[2]!.peerId, (s) => s === 'alive', 'the peer back after that')
  }, 180_000)

  it('a peer that left cleanly and did not come back stays left (or forgotten) everywhere', async () => {
    const gone = peers[1]!
    expect(await gone.stop('SIGTERM')).toBe(0)
    peers.splice(1, 1)
    const departed = (s: string) => s === 'left' || s === 'absent'
    await expectSeen(gone.peerId, departed, 'the departed peer left everywhere')
    // Progress without sleeping: another peer crashes, restarts and is seen alive again (well past
    // the failure timeout); meanwhile the departed one must not have come back or turned dead.
    await restart(1, 'SIGKILL')
    await expectSeen(peers[1]!.peerId, (s) => s === 'alive', 'the restarted peer alive everywhere')
    expect((await views(gone.peerId)).filter((s) => s !== 'self').every(departed)).toBe(true)
  }, 180_000)
})
