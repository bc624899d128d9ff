/**
 * A Tributary peer's libp2p node for browsers: dials Node peers over WebSockets, reaches other
 * browsers over WebRTC with Node peers as circuit relays for signalling, and runs the same services
 * as a Node peer. No node: imports; no polyfills needed.
 *
 * ```ts
 * const node = await createBrowserMeshNode({ bootstrap: ['/ip4/127.0.0.1/tcp/4002/ws/p2p/12D3…'], allowInsecureWebSockets: true })
 * ```
 */
import { circuitRelayTransport } from '@libp2p/circuit-relay-v2'
import type { GossipsubOpts } from '@libp2p/gossipsub'
import type { Libp2p, PrivateKey } from '@libp2p/interface'
import { noise } from '@libp2p/noise'
import { webRTC } from '@libp2p/webrtc'
import { webSockets } from '@libp2p/websockets'
import { yamux } from '@libp2p/yamux'
import type { Multiaddr } from '@multiformats/multiaddr'
import { createLibp2p } from 'libp2p'
import { componentLogger, type Logger, silentLogger } from '../logger.js'
import { type BootstrapDialer, type BootstrapOptions, bootstrapDialer } from './bootstrap.js'
import { noiseWithoutThrows } from './noise-frame-lengths.js'
import { type MeshServices, meshServiceFactories } from './services.js'
import { halfWindowUpdates } from './yamux-window-updates.js'

export type BrowserMeshNodeServices = MeshServices & {
  bootstrap: BootstrapDialer
}

export type BrowserMeshNode = Libp2p<BrowserMeshNodeServices>

export interface BrowserMeshNodeOptions {
  /** Node peers to dial first (their /ws addresses with /p2p/<id>); they also serve as relays. */
  bootstrap?: ReadonlyArray<string | Multiaddr>
  bootstrapOptions?: BootstrapOptions
  /** An identity kept by the app (e.g. in IndexedDB); ephemeral otherwise. */
  privateKey?: PrivateKey
  /**
   * Allow dialing ws:// and private/loopback addresses, which libp2p's browser defaults refuse.
   * For local and test setups; production meshes use wss:// on public addresses. Default false.
   */
  allowInsecureWebSockets?: boolean
  /** ICE servers for WebRTC. Default none: the public STUN defaults break loopback setups (PLATFORM.md). */
  iceServers?: RTCIceServer[]
  maxConnections?: number
  gossipsub?: Partial<GossipsubOpts>
  logger?: Logger
  signal?: AbortSignal
}

export async function createBrowserMeshNode(options: BrowserMeshNodeOptions = {}): Promise<BrowserMeshNode> {
  const logger = componentLogger(options.logger ?? silentLogger, 'node')
  options.signal?.throwIfAborted()
  const node = await createLibp2p({
    ...(options.privateKey === undefined ? {} : { privateKey: options.privateKey }),
    // '/p2p-circuit' takes reservations on connected relays; '/webrtc' accepts direct connections
    // negotiated through them.
    addresses: { listen: ['/p2p-circuit', '/webrtc'] },
    transports: [
      webSockets(),
      webRTC({ rtcConfiguration: { iceServers: options.iceServers ?? [] } }),
      circuitRelayTransport(),
    ],
    connectionEncrypters: [noiseWithoutThrows(noise())],
    streamMuxers: [halfWindowUpdates(yamux())],
    ...(options.allowInsecureWebSockets === true ? { connectionGater: { denyDialMultiaddr: () => false } } : {}),
    connectionMonitor: { abortConnectionOnPingFailure: false },
    ...(options.maxConnections === undefined ? {} : { connectionManager: { maxConnections: options.maxConnections } }),
    services: {
      ...meshServiceFactories(options.gossipsub),
      bootstrap: bootstrapDialer({
        peers: options.bootstrap ?? [],
        ...options.bootstrapOptions,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        logger,
      }),
    },
  })
  if (options.signal?.aborted) {
    await node.stop()
    options.signal.throwIfAborted()
  }
  return node
}
