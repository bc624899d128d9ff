/**
 * In-process meshes for the consumer-group tests: real peers (loopback, port 0, in-memory logs),
 * each running the group service as `tributary peer start` does, and SDK clients from their own
 * light nodes. `stop` ends every client, service and peer it made.
 */
import { Tributary, type TributaryConfig } from '@tributary/client'
import { GroupService, type GroupServiceOptions } from '@tributary/groups/service'
import { createPeer, type Peer } from '@tributary/mesh'
import { waitFor } from '../client/mesh.ts'

export interface GroupMesh {
  peers: Peer[]
  services: Map<Peer, GroupService>
  connect(config?: Partial<TributaryConfig>): Promise<Tributary>
  stop(): Promise<void>
}

export const FAST_COORDINATOR: GroupServiceOptions = {
  coordinator: { initialRebalanceDelayMs: 200, minSessionTimeoutMs: 500 },
}

export async function startGroupMesh(
  size: number,
  options: GroupServiceOptions = FAST_COORDINATOR,
): Promise<GroupMesh> {
  const peers: Peer[] = []
  const services = new Map<Peer, GroupService>()
  const clients: Tributary[] = []
  const stop = async (): Promise<void> => {
    await Promise.allSettled(clients.map((c) => c.disconnect()))
    await Promise.allSettled([...services.values()].map((s) => s.stop()))
    await Promise.allSettled(peers.map((p) => p.stop()))
  }
  try {
    const base = { tcpPort: 0, wsPort: false as const, heartbeatIntervalMs: 200, failureTimeoutMs: 2000 }
    const seed = await createPeer(base)
    peers.push(seed)
    for (let i = 1; i < size; i++) peers.push(await createPeer({ ...base, bootstrap: seed.addresses() }))
    for (const peer of peers) {
      await waitFor(() => peer.voters().length === size, `${peer.peerId.slice(-6)} to see ${size} voters`)
      services.set(peer, await GroupService.start(peer, options))
    }
    const connect = async (config: Partial<TributaryConfig> = {}): Promise<Tributary> => {
      const client = await Tributary.connect({ bootstrap: [seed.addresses()[0]!], requestTimeout: 10_000, ...config })
      clients.push(client)
      return client
    }
    return { peers, services, connect, stop }
  } catch (err) {
    await stop()
    throw err
  }
}
