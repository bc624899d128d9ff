/**
 * How a Broker's requests reach a peer: over libp2p streams (RpcTransport), or, for the peer a
 * client runs inside, straight into that peer's handlers (LocalTransport) — libp2p refuses to
 * dial its own peer id.
 */
import type { Payload } from '@tributary/mesh/rpc'

export interface TransportRequestOptions {
  signal?: AbortSignal | undefined
  /** Overrides the transport's request timeout for this request (long polls add their wait). */
  timeoutMs?: number | undefined
  /** Largest response accepted on this protocol (fetch responses carry up to maxBytes of batches). */
  maxResponseBytes?: number | undefined
}

export interface BrokerTransport {
  request(protocol: string, payload: Payload, options: TransportRequestOptions): Promise<Uint8Array>
  close(): void
}
