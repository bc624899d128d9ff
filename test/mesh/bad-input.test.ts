import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Stream } from '@libp2p/interface'
import { multiaddr } from '@multiformats/multiaddr'
import { Broker } from '@tributary/client'
import { MAX_HEARTBEAT_BYTES, PROTOCOLS } from '@tributary/mesh/constants'
import { decodeHeartbeat, encodeHeartbeat } from '@tributary/mesh/membership'
import { createMeshNode, type MeshNode } from '@tributary/mesh/node'
import { encodeFrame, FrameKind, RpcClient, RpcStreamClosedError } from '@tributary/mesh/rpc'
import { ErrorCode, TributaryError } from '@tributary/wire'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type PeerProcess, startPeerProcess, stopAll, waitFor } from '../helpers/peer-process.ts'

let root: string
let attacker: MeshNode
let peer: PeerProcess
let broker: Broker

function u32(...values: number[]): Uint8Array {
  const bytes = new Uint8Array(values.length * 4)
  const view = new DataView(bytes.buffer)
  for (const [i, value] of values.entries()) view.setUint32(i * 4, value)
  return bytes
}

function closedWithin(stream: Stream, ms: number): Promise<boolean> {
  if (stream.status !== 'open') return Promise.resolve(true)
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms)
    stream.addEventListener(
      'close',
      () => {
        clearTimeout(timer)
        resolve(true)
      },
      { once: true },
    )
  })
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tributary-bad-input-'))
  peer = await startPeerProcess(join(root, 'p'))
  attacker = await createMeshNode({ tcpPort: 0, wsPort: false })
  broker = new Broker(attacker, multiaddr(peer.address), { requestTimeoutMs: 10_000 })
  await broker.createTopics([{ name: 'safe', partitions: 1, replicationFactor: 1 }])
}, 60_000)

afterAll(async () => {
  broker?.close()
  await attacker?.stop()
  await stopAll('SIGKILL')
  await rm(root, { recursive: true, force: true })
})

const garbage: Array<[string, () => Uint8Array[], boolean]> = [
  ['garbage bytes', () => [new TextEncoder().encode('GET / HTTP/1.1\r\nHost: x\r\n\r\n')], false],
  ['a length prefix of 2 GiB', () => [u32(2 ** 31, 1)], false],
  [
    'a truncated frame, then close',
    () => [encodeFrame(1, FrameKind.Request, new Uint8Array(1000)).subarray(0, 300)],
    true,
  ],
  ['a response frame sent to a server', () => [encodeFrame(1, FrameKind.Response, new Uint8Array(4))], false],
]

describe('mesh > bad input to a peer process', () => {
  // Every framed RPC protocol a peer serves (perf is a raw byte sink by design; raft comes with replication).
  const rpcProtocols = [
    'produce',
    'fetch',
    'offsets',
    'metadata',
    'admin',
    'metaSync',
    'membershipHello',
    'raftFetchBundle',
  ] as const
  for (const protocolName of rpcProtocols) {
    const protocol = PROTOCOLS[protocolName]
    for (const [what, bytes, close] of garbage) {
      it(`${protocolName}: ${what} resets that stream, and the peer keeps serving`, async () => {
        const stream = await attacker.dialProtocol(multiaddr(peer.address), protocol)
        for (const chunk of bytes()) stream.send(chunk)
        if (close) await stream.close().catch(() => {})
        else expect(await closedWithin(stream, 10_000)).toBe(true)
        const meta = await broker.metadata(['safe'])
        expect(meta.topics[0]?.error).toBeUndefined()
      })
    }
  }

  it('logs the resets', async () => {
    await waitFor(() => /resetting rpc stream: peer broke the protocol/.test(peer.output()), 'a reset to be logged')
  })

  it('answers a well-framed request with garbage inside as an InvalidRequest error, not a crash', async () => {
    for (const protocol of [
      PROTOCOLS.produce,
      PROTOCOLS.fetch,
      PROTOCOLS.offsets,
      PROTOCOLS.admin,
      PROTOCOLS.raftFetchBundle,
    ]) {
      const raw = new RpcClient(attacker, multiaddr(peer.address), protocol, { requestTimeoutMs: 10_000 })
      const err = await raw.request(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x0f, 0x00, 0x12])).catch((e: unknown) => e)
      raw.close()
      expect(err, protocol).toBeInstanceOf(TributaryError)
      expect((err as TributaryError).code, protocol).toBe(42)
    }
    expect((await broker.metadata(['safe'])).topics).toHaveLength(1)
    expect(peer.proc.exitCode).toBeNull()
  })

  it('membership hello: garbage, an oversize heartbeat or one naming another peer is refused, and a real hello is still answered', async () => {
    const hello = (maxRequestBytes = MAX_HEARTBEAT_BYTES) =>
      new RpcClient(attacker, multiaddr(peer.address), PROTOCOLS.membershipHello, {
        requestTimeoutMs: 10_000,
        maxRequestBytes,
      })
    const heartbeat = (peerId: string, extra: { version?: string } = {}) =>
      encodeHeartbeat({
        peerId,
        incarnation: 1n,
        seq: 1n,
        roles: { voter: false, observer: true },
        storage: 'memory',
        version: extra.version ?? '0.1.0',
        addresses: [],
        leaving: false,
      })
    const refused = async (payload: Uint8Array, maxRequestBytes?: number): Promise<unknown> => {
      const client = hello(maxRequestBytes)
      try {
        return await client.request(payload).catch((e: unknown) => e)
      } finally {
        await client.close()
      }
    }
    // Well framed, not a heartbeat: a typed answer (CORRUPT_MESSAGE), not a crash.
    const garbled = await refused(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x0f, 0x00, 0x12]))
    expect(garbled).toBeInstanceOf(TributaryError)
    expect((garbled as TributaryError).code).toBe(ErrorCode.CORRUPT_MESSAGE)
    // A heartbeat about another peer than the one on the connection (noise authenticates it).
    const impostor = await refused(heartbeat(peer.peerId))
    expect(impostor).toBeInstanceOf(TributaryError)
    expect((impostor as TributaryError).code).toBe(ErrorCode.CORRUPT_MESSAGE)
    // Past the protocol's request bound: the stream is reset before the heartbeat is read.
    const oversize = heartbeat(attacker.peerId.toString(), { version: 'x'.repeat(2 * MAX_HEARTBEAT_BYTES) })
    expect(oversize.byteLength).toBeGreaterThan(MAX_HEARTBEAT_BYTES)
    expect(await refused(oversize, 4 * MAX_HEARTBEAT_BYTES)).toBeInstanceOf(RpcStreamClosedError)

    // Still up and answering: a genuine hello from the same attacker gets the peer's own heartbeat.
    const client = hello()
    try {
      const answer = await client.request(heartbeat(attacker.peerId.toString()))
      expect(decodeHeartbeat(answer, peer.peerId).peerId).toBe(peer.peerId)
    } finally {
      await client.close()
    }
    expect((await broker.metadata(['safe'])).topics).toHaveLength(1)
    expect(peer.proc.exitCode).toBeNull()
  })
})
