/**
 * The libp2p services every Tributary peer runs, Node or browser: identify (protocol discovery, needed
 * by gossipsub's topology and the relay), ping, and gossipsub for membership and metadata gossip.
 * Free of node: imports, so the browser node shares it.
 */
import { type GossipSub, type GossipsubOpts, gossipsub } from '@libp2p/gossipsub'
import { type Identify, identify } from '@libp2p/identify'
import { type Ping, ping } from '@libp2p/ping'

// A type alias, not an interface: libp2p's ServiceMap needs the implicit index signature.
export type MeshServices = {
  identify: Identify
  ping: Ping
  pubsub: GossipSub
}

export function gossipsubOptions(overrides: Partial<GossipsubOpts> = {}): Partial<GossipsubOpts> {
  return {
    // Heartbeats are published from the first second, often before any peer has subscribed; without
    // this, gossipsub 17 throws PublishError.NoPeersSubscribedToTopic (PLATFORM.md).
    allowPublishToZeroTopicPeers: true,
    emitSelf: false,
    // No floodsub service is mounted; gossipsub peers only.
    fallbackToFloodsub: false,
    ...overrides,
  }
}

export function meshServiceFactories(gossipsubOverrides?: Partial<GossipsubOpts>) {
  return {
    identify: identify(),
    ping: ping(),
    pubsub: gossipsub(gossipsubOptions(gossipsubOverrides)),
  }
}
