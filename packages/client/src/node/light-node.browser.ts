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
import { noiseWithoutThrows } from '@tributary/mesh/noise-frame-lengths'
import { halfWindowUpdates } from '@tributary/mesh/yamux-window-updates'
import { createLibp2p } from 'libp2p'
import { probeConnectionsWhenOnline } from './light-node-online-probe.js'
import type { ClientNode, LightNodeOptions } from './options.js'

/** How often every connection is pinged. */
const PING_INTERVAL_MS = 5_000
/** A ping unanswered this long (more if the link's pings have been slow: libp2p's adaptive timeout) closes the connection. */
const PING_TIMEOUT_MS = 10_000

export async function createLightNode(options: LightNodeOptions = {}): Promise<ClientNode> {
  const node = await createLibp2p({
    ...(options.privateKey === undefined ? {} : { privateKey: options.privateKey }),
    addresses: { listen: [] },
    transports: [
      webSockets(),
      webRTC({ rtcConfiguration: { iceServers: options.iceServers ?? [] } }),
      circuitRelayTransport(),
    ],
    connectionEncrypters: [noiseWithoutThrows(noise())],
    streamMuxers: [halfWindowUpdates(yamux())],
    ...(options.allowInsecureWebSockets === true ? { connectionGater: { denyDialMultiaddr: () => false } } : {}),
    // A browser's connection can die silently on a network change (Wi-Fi to cellular, a NAT
    // forgetting it): the WebSocket stays open, nothing arrives, and a request sent on it waits
    // out its timeout (31 s for an outbox produce) — again and again, as nothing closes the
    // connection. So a failed ping closes it: in-flight requests fail at once (retriable) and the
    // next one dials afresh. A dead link is closed at most PING_INTERVAL_MS + PING_TIMEOUT_MS after
    // it died. Node peers keep pings advisory (a saturated replication link once failed a 5 s ping,
    // PLATFORM.md); a light node's timeout is twice that, and its pings share the link only with
    // its own requests.
    connectionMonitor: {
      abortConnectionOnPingFailure: true,
      pingInterval: PING_INTERVAL_MS,
      pingTimeout: { minTimeout: PING_TIMEOUT_MS, maxTimeout: 2 * PING_TIMEOUT_MS },
    },
    services: { identify: identify() },
  })
  // The monitor above judges a dead link at its next ping; when the browser says the network is
  // back (a change that likely killed the old links), every connection is checked at once.
  const stopProbing = probeConnectionsWhenOnline(node)
  node.addEventListener('stop', stopProbing, { once: true })
  return node
}
