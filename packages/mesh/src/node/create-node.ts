/**
 * A Tributary peer's libp2p node for Node.js: TCP and WebSocket listeners, noise, yamux, identify,
 * ping, gossipsub, a circuit-relay-v2 server (so browsers reaching us over WebSockets can find each
 * other over WebRTC), a persistent identity, and bootstrap dialing.
 *
 * ```ts
 * import '@tributary/mesh/polyfills'   // first, on Node 20
 * const node = await createMeshNode({ dataDir: './data', tcpPort: 4001, wsPort: 4002, bootstrap: [seedAddr] })
 * await node.services.bootstrap.done
 * await node.stop()
 * ```
 */
import { circuitRelayServer } from '@libp2p/circuit-relay-v2'
import type { GossipsubOpts } from '@libp2p/gossipsub'
import type { Libp2p, PrivateKey } from '@libp2p/interface'
import { tcp } from '@libp2p/tcp'
import { webSockets } from '@libp2p/websockets'
import { yamux } from '@libp2p/yamux'
import type { Multiaddr } from '@multiformats/multiaddr'
import { createLibp2p } from 'libp2p'
import { DEFAULT_LISTEN_HOST } from '../constants.js'
import { componentLogger, type Logger, silentLogger } from '../logger.js'
import { type BootstrapDialer, type BootstrapOptions, bootstrapDialer } from './bootstrap.js'
import { coalescedWrites } from './coalesced-writes.js'
import { loadOrCreatePeerKey } from './identity.js'
import { nodeNoise } from './noise-node-crypto.js'
import { type MeshServices, meshServiceFactories } from './services.js'
import { halfWindowUpdates } from './yamux-window-updates.js'

type CircuitRelayService = ReturnType<ReturnType<typeof circuitRelayServer>>
type CircuitRelayServerInit = NonNullable<Parameters<typeof circuitRelayServer>[0]>

export type MeshNodeServices = MeshServices & {
  relay: CircuitRelayService
  bootstrap: BootstrapDialer
}

export type MeshNode = Libp2p<MeshNodeServices>

export interface MeshNodeOptions {
  /** Interface to listen on (IPv4 or IPv6 literal). Default 127.0.0.1. */
  host?: string
  /** TCP port; 0 picks a free one. Default 0. */
  tcpPort?: number
  /** WebSocket port; 0 picks a free one, false disables the listener. Default 0. */
  wsPort?: number | false
  /** Addresses to announce instead of the listen addresses (e.g. a public IP behind NAT). */
  announce?: string[]
  /** Holds `peer-key`; without it (and without privateKey) the identity is ephemeral. */
  dataDir?: string
  /** An explicit identity; wins over dataDir. */
  privateKey?: PrivateKey
  /** Multiaddrs (with /p2p/<id>) dialed after start, with retries. */
  bootstrap?: ReadonlyArray<string | Multiaddr>
  bootstrapOptions?: BootstrapOptions
  relay?: CircuitRelayServerInit
  /** libp2p's connection limit. */
  maxConnections?: number
  gossipsub?: Partial<GossipsubOpts>
  logger?: Logger
  /** Aborting cancels start-up (the node is stopped) and bootstrap dialing. */
  signal?: AbortSignal
}

export async function createMeshNode(options: MeshNodeOptions = {}): Promise<MeshNode> {
  const logger = componentLogger(options.logger ?? silentLogger, 'node')
  options.signal?.throwIfAborted()
  const privateKey =
    options.privateKey ??
    (options.dataDir === undefined ? undefined : await loadOrCreatePeerKey(options.dataDir, { logger }))

  const host = options.host ?? DEFAULT_LISTEN_HOST
  const family = host.includes(':') ? 'ip6' : 'ip4'
  const listen = [`/${family}/${host}/tcp/${options.tcpPort ?? 0}`]
  if (options.wsPort !== false) listen.push(`/${family}/${host}/tcp/${options.wsPort ?? 0}/ws`)

  const node = await createLibp2p({
    ...(privateKey === undefined ? {} : { privateKey }),
    addresses: { listen, ...(options.announce === undefined ? {} : { announce: options.announce }) },
    transports: [coalescedWrites(tcp()), webSockets()],
    connectionEncrypters: [nodeNoise()],
    streamMuxers: [halfWindowUpdates(yamux())],
    // The default monitor aborts a connection when one ping times out, which killed saturated
    // WebSocket links (PLATFORM.md). Liveness is judged by membership heartbeats instead.
    connectionMonitor: { abortConnectionOnPingFailure: false },
    ...(options.maxConnections === undefined ? {} : { connectionManager: { maxConnections: options.maxConnections } }),
    services: {
      ...meshServiceFactories(options.gossipsub),
      relay: circuitRelayServer(options.relay),
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
  logger.info(
    { peerId: node.peerId.toString(), addrs: node.getMultiaddrs().map((ma) => ma.toString()) },
    'mesh node started',
  )
  return node
}
