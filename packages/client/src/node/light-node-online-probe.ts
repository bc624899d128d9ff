/**
 * When the browser reports the network back (`online`), every open connection is pinged at once
 * with a short timeout and closed if it does not answer. After a network change the old
 * connections are usually dead without knowing it; the connection monitor (light-node.browser.ts)
 * finds that out too, but only at its next ping, up to an interval plus a timeout later, while a
 * request sent on them waits. Closing them fails their requests at once (retriable) and the next
 * request dials afresh. A connection that answers is kept.
 */
import type { Connection, Libp2p } from '@libp2p/interface'

/** The ping protocol Node peers serve (libp2p's, which the connection monitor uses too). */
const PING_PROTOCOL = '/ipfs/ping/1.0.0'
const PING_BYTES = 32
/** A live connection right after the network came back answers well within this. */
export const ONLINE_PROBE_TIMEOUT_MS = 3_000

/** Starts probing on the browser's `online` events; returns the stop. A no-op where there are none. */
export function probeConnectionsWhenOnline(node: Pick<Libp2p, 'getConnections'>): () => void {
  const scope = globalThis as { addEventListener?: unknown; removeEventListener?: unknown }
  if (typeof scope.addEventListener !== 'function' || typeof scope.removeEventListener !== 'function') {
    return () => {}
  }
  const lifetime = new AbortController()
  const onOnline = (): void => {
    for (const connection of node.getConnections()) {
      if (connection.status !== 'open') continue
      const signal = AbortSignal.any([lifetime.signal, AbortSignal.timeout(ONLINE_PROBE_TIMEOUT_MS)])
      void ping(connection, signal).then(
        () => {},
        (err: unknown) => {
          if (lifetime.signal.aborted || connection.status !== 'open') return
          connection.abort(err instanceof Error ? err : new Error(String(err)))
        },
      )
    }
  }
  const target = globalThis as unknown as EventTarget
  target.addEventListener('online', onOnline)
  return () => {
    lifetime.abort()
    target.removeEventListener('online', onOnline)
  }
}

/** One ping on `connection`: resolves when echoed (or the peer serves no ping, which proves it alive). */
async function ping(connection: Connection, signal: AbortSignal): Promise<void> {
  let stream: Awaited<ReturnType<Connection['newStream']>>
  try {
    stream = await connection.newStream(PING_PROTOCOL, { signal, runOnLimitedConnection: true })
  } catch (err) {
    // Negotiation got an answer: the connection works.
    if ((err as Error).name === 'UnsupportedProtocolError') return
    throw err
  }
  const onAbort = (): void => stream.abort(signal.reason as Error)
  signal.addEventListener('abort', onAbort, { once: true })
  try {
    stream.send(crypto.getRandomValues(new Uint8Array(PING_BYTES)))
    let received = 0
    // Bounded: ends at PING_BYTES echoed bytes, the stream's end, or the signal (which aborts it).
    for await (const chunk of stream) {
      received += chunk.byteLength
      if (received >= PING_BYTES) break
    }
    signal.throwIfAborted()
    if (received < PING_BYTES) throw new Error(`ping to ${connection.remotePeer.toString()} ended unanswered`)
    await stream.close({ signal }).catch(() => stream.abort(new Error('ping stream close failed')))
  } finally {
    signal.removeEventListener('abort', onAbort)
  }
}
