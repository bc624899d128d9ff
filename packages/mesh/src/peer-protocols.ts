/**
 * The request protocols a peer serves: its own (produce, fetch, …) and those services built on
 * top of the mesh add later (consumer groups). Every handler is instrumented — listeners hear of
 * each request served, at no cost when there are none — and all are unregistered at stop.
 */
import type { Logger } from './logger.js'
import {
  payloadLength,
  type RpcHandler,
  type RpcRegistrar,
  type RpcServerOptions,
  registerRpcHandler,
  type UnregisterRpcHandler,
} from './rpc/index.js'

export interface RequestEvent {
  protocol: string
  durationMs: number
  bytesIn: number
  bytesOut: number
  ok: boolean
}

/** Inbound streams per connection and protocol: a client pipelines on few, but many clients share a peer. */
const MAX_INBOUND_STREAMS = 256

export class PeerProtocols {
  private readonly listeners = new Set<(event: RequestEvent) => void>()
  /** Protocols added with `add`, by id, as served (instrumented). */
  private readonly added = new Map<string, RpcHandler>()
  private readonly unregister: UnregisterRpcHandler[] = []

  constructor(
    private readonly node: RpcRegistrar,
    private readonly logger: Logger,
  ) {}

  /** Serves one of the peer's own protocols until `stop()`. */
  async serve(protocol: string, handler: RpcHandler): Promise<void> {
    this.unregister.push(
      await registerRpcHandler(this.node, protocol, this.instrument(protocol, handler), {
        logger: this.logger,
        maxInboundStreams: MAX_INBOUND_STREAMS,
      }),
    )
  }

  /** Keeps an unregister function for `stop()` (a protocol registered elsewhere, e.g. perf). */
  keep(unregister: UnregisterRpcHandler): void {
    this.unregister.push(unregister)
  }

  /** Serves a protocol added by a service on top of the mesh; the returned function removes it. */
  async add(
    protocol: string,
    handler: RpcHandler,
    options: Omit<RpcServerOptions, 'logger'> = {},
  ): Promise<UnregisterRpcHandler> {
    const instrumented = this.instrument(protocol, handler)
    const unregister = await registerRpcHandler(this.node, protocol, instrumented, {
      maxInboundStreams: MAX_INBOUND_STREAMS,
      ...options,
      logger: this.logger,
    })
    this.added.set(protocol, instrumented)
    this.unregister.push(unregister)
    return async () => {
      const at = this.unregister.indexOf(unregister)
      if (at >= 0) this.unregister.splice(at, 1)
      if (this.added.get(protocol) === instrumented) this.added.delete(protocol)
      await unregister()
    }
  }

  /** The served handler of a protocol added with `add`. */
  handler(protocol: string): RpcHandler | undefined {
    return this.added.get(protocol)
  }

  onRequest(listener: (event: RequestEvent) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Unregisters every protocol; failures are ignored (the node is stopping). */
  async stop(): Promise<void> {
    for (const unregister of this.unregister.splice(0)) await unregister().catch(() => {})
    this.added.clear()
  }

  private instrument(protocol: string, handler: RpcHandler): RpcHandler {
    const name = protocol.split('/')[2] ?? protocol
    return async (request, ctx) => {
      const started = performance.now()
      let ok = false
      let bytesOut = 0
      try {
        const response = await handler(request, ctx)
        ok = true
        bytesOut = payloadLength(response)
        return response
      } finally {
        if (this.listeners.size > 0) {
          const event = {
            protocol: name,
            durationMs: performance.now() - started,
            bytesIn: request.length,
            bytesOut,
            ok,
          }
          for (const listener of this.listeners) listener(event)
        }
      }
    }
  }
}
