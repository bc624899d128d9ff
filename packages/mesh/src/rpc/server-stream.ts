/**
 * One inbound RPC stream on the server side. A client pipelines requests on a long-lived stream;
 * up to `maxInFlight` run at once and each is answered as it completes (out of order).
 *
 * On Node, requests start at the end of the event loop's poll pass that read them, all together,
 * and the answers finished in one tick leave in one stream write. A loaded peer reads many
 * requests per pass (libuv reads up to 32 × 64 KiB per connection): produces started together
 * share a group commit, and their acknowledgements share a yamux frame and a noise message.
 * Measured with `npm run bench -- peer`: the peer spent 10% less CPU per MiB produced.
 *
 * Memory per stream stays bounded. The decoder holds at most one incomplete frame (≤ maxRequestBytes
 * + header), and a header declaring more is refused before any of its payload is read. At the
 * in-flight limit the stream is paused, so yamux stops granting the peer window: what it was already
 * granted (≤ 16 MiB) waits in libp2p's read buffer, and complete frames that arrived before the pause
 * wait in `#queue` (≤ one window, since yamux hands over everything buffered when reading resumes —
 * it credits the window on receipt, not on consumption).
 *
 * Anything that breaks the grammar resets the stream (abort) and is logged; the server keeps going.
 */
import type { Stream } from '@libp2p/interface'
import { RequestTimedOutError } from '@tributary/wire'
import { Uint8ArrayList } from 'uint8arraylist'
import { YAMUX_MAX_STREAM_WINDOW } from '../constants.js'
import type { Logger } from '../logger.js'
import { type Deadline, DeadlineQueue } from './deadlines.js'
import { encodeErrorPayload, isWireError, unknownServerError } from './error-payload.js'
import { InvalidFrameError, RpcStreamClosedError } from './errors.js'
import {
  FRAME_HEADER_BYTES,
  type Frame,
  FrameDecoder,
  FrameKind,
  frameKindName,
  frameParts,
  type Payload,
} from './frame.js'
import type { RpcHandler, RpcHandlerContext, RpcServerStats } from './rpc-server.js'
import { StreamWriter } from './stream-writer.js'

export interface ServerStreamConfig {
  protocol: string
  peerId: string
  handler: RpcHandler
  maxRequestBytes: number
  maxInFlight: number
  handlerTimeoutMs: number
  drainTimeoutMs: number
  logger: Logger
  stats: RpcServerStats
}

/** A request whose handler is running, or whose response is waiting to be handed to the stream. */
interface Running extends Deadline {
  readonly correlationId: number
  readonly controller: AbortController
}

/**
 * What a handler is called with. Its `signal` is made on first read (Node's AbortController makes
 * its signal lazily, and aborting one that was never read makes it then, already aborted), so a
 * handler that never reads it costs no AbortSignal. That matters at thousands of requests a second:
 * a Node AbortSignal outlives every young-generation collection it meets and is promoted (an
 * EventTarget whose prototype was swapped; measured with --trace-gc-nvp: all of them survive), so
 * each one made per request lengthened the peer's scavenges and filled its old generation.
 */
class RequestContext implements RpcHandlerContext {
  readonly #controller: AbortController

  constructor(
    readonly peerId: string,
    readonly protocol: string,
    controller: AbortController,
  ) {
    this.#controller = controller
  }

  get signal(): AbortSignal {
    return this.#controller.signal
  }
}

export class ServerStream {
  readonly #stream: Stream
  readonly #config: ServerStreamConfig
  readonly #decoder: FrameDecoder
  readonly #writer: StreamWriter
  /** Complete request frames waiting for an in-flight slot. */
  readonly #queue: Frame[] = []
  #queuedBytes = 0
  /** Running requests by correlation id; aborting one cancels its handler. */
  readonly #running = new Map<number, Running>()
  /** Their handler deadlines, one timer for all (see DeadlineQueue). */
  readonly #deadlines = new DeadlineQueue<Running>((running) => this.#onDeadline(running))
  #remoteEnded = false
  #closed = false
  /** True while inside `stream.resume()`, which delivers buffered data synchronously. */
  #resuming = false
  /** A dispatch is scheduled for the end of this poll pass (see #onData). */
  #dispatchPending = false
  /** Replies finished in the current tick, not yet handed to the stream; see #reply. */
  #replies: Uint8ArrayList<ArrayBufferLike> | undefined
  /** Settles when `#replies` has been handed to the stream. */
  #repliesSent: Promise<void> = Promise.resolve()
  readonly #onDone: (session: ServerStream) => void

  constructor(stream: Stream, config: ServerStreamConfig, onDone: (session: ServerStream) => void) {
    this.#stream = stream
    this.#config = config
    this.#onDone = onDone
    this.#decoder = new FrameDecoder({ maxPayloadBytes: config.maxRequestBytes })
    this.#writer = new StreamWriter(stream, config.drainTimeoutMs)
    // While paused, the peer may still send what its window allows (up to yamux's 16 MiB), after the
    // partial frame we already hold; the default 4 MiB would reset well-behaved pipelining clients.
    stream.maxReadBufferLength = Math.max(
      stream.maxReadBufferLength,
      YAMUX_MAX_STREAM_WINDOW + config.maxRequestBytes + FRAME_HEADER_BYTES,
    )
    stream.addEventListener('message', (evt) => this.#onData(evt.data))
    stream.addEventListener('end', () => this.#onEnd())
    stream.addEventListener('close', (evt) => {
      if (evt.error !== undefined && !this.#closed) {
        // A peer resetting its own stream is routine (its client closed); libp2p resetting ours is not.
        const { logger, peerId, protocol } = this.#config
        const log = evt.local === true ? logger.warn : logger.debug
        log.call(logger, { peer: peerId, protocol, err: evt.error.message, local: evt.local }, 'rpc stream reset')
      }
      this.#onClose()
    })
    if (stream.status !== 'open') this.#onClose()
  }

  /** Resets the stream (server unregistering); running handlers see their signal abort. */
  abort(reason: Error): void {
    // Closed first: abort() dispatches 'end' synchronously, which must not look like a torn frame.
    this.#onClose()
    this.#stream.abort(reason)
  }

  #onData(chunk: Uint8Array | Iterable<Uint8Array>): void {
    if (this.#closed) return
    this.#decoder.push(chunk)
    try {
      // Bounded by the bytes just received: every iteration consumes one whole frame.
      for (let frame = this.#decoder.next(); frame !== undefined; frame = this.#decoder.next()) {
        if (frame.kind !== FrameKind.Request) {
          throw new InvalidFrameError(`unexpected ${frameKindName(frame.kind)} frame on a server stream`)
        }
        this.#queue.push(frame)
        this.#queuedBytes += frame.payload.byteLength
      }
    } catch (err) {
      this.#violation(err as Error)
      return
    }
    const { stats } = this.#config
    stats.peakBufferedBytes = Math.max(stats.peakBufferedBytes, this.#decoder.bufferedBytes)
    stats.peakQueuedBytes = Math.max(stats.peakQueuedBytes, this.#queuedBytes)
    if (endOfPass === undefined || this.#resuming) {
      this.#dispatchQueued()
      return
    }
    // Requests read in this poll pass start together when it ends (see the module comment). The
    // delay is the rest of the pass, in which no I/O waits; frames read meanwhile wait in #queue,
    // bounded by what one pass reads. The in-flight limit and pausing apply at the dispatch.
    if (this.#dispatchPending) return
    this.#dispatchPending = true
    endOfPass(() => {
      this.#dispatchPending = false
      this.#dispatchQueued()
    })
  }

  #dispatchQueued(): void {
    while (!this.#closed && this.#running.size < this.#config.maxInFlight) {
      const frame = this.#queue.shift()
      if (frame === undefined) break
      this.#queuedBytes -= frame.payload.byteLength
      if (this.#running.has(frame.correlationId)) {
        this.#violation(new InvalidFrameError(`correlation id ${frame.correlationId} is already in flight`))
        return
      }
      void this.#run(frame)
    }
    if (this.#closed) return
    if (this.#running.size >= this.#config.maxInFlight || this.#queue.length > 0) this.#pauseReading()
    else this.#resumeReading()
    this.#maybeFinish()
  }

  #pauseReading(): void {
    // Pausing inside resume() would be undone by it: AbstractMessageStream.resume() dispatches the
    // buffered data (reaching us here) and only then calls sendResume(), which re-opens the yamux window.
    if (this.#resuming || this.#stream.readStatus !== 'readable') return
    this.#stream.pause()
  }

  #resumeReading(): void {
    if (this.#stream.readStatus !== 'paused') return
    this.#resuming = true
    try {
      this.#stream.resume()
    } finally {
      this.#resuming = false
    }
    if (!this.#closed && (this.#running.size >= this.#config.maxInFlight || this.#queue.length > 0)) {
      this.#pauseReading()
    }
  }

  #run(frame: Frame): void {
    const { correlationId } = frame
    const { stats, handlerTimeoutMs, protocol, peerId, handler } = this.#config
    const running: Running = {
      correlationId,
      controller: new AbortController(),
      deadline: performance.now() + handlerTimeoutMs,
      settled: false,
    }
    this.#running.set(correlationId, running)
    this.#deadlines.add(running)
    stats.requests++
    stats.peakInFlight = Math.max(stats.peakInFlight, this.#running.size)
    let response: Promise<Payload>
    try {
      response = handler(frame.payload, new RequestContext(peerId, protocol, running.controller))
    } catch (err) {
      response = Promise.reject(err)
    }
    // No await and no race promise: the request ends with whichever comes first of its handler
    // settling, its deadline (#onDeadline) and the stream closing (#onClose); the others find it settled.
    response.then(
      (payload) => this.#answer(running, payload, undefined),
      (err: unknown) => this.#answer(running, undefined, err ?? new Error('handler rejected')),
    )
  }

  #onDeadline(running: Running): void {
    const { protocol, handlerTimeoutMs } = this.#config
    const reason = new RequestTimedOutError(`${protocol} handler did not finish within ${handlerTimeoutMs} ms`)
    running.controller.abort(reason)
    this.#respond(running, undefined, reason)
  }

  /** The handler settled: answer it, unless its deadline or the stream's end came first. */
  #answer(running: Running, payload: Payload | undefined, err: unknown): void {
    if (running.settled) return
    this.#deadlines.settle(running)
    this.#respond(running, payload, err)
  }

  /** Sends the response (or the error `err` stands for) and frees the request's slot once it is handed over. */
  #respond(running: Running, payload: Payload | undefined, err: unknown): void {
    const { correlationId } = running
    const { stats, protocol, peerId, logger } = this.#config
    if (this.#closed) {
      this.#running.delete(correlationId)
      return
    }
    let reply: Uint8ArrayList<ArrayBufferLike> | undefined
    if (err === undefined) {
      try {
        reply = frameParts(correlationId, FrameKind.Response, payload!)
      } catch (encodeErr) {
        err = encodeErr
      }
    }
    if (reply === undefined) {
      stats.errors++
      if (isWireError(err)) {
        logger.debug({ peer: peerId, protocol, code: err.code, err: err.message }, 'rpc handler answered an error')
        reply = frameParts(correlationId, FrameKind.Error, encodeErrorPayload(err))
      } else {
        logger.warn({ peer: peerId, protocol, err: String(err) }, 'rpc handler failed')
        reply = frameParts(correlationId, FrameKind.Error, encodeErrorPayload(unknownServerError(protocol)))
      }
    }
    // The slot is held until the response is handed to the stream, so a peer that does not read its
    // responses cannot make them pile up: at most maxInFlight replies are ever waiting to be written.
    this.#reply(reply).then(
      () => this.#replied(correlationId),
      (sendErr: unknown) => {
        if (!this.#closed) {
          logger.warn(
            { peer: peerId, protocol, err: (sendErr as Error).message },
            'rpc response could not be sent; resetting stream',
          )
          this.abort(sendErr as Error)
        }
        this.#replied(correlationId)
      },
    )
  }

  #replied(correlationId: number): void {
    this.#running.delete(correlationId)
    if (!this.#closed) this.#dispatchQueued()
  }

  /**
   * Hands `reply` to the stream together with every other reply finished in the same tick, as one
   * write. Why: a group commit completes many produces at once, and each stream write is a yamux
   * frame and a noise message (a cipher set up, a tag) of its own. Holding a reply to the end of
   * the tick delays nothing: no I/O happens in between. The batch holds at most maxInFlight
   * replies, each already in memory, and a reply still running is not waited for.
   */
  #reply(reply: Uint8ArrayList<ArrayBufferLike>): Promise<void> {
    if (this.#replies === undefined) {
      const replies = new Uint8ArrayList<ArrayBufferLike>()
      this.#replies = replies
      this.#repliesSent = endOfTick().then(() => {
        this.#replies = undefined
        if (this.#closed) throw new RpcStreamClosedError('rpc stream closed')
        return this.#writer.write(replies)
      })
    }
    this.#replies.append(reply)
    return this.#repliesSent
  }

  #onEnd(): void {
    if (this.#closed) return
    this.#remoteEnded = true
    if (this.#decoder.hasPartialFrame) {
      this.#violation(
        new InvalidFrameError(`stream ended inside a frame (${this.#decoder.bufferedBytes} bytes of it received)`),
      )
      return
    }
    this.#maybeFinish()
  }

  /** The peer closed its end and every request is answered: close ours. */
  #maybeFinish(): void {
    if (!this.#remoteEnded || this.#closed || this.#running.size > 0 || this.#queue.length > 0) return
    this.#stream
      .close({ signal: AbortSignal.timeout(this.#config.drainTimeoutMs) })
      .catch((err: unknown) => this.#stream.abort(err as Error))
  }

  #violation(err: Error): void {
    const { logger, stats, peerId, protocol } = this.#config
    stats.streamsReset++
    logger.warn({ peer: peerId, protocol, err: err.message }, 'resetting rpc stream: peer broke the protocol')
    this.abort(err)
  }

  #onClose(): void {
    if (this.#closed) return
    this.#closed = true
    this.#queue.length = 0
    this.#queuedBytes = 0
    const reason = new RpcStreamClosedError('rpc stream closed')
    this.#deadlines.clear()
    for (const running of this.#running.values()) {
      running.settled = true
      running.controller.abort(reason)
    }
    this.#running.clear()
    this.#onDone(this)
  }
}

/** Runs a callback after the poll pass's I/O callbacks (Node); a browser dispatches at once. */
const endOfPass: ((fn: () => void) => void) | undefined =
  typeof setImmediate === 'function' ? (fn) => setImmediate(fn) : undefined

/**
 * Settles once the current tick's promise jobs have all run: Node runs `nextTick` callbacks queued
 * by promise jobs only after the microtask queue is empty. A browser has no such queue; there a
 * microtask is the end (replies finished by later jobs of the tick go in a write of their own).
 */
const endOfTick: () => Promise<void> =
  typeof globalThis.process?.nextTick === 'function'
    ? () => new Promise<void>((resolve) => process.nextTick(resolve))
    : () => Promise.resolve()
