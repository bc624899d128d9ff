/**
 * How the peers view describes a member of the mesh from what membership gossip says about it:
 * browsers store in IndexedDB, Node peers in files (or memory); the transports come from its
 * addresses, and a peer reachable only through a circuit relay is "relayed".
 */
export interface MemberInfo {
  peerId: string
  addresses: string[]
  voter: boolean
  storage: string
  status: string
  version: string
}

export interface PeerRow {
  peerId: string
  kind: 'node' | 'browser'
  transports: string[]
  role: 'voter' | 'observer'
  connection: 'direct' | 'relayed' | 'unknown'
  status: string
  version: string
}

export function describeMember(member: MemberInfo): PeerRow {
  const transports = new Set<string>()
  for (const address of member.addresses) transports.add(transportOf(address))
  const relayed = member.addresses.filter((a) => a.includes('/p2p-circuit'))
  const connection =
    member.addresses.length === 0 ? 'unknown' : relayed.length === member.addresses.length ? 'relayed' : 'direct'
  return {
    peerId: member.peerId,
    kind: member.storage === 'idb' ? 'browser' : 'node',
    transports: [...transports].sort(),
    role: member.voter ? 'voter' : 'observer',
    connection,
    status: member.status,
    version: member.version,
  }
}

/**
 * The transport an address reaches its peer by. Behind `/p2p-circuit` only the part after the
 * circuit counts: `…/p2p-circuit/webrtc` is WebRTC signalled through the relay, a bare circuit is
 * the relay itself carrying the traffic.
 */
export function transportOf(address: string): string {
  const parts = address.split('/')
  const circuit = parts.indexOf('p2p-circuit')
  const own = circuit === -1 ? parts : parts.slice(circuit + 1)
  if (own.includes('webrtc') || own.includes('webrtc-direct')) return 'webrtc'
  if (circuit !== -1) return 'relay'
  if (own.includes('wss')) return 'wss'
  if (own.includes('ws')) return 'ws'
  if (own.includes('tcp')) return 'tcp'
  return 'other'
}

/** How this tab is linked to a peer right now, from its open connections' remote addresses. */
export function describeLink(remoteAddresses: string[]): string {
  if (remoteAddresses.length === 0) return 'not connected'
  // A WebRTC link is negotiated through a relay but then direct; a bare circuit stays relayed.
  return [...new Set(remoteAddresses.map((a) => (transportOf(a) === 'relay' ? 'relayed' : `${transportOf(a)} direct`)))]
    .sort()
    .join(', ')
}
