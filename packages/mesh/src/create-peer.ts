import { silentLogger } from './logger.js'
import { incarnationFile } from './membership/incarnation-file.js'
import { createMeshNode } from './node/index.js'
import { type Peer, type PeerOptions, startPeer } from './peer.js'

/** Starts a peer in Node.js: its libp2p node, membership, metadata, partition replicas and request handlers. */
export async function createPeer(options: PeerOptions = {}): Promise<Peer> {
  const logger = options.logger ?? silentLogger
  const node = await createMeshNode({ ...options, logger })
  // With a data dir (a persistent identity), restarts keep increasing incarnations whatever the clock does.
  const incarnationStore =
    options.incarnationStore ?? (options.dataDir === undefined ? undefined : incarnationFile(options.dataDir))
  return startPeer(node, { ...options, ...(incarnationStore === undefined ? {} : { incarnationStore }) }, logger)
}
