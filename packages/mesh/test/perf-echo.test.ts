import '../src/polyfills.js'
import { afterEach, describe, expect, it } from 'vitest'
import { PROTOCOLS } from '../src/constants.js'
import { PerfStreamError } from '../src/perf.js'
import { measureRoundTrips, registerPerfEchoProtocol } from '../src/perf-echo.js'
import { NodeSession, recordingLogger, waitFor } from './helpers.js'

describe('perf-echo > round trips of one stream', () => {
  const session = new NodeSession()
  afterEach(() => session.stopAll())

  async function pair(maxBytes?: number) {
    const [server, client] = await Promise.all([session.node({ wsPort: false }), session.node({ wsPort: false })])
    const logger = recordingLogger()
    const unregister = await registerPerfEchoProtocol(server, {
      logger,
      ...(maxBytes === undefined ? {} : { maxBytes }),
    })
    session.onCleanup(unregister)
    return { server, client, logger, unregister }
  }

  it('times every round trip after the warm-up, and the server echoes every byte', async () => {
    const { server, client, logger } = await pair()
    const result = await measureRoundTrips(client, server.getMultiaddrs(), {
      count: 200,
      warmup: 20,
      intervalMs: 0.5,
      messageBytes: 1300,
    })
    expect(result.count).toBe(200)
    expect(result.messageBytes).toBe(1300)
    expect(result.p50).toBeGreaterThan(0)
    expect(result.p50).toBeLessThanOrEqual(result.p90)
    expect(result.p90).toBeLessThanOrEqual(result.p99)
    expect(result.p99).toBeLessThanOrEqual(result.p999)
    expect(result.p999).toBeLessThanOrEqual(result.max)
    expect(result.mean).toBeGreaterThan(0)
    const done = await waitFor(() => logger.entries.find((e) => e.msg === 'perf-echo stream done'))
    expect(done.obj).toMatchObject({ bytes: 220 * 1300 })
    expect(logger.warnings()).toEqual([])
  })

  it('echoes bytes as they came, split or joined however the transport delivers them', async () => {
    const { server, client } = await pair()
    const stream = await client.dialProtocol(server.getMultiaddrs(), PROTOCOLS.perfEcho)
    const sent = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 7) % 251)
    const chunks: Uint8Array[] = []
    const ended = new Promise<void>((resolve) => stream.addEventListener('close', () => resolve()))
    stream.addEventListener('message', (evt) => chunks.push(evt.data.subarray()))
    for (let at = 0; at < sent.length; at += 9_999) stream.send(sent.subarray(at, at + 9_999))
    await stream.close()
    await ended
    expect(Buffer.concat(chunks)).toEqual(Buffer.from(sent))
  })

  it('resets a stream that has the server echo more than maxBytes, and keeps serving others', async () => {
    const { server, client, logger } = await pair(64 * 1024)
    await expect(
      measureRoundTrips(client, server.getMultiaddrs(), { count: 100, intervalMs: 0, messageBytes: 1024 }),
    ).rejects.toThrow(PerfStreamError)
    await waitFor(() => logger.warnings().some((e) => (e.obj as { err?: string }).err?.includes('at most')))
    const ok = await measureRoundTrips(client, server.getMultiaddrs(), { count: 10, intervalMs: 0, messageBytes: 1024 })
    expect(ok.count).toBe(10)
  })

  it('refuses options it cannot honour before dialing', async () => {
    const { server, client } = await pair()
    const to = server.getMultiaddrs()
    await expect(measureRoundTrips(client, to, { count: 0, intervalMs: 1, messageBytes: 10 })).rejects.toThrow(
      RangeError,
    )
    await expect(
      measureRoundTrips(client, to, { count: 1, intervalMs: 1, messageBytes: 64 * 1024 + 1 }),
    ).rejects.toThrow(RangeError)
    await expect(measureRoundTrips(client, to, { count: 1, intervalMs: -1, messageBytes: 10 })).rejects.toThrow(
      RangeError,
    )
    await expect(
      measureRoundTrips(client, to, { count: 1_000_000, warmup: 1, intervalMs: 0, messageBytes: 10 }),
    ).rejects.toThrow(RangeError)
  })

  it('gives up with the abort reason when its signal aborts mid-measurement', async () => {
    const { server, client } = await pair()
    const controller = new AbortController()
    const reason = new Error('enough')
    setTimeout(() => controller.abort(reason), 50)
    await expect(
      measureRoundTrips(client, server.getMultiaddrs(), {
        count: 10_000,
        intervalMs: 1,
        messageBytes: 100,
        signal: controller.signal,
      }),
    ).rejects.toBe(reason)
  })

  it('stops serving after unregister', async () => {
    const { server, client, unregister } = await pair()
    await unregister()
    await expect(
      measureRoundTrips(client, server.getMultiaddrs(), { count: 1, intervalMs: 0, messageBytes: 10 }),
    ).rejects.toThrow()
  })
})
