/**
 * One socket write per pass of the event loop's poll phase instead of one per buffer.
 *
 * Why: libp2p 3's TCP connection writes every chunk of what it is given with its own
 * `socket.write()`, and noise hands it two chunks per encrypted message (the 2-byte length, then
 * the ciphertext), so each yamux frame costs two `write` syscalls, and a turn that sends several
 * frames costs several more. On this project's 2-core VM the syscalls were the largest single
 * item of a replicating peer's CPU profile (strace: ~9 writes per acks=all produce across three
 * peers, ~2 per message). Corking the socket on the first send and uncorking it later turns them
 * into one `writev`, with no copying.
 *
 * When to uncork: at the end of the poll phase (`setImmediate`), not after the callback that
 * wrote. A loaded peer reads up to 32 chunks of 64 KiB per socket in one poll pass, each in its
 * own callback, and answers each request in it; uncorking per callback sent every small answer
 * alone, and every such write also woke the process reading it. Held to the end of the pass
 * they share one write and one wake-up (perf trace of `npm run bench -- peer`: one 46-byte
 * `writev` per 123 KiB produce before). Corked bytes that reach FLUSH_AT_BYTES (a full noise
 * message: record data, not an answer) are written at once, so replication does not wait for
 * the pass to end (holding those cost `acks=all` throughput in the mesh bench). The added
 * latency is bounded by one poll pass: the loop does not wait for I/O while an immediate is
 * pending. Backpressure is unchanged: corked bytes count towards the socket's high-water mark,
 * so `write()` still reports when to wait for 'drain'.
 *
 * How: the transport is wrapped so that every connection it makes (dialed or accepted) is
 * adjusted before the upgrader sees it. It relies on the TCP connection keeping its socket in a
 * `socket` property; when that is absent (another transport, a changed libp2p) the connection is
 * left exactly as it was.
 */
import { Socket } from 'node:net'
import type { MultiaddrConnection, Transport, Upgrader } from '@libp2p/interface'

/** Corked bytes written at once rather than at the end of the poll pass: one full noise message. */
export const FLUSH_AT_BYTES = 64 * 1024

type TransportFactory<C> = (components: C) => Transport

interface Sender {
  sendData(data: unknown): unknown
}

/** Wraps a transport factory (e.g. `tcp()`) so its connections coalesce writes. */
export function coalescedWrites<C>(factory: TransportFactory<C>): TransportFactory<C> {
  return (components) => {
    const transport = factory(components)
    return new Proxy(transport, {
      get(target, property, receiver) {
        if (property === 'dial') {
          return (ma: Parameters<Transport['dial']>[0], options: Parameters<Transport['dial']>[1]) =>
            target.dial(ma, { ...options, upgrader: coalescingUpgrader(options.upgrader) })
        }
        if (property === 'createListener') {
          return (options: Parameters<Transport['createListener']>[0]) =>
            target.createListener({ ...options, upgrader: coalescingUpgrader(options.upgrader) })
        }
        return Reflect.get(target, property, receiver)
      },
    })
  }
}

const wrapped = new WeakMap<Upgrader, Upgrader>()

function coalescingUpgrader(upgrader: Upgrader): Upgrader {
  let proxy = wrapped.get(upgrader)
  if (proxy === undefined) {
    proxy = new Proxy(upgrader, {
      get(target, property, receiver) {
        if (property === 'upgradeOutbound' || property === 'upgradeInbound') {
          const upgrade = target[property].bind(target)
          return (maConn: MultiaddrConnection, options: Parameters<Upgrader['upgradeOutbound']>[1]) =>
            upgrade(coalesceConnectionWrites(maConn), options)
        }
        return Reflect.get(target, property, receiver)
      },
    })
    wrapped.set(upgrader, proxy)
  }
  return proxy
}

/** Corks the connection's socket on its first send of a poll pass; returns the same connection. */
export function coalesceConnectionWrites(maConn: MultiaddrConnection): MultiaddrConnection {
  const socket = (maConn as unknown as { socket?: unknown }).socket
  const sender = maConn as unknown as Partial<Sender>
  if (!(socket instanceof Socket) || typeof sender.sendData !== 'function') return maConn
  const sendData = sender.sendData
  let corked = false
  let scheduled = false
  const uncork = (): void => {
    if (!corked) return
    corked = false
    socket.uncork()
  }
  const endOfPass = (): void => {
    scheduled = false
    uncork()
  }
  sender.sendData = function (this: Sender, data: unknown): unknown {
    if (!corked && !socket.destroyed) {
      corked = true
      socket.cork()
      if (!scheduled) {
        scheduled = true
        setImmediate(endOfPass)
      }
    }
    const result = sendData.call(this, data)
    if (socket.writableLength >= FLUSH_AT_BYTES) uncork()
    return result
  }
  return maConn
}
