/**
 * Runs tasks one at a time, in arrival order. A replica's state changes (inbound requests,
 * timer ticks, fetch results, appends) go through one of these so each sees the state the
 * previous one left; nothing holds it while waiting on the network.
 */
export class Serial {
  private tail: Promise<unknown> = Promise.resolve()
  private pending = 0

  run<T>(task: () => Promise<T> | T): Promise<T> {
    this.pending++
    const result = this.tail.then(task)
    this.tail = result.then(
      () => this.pending--,
      () => this.pending--,
    )
    return result
  }

  /** Tasks queued or running. */
  get size(): number {
    return this.pending
  }

  /** Resolves once everything queued so far has finished. */
  idle(): Promise<void> {
    return this.run(() => undefined)
  }
}
