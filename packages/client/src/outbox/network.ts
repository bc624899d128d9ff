/**
 * What the outbox knows of the network: the browser's own view (`navigator.onLine` and its
 * `online` / `offline` events, absent in Node) and which failures mean "out of reach" rather
 * than "refused".
 */
import { NetworkError, RequestTimedOutError } from '@tributary/wire'

/** Why a round stopped, or did not start, while the browser reports being offline. */
export class BrowserOfflineError extends NetworkError {
  static override name = 'BrowserOfflineError'
  constructor() {
    super('the browser is offline; delivery resumes when it is back online')
  }
}

/** The browser says it has no network (`navigator.onLine` false); elsewhere never. */
export function browserOffline(): boolean {
  return (globalThis as { navigator?: { onLine?: unknown } }).navigator?.onLine === false
}

/** Failures that mean the mesh is out of reach rather than refusing something. */
export function unreachable(error: Error): boolean {
  return (
    error instanceof NetworkError ||
    error instanceof RequestTimedOutError ||
    error.name === 'TimeoutError' ||
    error.name === 'AbortError'
  )
}

/** Listens to the browser's `online` and `offline` events where there are any; returns the unsubscribe. */
export function onBrowserNetwork(handlers: { online(): void; offline(error: BrowserOfflineError): void }): () => void {
  const scope = globalThis as { addEventListener?: unknown; removeEventListener?: unknown }
  if (typeof scope.addEventListener !== 'function' || typeof scope.removeEventListener !== 'function') {
    return () => {}
  }
  const target = globalThis as unknown as EventTarget
  const online = (): void => handlers.online()
  const offline = (): void => handlers.offline(new BrowserOfflineError())
  target.addEventListener('online', online)
  target.addEventListener('offline', offline)
  return () => {
    target.removeEventListener('online', online)
    target.removeEventListener('offline', offline)
  }
}
