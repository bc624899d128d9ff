/**
 * The client's own libp2p node in browsers: it reaches Node peers over WebSockets and browser
 * peers over WebRTC (signalled through a Node peer's circuit relay), listens on nothing, runs no
 * gossip and hosts no partitions. No node: imports.
 */
import { circuitRelayTransport } from '@libp2p/circuit-relay-v2'
import { identify } from '@libp2p/identify'
import { noise } from '@libp2p/noise'
import { webRTC } from '@libp2p/webrtc'
import { webSockets } from '@libp2p/websockets'
import { yamux } from '@libp2p/yamux'
import { halfWindowUpdates } from '@tributary/mesh/yamux-window-updates'
import { createLibp2p } from 'libp2p'
import type { ClientNode, LightNodeOptions } from './options.js'

export async function createLightNode(options: LightNodeOptions = {}): Promise<ClientNode> {
  return createLibp2p({
    ...(options.privateKey === undefined ? {} : { privateKey: options.privateKey }),
    addresses: { listen: [] },
    transports: [
      webSockets(),
      webRTC({ rtcConfiguration: { iceServers: options.iceServers ?? [] } }),
      circuitRelayTransport(),
    ],
    connectionEncrypters: [noise()],
    streamMuxers: [halfWindowUpdates(yamux())],
    ...(options.allowInsecureWebSockets === true ? { connectionGater: { denyDialMultiaddr: () => false } } : {}),
    connectionMonitor: { abortConnectionOnPingFailure: false },
    services: { identify: identify() },
  })
}
