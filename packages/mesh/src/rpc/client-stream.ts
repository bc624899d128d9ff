/**
 * One outbound RPC stream on the client side: correlation ids, the pending-request table, and the
 * decoding of responses. Owned by RpcClient, which opens a new one when this one ends.
 */
import type { Stream } from '@libp2p/interface'
import { RequestTimedOutError } from '@tributary/wire'
import type { Logger } from '../logger.js'
import { abortReason } from './abort.js'
import { type Deadline, DeadlineQueue } from './deadlines.js'
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

export interface StreamRequestOptions {
  /** Aborting it rejects the request with its reason and forgets its id. */
  signal?: AbortSignal | undefined
  /**
   * Fails the request with REQUEST_TIMED_OUT this many milliseconds from now and forgets its id,
   * without a timer of its own (the stream's DeadlineQueue serves every request).
   */
  timeoutMs?: number
}

/** A request sent (or queued to be) and not yet answered. One object per request, no closures of its own. */
class Pending implements Deadline {
  settled = false
  onAbort: (() => void) | undefined

  constructor(
    readonly id: number,
    readonly deadline: number,
    readonly timeoutMs: number | undefined,
    readonly resolve: (payload: Uint8Array) => void,
    readonly reject: (err: Error) => void,
    readonly signal: AbortSignal | undefined,
  ) {}
}

const MAX_CORRELATION_ID = 0xffff_ffff

export class ClientStream {
  readonly #stream: Stream
  readonly #config: ClientStreamConfig
  readonly #decoder: FrameDecoder
  readonly #writer: StreamWriter
  readonly #pending = new Map<number, Pending>()
  readonly #deadlines = new DeadlineQueue<Pending>((pending) => this.#timedOut(pending))
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

  /**
   * Sends one request and settles with its response. Aborting `signal` rejects it with the signal's
   * reason, and `timeoutMs` passing rejects it with RequestTimedOutError; either way its id is forgotten
   * (a late answer is dropped) and, if its turn to be written had not come, it is never sent.
   */
  request(payload: Payload, options: StreamRequestOptions = {}): Promise<Uint8Array> {
    const { signal, timeoutMs } = options
    if (this.#closed) return Promise.reject(new RpcStreamClosedError(`${this.#config.protocol} stream is closed`))
    if (signal?.aborted) return Promise.reject(abortReason(signal))
    const id = this.#allocateId()
    return new Promise<Uint8Array>((resolve, reject) => {
      const deadline = timeoutMs === undefined ? Number.POSITIVE_INFINITY : performance.now() + timeoutMs
      const pending = new Pending(id, deadline, timeoutMs, resolve, reject, signal)
      this.#pending.set(id, pending)
      this.#deadlines.add(pending)
      if (signal !== undefined) {
        pending.onAbort = () => this.#settle(pending, undefined, abortReason(signal))
        signal.addEventListener('abort', pending.onAbort, { once: true })
      }
      this.#writer.write(frameParts(id, FrameKind.Request, payload), { unless: pending }).catch((err: unknown) => {
        if (pending.settled) return // aborted or timed out (and rejected) first; the frame was never sent
        const cause = err instanceof Error ? err : new Error(String(err))
        this.#fail(new RpcStreamClosedError(`${this.#config.protocol} request could not be sent`, { cause }), 'abort')
      })
    })
  }

  /** Answers `pending` once: with `payload`, or rejected with `err`. Later calls for it do nothing. */
  #settle(pending: Pending, payload: Uint8Array | undefined, err: Error | undefined): void {
    if (this.#pending.get(pending.id) !== pending) return
    this.#pending.delete(pending.id)
    this.#deadlines.settle(pending)
    if (pending.onAbort !== undefined) pending.signal!.removeEventListener('abort', pending.onAbort)
    if (err === undefined) pending.resolve(payload!)
    else pending.reject(err)
  }

  #timedOut(pending: Pending): void {
    const { protocol, peer } = this.#config
    this.#settle(
      pending,
      undefined,
      new RequestTimedOutError(`${protocol} request to ${peer} timed out after ${pending.timeoutMs} ms`),
    )
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
        if (frame.kind === FrameKind.Response) this.#settle(pending, frame.payload, undefined)
        else this.#settle(pending, undefined, decodeErrorPayload(frame.payload))
      }
    } catch (err) {
      if (err instanceof FrameTooLargeError && err.correlationId !== undefined) {
        const pending = this.#pending.get(err.correlationId)
        if (pending !== undefined) this.#settle(pending, undefined, err)
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
    // Deleting the entry being visited is safe in a Map's iteration.
    for (const pending of this.#pending.values()) this.#settle(pending, undefined, err)
    this.#deadlines.clear()
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
