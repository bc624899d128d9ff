/**
 * Retries with exponential backoff and jitter, with KafkaJS's semantics so its settings mean the
 * same here: the first wait is `initialRetryTime` ± `factor`, each next one the previous randomized
 * by ± `factor` then multiplied by `multiplier`, capped at `maxRetryTime`; after `retries` retries
 * the last error is wrapped in NumberOfRetriesExceededError. Errors with `retriable: false` (and
 * programming errors such as TypeError) fail at once; `bail(err)` stops from inside the attempt.
 */
import { InvalidArgumentError, NumberOfRetriesExceededError } from './errors.js'

export interface RetryOptions {
  /** Retries after the first attempt. Default 5. */
  retries?: number
  /** Milliseconds before the first retry (randomized by `factor`). Default 300. */
  initialRetryTime?: number
  /** Longest wait between attempts. Default 30,000. */
  maxRetryTime?: number
  /** Randomization: each wait is drawn from [t × (1 − factor), t × (1 + factor)]. Default 0.2. */
  factor?: number
  /** Growth of the wait per retry. Default 2. */
  multiplier?: number
}

export type ResolvedRetryOptions = Required<RetryOptions>

export const DEFAULT_RETRY: ResolvedRetryOptions = Object.freeze({
  retries: 5,
  initialRetryTime: 300,
  maxRetryTime: 30_000,
  factor: 0.2,
  multiplier: 2,
})

/** An attempt: `bail(err)` gives up with `err`; `retryCount` is 0 on the first attempt. */
export type Attempt<T> = (bail: (err: unknown) => never, retryCount: number, retryTime: number) => Promise<T>

export type Retrier = <T>(attempt: Attempt<T>, options?: { signal?: AbortSignal }) => Promise<T>

const PROGRAMMING_ERRORS = new Set(['TypeError', 'RangeError', 'ReferenceError', 'SyntaxError'])

export function isRetriable(err: unknown): boolean {
  if (!(err instanceof Error)) return false
  if (PROGRAMMING_ERRORS.has(err.name)) return false
  return (err as { retriable?: unknown }).retriable !== false
}

export function resolveRetryOptions(options: RetryOptions = {}): ResolvedRetryOptions {
  const resolved = { ...DEFAULT_RETRY, ...options }
  const check = (name: keyof RetryOptions, min: number) => {
    const v = resolved[name]
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min) {
      throw new InvalidArgumentError(`retry.${name} must be a number ≥ ${min}, got ${String(v)}`)
    }
  }
  check('retries', 0)
  check('initialRetryTime', 0)
  check('maxRetryTime', 0)
  check('factor', 0)
  check('multiplier', 1)
  if (resolved.factor >= 1) throw new InvalidArgumentError(`retry.factor must be below 1, got ${resolved.factor}`)
  if (!Number.isInteger(resolved.retries)) throw new InvalidArgumentError('retry.retries must be an integer')
  return resolved
}

/** `retryTime` ± `factor`, rounded up (KafkaJS's randomFromRetryTime). */
export function randomizedRetryTime(factor: number, retryTime: number, random = Math.random): number {
  const delta = factor * retryTime
  return Math.ceil(retryTime - delta + random() * 2 * delta)
}

/** The wait after one of `retryTime`: randomized, multiplied, capped. */
export function nextRetryTime(options: ResolvedRetryOptions, retryTime: number, random = Math.random): number {
  return Math.min(randomizedRetryTime(options.factor, retryTime, random) * options.multiplier, options.maxRetryTime)
}

class Bail {
  constructor(readonly error: unknown) {}
}

export function createRetrier(options: RetryOptions = {}, random: () => number = Math.random): Retrier {
  const config = resolveRetryOptions(options)
  return async <T>(attempt: Attempt<T>, { signal }: { signal?: AbortSignal } = {}): Promise<T> => {
    const bail = (err: unknown): never => {
      throw new Bail(err)
    }
    let retryTime = Math.min(randomizedRetryTime(config.factor, config.initialRetryTime, random), config.maxRetryTime)
    for (let retryCount = 0; ; retryCount++) {
      signal?.throwIfAborted()
      try {
        return await attempt(bail, retryCount, retryTime)
      } catch (err) {
        if (err instanceof Bail) throw err.error
        if (signal?.aborted) throw signal.reason
        if (!isRetriable(err)) throw err
        if (retryCount >= config.retries) throw new NumberOfRetriesExceededError(err, { retryCount, retryTime })
      }
      await sleep(retryTime, signal)
      retryTime = nextRetryTime(config, retryTime, random)
    }
  }
}

/** Resolves after `ms`; rejects with the signal's reason if it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason)
      return
    }
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/** `promise`, or the signal's reason once it aborts. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}
