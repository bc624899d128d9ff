/**
 * The client half of Tributary's request/response layer. One RpcClient talks to one peer on one
 * protocol over one long-lived stream, opened lazily and re-opened after it ends; requests are
 * pipelined with correlation ids and each has its own timeout.
 *
 * ```ts
 * const client = new RpcClient(node, leaderPeerId, PROTOCOLS.produce, { requestTimeoutMs: 5000 })
 * const response = await client.request(encodeProduceRequest(...), { signal })
 * await client.close()
 * ```
 *
 * Errors: a handler's TributaryError comes back as the same class (via `errorFromCode`);
 * RequestTimedOutError on timeout; the signal's reason on abort; RpcStreamClosedError (retriable)
 * when the stream ends under a request; PeerUnreachableError (retriable) when the stream cannot be opened.
 */
import { isPeerId, type Libp2p, type PeerId } from '@libp2p/interface'
import type { Multiaddr } from '@multiformats/multiaddr'
import { RequestTimedOutError } from '@tributary/wire'
import {
  DEFAULT_CLIENT_MAX_IN_FLIGHT,
  DEFAULT_CLIENT_MAX_QUEUED,
  DEFAULT_DIAL_TIMEOUT_MS,
  DEFAULT_DRAIN_TIMEOUT_MS,
  DEFAULT_MAX_REQUEST_BYTES,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_REQUEST_TIMEOUT_MS,
} from '../constants.js'
import { componentLogger, type Logger, silentLogger } from '../logger.js'
import { abortReason, raceSignal } from './abort.js'
import { ClientStream } from './client-stream.js'
import { connectionToKeep, isDirect } from './connection-choice.js'
import { FrameTooLargeError, PeerUnreachableError, RpcClientClosedError, RpcQueueFullError } from './errors.js'
import { type Payload, payloadLength } from './frame.js'

export interface RpcClientOptions {
  /** Largest response payload accepted; a bigger one fails its request and resets the stream. */
  maxResponseBytes?: number
  /** Largest request payload sent; a bigger one is refused locally (match the server's maxRequestBytes). */
  maxRequestBytes?: number
  /** Requests outstanding on the stream at once. */
  maxInFlight?: number
  /** Requests waiting for an in-flight slot; beyond this `request()` fails fast with RpcQueueFullError. */
  maxQueued?: number
  /** Default per-request timeout, covering the wait for a slot, opening the stream and the answer. */
  requestTimeoutMs?: number
  /** Opening the stream (dial if needed + protocol negotiation). */
  dialTimeoutMs?: number
  /** A peer that leaves our stream full this long gets it reset. */
  drainTimeoutMs?: number
  /** Allow opening the stream over a limited (relayed) connection. */
  runOnLimitedConnection?: boolean
  logger?: Logger
}

export interface RequestOptions {
  signal?: AbortSignal
  /** Overrides the client's requestTimeoutMs for this request. */
  timeoutMs?: number
}

/**
 * What a client needs from a libp2p node. With `getConnections` and `peerId`, a stream goes over
 * the direct connection the duplicate tie-break keeps (see `connection-choice.ts`).
 */
export type RpcDialer = Pick<Libp2p, 'dialProtocol'> & Partial<Pick<Libp2p, 'getConnections' | 'peerId'>>

interface Waiter {
  resolve: () => void
  reject: (err: Error) => void
}

export class RpcClient {
  readonly #node: RpcDialer
  readonly #peer: PeerId | Multiaddr
  readonly #protocol: string
  readonly #maxResponseBytes: number
  readonly #maxRequestBytes: number
  readonly #maxInFlight: number
  readonly #maxQueued: number
  readonly #requestTimeoutMs: number
  readonly #dialTimeoutMs: number
  readonly #drainTimeoutMs: number
  readonly #runOnLimitedConnection: boolean
  readonly #logger: Logger
  /** Aborted by close(): cancels a dial in progress. */
  readonly #lifetime = new AbortController()
  #session: ClientStream | undefined
  #opening: Promise<ClientStream> | undefined
  #inFlight = 0
  readonly #waiters: Waiter[] = []
  #closed = false

  constructor(node: RpcDialer, peer: PeerId | Multiaddr, protocol: string, options: RpcClientOptions = {}) {
    this.#node = node
    this.#peer = peer
    this.#protocol = protocol
    this.#maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES
    this.#maxRequestBytes = options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES
    this.#maxInFlight = options.maxInFlight ?? DEFAULT_CLIENT_MAX_IN_FLIGHT
    this.#maxQueued = options.maxQueued ?? DEFAULT_CLIENT_MAX_QUEUED
    this.#requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS
    this.#dialTimeoutMs = options.dialTimeoutMs ?? DEFAULT_DIAL_TIMEOUT_MS
    this.#drainTimeoutMs = options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS
    this.#runOnLimitedConnection = options.runOnLimitedConnection ?? false
    this.#logger = componentLogger(options.logger ?? silentLogger, 'rpc-client')
    if (!(this.#maxInFlight > 0) || !(this.#maxQueued >= 0)) {
      throw new RangeError('maxInFlight must be positive and maxQueued non-negative')
    }
  }

  /** Requests sent and not yet answered (not counting those waiting for a slot). */
  get inFlight(): number {
    return this.#inFlight
  }

  async request(payload: Payload, options: RequestOptions = {}): Promise<Uint8Array> {
    if (this.#closed) throw new RpcClientClosedError()
    const length = payloadLength(payload)
    if (length > this.#maxRequestBytes) {
      throw new FrameTooLargeError(length, this.#maxRequestBytes)
    }
    options.signal?.throwIfAborted()

    const timeoutMs = options.timeoutMs ?? this.#requestTimeoutMs
    const ready = this.#openStream()
    if (ready !== undefined && this.#tryAcquire()) {
      // The usual case, a free slot on an open stream: no controller, timer or listener of its own.
      // The stream times the request out (one timer for all of its requests, see DeadlineQueue).
      try {
        return await ready.request(payload, { timeoutMs, signal: options.signal })
      } finally {
        this.#release()
      }
    }
    const controller = new AbortController()
    const timer = setTimeout(() => {
      controller.abort(
        new RequestTimedOutError(
          `${this.#protocol} request to ${this.#peer.toString()} timed out after ${timeoutMs} ms`,
        ),
      )
    }, timeoutMs)
    // Linked by hand rather than AbortSignal.any, so a long-lived caller signal keeps no reference to us.
    const onCallerAbort = (): void => controller.abort(abortReason(options.signal!))
    options.signal?.addEventListener('abort', onCallerAbort, { once: true })
    const { signal } = controller
    try {
      await this.#acquire(signal)
      try {
        // An open stream is used as it is: racing a settled promise against the signal would only
        // add and remove an abort listener per request (a measurable share of a small request's CPU).
        const session = this.#openStream() ?? (await raceSignal(this.#openSession(), signal))
        return await session.request(payload, { signal })
      } finally {
        this.#release()
      }
    } finally {
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', onCallerAbort)
    }
  }

  /** Fails queued and outstanding requests with RpcClientClosedError and closes the stream. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    const reason = new RpcClientClosedError()
    this.#lifetime.abort(reason)
    for (const waiter of this.#waiters.splice(0)) waiter.reject(reason)
    this.#session?.close(reason)
    this.#session = undefined
  }

  /** Takes a slot if one is free and nobody waits for one. */
  #tryAcquire(): boolean {
    if (this.#inFlight >= this.#maxInFlight || this.#waiters.length > 0) return false
    this.#inFlight++
    return true
  }

  async #acquire(signal: AbortSignal): Promise<void> {
    if (this.#tryAcquire()) return
    if (this.#waiters.length >= this.#maxQueued) {
      throw new RpcQueueFullError(
        `${this.#waiters.length} ${this.#protocol} requests to ${this.#peer.toString()} are already waiting; retry later`,
      )
    }
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve: () => {
          signal.removeEventListener('abort', onAbort)
          resolve()
        },
        reject: (err) => {
          signal.removeEventListener('abort', onAbort)
          reject(err)
        },
      }
      const onAbort = (): void => {
        const index = this.#waiters.indexOf(waiter)
        if (index !== -1) this.#waiters.splice(index, 1)
        reject(abortReason(signal))
      }
      signal.addEventListener('abort', onAbort, { once: true })
      this.#waiters.push(waiter)
    })
  }

  #release(): void {
    const next = this.#waiters.shift()
    // The slot passes straight to the next waiter, so the count never dips and lets a newcomer jump the queue.
    if (next !== undefined) next.resolve()
    else this.#inFlight--
  }

  /** The stream, if one is open. */
  #openStream(): ClientStream | undefined {
    return this.#session !== undefined && !this.#session.closed ? this.#session : undefined
  }

  #openSession(): Promise<ClientStream> {
    if (this.#closed) return Promise.reject(new RpcClientClosedError())
    const open = this.#openStream()
    if (open !== undefined) return Promise.resolve(open)
    this.#opening ??= this.#dial().finally(() => {
      this.#opening = undefined
    })
    return this.#opening
  }

  async #dial(): Promise<ClientStream> {
    const peer = this.#peer.toString()
    const signal = AbortSignal.any([this.#lifetime.signal, AbortSignal.timeout(this.#dialTimeoutMs)])
    let stream: Awaited<ReturnType<RpcDialer['dialProtocol']>>
    const options = { signal, runOnLimitedConnection: this.#runOnLimitedConnection }
    try {
      // Of several direct connections (crossing dials), the one the duplicate tie-break keeps:
      // a stream on another would end when that one is closed. With none, libp2p dials.
      const self = this.#node.peerId
      const open = isPeerId(this.#peer) ? this.#node.getConnections?.(this.#peer) : undefined
      const direct =
        self === undefined || open === undefined ? undefined : connectionToKeep(self.toString(), open.filter(isDirect))
      stream = await (direct === undefined
        ? this.#node.dialProtocol(this.#peer, this.#protocol, options)
        : direct.newStream(this.#protocol, options))
    } catch (err) {
      if (this.#closed) throw new RpcClientClosedError()
      this.#logger.debug({ peer, protocol: this.#protocol, err: (err as Error).message }, 'rpc stream open failed')
      throw new PeerUnreachableError(`could not open ${this.#protocol} to ${peer}: ${(err as Error).message}`, {
        cause: err,
      })
    }
    if (this.#closed) {
      stream.abort(new RpcClientClosedError())
      throw new RpcClientClosedError()
    }
    const session = new ClientStream(
      stream,
      {
        protocol: this.#protocol,
        peer,
        maxResponseBytes: this.#maxResponseBytes,
        drainTimeoutMs: this.#drainTimeoutMs,
        logger: this.#logger,
      },
      (ended) => {
        if (this.#session === ended) this.#session = undefined
      },
    )
    this.#session = session
    return session
  }
}
