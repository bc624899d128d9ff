/**
 * Yamux window updates once half a stream's receive window is used, not after every frame.
 *
 * Why: @libp2p/yamux 8 answers every data frame it receives with a WINDOW_UPDATE frame, so
 * each RPC message on a stream costs a second, reverse message: another noise encryption,
 * another frame to parse on the other side and, unless it shares an event-loop turn with other
 * writes, another socket write. hashicorp/go-yamux and rust-yamux send an update only once at
 * least half of the window has been consumed; the sender then still holds half a window of
 * credit, so throughput does not suffer (the window is 256 KiB growing to 16 MiB here).
 *
 * How: the muxer factory is wrapped so every stream it creates gets a `sendWindowUpdate` that
 * skips the update while the stream is established (no SYN or ACK flag is due — the library's
 * `getSendFlags` changes state, so it is not called here) and more than half the receive window
 * is left; otherwise the library's own method runs unchanged (window growth, flags, pausing).
 * It relies on the stream's `state`, `recvWindow` and `recvWindowCapacity`; if any is missing (a
 * changed yamux), streams are left exactly as the library made them. No node: imports, so
 * browser nodes use it too.
 */
import type { MultiaddrConnection, StreamMuxerFactory } from '@libp2p/interface'
import { StreamState } from '@libp2p/yamux/stream'

type MuxerFactoryInit<C> = (components: C) => StreamMuxerFactory

interface YamuxStreamInternals {
  state: StreamState
  recvWindow: number
  recvWindowCapacity: number
  sendWindowUpdate(): void
}

/** Wraps a stream muxer factory (`yamux()`) so its streams send window updates with hysteresis. */
export function halfWindowUpdates<C>(factory: MuxerFactoryInit<C>): MuxerFactoryInit<C> {
  return (components) => {
    const muxerFactory = factory(components)
    return new Proxy(muxerFactory, {
      get(target, property, receiver) {
        if (property === 'createStreamMuxer') {
          return (maConn: MultiaddrConnection) => patchMuxer(target.createStreamMuxer(maConn))
        }
        return Reflect.get(target, property, receiver)
      },
    })
  }
}

function patchMuxer<M>(muxer: M): M {
  const internals = muxer as unknown as { _newStream?: (...args: unknown[]) => unknown }
  const newStream = internals._newStream
  if (typeof newStream !== 'function') return muxer
  internals._newStream = function (this: unknown, ...args: unknown[]): unknown {
    const stream = newStream.apply(this, args)
    patchStream(stream)
    return stream
  }
  return muxer
}

/** Exported for tests. */
export function patchStream(stream: unknown): void {
  const s = stream as Partial<YamuxStreamInternals>
  const send = s.sendWindowUpdate
  if (
    typeof send !== 'function' ||
    typeof s.state !== 'number' ||
    typeof s.recvWindow !== 'number' ||
    typeof s.recvWindowCapacity !== 'number'
  ) {
    return
  }
  s.sendWindowUpdate = function (this: YamuxStreamInternals): void {
    if (this.state === StreamState.Established && this.recvWindowCapacity > this.recvWindow / 2) return
    send.call(this)
  }
}
