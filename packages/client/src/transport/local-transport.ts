/**
 * Requests to the peer the client runs inside: its handlers are called directly, with the same
 * timeout and abort rules as a remote request, and their answers decoded the same way.
 */
import type { Payload, RpcHandler } from '@tributary/mesh/rpc'
import { concatParts, RequestTimedOutError, TributaryError } from '@tributary/wire'
import { ClientClosedError } from '../errors.js'
import type { BrokerTransport, TransportRequestOptions } from './transport.js'

export class LocalTransport implements BrokerTransport {
  private readonly lifetime = new AbortController()

  constructor(
    private readonly handlers: ReadonlyMap<string, RpcHandler>,
    private readonly peerId: string,
    private readonly requestTimeoutMs = 30_000,
  ) {}

  async request(protocol: string, payload: Payload, options: TransportRequestOptions): Promise<Uint8Array> {
    if (this.lifetime.signal.aborted) throw new ClientClosedError('the client is disconnected')
    const handler = this.handlers.get(protocol)
    if (handler === undefined) throw new TributaryError(`this peer does not serve ${protocol}`)
    const timeoutMs = options.timeoutMs ?? this.requestTimeoutMs
    const timeout = AbortSignal.timeout(timeoutMs)
    const signals = [this.lifetime.signal, timeout]
    if (options.signal !== undefined) signals.push(options.signal)
    const signal = AbortSignal.any(signals)
    const request = payload instanceof Uint8Array ? payload : concatParts(payload)
    try {
      const response = await handler(request, { peerId: this.peerId, protocol, signal })
      return response instanceof Uint8Array ? response : concatParts(response)
    } catch (err) {
      if (timeout.aborted) throw new RequestTimedOutError(`${protocol} request timed out after ${timeoutMs} ms`)
      if (options.signal?.aborted) throw options.signal.reason
      if (err instanceof TributaryError) throw err
      // A remote peer answers UNKNOWN_SERVER_ERROR for a handler's bug; the local path says the same.
      throw new TributaryError(`${protocol} failed: ${(err as Error)?.message ?? String(err)}`, { cause: err })
    }
  }

  close(): void {
    this.lifetime.abort(new ClientClosedError('the client is disconnected'))
  }
}
