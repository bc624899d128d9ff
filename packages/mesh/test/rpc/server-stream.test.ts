/**
 * When a server stream starts requests and writes answers, on a stand-in for a libp2p stream
 * that records each `send()`. rpc.test.ts covers the same class over real libp2p connections.
 */
import type { Stream } from '@libp2p/interface'
import { describe, expect, it } from 'vitest'
import { silentLogger } from '../../src/logger.js'
import { createRpcServerStats, encodeFrame, FrameDecoder, FrameKind, type RpcHandler } from '../../src/rpc/index.js'
import { ServerStream } from '../../src/rpc/server-stream.js'
import { waitFor } from '../helpers.js'

/** The parts of a libp2p 3 stream a ServerStream uses: events in, `send()` recorded. */
class StandInStream extends EventTarget {
  status = 'open'
  readStatus = 'readable'
  writeStatus = 'writable'
  writableNeedsDrain = false
  maxReadBufferLength = 4 * 1024 * 1024
  /** The bytes of each send(). */
  readonly sends: Uint8Array[] = []
  pauses = 0

  /** Delivers `bytes` as one read, as libp2p does from a socket callback. */
  deliver(bytes: Uint8Array): void {
    this.dispatchEvent(Object.assign(new Event('message'), { data: bytes }))
  }

  send(data: Uint8Array | { subarray(): Uint8Array }): boolean {
    this.sends.push(data instanceof Uint8Array ? data : data.subarray())
    return true
  }

  pause(): void {
    this.pauses++
    this.readStatus = 'paused'
  }

  resume(): void {
    this.readStatus = 'readable'
  }

  async close(): Promise<void> {
    this.status = 'closed'
  }

  abort(): void {
    this.status = 'aborted'
  }
}

function serve(handler: RpcHandler, maxInFlight = 32, handlerTimeoutMs = 5000): StandInStream {
  const stream = new StandInStream()
  new ServerStream(
    stream as unknown as Stream,
    {
      protocol: '/tributary/test-server-stream/1.0.0',
      peerId: 'test-peer',
      handler,
      maxRequestBytes: 1024 * 1024,
      maxInFlight,
      handlerTimeoutMs,
      drainTimeoutMs: 5000,
      logger: silentLogger,
      stats: createRpcServerStats(),
    },
    () => {},
  )
  return stream
}

const request = (id: number): Uint8Array => encodeFrame(id, FrameKind.Request, new Uint8Array([id]))

/** The response frames in a send, as [correlation id, first payload byte]. */
function answers(bytes: Uint8Array): Array<[number, number]> {
  const decoder = new FrameDecoder({ maxPayloadBytes: 1024 })
  decoder.push(bytes)
  const out: Array<[number, number]> = []
  for (let frame = decoder.next(); frame !== undefined; frame = decoder.next()) {
    expect(frame.kind).toBe(FrameKind.Response)
    out.push([frame.correlationId, frame.payload[0]!])
  }
  return out
}

const endOfPass = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

describe('rpc > server stream: starting requests and writing answers', () => {
  it('starts requests read in separate chunks of one poll pass together, when the pass ends', async () => {
    const started: number[] = []
    const stream = serve(async (payload) => {
      started.push(payload[0]!)
      return payload
    })
    stream.deliver(request(1))
    stream.deliver(request(2))
    expect(started).toEqual([])
    await endOfPass()
    expect(started).toEqual([1, 2])
  })

  it('sends the answers finished in one tick as one write', async () => {
    const stream = serve(async (payload) => payload)
    for (let id = 1; id <= 5; id++) stream.deliver(request(id))
    await waitFor(() => stream.sends.length > 0)
    await endOfPass()
    expect(stream.sends).toHaveLength(1)
    expect(answers(stream.sends[0]!)).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 4],
      [5, 5],
    ])
  })

  it('does not hold an answer back for a request still running', async () => {
    let release!: () => void
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const stream = serve(async (payload) => {
      if (payload[0] === 2) await gate
      return payload
    })
    stream.deliver(request(1))
    stream.deliver(request(2))
    await waitFor(() => stream.sends.length === 1)
    expect(answers(stream.sends[0]!)).toEqual([[1, 1]])
    release()
    await waitFor(() => stream.sends.length === 2)
    expect(answers(stream.sends[1]!)).toEqual([[2, 2]])
  })

  it('still runs at most maxInFlight at once, pausing the stream while the rest wait', async () => {
    let running = 0
    let peak = 0
    const stream = serve(async (payload) => {
      running++
      peak = Math.max(peak, running)
      await endOfPass()
      running--
      return payload
    }, 2)
    for (let id = 1; id <= 7; id++) stream.deliver(request(id))
    await endOfPass()
    expect(stream.readStatus).toBe('paused')
    await waitFor(() => stream.sends.reduce((n, bytes) => n + answers(bytes).length, 0) === 7)
    expect(peak).toBe(2)
    expect(stream.pauses).toBeGreaterThan(0)
    expect(stream.readStatus).toBe('readable')
    const ids = stream.sends.flatMap((bytes) => answers(bytes).map(([id]) => id))
    expect(ids.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7])
  })

  it('answers handlers past their deadline REQUEST_TIMED_OUT, aborts their signal and frees their slot', async () => {
    const aborted: number[] = []
    const stream = serve(
      (payload, { signal }) => {
        const id = payload[0]!
        // Odd requests answer at once; even ones hang until their signal aborts, then answer late.
        if (id % 2 === 1) return Promise.resolve(payload)
        return new Promise((resolve) =>
          signal.addEventListener('abort', () => {
            aborted.push(id)
            resolve(payload)
          }),
        )
      },
      2,
      50,
    )
    for (let id = 1; id <= 6; id++) stream.deliver(request(id))
    const frames = (): Array<[number, number]> =>
      stream.sends.flatMap((bytes) => {
        const decoder = new FrameDecoder({ maxPayloadBytes: 1024 })
        decoder.push(bytes)
        const out: Array<[number, number]> = []
        for (let frame = decoder.next(); frame !== undefined; frame = decoder.next()) {
          out.push([frame.correlationId, frame.kind])
        }
        return out
      })
    // With two slots, requests 4 and 6 only start once 2 and then 4 timed out and freed theirs.
    await waitFor(() => frames().length === 6, { timeoutMs: 10_000 })
    const byId = new Map(frames())
    for (const id of [1, 3, 5]) expect(byId.get(id)).toBe(FrameKind.Response)
    for (const id of [2, 4, 6]) expect(byId.get(id)).toBe(FrameKind.Error)
    expect(aborted.sort()).toEqual([2, 4, 6])
    // The late answers of the aborted handlers were not sent a second time.
    await endOfPass()
    expect(frames()).toHaveLength(6)
  })

  it('gives a handler that first reads its signal after the deadline an already aborted one', async () => {
    let release: () => void = () => {}
    const readLate = new Promise<void>((resolve) => (release = resolve))
    let seen: { aborted: boolean; reason: unknown } | undefined
    const stream = serve(
      async (payload, ctx) => {
        await readLate // the signal is not read before the deadline, so none was made yet
        seen = { aborted: ctx.signal.aborted, reason: ctx.signal.reason }
        return payload
      },
      2,
      50,
    )
    stream.deliver(request(1))
    await waitFor(() => stream.sends.length === 1, { timeoutMs: 10_000 })
    release()
    await waitFor(() => seen !== undefined)
    expect(seen!.aborted).toBe(true)
    expect((seen!.reason as Error).message).toMatch(/did not finish within 50 ms/)
  })
})
