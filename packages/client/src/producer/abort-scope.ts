/**
 * Per-operation abort signals under long-lived ones. Each operation (a send, a batch's attempts)
 * gets its own controller, linked to the producer's lifetime and to the caller's signal through
 * one shared listener per signal: however many operations are under way, a long-lived signal
 * carries one listener, removed once none is. Passing the long-lived signal down to every request
 * instead put one listener per request in flight on it (Node warns past 10: 13 with 5 batches in
 * flight on 3 partitions, or `perf produce` passing one signal to each of its sends), and
 * AbortSignal.any keeps its sources referenced until the composite is collected.
 */

interface Link {
  children: Set<AbortController>
  onAbort: () => void
}

const links = new WeakMap<AbortSignal, Link>()

/** Aborts `child` with `signal`'s reason when `signal` aborts; returns the unlink. */
function link(signal: AbortSignal, child: AbortController): () => void {
  let entry = links.get(signal)
  if (entry === undefined) {
    const children = new Set<AbortController>()
    const onAbort = (): void => {
      links.delete(signal)
      for (const c of children) c.abort(signal.reason)
      children.clear()
    }
    entry = { children, onAbort }
    links.set(signal, entry)
    signal.addEventListener('abort', onAbort, { once: true })
  }
  const current = entry
  current.children.add(child)
  return () => {
    if (!current.children.delete(child) || current.children.size > 0 || links.get(signal) !== current) return
    links.delete(signal)
    signal.removeEventListener('abort', current.onAbort)
  }
}

export class AbortScope {
  constructor(private readonly parent: AbortSignal) {}

  /** Runs `operation` with a signal that aborts when the scope's parent or `extra` aborts. */
  async run<T>(operation: (signal: AbortSignal) => Promise<T>, extra?: AbortSignal): Promise<T> {
    this.parent.throwIfAborted()
    extra?.throwIfAborted()
    const controller = new AbortController()
    const unlinkParent = link(this.parent, controller)
    const unlinkExtra = extra === undefined ? undefined : link(extra, controller)
    try {
      return await operation(controller.signal)
    } finally {
      unlinkParent()
      unlinkExtra?.()
    }
  }
}
