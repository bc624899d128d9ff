/**
 * One direct connection per pair of browser peers. Two browsers that dial each other at the
 * same moment (each through a relay, each over WebRTC) both succeed: libp2p 3 reuses an existing
 * connection for a new dial but has no tie-break for dials that cross, so each side ends with an
 * outbound and an inbound WebRTC connection to the other, and stays so. Work then spreads over
 * two links, and closing either later (by a pruner, by the app) fails whatever ran on it.
 *
 * The tie-break is the one both sides can reach alone: of the direct connections between two
 * peers, the one opened by the peer with the lower peer id stays (the oldest of those, if there
 * are several); the rest are closed as soon as they open, before much runs on them. Both sides
 * pick the same connection, so they never close both. Limited (relayed) connections are left
 * alone: WebRTC signalling runs over them and libp2p closes them itself.
 */
import type { Connection, Libp2p } from '@libp2p/interface'
import type { Logger } from '../logger.js'

/** How long a duplicate gets to close its streams gracefully before it is aborted. */
const CLOSE_TIMEOUT_MS = 5_000

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

const isDirect = (c: Connection): boolean => c.limits === undefined && c.status === 'open'

/**
 * Closes duplicate direct connections as they open (see above). Returns the function that
 * stops watching.
 */
export function keepOneDirectConnection(
  node: Pick<Libp2p, 'peerId' | 'getConnections' | 'addEventListener' | 'removeEventListener'>,
  logger: Logger,
): () => void {
  const self = node.peerId.toString()
  const onOpen = (event: CustomEvent<Connection>): void => {
    const opened = event.detail
    if (!isDirect(opened)) return
    const direct = node.getConnections(opened.remotePeer).filter(isDirect)
    if (direct.length < 2) return
    const keep = connectionToKeep(self, direct)
    for (const extra of direct) {
      if (extra === keep) continue
      logger.debug(
        { peer: opened.remotePeer.toString(), closing: extra.direction, keeping: keep?.direction },
        'closing a duplicate direct connection',
      )
      extra.close({ signal: AbortSignal.timeout(CLOSE_TIMEOUT_MS) }).catch((err: unknown) => {
        extra.abort(err instanceof Error ? err : new Error(String(err)))
      })
    }
  }
  node.addEventListener('connection:open', onOpen)
  return () => node.removeEventListener('connection:open', onOpen)
}
