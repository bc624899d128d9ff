/**
 * Turns a learned membership into a full mesh: dials alive members we have no connection to, using
 * the addresses from their heartbeats, so peers that bootstrapped to a single seed end up connected
 * to each other. Bounded: stops at `maxConnections` connected peers, runs at most `concurrency` dials
 * at once, each with a timeout, and backs off exponentially (with jitter) per unreachable peer.
 */
import type { AbortOptions, Connection, PeerId } from '@libp2p/interface'
import { type Multiaddr, multiaddr } from '@multiformats/multiaddr'
import type { Logger } from '../logger.js'
import type { Clock, Member } from './types.js'

export interface MeshDialerInit {
  maxConnections: number
  concurrency: number
  dialTimeoutMs: number
  backoffMs: number
  maxBackoffMs: number
  clock: Clock
  logger: Logger
}

export interface MeshDialerNode {
  peerId: PeerId
  getConnections(peerId?: PeerId): Connection[]
  dial(target: Multiaddr[], options?: AbortOptions): Promise<Connection>
}

interface Backoff {
  nextAttemptMs: number
  backoffMs: number
}

export class MeshDialer {
  readonly #node: MeshDialerNode
  readonly #init: MeshDialerInit
  readonly #dialing = new Set<string>()
  readonly #backoff = new Map<string, Backoff>()

  constructor(node: MeshDialerNode, init: MeshDialerInit) {
    this.#node = node
    this.#init = init
  }

  /** Dials in progress (for tests and metrics). */
  get dialing(): number {
    return this.#dialing.size
  }

  /** Starts dials to unconnected alive members, within the limits. Never throws, never awaits. */
  tick(members: readonly Member[], signal: AbortSignal): void {
    if (signal.aborted) return
    const self = this.#node.peerId.toString()
    const connected = new Set(this.#node.getConnections().map((connection) => connection.remotePeer.toString()))
    const known = new Set(members.map((member) => member.peerId))
    for (const peerId of this.#backoff.keys()) if (!known.has(peerId)) this.#backoff.delete(peerId)

    const now = this.#init.clock.now()
    let budget = this.#init.maxConnections - connected.size - this.#dialing.size
    for (const member of members) {
      if (budget <= 0 || this.#dialing.size >= this.#init.concurrency) return
      const { peerId } = member
      if (peerId === self || member.status !== 'alive' || member.addresses.length === 0) continue
      if (connected.has(peerId) || this.#dialing.has(peerId)) continue
      if ((this.#backoff.get(peerId)?.nextAttemptMs ?? 0) > now) continue
      budget--
      void this.#dial(member, signal)
    }
  }

  async #dial(member: Member, signal: AbortSignal): Promise<void> {
    const { peerId } = member
    this.#dialing.add(peerId)
    try {
      await this.#node.dial(
        member.addresses.map((address) => multiaddr(address)),
        { signal: AbortSignal.any([signal, AbortSignal.timeout(this.#init.dialTimeoutMs)]) },
      )
      this.#backoff.delete(peerId)
      this.#init.logger.debug({ peer: peerId }, 'connected to member')
    } catch (err) {
      if (signal.aborted) return
      const previous = this.#backoff.get(peerId)?.backoffMs
      const backoffMs = Math.min(previous === undefined ? this.#init.backoffMs : previous * 2, this.#init.maxBackoffMs)
      // Half fixed, half random: retries of many peers spread out instead of arriving together.
      const delayMs = backoffMs / 2 + Math.random() * (backoffMs / 2)
      this.#backoff.set(peerId, { backoffMs, nextAttemptMs: this.#init.clock.now() + delayMs })
      this.#init.logger.debug(
        { peer: peerId, err: (err as Error).message, retryInMs: Math.round(delayMs) },
        'member dial failed',
      )
    } finally {
      this.#dialing.delete(peerId)
    }
  }
}
