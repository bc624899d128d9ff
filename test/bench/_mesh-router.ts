/**
 * The mesh benchmark's client side of leadership: one Broker per peer process, each partition's
 * produce sent to the peer that leads it. A refused produce is followed where it points (the
 * error's leader hint) or, without a usable hint, after fresh metadata from every peer, until a
 * deadline; every retriable error is counted by name.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { multiaddr } from '@multiformats/multiaddr'
import { type Acks, Broker, type PartitionMetadata } from '@tributary/client'
import type { MeshNode } from '@tributary/mesh/node'

/** A produce that finds no leader retries for this long before it fails. */
const PRODUCE_RETRY_MS = 30_000
/** Pause before a retry that has no new leader to try. */
const RETRY_BACKOFF_MS = 5
const REQUEST_TIMEOUT_MS = 30_000

/** The peer id at the end of a `/p2p/<id>` multiaddr. */
export function peerIdOf(address: string): string {
  const at = address.lastIndexOf('/p2p/')
  if (at === -1) throw new Error(`${address} names no peer (/p2p/)`)
  return address.slice(at + 5)
}

/** An error's name (RPC timeouts and aborts are DOMExceptions, not TributaryErrors). */
export function errorName(err: unknown): string {
  return err instanceof Error ? err.name : typeof err
}

/** Retriable: a TributaryError that says so, or a timeout/abort of our own. */
export function isRetriable(err: unknown): boolean {
  if (!(err instanceof Error)) return false
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return true
  return (err as { retriable?: unknown }).retriable === true
}

export class LeaderRouter {
  private readonly brokers = new Map<string, Broker>()
  private readonly leaders = new Map<number, string>()
  private refreshing: Promise<void> | undefined
  /** Retriable errors seen by `produce` (each retried), by class name. */
  readonly retried = new Map<string, number>()

  constructor(
    private readonly node: MeshNode,
    addresses: readonly string[],
    readonly topic: string,
  ) {
    for (const address of addresses) this.setAddress(address)
  }

  get peerIds(): string[] {
    return [...this.brokers.keys()]
  }

  broker(peerId: string): Broker {
    const broker = this.brokers.get(peerId)
    if (broker === undefined) throw new Error(`no peer ${peerId} in the benchmark`)
    return broker
  }

  /** A peer (re)started at `address`: talk to it there from now on. */
  setAddress(address: string): void {
    const peerId = peerIdOf(address)
    this.brokers.get(peerId)?.close()
    this.brokers.set(peerId, new Broker(this.node, multiaddr(address), { requestTimeoutMs: REQUEST_TIMEOUT_MS }))
  }

  /** Leaves a dead peer out of routing and metadata until setAddress brings it back. */
  drop(peerId: string): void {
    this.brokers.get(peerId)?.close()
    this.brokers.delete(peerId)
    for (const [partition, leader] of this.leaders) if (leader === peerId) this.leaders.delete(partition)
  }

  leaderOf(partition: number): string | undefined {
    return this.leaders.get(partition)
  }

  /** Each peer's view of the topic's partitions (peers that do not answer are left out). */
  async views(options: { signal?: AbortSignal } = {}): Promise<Map<string, PartitionMetadata[]>> {
    const answers = await Promise.all(
      [...this.brokers].map(async ([peerId, broker]) => {
        try {
          const meta = await broker.metadata([this.topic], options)
          return [peerId, meta.topics[0]?.partitions ?? []] as const
        } catch {
          return undefined
        }
      }),
    )
    return new Map(answers.filter((a) => a !== undefined))
  }

  /** Asks every peer who leads; keeps for each partition the named leader of the highest epoch. */
  refresh(): Promise<void> {
    this.refreshing ??= (async () => {
      try {
        const best = new Map<number, PartitionMetadata>()
        for (const partitions of (await this.views({ signal: AbortSignal.timeout(2000) })).values()) {
          for (const p of partitions) {
            const seen = best.get(p.partition)
            if (
              p.leader !== '' &&
              this.brokers.has(p.leader) &&
              (seen === undefined || p.leaderEpoch > seen.leaderEpoch)
            )
              best.set(p.partition, p)
          }
        }
        for (const [partition, p] of best) this.leaders.set(partition, p.leader)
      } finally {
        this.refreshing = undefined
      }
    })()
    return this.refreshing
  }

  /** Produces to the partition's leader, following hints and fresh metadata on retriable errors. */
  async produce(partition: number, acks: Acks, records: Uint8Array): Promise<void> {
    const deadline = performance.now() + PRODUCE_RETRY_MS
    for (;;) {
      const leader = this.leaders.get(partition)
      try {
        if (leader === undefined) throw new NoLeaderKnownError(`${this.topic}-${partition}: no leader known`)
        await this.broker(leader).produce({ topic: this.topic, partition, acks, records })
        return
      } catch (err) {
        if (!isRetriable(err) || performance.now() > deadline) throw err
        const name = errorName(err)
        this.retried.set(name, (this.retried.get(name) ?? 0) + 1)
        const hint = (err as { leaderHint?: string }).leaderHint
        if (hint !== undefined && hint !== leader && this.brokers.has(hint)) {
          this.leaders.set(partition, hint)
          continue
        }
        await sleep(RETRY_BACKOFF_MS)
        await this.refresh()
      }
    }
  }

  close(): void {
    for (const broker of this.brokers.values()) broker.close()
    this.brokers.clear()
  }
}

class NoLeaderKnownError extends Error {
  override name = 'NoLeaderKnownError'
  readonly retriable = true
}
