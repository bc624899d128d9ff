/**
 * One socket write per event-loop turn instead of one per buffer.
 *
 * Why: libp2p 3's TCP connection writes every chunk of what it is given with its own
 * `socket.write()`, and noise hands it two chunks per encrypted message (the 2-byte length, then
 * the ciphertext), so each yamux frame costs two `write` syscalls, and a turn that sends several
 * frames costs several more. On this project's 2-core VM the syscalls were the largest single
 * item of a replicating peer's CPU profile (strace: ~9 writes per acks=all produce across three
 * peers, ~2 per message). Corking the socket on the first send of a turn and uncorking it on the
 * next tick turns them into one `writev`, with no copying and no added latency (the uncork runs
 * before the loop waits for I/O). Backpressure is unchanged: corked bytes count towards the
 * socket's high-water mark, so `write()` still reports when to wait for 'drain'.
 *
 * How: the transport is wrapped so that every connection it makes (dialed or accepted) is
 * adjusted before the upgrader sees it. It relies on the TCP connection keeping its socket in a
 * `socket` property; when that is absent (another transport, a changed libp2p) the connection is
 * left exactly as it was.
 */
import { Socket } from 'node:net'
import type { MultiaddrConnection, Transport, Upgrader } from '@libp2p/interface'

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

/** Corks the connection's socket on its first send of a turn; returns the same connection. */
export function coalesceConnectionWrites(maConn: MultiaddrConnection): MultiaddrConnection {
  const socket = (maConn as unknown as { socket?: unknown }).socket
  const sender = maConn as unknown as Partial<Sender>
  if (!(socket instanceof Socket) || typeof sender.sendData !== 'function') return maConn
  const sendData = sender.sendData
  let corked = false
  const uncork = (): void => {
    corked = false
    socket.uncork()
  }
  sender.sendData = function (this: Sender, data: unknown): unknown {
    if (!corked && !socket.destroyed) {
      corked = true
      socket.cork()
      process.nextTick(uncork)
    }
    return sendData.call(this, data)
  }
  return maConn
}
