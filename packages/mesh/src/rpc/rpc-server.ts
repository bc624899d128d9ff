/**
 * The server half of Tributary's request/response layer: `registerRpcHandler(node, protocol, handler)`
 * serves every inbound stream of `protocol` (see server-stream.ts for one stream's life).
 *
 * ```ts
 * const unregister = await registerRpcHandler(node, PROTOCOLS.produce, async (request, { peerId, signal }) => {
 *   return await produce(request, { signal })
 * }, { maxRequestBytes: 8 << 20 })
 * // ...
 * await unregister()
 * ```
 */
import type { Libp2p } from '@libp2p/interface'
import {
  DEFAULT_DRAIN_TIMEOUT_MS,
  DEFAULT_HANDLER_TIMEOUT_MS,
  DEFAULT_MAX_IN_FLIGHT_PER_STREAM,
  DEFAULT_MAX_REQUEST_BYTES,
} from '../constants.js'
import { componentLogger, type Logger, silentLogger } from '../logger.js'
import { RpcStreamClosedError } from './errors.js'
import type { Payload } from './frame.js'
import { ServerStream } from './server-stream.js'

export interface RpcHandlerContext {
  /** The remote peer, as a string (libp2p PeerId.toString()). */
  peerId: string
  protocol: string
  /**
   * Aborts when the handler times out, the stream closes, or the handler is unregistered. Made on
   * first read: a handler on a hot path reads it only where it waits on something (see server-stream.ts).
   */
  readonly signal: AbortSignal
}

/**
 * Answers one request. Throw a TributaryError to answer with its code and message; any other error
 * reaches the peer as UNKNOWN_SERVER_ERROR with a generic message (and is logged here).
 */
/** The response may be parts (a header and record bytes), sent without being copied together. */
export type RpcHandler = (request: Uint8Array, ctx: RpcHandlerContext) => Promise<Payload>

/** Counters a server updates as it runs; pass one in to observe it (tests, metrics). */
export interface RpcServerStats {
  streamsOpened: number
  /** Streams reset because the peer broke the protocol (garbage, oversize, torn frames). */
  streamsReset: number
  requests: number
  /** Requests answered with an error frame. */
  errors: number
  /** Most bytes any stream's decoder held at once (only ever one incomplete frame). */
  peakBufferedBytes: number
  /** Most bytes of complete requests any stream held while waiting for an in-flight slot. */
  peakQueuedBytes: number
  peakInFlight: number
}

export function createRpcServerStats(): RpcServerStats {
  return {
    streamsOpened: 0,
    streamsReset: 0,
    requests: 0,
    errors: 0,
    peakBufferedBytes: 0,
    peakQueuedBytes: 0,
    peakInFlight: 0,
  }
}

export interface RpcServerOptions {
  /** Largest request payload; a frame declaring more resets the stream. */
  maxRequestBytes?: number
  /** Requests run concurrently per stream; reading pauses at this limit. */
  maxInFlightPerStream?: number
  /** A handler still running after this is answered REQUEST_TIMED_OUT and its signal aborted. */
  handlerTimeoutMs?: number
  /** A peer that leaves the stream full (does not read responses) this long gets its stream reset. */
  drainTimeoutMs?: number
  /** Concurrent inbound streams of this protocol per connection (libp2p's limit; its default is 32). */
  maxInboundStreams?: number
  /** Serve over limited (relayed) connections too, e.g. browsers reached through a circuit relay. */
  runOnLimitedConnection?: boolean
  logger?: Logger
  stats?: RpcServerStats
}

/** What registering needs from a libp2p node. */
export type RpcRegistrar = Pick<Libp2p, 'handle' | 'unhandle'>

/** Stops serving `protocol` and resets its open streams (running handlers see their signal abort). */
export type UnregisterRpcHandler = () => Promise<void>

export async function registerRpcHandler(
  node: RpcRegistrar,
  protocol: string,
  handler: RpcHandler,
  options: RpcServerOptions = {},
): Promise<UnregisterRpcHandler> {
  const maxRequestBytes = options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES
  const maxInFlight = options.maxInFlightPerStream ?? DEFAULT_MAX_IN_FLIGHT_PER_STREAM
  if (!(maxRequestBytes > 0) || !(maxInFlight > 0)) {
    throw new RangeError('maxRequestBytes and maxInFlightPerStream must be positive')
  }
  const logger = componentLogger(options.logger ?? silentLogger, 'rpc-server')
  const stats = options.stats ?? createRpcServerStats()
  const sessions = new Set<ServerStream>()
  let registered = true

  await node.handle(
    protocol,
    (stream, connection) => {
      if (!registered) {
        stream.abort(new RpcStreamClosedError(`${protocol} is no longer served`))
        return
      }
      stats.streamsOpened++
      const session = new ServerStream(
        stream,
        {
          protocol,
          peerId: connection.remotePeer.toString(),
          handler,
          maxRequestBytes,
          maxInFlight,
          handlerTimeoutMs: options.handlerTimeoutMs ?? DEFAULT_HANDLER_TIMEOUT_MS,
          drainTimeoutMs: options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS,
          logger,
          stats,
        },
        (done) => sessions.delete(done),
      )
      if (stream.status === 'open') sessions.add(session)
    },
    {
      ...(options.maxInboundStreams === undefined ? {} : { maxInboundStreams: options.maxInboundStreams }),
      ...(options.runOnLimitedConnection === undefined
        ? {}
        : { runOnLimitedConnection: options.runOnLimitedConnection }),
    },
  )

  return async () => {
    if (!registered) return
    registered = false
    try {
      await node.unhandle(protocol)
    } catch (err) {
      // The node may already be stopped; its streams are gone then anyway.
      logger.debug({ protocol, err: (err as Error).message }, 'unhandle failed')
    }
    const reason = new RpcStreamClosedError(`${protocol} is no longer served`)
    for (const session of [...sessions]) session.abort(reason)
    sessions.clear()
  }
}
