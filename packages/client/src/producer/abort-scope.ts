/**
 * Per-operation abort signals under one long-lived signal. Each operation (a send, a batch's
 * attempts) gets its own controller, which the scope aborts when the parent aborts: the parent
 * carries one listener however many operations are under way. Passing the parent itself down to
 * every request instead put one listener per request in flight on it (Node warns past 10), and
 * AbortSignal.any keeps its sources referenced until the composite is collected.
 */
export class AbortScope {
  private readonly children = new Set<AbortController>()

  constructor(private readonly parent: AbortSignal) {
    parent.addEventListener(
      'abort',
      () => {
        for (const child of this.children) child.abort(parent.reason)
        this.children.clear()
      },
      { once: true },
    )
  }

  /**
   * Runs `operation` with a signal that aborts when the scope's parent or `extra` aborts; the
   * listener on `extra` is removed once the operation settles.
   */
  async run<T>(operation: (signal: AbortSignal) => Promise<T>, extra?: AbortSignal): Promise<T> {
    this.parent.throwIfAborted()
    extra?.throwIfAborted()
    const controller = new AbortController()
    const onExtraAbort = (): void => controller.abort(extra!.reason)
    this.children.add(controller)
    extra?.addEventListener('abort', onExtraAbort, { once: true })
    try {
      return await operation(controller.signal)
    } finally {
      this.children.delete(controller)
      extra?.removeEventListener('abort', onExtraAbort)
    }
  }
}
