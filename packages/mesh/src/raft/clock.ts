import type { RaftClock, TimerHandle } from './types.js'

/** Real time: `Date.now` and the platform timers (unref'd in Node so they never hold a process open). */
export const systemClock: RaftClock = {
  now: () => Date.now(),
  setTimeout(fn: () => void, ms: number): TimerHandle {
    const timer = setTimeout(fn, ms)
    ;(timer as { unref?: () => void }).unref?.()
    return timer
  },
  clearTimeout(handle: TimerHandle): void {
    clearTimeout(handle as ReturnType<typeof setTimeout>)
  },
}

/** Resolves after `ms` on `clock`, or rejects with the signal's reason once it aborts. */
export function sleep(clock: RaftClock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = (): void => {
      clock.clearTimeout(timer)
      reject(signal?.reason)
    }
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
