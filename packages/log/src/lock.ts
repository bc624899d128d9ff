/**
 * A readers–writer lock. Appends and reads share it; operations that remove or replace stored
 * bytes (truncation, retention, a compacted segment's swap, close) take it exclusively, so a
 * read never sees a segment vanish under it. Waiters are served in arrival order, so a stream
 * of reads cannot starve a writer.
 */
export class ReadWriteLock {
  private readers = 0
  private writer = false
  private readonly queue: Array<{ exclusive: boolean; wake: () => void }> = []

  async shared<T>(fn: () => Promise<T>): Promise<T> {
    await this.acquire(false)
    try {
      return await fn()
    } finally {
      this.readers--
      this.drain()
    }
  }

  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    await this.acquire(true)
    try {
      return await fn()
    } finally {
      this.writer = false
      this.drain()
    }
  }

  private acquire(exclusive: boolean): Promise<void> {
    if (this.queue.length === 0 && this.canEnter(exclusive)) {
      this.enter(exclusive)
      return Promise.resolve()
    }
    return new Promise((resolve) => this.queue.push({ exclusive, wake: resolve }))
  }

  private canEnter(exclusive: boolean): boolean {
    return exclusive ? !this.writer && this.readers === 0 : !this.writer
  }

  private enter(exclusive: boolean): void {
    if (exclusive) this.writer = true
    else this.readers++
  }

  private drain(): void {
    while (this.queue.length > 0 && this.canEnter(this.queue[0]!.exclusive)) {
      const next = this.queue.shift()!
      this.enter(next.exclusive)
      next.wake()
    }
  }
}

/** Runs tasks one at a time in call order (mutations of one log). */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve()

  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn, fn)
    this.tail = result.catch(() => {})
    return result
  }
}
