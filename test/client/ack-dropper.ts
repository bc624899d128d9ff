/**
 * A fault hook that loses produce acknowledgements: it stands between the SDK and its light node
 * (via `Tributary.connect`'s testing-only `wrapNode`) and watches the frames coming back on each
 * produce stream. Every `every`-th successful produce answer (error code 0 — the leader appended
 * and, for acks=all, committed the batch) is never delivered: the stream is reset instead, exactly
 * what the SDK meets when a connection dies after the request went out. Every request still
 * waiting on that stream fails the same way, so their outcome is unknown to the producer too.
 *
 * The choice is deterministic (a counter, no randomness) and bounded (`limit` drops at most).
 * Nothing in the peer or in the SDK is mocked: the request reached the real leader, was appended
 * there, and the producer must retry to learn its offsets.
 */
import type { Stream } from '@libp2p/interface'
import { Tributary } from '@tributary/client'
import { PROTOCOLS } from '@tributary/mesh/constants'
import { FrameDecoder, FrameKind } from '@tributary/mesh/rpc'
import { ProduceResponse } from '@tributary/wire/pb/protocol'

type ClientNode = Parameters<NonNullable<NonNullable<Parameters<typeof Tributary.connect>[1]>['wrapNode']>>[0]
type MessageListener = (evt: Event & { data: Uint8Array | Iterable<Uint8Array> }) => void

/** Larger than any produce answer (a few dozen bytes), small enough to bound what a broken stream could make us buffer. */
const MAX_ANSWER_BYTES = 1024 * 1024

/** The reason a dropped answer's stream is reset with (the SDK sees an RpcStreamClosedError wrapping it). */
export class AckDroppedFault extends Error {
  override name = 'AckDroppedFault'
}

export interface AckDropperOptions {
  /** Drop every n-th successful produce answer (n ≥ 2, so retries can get through). */
  every: number
  /** Drop at most this many answers in all. */
  limit: number
}

export class AckDropper {
  /** Successful produce answers seen (delivered or dropped). */
  acks = 0
  /** Answers dropped so far. */
  dropped = 0
  /** Produce streams opened by the SDK. */
  streams = 0
  private enabled = true

  constructor(private readonly options: AckDropperOptions) {
    if (!Number.isInteger(options.every) || options.every < 2) throw new RangeError('every must be an integer ≥ 2')
    if (!Number.isInteger(options.limit) || options.limit < 0) throw new RangeError('limit must be an integer ≥ 0')
  }

  /** Stops dropping (e.g. while the test reads the results back with the same client). */
  disable(): void {
    this.enabled = false
  }

  /** Connects a Tributary whose produce answers pass through this dropper. */
  connect(config: Parameters<typeof Tributary.connect>[0]): Promise<Tributary> {
    return Tributary.connect(config, { wrapNode: (node) => this.wrap(node) })
  }

  wrap(node: ClientNode): ClientNode {
    const dialProtocol: ClientNode['dialProtocol'] = async (peer, protocols, options) => {
      const stream = await node.dialProtocol(peer, protocols, options)
      if (protocols === PROTOCOLS.produce) this.watch(stream)
      return stream
    }
    return {
      peerId: node.peerId,
      peerStore: node.peerStore,
      stop: () => node.stop(),
      dialProtocol,
    }
  }

  /**
   * Sees every chunk of the stream before its reader does. The stream object is patched in place
   * (an own `addEventListener` shadowing the prototype's), so everything else about it — its
   * status, send, close and abort — is the real libp2p stream.
   */
  private watch(stream: Stream): void {
    this.streams++
    const decoder = new FrameDecoder({ maxPayloadBytes: MAX_ANSWER_BYTES })
    const verdicts = new WeakMap<Event, boolean>()
    const judge = (evt: Event & { data: Uint8Array | Iterable<Uint8Array> }): boolean => {
      let drop = verdicts.get(evt)
      if (drop === undefined) {
        drop = this.inspect(decoder, evt.data)
        verdicts.set(evt, drop)
        if (drop) stream.abort(new AckDroppedFault('fault hook: produce answer dropped, stream reset'))
      }
      return drop
    }
    const add = stream.addEventListener.bind(stream) as (type: string, listener: unknown, options?: unknown) => void
    const patched = (type: string, listener: unknown, options?: unknown): void => {
      if (type !== 'message' || typeof listener !== 'function') {
        add(type, listener, options)
        return
      }
      const deliver = listener as MessageListener
      add(
        'message',
        (evt: Event & { data: Uint8Array | Iterable<Uint8Array> }) => {
          if (!judge(evt)) deliver(evt)
        },
        options,
      )
    }
    Object.defineProperty(stream, 'addEventListener', { value: patched, configurable: true, writable: true })
  }

  /** Whether this chunk completes an answer chosen to be lost. Counts the successful answers it completes. */
  private inspect(decoder: FrameDecoder, chunk: Uint8Array | Iterable<Uint8Array>): boolean {
    // A copy: the reader's own decoder gets the same buffers, and ours must not hold on to views it may reuse.
    decoder.push(chunk instanceof Uint8Array ? chunk.slice() : [...chunk].map((part) => part.slice()))
    let drop = false
    // Bounded by the bytes just pushed: every iteration consumes one whole frame.
    for (let frame = decoder.next(); frame !== undefined; frame = decoder.next()) {
      if (frame.kind !== FrameKind.Response) continue
      if (ProduceResponse.decode(frame.payload).errorCode !== 0) continue
      this.acks++
      if (this.enabled && !drop && this.dropped < this.options.limit && this.acks % this.options.every === 0) {
        this.dropped++
        drop = true
      }
    }
    return drop
  }
}
