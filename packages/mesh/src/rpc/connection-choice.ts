/**
 * Which of several direct connections to one peer a stream goes over. Two peers that dial each
 * other at once both succeed, and for a moment hold two direct connections; the browser peer's
 * tie-break (`browser/one-connection-per-peer.ts`) then closes all but one, and a stream opened
 * on a closed one fails. libp2p's own choice among open connections (the newest, in libp2p 3)
 * knows nothing of that tie-break, so a request sent in that moment could land on the one about
 * to go. Both the
 * tie-break and the RPC client pick with `connectionToKeep`, so streams go over the connection
 * that stays.
 */
import type { Connection } from '@libp2p/interface'

/** Which of `connections` (direct, open, to one remote peer) to keep, seen from `self`. */
export function connectionToKeep(self: string, connections: readonly Connection[]): Connection | undefined {
  if (connections.length === 0) return undefined
  const remote = connections[0]!.remotePeer.toString()
  // The lower peer id's connection: outbound here when we are the lower one, inbound otherwise.
  const preferred = self < remote ? 'outbound' : 'inbound'
  const oldest = (list: readonly Connection[]) =>
    list.reduce((best, c) => (c.timeline.open < best.timeline.open ? c : best))
  const byLower = connections.filter((c) => c.direction === preferred)
  return oldest(byLower.length > 0 ? byLower : connections)
}

/** An open connection with no limits (not relayed). */
export const isDirect = (c: Connection): boolean => c.limits === undefined && c.status === 'open'
