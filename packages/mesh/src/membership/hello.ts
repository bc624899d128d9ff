/**
 * Heartbeats exchanged directly over a new connection ("hello"), beside the gossip.
 *
 * Gossip alone left a peer that restarted under the same identity 'left' in others' views for
 * as long as its heartbeats did not carry: its first one is published before any subscription
 * is exchanged and reaches nobody but as a later IHAVE, which gossipsub ignores from a peer it
 * scores below its gossip threshold (a restarted peer that grafts during the backoff its own
 * leave left behind is penalised so), and the next one comes a whole interval later — far later
 * on a loaded machine. A peer that crashed again inside that gap stayed 'left' for good instead
 * of going 'dead'. So whenever a connection to a mesh peer is identified (and when membership
 * starts, for connections already open), the two send each other their heartbeat over
 * `/tributary/membership-hello`: each knows the other's current incarnation within a round trip
 * of connecting, whatever gossipsub's mesh, backoffs and scores are doing.
 *
 * The stream is authenticated by the connection (noise), so a hello must name the connection's
 * remote peer; it is validated exactly like a gossiped heartbeat (heartbeat.ts).
 */
import type { IdentifyResult, Libp2p, PeerId } from '@libp2p/interface'
import { MAX_HEARTBEAT_BYTES, PROTOCOLS } from '../constants.js'
import type { Logger } from '../logger.js'
import { RpcClient, registerRpcHandler, type UnregisterRpcHandler } from '../rpc/index.js'
import { decodeHeartbeat, type ValidHeartbeat } from './heartbeat.js'

export type HelloNode = Pick<
  Libp2p,
  'handle' | 'unhandle' | 'dialProtocol' | 'getPeers' | 'peerStore' | 'addEventListener' | 'removeEventListener'
>

export interface HelloInit {
  /** Our heartbeat now (a fresh seq each call). */
  heartbeat(): Uint8Array
  /** A validated heartbeat the remote peer sent about itself. */
  receive(heartbeat: ValidHeartbeat): void
  /** Each attempt: opening the stream and the answer. */
  timeoutMs: number
  /** Attempts per connection (the remote may still be starting: its handler not yet registered). */
  attempts: number
  /** Before the second attempt; doubled for each further one. */
  retryDelayMs: number
  logger: Logger
}

/** A remote that runs the mesh (gossipsub), not an SDK client, which has no membership. */
function isMeshPeer(protocols: readonly string[]): boolean {
  return protocols.some((p) => p === PROTOCOLS.membershipHello || p.startsWith('/meshsub/'))
}

export class HelloExchange {
  readonly #node: HelloNode
  readonly #init: HelloInit
  /** Peers with an exchange in progress: at most one each, so a burst of identifies costs one. */
  readonly #greeting = new Set<string>()
  #unregister: UnregisterRpcHandler | undefined
  #lifetime = new AbortController()

  constructor(node: HelloNode, init: HelloInit) {
    this.#node = node
    this.#init = init
  }

  async start(): Promise<void> {
    this.#lifetime = new AbortController()
    this.#unregister = await registerRpcHandler(
      this.#node,
      PROTOCOLS.membershipHello,
      async (request, context) => {
        // Throws InvalidHeartbeatError (a typed error answer) for garbage or another peer's heartbeat.
        this.#init.receive(decodeHeartbeat(request, context.peerId))
        return this.#init.heartbeat()
      },
      {
        maxRequestBytes: MAX_HEARTBEAT_BYTES,
        maxInFlightPerStream: 1,
        handlerTimeoutMs: this.#init.timeoutMs,
        runOnLimitedConnection: true,
        logger: this.#init.logger,
      },
    )
    this.#node.addEventListener('peer:identify', this.#onIdentify)
    const signal = this.#lifetime.signal
    for (const peer of this.#node.getPeers()) {
      this.#node.peerStore
        .get(peer, { signal })
        .then((known) => {
          if (isMeshPeer(known.protocols)) this.greet(peer)
        })
        .catch(() => {
          // not identified yet: its identify event will come
        })
    }
  }

  async stop(): Promise<void> {
    this.#lifetime.abort(new Error('membership stopped'))
    this.#node.removeEventListener('peer:identify', this.#onIdentify)
    await this.#unregister?.()
    this.#unregister = undefined
  }

  /**
   * Sends our `leaving` heartbeat straight to every connected mesh peer (at most MAX_GOODBYES, one
   * attempt each, in parallel), beside the gossiped one: gossip reaches no one until subscriptions
   * are exchanged, so a peer stopping soon after it connected (or whose connections close as it
   * stops) could leave unannounced, and be seen as dead a timeout later instead of gone. Resolves
   * when every attempt answered, failed or hit `signal`. Never throws.
   */
  async goodbye(heartbeat: Uint8Array, signal: AbortSignal): Promise<void> {
    const peers: PeerId[] = []
    for (const peer of this.#node.getPeers().slice(0, MAX_GOODBYES)) {
      const known = await this.#node.peerStore.get(peer, { signal }).catch(() => undefined)
      if (known !== undefined && isMeshPeer(known.protocols)) peers.push(peer)
    }
    await Promise.allSettled(
      peers.map(async (peer) => {
        const client = this.#client(peer)
        try {
          await client.request(heartbeat, { signal })
        } catch (err) {
          this.#init.logger.debug({ peer: peer.toString(), err: (err as Error).message }, 'goodbye not delivered')
        } finally {
          await client.close().catch(() => {})
        }
      }),
    )
  }

  /** Exchanges heartbeats with `peer` unless an exchange with it is already running. Never throws. */
  greet(peer: PeerId): void {
    const id = peer.toString()
    if (this.#lifetime.signal.aborted || this.#greeting.has(id)) return
    this.#greeting.add(id)
    void this.#exchange(peer).finally(() => this.#greeting.delete(id))
  }

  readonly #onIdentify = (event: CustomEvent<IdentifyResult>): void => {
    if (isMeshPeer(event.detail.protocols)) this.greet(event.detail.peerId)
  }

  #client(peer: PeerId): RpcClient {
    const { timeoutMs, logger } = this.#init
    return new RpcClient(this.#node, peer, PROTOCOLS.membershipHello, {
      maxRequestBytes: MAX_HEARTBEAT_BYTES,
      maxResponseBytes: MAX_HEARTBEAT_BYTES,
      maxInFlight: 1,
      maxQueued: 0,
      requestTimeoutMs: timeoutMs,
      dialTimeoutMs: timeoutMs,
      runOnLimitedConnection: true,
      logger,
    })
  }

  async #exchange(peer: PeerId): Promise<void> {
    const { attempts, retryDelayMs, logger } = this.#init
    const signal = this.#lifetime.signal
    const client = this.#client(peer)
    try {
      for (let attempt = 0; attempt < attempts && !signal.aborted; attempt++) {
        try {
          const answer = await client.request(this.#init.heartbeat(), { signal })
          this.#init.receive(decodeHeartbeat(answer, peer.toString()))
          return
        } catch (err) {
          if (signal.aborted) return
          logger.debug({ peer: peer.toString(), attempt, err: (err as Error).message }, 'membership hello failed')
          if (attempt + 1 < attempts) await delay(retryDelayMs * 2 ** attempt, signal)
        }
      }
    } finally {
      await client.close().catch(() => {})
    }
  }
}

/** Peers told directly of our leaving; the others learn it by gossip. */
const MAX_GOODBYES = 64

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const timer = setTimeout(done, ms)
    function done(): void {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
  })
}
