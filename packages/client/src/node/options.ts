import type { Libp2p, PrivateKey } from '@libp2p/interface'

export interface LightNodeOptions {
  /** An identity to reuse; ephemeral otherwise (a client is nobody's replica, so it rarely matters). */
  privateKey?: PrivateKey
  /**
   * Browser only: allow ws:// and private or loopback addresses, which libp2p's browser defaults
   * refuse. For local and test setups. Default false.
   */
  allowInsecureWebSockets?: boolean
  /** Browser only: ICE servers for WebRTC to browser peers. Default none. */
  iceServers?: RTCIceServer[]
}

/** What the SDK needs of a libp2p node: dialing protocols, and a peer store to learn addresses into. */
export type ClientNode = Pick<Libp2p, 'dialProtocol' | 'peerId' | 'peerStore' | 'stop'>
