/**
 * In-process meshes for the client's integration tests: real peers (createPeer: libp2p on
 * loopback, port 0, in-memory logs) that bootstrap to the first one, a Tributary connected from
 * its own light node, and a `stop` that ends every peer and client it made.
 */

import { Tributary, type TributaryConfig } from '@tributary/client'
import { createPeer, type Peer } from '@tributary/mesh'

export interface TestMesh {
  peers: Peer[]
  /** A client connected through the first peer. */
  client: Tributary
  /** Another client, connected through the given peers. */
  connect(config?: Partial<TributaryConfig>): Promise<Tributary>
  stop(): Promise<void>
}

/** Polls `fn` until it returns something truthy, or throws when the deadline passes. */
export async function waitFor<T>(fn: () => T | Promise<T>, what: string, timeoutMs = 20_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs
  let last: unknown
  for (;;) {
    try {
      const value = await fn()
      if (value) return value as NonNullable<T>
    } catch (err) {
      last = err
    }
    if (Date.now() >= deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${last instanceof Error ? `: ${last.message}` : ''}`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

export async function startMesh(size: number, config: Partial<TributaryConfig> = {}): Promise<TestMesh> {
  const peers: Peer[] = []
  const clients: Tributary[] = []
  const stop = async () => {
    await Promise.allSettled(clients.map((c) => c.disconnect()))
    await Promise.allSettled(peers.map((p) => p.stop()))
  }
  try {
    const seed = await createPeer({ tcpPort: 0, wsPort: false, heartbeatIntervalMs: 200, failureTimeoutMs: 2000 })
    peers.push(seed)
    const rest = await Promise.all(
      Array.from({ length: size - 1 }, () =>
        createPeer({
          tcpPort: 0,
          wsPort: false,
          bootstrap: seed.addresses(),
          heartbeatIntervalMs: 200,
          failureTimeoutMs: 2000,
        }),
      ),
    )
    peers.push(...rest)
    for (const peer of peers) {
      await waitFor(() => peer.voters().length === size, `peer ${peer.peerId.slice(-6)} to see ${size} voters`)
    }
    const connect = async (extra: Partial<TributaryConfig> = {}) => {
      const client = await Tributary.connect({
        bootstrap: [seed.addresses()[0]!],
        requestTimeout: 10_000,
        ...config,
        ...extra,
      })
      clients.push(client)
      return client
    }
    const client = await connect()
    return { peers, client, connect, stop }
  } catch (err) {
    await stop()
    throw err
  }
}
