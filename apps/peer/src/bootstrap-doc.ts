/**
 * `/bootstrap.json`: how a page served by this peer joins the mesh. Browsers reach Node peers
 * only over WebSockets, so it lists the peer's WebSocket multiaddrs (with /p2p/). A page opened
 * as http://localhost gets the loopback ones (a browser resolves nothing else to this machine);
 * a page opened by another host name or address gets the ones on that address first.
 */
export interface BootstrapDocument {
  peerId: string
  /** WebSocket multiaddrs with /p2p/<peerId>, the ones the requesting page can dial first. */
  addresses: string[]
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1'])

export function bootstrapDocument(
  peerId: string,
  addresses: string[],
  hostHeader: string | undefined,
): BootstrapDocument {
  const ws = addresses
    .filter((a) => /\/wss?(\/|$)/.test(a) && !a.includes('/p2p-circuit'))
    .map((a) => (a.includes('/p2p/') ? a : `${a}/p2p/${peerId}`))
  const host = hostName(hostHeader)
  if (host !== undefined && (LOOPBACK_HOSTS.has(host) || host.startsWith('127.'))) {
    const loopback = ws.filter(
      (a) => a.startsWith('/ip4/127.') || a.startsWith('/ip6/::1/') || a.startsWith('/dns/localhost/'),
    )
    if (loopback.length > 0) return { peerId, addresses: loopback }
  }
  if (host !== undefined) {
    const bare = host.replace(/^\[|\]$/g, '')
    const same = ws.filter((a) => a.split('/')[2] === bare)
    return { peerId, addresses: [...same, ...ws.filter((a) => !same.includes(a))] }
  }
  return { peerId, addresses: ws }
}

/** The host name of a Host header (`name:port`, `[v6]:port`), lower-cased; undefined when absent or odd. */
function hostName(header: string | undefined): string | undefined {
  if (header === undefined || header.length === 0 || header.length > 255) return undefined
  const h = header.trim().toLowerCase()
  if (h.startsWith('[')) {
    const end = h.indexOf(']')
    return end > 0 ? h.slice(0, end + 1) : undefined
  }
  return h.split(':')[0]
}
