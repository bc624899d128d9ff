import '../../src/polyfills.js'
import { ErrorCode, NotLeaderOrFollowerError, RequestTimedOutError, TributaryError } from '@tributary/wire'
import { afterEach, describe, expect, it } from 'vitest'
import type { MeshNode } from '../../src/node/index.js'
import {
  createRpcServerStats,
  FrameTooLargeError,
  RpcClient,
  type RpcClientOptions,
  type RpcHandler,
  RpcQueueFullError,
  type RpcServerOptions,
  RpcStreamClosedError,
  registerRpcHandler,
} from '../../src/rpc/index.js'
import { NodeSession, waitFor } from '../helpers.js'

const PROTOCOL = '/tributary/test-rpc/1.0.0'
const text = (s: string): Uint8Array => new TextEncoder().encode(s)
const str = (b: Uint8Array): string => new TextDecoder().decode(b)

describe('rpc > request/response over libp2p', () => {
  const session = new NodeSession()
  afterEach(() => session.stopAll())

  async function pair(
    handler: RpcHandler,
    serverOptions: RpcServerOptions = {},
    clientOptions: RpcClientOptions = {},
  ): Promise<{ server: MeshNode; client: RpcClient; stats: ReturnType<typeof createRpcServerStats> }> {
    const [server, caller] = await Promise.all([session.node({ wsPort: false }), session.node({ wsPort: false })])
    const stats = createRpcServerStats()
    const unregister = await registerRpcHandler(server, PROTOCOL, handler, { stats, ...serverOptions })
    session.onCleanup(unregister)
    await caller.dial(server.getMultiaddrs())
    const client = new RpcClient(caller, server.peerId, PROTOCOL, { requestTimeoutMs: 5000, ...clientOptions })
    session.onCleanup(() => client.close())
    return { server, client, stats }
  }

  it('answers a request with the handler result, and tells the handler who asked', async () => {
    let asker = ''
    const { client } = await pair(async (request, ctx) => {
      asker = ctx.peerId
      return text(`echo:${str(request)}`)
    })
    expect(str(await client.request(text('hello')))).toBe('echo:hello')
    expect(asker).toMatch(/^12D3/)
  })

  it('pipelines requests on one stream and answers each as it completes: a slow request does not block a fast one', async () => {
    let releaseSlow!: () => void
    const slowGate = new Promise<void>((resolve) => {
      releaseSlow = resolve
    })
    const { client, stats } = await pair(async (request) => {
      if (str(request) === 'slow') await slowGate
      return request
    })
    const order: string[] = []
    const slow = client.request(text('slow')).then((r) => order.push(str(r)))
    await waitFor(() => stats.requests === 1)
    const fast = await client.request(text('fast'))
    order.push(str(fast))
    releaseSlow()
    await slow
    expect(order).toEqual(['fast', 'slow'])
    expect(stats.streamsOpened).toBe(1)
    expect(stats.peakInFlight).toBe(2)
  })

  it('rejects a request on its own timeout with RequestTimedOutError, forgets it, and keeps serving', async () => {
    const { client } = await pair(async (request, { signal }) => {
      if (str(request) === 'hang') await new Promise((resolve) => signal.addEventListener('abort', resolve))
      return request
    })
    const started = Date.now()
    const err = await client.request(text('hang'), { timeoutMs: 150 }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(RequestTimedOutError)
    expect((err as TributaryError).retriable).toBe(true)
    expect(Date.now() - started).toBeLessThan(2000)
    expect(client.inFlight).toBe(0)
    expect(str(await client.request(text('ok')))).toBe('ok')
  })

  it('on an open stream (no controller or timer per request) still times out, aborts and drops late answers', async () => {
    const { client, stats } = await pair(async (request) => {
      if (str(request) === 'late') await new Promise((resolve) => setTimeout(resolve, 400))
      if (str(request) === 'hang') await new Promise(() => {})
      return request
    })
    expect(str(await client.request(text('open')))).toBe('open')

    const started = Date.now()
    const late = await client.request(text('late'), { timeoutMs: 100 }).catch((e: unknown) => e)
    expect(late).toBeInstanceOf(RequestTimedOutError)
    expect((late as Error).message).toMatch(/request to .* timed out after 100 ms/)
    expect(Date.now() - started).toBeLessThan(350)
    expect(client.inFlight).toBe(0)

    const controller = new AbortController()
    const hung = client.request(text('hang'), { signal: controller.signal, timeoutMs: 60_000 })
    await waitFor(() => stats.requests === 3)
    controller.abort(new Error('caller gave up'))
    await expect(hung).rejects.toThrow('caller gave up')
    expect(client.inFlight).toBe(0)

    // The late answer arrives meanwhile and is dropped; the stream keeps serving, in order.
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(str(await client.request(text('after')))).toBe('after')
    expect(stats.streamsOpened).toBe(1)
  })

  it('rejects with the abort reason when the caller aborts, before or during the request', async () => {
    const { client } = await pair(async (request, { signal }) => {
      await new Promise((resolve) => signal.addEventListener('abort', resolve))
      return request
    })
    const controller = new AbortController()
    const pending = client.request(text('x'), { signal: controller.signal })
    controller.abort(new Error('caller gave up'))
    await expect(pending).rejects.toThrow('caller gave up')
    await expect(client.request(text('y'), { signal: AbortSignal.abort(new Error('already')) })).rejects.toThrow(
      'already',
    )
  })

  it('answers a handler timeout with REQUEST_TIMED_OUT and aborts the handler signal', async () => {
    let handlerAborted = false
    const { client } = await pair(
      async (_request, { signal }) => {
        await new Promise((resolve) => signal.addEventListener('abort', resolve))
        handlerAborted = true
        return new Uint8Array()
      },
      { handlerTimeoutMs: 100 },
    )
    const err = await client.request(text('x')).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(RequestTimedOutError)
    expect((err as TributaryError).message).toContain('did not finish within 100 ms')
    expect(handlerAborted).toBe(true)
  })

  it('maps error frames to typed errors: a TributaryError keeps class, code and message; others are UNKNOWN_SERVER_ERROR', async () => {
    const { client, stats } = await pair(async (request) => {
      if (str(request) === 'not-leader') throw new NotLeaderOrFollowerError('partition orders-3 moved to peer B')
      if (str(request) === 'custom') throw new TributaryError('odd', { code: 999 })
      throw new Error('ENOENT /var/secret/path')
    })
    const notLeader = await client.request(text('not-leader')).catch((e: unknown) => e)
    expect(notLeader).toBeInstanceOf(NotLeaderOrFollowerError)
    expect(notLeader).toMatchObject({ code: ErrorCode.NOT_LEADER_OR_FOLLOWER, retriable: true })
    expect((notLeader as Error).message).toBe('partition orders-3 moved to peer B')

    expect(await client.request(text('custom')).catch((e: unknown) => e)).toMatchObject({ code: 999, message: 'odd' })

    const unknown = await client.request(text('boom')).catch((e: unknown) => e)
    expect(unknown).toBeInstanceOf(TributaryError)
    expect(unknown).toMatchObject({ code: ErrorCode.UNKNOWN_SERVER_ERROR })
    expect((unknown as Error).message).not.toContain('secret')
    expect(stats.errors).toBe(3)
  })

  it('fails pending requests retriably when the server resets the stream, then re-opens a stream', async () => {
    const [server, caller] = await Promise.all([session.node({ wsPort: false }), session.node({ wsPort: false })])
    const hang: RpcHandler = (_request, { signal }) =>
      new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)))
    const firstStats = createRpcServerStats()
    const unregisterFirst = await registerRpcHandler(server, PROTOCOL, hang, { stats: firstStats })
    const client = new RpcClient(caller, server.getMultiaddrs()[0]!, PROTOCOL, { requestTimeoutMs: 5000 })
    session.onCleanup(() => client.close())

    const pending = client.request(text('a'))
    await waitFor(() => firstStats.requests === 1)
    await unregisterFirst() // resets every open stream of the protocol
    const err = await pending.catch((e: unknown) => e)
    expect(err).toBeInstanceOf(RpcStreamClosedError)
    expect((err as TributaryError).retriable).toBe(true)

    const secondStats = createRpcServerStats()
    session.onCleanup(await registerRpcHandler(server, PROTOCOL, async (r) => r, { stats: secondStats }))
    expect(str(await client.request(text('again')))).toBe('again')
    expect(secondStats.streamsOpened).toBe(1)
  })

  it('of two direct connections to the peer, opens its stream on the one the lower peer id opened', async () => {
    const [one, two] = await Promise.all([session.node({ wsPort: false }), session.node({ wsPort: false })])
    const [lower, higher] = one.peerId.toString() < two.peerId.toString() ? [one, two] : [two, one]
    session.onCleanup(await registerRpcHandler(lower, PROTOCOL, async (r) => r))
    session.onCleanup(await registerRpcHandler(higher, PROTOCOL, async (r) => r))
    // Crossing dials: the lower peer's connection opens first, the higher's second (libp2p's own
    // pick among open connections is the newest).
    const byLower = await lower.dial(higher.getMultiaddrs())
    const byHigher = await higher.dial(lower.getMultiaddrs(), { force: true })
    expect(byLower).not.toBe(byHigher)
    await waitFor(() => higher.getConnections(lower.peerId).length === 2)
    const protocolOn = (c: { streams: ReadonlyArray<{ protocol?: string }> }) =>
      c.streams.some((s) => s.protocol === PROTOCOL)

    // Either end asking: the stream goes over the lower peer's connection, which a tie-break keeps.
    for (const [from, to] of [
      [higher, lower],
      [lower, higher],
    ] as const) {
      const client = new RpcClient(from, to.peerId, PROTOCOL, { requestTimeoutMs: 5000 })
      session.onCleanup(() => client.close())
      expect(str(await client.request(text('which')))).toBe('which')
    }
    const kept = higher.getConnections(lower.peerId).find((c) => c.direction === 'inbound')!
    const other = higher.getConnections(lower.peerId).find((c) => c.direction === 'outbound')!
    expect(protocolOn(kept)).toBe(true)
    expect(protocolOn(other)).toBe(false)
    expect(protocolOn(byLower)).toBe(true)
    expect(protocolOn(lower.getConnections(higher.peerId).find((c) => c !== byLower)!)).toBe(false)
  })

  it('refuses oversize payloads locally and bounds the waiting queue', async () => {
    let release!: () => void
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const { client } = await pair(
      async (request) => {
        await gate
        return request
      },
      {},
      { maxRequestBytes: 10, maxInFlight: 1, maxQueued: 1 },
    )
    await expect(client.request(new Uint8Array(11))).rejects.toBeInstanceOf(FrameTooLargeError)
    const first = client.request(text('1'))
    const second = client.request(text('2'))
    await expect(client.request(text('3'))).rejects.toBeInstanceOf(RpcQueueFullError)
    release()
    expect((await Promise.all([first, second])).map(str)).toEqual(['1', '2'])
  })

  it('fails a response larger than maxResponseBytes with FrameTooLargeError and recovers on a new stream', async () => {
    const { client } = await pair(
      async (request) => new Uint8Array(str(request) === 'big' ? 2048 : 1),
      {},
      {
        maxResponseBytes: 1024,
      },
    )
    await expect(client.request(text('big'))).rejects.toBeInstanceOf(FrameTooLargeError)
    expect((await client.request(text('small'))).byteLength).toBe(1)
  })

  it('aborts running handlers when the client goes away, so long-polls release their resources', async () => {
    let aborted: unknown
    const { client, stats } = await pair(
      (_request, { signal }) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => {
            aborted = signal.reason
            reject(signal.reason)
          }),
        ),
    )
    const pending = client.request(text('long-poll')).catch((e: unknown) => e)
    await waitFor(() => stats.requests === 1)
    await client.close() // outstanding request: the stream is reset
    expect(await pending).toMatchObject({ name: 'RpcClientClosedError' })
    await waitFor(() => aborted !== undefined)
    expect(aborted).toBeInstanceOf(RpcStreamClosedError)
  })

  it('rejects further requests after close()', async () => {
    const { client } = await pair(async (r) => r)
    await client.request(text('x'))
    await client.close()
    await client.close()
    await expect(client.request(text('y'))).rejects.toMatchObject({ name: 'RpcClientClosedError' })
  })
})
