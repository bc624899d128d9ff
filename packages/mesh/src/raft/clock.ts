import { RequestTimedOutError } from '@tributary/wire'
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

/**
 * Runs `fn` with a signal that aborts when `signal` does or after `timeoutMs` on `clock`; the
 * timeout surfaces as a RequestTimedOutError.
 */
export async function withTimeout<T>(
  clock: RaftClock,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  what: string,
  fn: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController()
  const onAbort = (): void => controller.abort(signal?.reason)
  if (signal?.aborted) onAbort()
  else signal?.addEventListener('abort', onAbort, { once: true })
  let timedOut = false
  const timer = clock.setTimeout(() => {
    timedOut = true
    controller.abort(new RequestTimedOutError(`${what} timed out after ${timeoutMs} ms`))
  }, timeoutMs)
  try {
    return await new Promise<T>((resolve, reject) => {
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true })
      fn(controller.signal).then(resolve, reject)
    })
  } catch (err) {
    if (timedOut) throw controller.signal.reason
    throw err
  } finally {
    clock.clearTimeout(timer)
    signal?.removeEventListener('abort', onAbort)
  }
}
