/**
 * One outbound RPC stream on the client side: correlation ids, the pending-request table, and the
 * decoding of responses. Owned by RpcClient, which opens a new one when this one ends.
 */
import type { Stream } from '@libp2p/interface'
import type { Logger } from '../logger.js'
import { abortReason } from './abort.js'
import { decodeErrorPayload } from './error-payload.js'
import { FrameTooLargeError, InvalidFrameError, RpcStreamClosedError } from './errors.js'
import { FrameDecoder, FrameKind, frameParts, type Payload } from './frame.js'
import { StreamWriter } from './stream-writer.js'

export interface ClientStreamConfig {
  protocol: string
  peer: string
  maxResponseBytes: number
  drainTimeoutMs: number
  logger: Logger
}

interface Pending {
  resolve: (payload: Uint8Array) => void
  reject: (err: Error) => void
}

const MAX_CORRELATION_ID = 0xffff_ffff

export class ClientStream {
  readonly #stream: Stream
  readonly #config: ClientStreamConfig
  readonly #decoder: FrameDecoder
  readonly #writer: StreamWriter
  readonly #pending = new Map<number, Pending>()
  readonly #onClosed: (session: ClientStream) => void
  #nextId = 1
  #closed = false

  constructor(stream: Stream, config: ClientStreamConfig, onClosed: (session: ClientStream) => void) {
    this.#stream = stream
    this.#config = config
    this.#onClosed = onClosed
    this.#decoder = new FrameDecoder({ maxPayloadBytes: config.maxResponseBytes })
    this.#writer = new StreamWriter(stream, config.drainTimeoutMs)
    stream.addEventListener('message', (evt) => this.#onData(evt.data))
    // The server closed its end: nothing more will be answered on this stream.
    stream.addEventListener('end', () => {
      // After a reset 'end' precedes 'close'; let the 'close' listener report the reset.
      if (stream.status !== 'open') return
      this.#fail(new RpcStreamClosedError(`${config.protocol} stream ended by ${config.peer}`), 'close')
    })
    stream.addEventListener('close', (evt) => {
      const detail = evt.error === undefined ? 'closed' : `reset (${evt.error.message})`
      const err = new RpcStreamClosedError(`${config.protocol} stream to ${config.peer} ${detail}`, {
        cause: evt.error,
      })
      this.#fail(err, 'none')
    })
  }

  get closed(): boolean {
    return this.#closed
  }

  get pendingCount(): number {
    return this.#pending.size
  }

  /** Sends one request and settles with its response; `signal` abort rejects it and forgets its id. */
  request(payload: Payload, signal: AbortSignal): Promise<Uint8Array> {
    if (this.#closed) return Promise.reject(new RpcStreamClosedError(`${this.#config.protocol} stream is closed`))
    if (signal.aborted) return Promise.reject(abortReason(signal))
    const id = this.#allocateId()
    return new Promise<Uint8Array>((resolve, reject) => {
      const onAbort = (): void => {
        if (this.#pending.delete(id)) reject(abortReason(signal))
      }
      signal.addEventListener('abort', onAbort, { once: true })
      this.#pending.set(id, {
        resolve: (response) => {
          signal.removeEventListener('abort', onAbort)
          resolve(response)
        },
        reject: (err) => {
          signal.removeEventListener('abort', onAbort)
          reject(err)
        },
      })
      this.#writer.write(frameParts(id, FrameKind.Request, payload), { signal }).catch((err: unknown) => {
        if (signal.aborted) return // already rejected by onAbort; the frame was never sent
        const cause = err instanceof Error ? err : new Error(String(err))
        this.#fail(new RpcStreamClosedError(`${this.#config.protocol} request could not be sent`, { cause }), 'abort')
      })
    })
  }

  /** Closes gracefully when idle; with requests outstanding, resets (they fail with `reason`). */
  close(reason: Error): void {
    this.#fail(reason, this.#pending.size === 0 ? 'close' : 'abort')
  }

  #allocateId(): number {
    // Bounded: at most pending.size ids are taken, far fewer than 2^32.
    for (;;) {
      const id = this.#nextId
      this.#nextId = id === MAX_CORRELATION_ID ? 1 : id + 1
      if (!this.#pending.has(id)) return id
    }
  }

  #onData(chunk: Uint8Array | Iterable<Uint8Array>): void {
    if (this.#closed) return
    this.#decoder.push(chunk)
    try {
      // Bounded by the bytes just received: every iteration consumes one whole frame.
      for (let frame = this.#decoder.next(); frame !== undefined; frame = this.#decoder.next()) {
        if (frame.kind === FrameKind.Request) throw new InvalidFrameError('request frame on a client stream')
        const pending = this.#pending.get(frame.correlationId)
        if (pending === undefined) {
          // A response to a request that timed out or was aborted (its id was forgotten).
          this.#config.logger.debug(
            { peer: this.#config.peer, correlationId: frame.correlationId },
            'late rpc response',
          )
          continue
        }
        this.#pending.delete(frame.correlationId)
        if (frame.kind === FrameKind.Response) pending.resolve(frame.payload)
        else pending.reject(decodeErrorPayload(frame.payload))
      }
    } catch (err) {
      if (err instanceof FrameTooLargeError && err.correlationId !== undefined) {
        const pending = this.#pending.get(err.correlationId)
        this.#pending.delete(err.correlationId)
        pending?.reject(err)
      }
      this.#config.logger.warn(
        { peer: this.#config.peer, protocol: this.#config.protocol, err: (err as Error).message },
        'resetting rpc stream: bad response from peer',
      )
      const cause = err as Error
      this.#fail(
        new RpcStreamClosedError(`bad response from ${this.#config.peer}: ${cause.message}`, { cause }),
        'abort',
      )
    }
  }

  /**
   * Ends this session: every pending request fails with `err` and the stream is closed gracefully,
   * reset, or left alone (it already closed). The client opens a new stream for the next request.
   */
  #fail(err: Error, stream: 'close' | 'abort' | 'none'): void {
    if (this.#closed) return
    this.#closed = true
    for (const pending of this.#pending.values()) pending.reject(err)
    this.#pending.clear()
    this.#onClosed(this)
    if (this.#stream.status !== 'open') return
    if (stream === 'abort') {
      this.#stream.abort(err)
    } else if (stream === 'close') {
      this.#stream
        .close({ signal: AbortSignal.timeout(this.#config.drainTimeoutMs) })
        .catch((closeErr: unknown) => this.#stream.abort(closeErr as Error))
    }
  }
}
