import { once } from 'node:events'
import { createServer, type Server, Socket } from 'node:net'
import type { MultiaddrConnection } from '@libp2p/interface'
import { afterEach, describe, expect, it } from 'vitest'
import { coalesceConnectionWrites, FLUSH_AT_BYTES } from '../../src/node/coalesced-writes.js'
import { waitFor } from '../helpers.js'

interface Harness {
  socket: Socket
  /** What libp2p's TCP connection would be: a socket and a sendData that writes to it. */
  maConn: MultiaddrConnection & { sendData(data: Uint8Array): boolean }
  /** Buffers per write the socket handed to the kernel (a writev of n buffers counts n once). */
  writes: number[]
  /** Bytes the server received so far. */
  received: () => number
}

let server: Server | undefined
let client: Socket | undefined

afterEach(async () => {
  client?.destroy()
  client = undefined
  if (server !== undefined) await new Promise((resolve) => server!.close(resolve))
  server = undefined
})

async function connect(): Promise<Harness> {
  let received = 0
  server = createServer((conn) =>
    conn.on('data', (chunk: Buffer) => {
      received += chunk.length
    }),
  )
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  const socket = new Socket()
  client = socket
  socket.connect(port, '127.0.0.1')
  await once(socket, 'connect')
  const writes: number[] = []
  const internals = socket as unknown as {
    _write: (chunk: unknown, encoding: unknown, cb: unknown) => void
    _writev: (chunks: unknown[], cb: unknown) => void
  }
  const [write, writev] = [internals._write, internals._writev]
  internals._write = function (this: Socket, chunk, encoding, cb) {
    writes.push(1)
    write.call(this, chunk, encoding, cb)
  }
  internals._writev = function (this: Socket, chunks, cb) {
    writes.push(chunks.length)
    writev.call(this, chunks, cb)
  }
  const maConn = { socket, sendData: (data: Uint8Array) => socket.write(data) } as unknown as Harness['maConn']
  return { socket, maConn: coalesceConnectionWrites(maConn) as Harness['maConn'], writes, received: () => received }
}

describe('node > coalesced writes', () => {
  it('sends from separate callbacks of one event-loop pass in one writev', async () => {
    const h = await connect()
    const chunk = new Uint8Array(100)
    // Two timers due together run in one timers phase, each as its own callback.
    await new Promise<void>((resolve) => {
      setTimeout(() => {
        h.maConn.sendData(chunk)
        h.maConn.sendData(chunk)
      }, 0)
      setTimeout(() => {
        h.maConn.sendData(chunk)
        resolve()
      }, 0)
    })
    expect(h.socket.writableCorked).toBe(1)
    expect(h.writes).toEqual([])
    await new Promise((resolve) => setImmediate(resolve))
    expect(h.socket.writableCorked).toBe(0)
    expect(h.writes).toEqual([3])
    await waitFor(() => h.received() === 300, { message: '300 bytes received' })
  })

  it('writes corked bytes at once when they reach a full noise message', async () => {
    const h = await connect()
    h.maConn.sendData(new Uint8Array(10))
    expect(h.socket.writableCorked).toBe(1)
    h.maConn.sendData(new Uint8Array(FLUSH_AT_BYTES))
    expect(h.socket.writableCorked).toBe(0)
    expect(h.writes).toEqual([2])
    // The next send corks again and is written when the pass ends.
    h.maConn.sendData(new Uint8Array(10))
    expect(h.socket.writableCorked).toBe(1)
    await new Promise((resolve) => setImmediate(resolve))
    expect(h.socket.writableCorked).toBe(0)
    await waitFor(() => h.received() === FLUSH_AT_BYTES + 20, { message: 'every byte received' })
  })

  it('leaves a connection without a TCP socket as it was', () => {
    const sendData = (): boolean => true
    const maConn = { sendData } as unknown as MultiaddrConnection
    coalesceConnectionWrites(maConn)
    expect((maConn as unknown as { sendData: unknown }).sendData).toBe(sendData)
  })
})
