import '../../src/polyfills.js'
import type { Stream } from '@libp2p/interface'
import { afterEach, describe, expect, it } from 'vitest'
import type { MeshNode } from '../../src/node/index.js'
import { createRpcServerStats, encodeFrame, FrameKind, RpcClient, registerRpcHandler } from '../../src/rpc/index.js'
import { NodeSession, recordingLogger, waitFor } from '../helpers.js'

const PROTOCOL = '/tributary/test-bad-input/1.0.0'
const MAX_REQUEST_BYTES = 64 * 1024

function u32(...values: number[]): Uint8Array {
  const bytes = new Uint8Array(values.length * 4)
  const view = new DataView(bytes.buffer)
  for (const [i, value] of values.entries()) view.setUint32(i * 4, value)
  return bytes
}

/** Resolves with the stream's close error once the remote resets it (or after it closes cleanly: undefined). */
function closed(stream: Stream): Promise<Error | undefined> {
  if (stream.status !== 'open') return Promise.resolve(new Error(`already ${stream.status}`))
  return new Promise((resolve) => stream.addEventListener('close', (evt) => resolve(evt.error), { once: true }))
}

describe('rpc > a peer that sends garbage', () => {
  const session = new NodeSession()
  afterEach(() => session.stopAll())

  async function setup() {
    const [server, attacker] = await Promise.all([session.node({ wsPort: false }), session.node({ wsPort: false })])
    const logger = recordingLogger()
    const stats = createRpcServerStats()
    session.onCleanup(
      await registerRpcHandler(server, PROTOCOL, async (request) => request, {
        maxRequestBytes: MAX_REQUEST_BYTES,
        logger,
        stats,
      }),
    )
    await attacker.dial(server.getMultiaddrs())
    const good = new RpcClient(attacker, server.peerId, PROTOCOL, { requestTimeoutMs: 5000 })
    session.onCleanup(() => good.close())
    await good.request(new Uint8Array([1])) // the good client holds its own long-lived stream
    return { server, attacker, logger, stats, good }
  }

  async function rawStream(attacker: MeshNode, server: MeshNode): Promise<Stream> {
    return attacker.dialProtocol(server.peerId, PROTOCOL)
  }

  const cases: Array<{ name: string; bytes: () => Uint8Array[]; close?: boolean; expectLog: RegExp }> = [
    {
      name: 'garbage bytes',
      bytes: () => [new TextEncoder().encode('GET / HTTP/1.1\r\nHost: example\r\n\r\n')],
      expectLog: /exceeds the limit|shorter than/,
    },
    { name: 'a frame declaring 2 GiB', bytes: () => [u32(2 ** 31, 7)], expectLog: /exceeds the limit/ },
    {
      name: 'a truncated frame, then close',
      bytes: () => [encodeFrame(1, FrameKind.Request, new Uint8Array(1000)).subarray(0, 500)],
      close: true,
      expectLog: /ended inside a frame/,
    },
    {
      name: 'a response-kind frame',
      bytes: () => [encodeFrame(1, FrameKind.Response, new Uint8Array(3))],
      expectLog: /unexpected response frame/,
    },
    {
      name: 'an unknown kind',
      bytes: () => [new Uint8Array([...u32(6, 1), 9, 0])],
      expectLog: /unknown kind 9/,
    },
    {
      name: 'a length shorter than the header',
      bytes: () => [new Uint8Array([...u32(2, 1), 0])],
      expectLog: /shorter than/,
    },
  ]

  for (const { name, bytes, close, expectLog } of cases) {
    it(`resets the stream and logs on ${name}, and still answers a good client`, async () => {
      const { server, attacker, logger, stats, good } = await setup()
      const stream = await rawStream(attacker, server)
      const done = closed(stream)
      for (const chunk of bytes()) stream.send(chunk)
      if (close === true) await stream.close()
      const error = await done
      expect(error?.name).toBe('StreamResetError')
      await waitFor(() => logger.warnings().length === 1, {
        message: `one warning (have ${JSON.stringify(logger.entries)})`,
      })
      expect(JSON.stringify(logger.warnings()[0])).toMatch(expectLog)
      expect(stats.streamsReset).toBe(1)
      expect(await good.request(new Uint8Array([2]))).toEqual(new Uint8Array([2]))
    })
  }

  it('serves a well-formed request sent by hand, including pipelined frames in one write', async () => {
    const { server, attacker } = await setup()
    const stream = await rawStream(attacker, server)
    const frames = [1, 2, 3].map((id) => encodeFrame(id, FrameKind.Request, new Uint8Array([id])))
    stream.send(Buffer.concat(frames))
    const received: number[] = []
    const chunks: Uint8Array[] = []
    stream.addEventListener('message', (evt) => {
      chunks.push(evt.data instanceof Uint8Array ? evt.data : evt.data.subarray())
    })
    await waitFor(() => Buffer.concat(chunks).byteLength === 3 * 10)
    const all = Buffer.concat(chunks)
    for (let offset = 0; offset < all.byteLength; offset += 10) {
      expect(all[offset + 8]).toBe(FrameKind.Response)
      received.push(all.readUInt32BE(offset + 4))
    }
    expect(received.sort()).toEqual([1, 2, 3])
    await stream.close()
  })
})
