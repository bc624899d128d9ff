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
  for (const address of member.addresses) {
    const parts = address.split('/')
    if (parts.includes('webrtc') || parts.includes('webrtc-direct')) transports.add('webrtc')
    else if (parts.includes('ws') || parts.includes('wss')) transports.add(parts.includes('wss') ? 'wss' : 'ws')
    else if (parts.includes('tcp')) transports.add('tcp')
  }
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
