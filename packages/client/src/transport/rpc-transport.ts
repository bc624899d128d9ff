/**
 * Requests to a remote peer over Tributary's pipelined RPC streams: one long-lived stream per
 * protocol, so a long-polling fetch never delays a produce.
 */
import type { PeerId } from '@libp2p/interface'
import type { Multiaddr } from '@multiformats/multiaddr'
import { PROTOCOLS } from '@tributary/mesh/constants'
import { type Payload, RpcClient, type RpcDialer } from '@tributary/mesh/rpc'
import type { BrokerTransport, TransportRequestOptions } from './transport.js'

/** Long polls outstanding per peer; each may carry up to its maxBytes of batches back. */
export const MAX_IN_FLIGHT_FETCHES = 4
/** Other requests outstanding per peer and protocol. */
const MAX_IN_FLIGHT = 32
const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024

export interface RpcTransportOptions {
  requestTimeoutMs?: number
  /** Largest response accepted on any protocol (at least what each protocol needs). */
  maxResponseBytes?: number
}

export class RpcTransport implements BrokerTransport {
  private readonly clients = new Map<string, RpcClient>()

  constructor(
    private readonly node: RpcDialer,
    private readonly peer: PeerId | Multiaddr,
    private readonly options: RpcTransportOptions = {},
  ) {}

  request(protocol: string, payload: Payload, options: TransportRequestOptions): Promise<Uint8Array> {
    return this.client(protocol, options.maxResponseBytes).request(payload, {
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    })
  }

  private client(protocol: string, maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES): RpcClient {
    let client = this.clients.get(protocol)
    if (client === undefined) {
      client = new RpcClient(this.node, this.peer, protocol, {
        // A client buffers up to maxInFlight × maxResponseBytes; fetch responses are large, so few at once.
        maxInFlight: protocol === PROTOCOLS.fetch ? MAX_IN_FLIGHT_FETCHES : MAX_IN_FLIGHT,
        maxResponseBytes: Math.max(maxResponseBytes, this.options.maxResponseBytes ?? 0),
        requestTimeoutMs: this.options.requestTimeoutMs ?? 30_000,
      })
      this.clients.set(protocol, client)
    }
    return client
  }

  close(): void {
    for (const client of this.clients.values()) void client.close()
    this.clients.clear()
  }
}
