import { silentLogger } from './logger.js'
import { createMeshNode } from './node/index.js'
import { type Peer, type PeerOptions, startPeer } from './peer.js'

/** Starts a peer in Node.js: its libp2p node, membership, metadata, partition replicas and request handlers. */
export async function createPeer(options: PeerOptions = {}): Promise<Peer> {
  const logger = options.logger ?? silentLogger
  const node = await createMeshNode({ ...options, logger })
  return startPeer(node, options, logger)
}
