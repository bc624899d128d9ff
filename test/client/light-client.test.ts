/**
 * An SDK client is not a mesh peer: the peers it connects to neither exchange metadata with it
 * nor keep anything for it once it is gone, so many short-lived clients cost a peer nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMesh, type TestMesh, waitFor } from './mesh.ts'

interface SyncCounts {
  meshPeerCount: number
  clientCount: number
}

/** The peer's metadata sync, reached past `private` for this check only. */
const syncOf = (peer: TestMesh['peers'][number]): SyncCounts => (peer as unknown as { sync: SyncCounts }).sync

describe('client > light node', () => {
  let mesh: TestMesh

  beforeAll(async () => {
    mesh = await startMesh(2)
  }, 60_000)

  afterAll(async () => {
    await mesh?.stop()
  })

  it('is neither synced with nor remembered by the peers it talks to', async () => {
    const [seed] = mesh.peers
    const sync = syncOf(seed!)
    // The seed's only mesh peer is the other peer, though the client is connected as well.
    await mesh.client.admin().listTopics()
    await waitFor(() => sync.meshPeerCount === 1 && sync.clientCount === 1, 'the seed to sync with its one peer')
    const clientIds = [] as string[]
    for (let i = 0; i < 5; i++) {
      const client = await mesh.connect()
      await client.admin().listTopics()
      clientIds.push(client.peerId)
      expect(seed!.node.getPeers().map(String)).toContain(client.peerId)
      await client.disconnect()
    }
    await waitFor(
      () => clientIds.every((id) => !seed!.node.getPeers().map(String).includes(id)),
      'the clients to be gone',
    )
    expect([sync.meshPeerCount, sync.clientCount]).toEqual([1, 1])
  }, 60_000)
})
