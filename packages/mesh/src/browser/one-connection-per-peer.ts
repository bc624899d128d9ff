/**
 * One direct connection per pair of browser peers. Two browsers that dial each other at the
 * same moment (each through a relay, each over WebRTC) both succeed: libp2p 3 reuses an existing
 * connection for a new dial but has no tie-break for dials that cross, so each side ends with an
 * outbound and an inbound WebRTC connection to the other, and stays so. Work then spreads over
 * two links, and closing either later (by a pruner, by the app) fails whatever ran on it.
 *
 * The tie-break is the one both sides can reach alone: of the direct connections between two
 * peers, the one opened by the peer with the lower peer id stays (the oldest of those, if there
 * are several); the rest are closed, before much runs on them. Both sides pick the same
 * connection, so they never close both. Limited (relayed) connections are left alone: WebRTC
 * signalling runs over them and libp2p closes them itself.
 *
 * The chosen connection must answer first. A WebRTC dial can complete on the answering side
 * while the dialer gives it up (its dial timed out under load): the answering side then holds
 * a connection the other end no longer has, which looks open until ICE gives up on it tens of
 * seconds later. Keeping that one and closing the working one would leave the pair with no link
 * at all, and with the relay gone there is no signalling left to make another. So a stream is
 * negotiated over the chosen connection (a round trip to the remote's protocol handler) before
 * any other is closed; a chosen connection that does not answer is aborted instead, and the
 * choice is made again among the rest.
 */
import type { Connection, Libp2p } from '@libp2p/interface'
import { PING_PROTOCOL } from '@libp2p/ping'
import type { Logger } from '../logger.js'
import { connectionToKeep, isDirect } from '../rpc/connection-choice.js'

/** How long a duplicate gets to close its streams gracefully before it is aborted. */
const CLOSE_TIMEOUT_MS = 5_000
/** How long the chosen connection gets to answer before it counts as dead. */
export const CONFIRM_TIMEOUT_MS = 10_000
/** Choices per peer in one pass: each one either settles it or aborts one connection. */
const MAX_ROUNDS = 8

/**
 * Whether the remote end of `connection` answers: a stream negotiated over it, then closed.
 * Resolves with why not, or undefined when it answered.
 */
export async function connectionAnswers(
  connection: Connection,
  timeoutMs = CONFIRM_TIMEOUT_MS,
): Promise<Error | undefined> {
  const signal = AbortSignal.timeout(timeoutMs)
  try {
    // negotiateFully (the default) resolves only once the remote has agreed on the protocol.
    const stream = await connection.newStream(PING_PROTOCOL, { signal })
    await stream.close({ signal }).catch(() => stream.abort(new Error('connection check done')))
    return undefined
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err))
  }
}

export interface KeepOneOptions {
  /** Why a connection's remote end does not answer (undefined: it does); `connectionAnswers` unless a test says otherwise. */
  answers?: (connection: Connection) => Promise<Error | undefined>
}

/**
 * Closes duplicate direct connections as they open (see above). Returns the function that
 * stops watching.
 */
export function keepOneDirectConnection(
  node: Pick<Libp2p, 'peerId' | 'getConnections' | 'addEventListener' | 'removeEventListener'>,
  logger: Logger,
  options: KeepOneOptions = {},
): () => void {
  const self = node.peerId.toString()
  const answers = options.answers ?? ((c: Connection) => connectionAnswers(c))
  /** Peers being settled now, and whether another connection opened meanwhile. */
  const settling = new Map<string, { again: boolean }>()
  let stopped = false

  const settle = async (remote: Connection['remotePeer']): Promise<void> => {
    const key = remote.toString()
    const running = settling.get(key)
    if (running !== undefined) {
      running.again = true
      return
    }
    const state = { again: false }
    settling.set(key, state)
    try {
      for (let round = 0; round < MAX_ROUNDS && !stopped; round++) {
        state.again = false
        const direct = node.getConnections(remote).filter(isDirect)
        // Nothing awaited since `again` was cleared: no newer connection can be pending here.
        if (direct.length < 2) return
        const keep = connectionToKeep(self, direct)!
        const silent = await answers(keep)
        if (silent !== undefined) {
          logger.debug(
            { peer: key, aborting: keep.direction, id: keep.id, err: silent },
            'the chosen direct connection does not answer',
          )
          keep.abort(new Error('a duplicate direct connection whose remote end does not answer'))
          continue
        }
        for (const extra of node.getConnections(remote).filter(isDirect)) {
          if (extra === keep) continue
          logger.debug(
            { peer: key, closing: extra.direction, keeping: keep.direction },
            'closing a duplicate direct connection',
          )
          extra.close({ signal: AbortSignal.timeout(CLOSE_TIMEOUT_MS) }).catch((err: unknown) => {
            extra.abort(err instanceof Error ? err : new Error(String(err)))
          })
        }
        if (!state.again) return
      }
    } finally {
      settling.delete(key)
    }
  }

  const onOpen = (event: CustomEvent<Connection>): void => {
    const opened = event.detail
    if (!isDirect(opened)) return
    if (node.getConnections(opened.remotePeer).filter(isDirect).length < 2) return
    settle(opened.remotePeer).catch((err: unknown) => logger.warn({ err }, 'settling direct connections failed'))
  }
  node.addEventListener('connection:open', onOpen)
  return () => {
    stopped = true
    node.removeEventListener('connection:open', onOpen)
  }
}
