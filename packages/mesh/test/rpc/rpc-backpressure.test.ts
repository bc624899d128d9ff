import '../../src/polyfills.js'
import { afterEach, describe, expect, it } from 'vitest'
import {
  createRpcServerStats,
  FRAME_HEADER_BYTES,
  RpcClient,
  type RpcServerStats,
  registerRpcHandler,
} from '../../src/rpc/index.js'
import { NodeSession, recordingLogger } from '../helpers.js'

const PROTOCOL = '/tributary/test-backpressure/1.0.0'
const MiB = 1024 * 1024

describe('rpc > backpressure with large payloads', () => {
  const session = new NodeSession()
  afterEach(() => session.stopAll())

  async function setup(serverInFlight: number, handlerMs: number, respond: (request: Uint8Array) => Uint8Array) {
    const [server, caller] = await Promise.all([session.node({ wsPort: false }), session.node({ wsPort: false })])
    const stats = createRpcServerStats()
    const logger = recordingLogger()
    let running = 0
    let peakRunning = 0
    session.onCleanup(
      await registerRpcHandler(
        server,
        PROTOCOL,
        async (request) => {
          running++
          peakRunning = Math.max(peakRunning, running)
          // Slower than the link, so requests pile up behind the in-flight limit and reading must pause.
          await new Promise((resolve) => setTimeout(resolve, handlerMs))
          running--
          return respond(request)
        },
        { maxRequestBytes: MiB, maxInFlightPerStream: serverInFlight, stats, logger },
      ),
    )
    await caller.dial(server.getMultiaddrs())
    const client = new RpcClient(caller, server.peerId, PROTOCOL, {
      maxRequestBytes: MiB,
      maxResponseBytes: MiB,
      maxInFlight: 32,
      requestTimeoutMs: 20_000,
    })
    session.onCleanup(() => client.close())
    return { client, stats, logger, peakRunning: () => peakRunning }
  }

  function expectBounded(stats: RpcServerStats, serverInFlight: number): void {
    // The decoder never holds more than one incomplete frame.
    expect(stats.peakBufferedBytes).toBeLessThanOrEqual(MiB + FRAME_HEADER_BYTES)
    // Complete requests waiting for a slot: what arrived before the pause took effect, bounded by
    // the yamux window (16 MiB at most) — far below the 200 MiB the client sends.
    expect(stats.peakQueuedBytes).toBeLessThanOrEqual(16 * MiB + MiB)
    expect(stats.peakInFlight).toBeLessThanOrEqual(serverInFlight)
    expect(stats.streamsReset).toBe(0)
  }

  it('200 × 1 MiB requests through a server running 4 at a time: all answered, memory bounded', async () => {
    const { client, stats, logger, peakRunning } = await setup(
      4,
      30,
      (request) => new Uint8Array([request[0]!, request.length >> 20]),
    )
    // 32 workers sending one after another: the test itself holds at most 32 payloads at once.
    let next = 0
    const worker = async (): Promise<void> => {
      for (let i = next++; i < 200; i = next++) {
        const response = await client.request(new Uint8Array(MiB).fill(i % 251))
        expect([...response]).toEqual([i % 251, 1])
      }
    }
    await Promise.all(Array.from({ length: 32 }, worker))
    expect(stats.requests).toBe(200)
    expect(peakRunning()).toBeLessThanOrEqual(4)
    expectBounded(stats, 4)
    // The limit did bind: reading paused with requests queued, and no stream was reset for it.
    expect(stats.peakInFlight).toBe(4)
    expect(stats.peakQueuedBytes).toBeGreaterThan(MiB)
    expect(logger.warnings()).toEqual([])
  })

  it('1 MiB responses to 100 pipelined requests arrive whole and in any order', async () => {
    const { client, stats } = await setup(8, 1, (request) => new Uint8Array(MiB).fill(request[0]!))
    const responses = await Promise.all(Array.from({ length: 100 }, (_, i) => client.request(new Uint8Array([i]))))
    responses.forEach((response, i) => {
      expect(response.byteLength).toBe(MiB)
      expect(response[0]).toBe(i)
      expect(response[MiB - 1]).toBe(i)
    })
    expectBounded(stats, 8)
  })
})
