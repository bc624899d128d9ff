/**
 * The client's own libp2p node in Node.js: it dials peers over TCP or WebSockets and listens on
 * nothing, runs no gossip and hosts no partitions — a client, not a member of the mesh.
 */
import '@tributary/mesh/polyfills'
import { identify } from '@libp2p/identify'
import { tcp } from '@libp2p/tcp'
import { webSockets } from '@libp2p/websockets'
import { yamux } from '@libp2p/yamux'
import { coalescedWrites } from '@tributary/mesh/coalesced-writes'
import { nodeNoise } from '@tributary/mesh/noise-node-crypto'
import { halfWindowUpdates } from '@tributary/mesh/yamux-window-updates'
import { createLibp2p } from 'libp2p'
import type { ClientNode, LightNodeOptions } from './options.js'

export async function createLightNode(options: LightNodeOptions = {}): Promise<ClientNode> {
  return createLibp2p({
    ...(options.privateKey === undefined ? {} : { privateKey: options.privateKey }),
    addresses: { listen: [] },
    transports: [coalescedWrites(tcp()), webSockets()],
    connectionEncrypters: [nodeNoise()],
    streamMuxers: [halfWindowUpdates(yamux())],
    // Liveness is the RPC timeouts' job; the default monitor cut busy links on one slow ping (PLATFORM.md).
    connectionMonitor: { abortConnectionOnPingFailure: false },
    services: { identify: identify() },
  })
}
