/**
 * Retries follow KafkaJS's schedule: a randomized first wait, then each wait randomized and
 * multiplied, capped; retriable errors retry, others fail at once; the budget ends in
 * NumberOfRetriesExceededError. Fake timers: the waits are checked, not slept.
 */
import { NotLeaderOrFollowerError, OutOfOrderSequenceError } from '@tributary/wire'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { InvalidArgumentError, NumberOfRetriesExceededError } from '../src/errors.ts'
import { createRetrier, nextRetryTime, randomizedRetryTime, resolveRetryOptions } from '../src/retry.ts'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

/** Runs `attempt` under a retrier, recording the fake time of every attempt. */
async function timeline(options: Parameters<typeof createRetrier>[0], random: () => number, failures: Error[]) {
  const retry = createRetrier(options, random)
  const times: number[] = []
  const start = Date.now()
  const result = retry(async () => {
    times.push(Date.now() - start)
    const failure = failures.shift()
    if (failure !== undefined) throw failure
    return 'done'
  }).catch((err: unknown) => err)
  await vi.runAllTimersAsync()
  return { result: await result, times }
}

const retriable = () => new NotLeaderOrFollowerError('orders-0 is led by someone else')

describe('client > retry', () => {
  it('waits initialRetryTime, then multiplies each wait (no jitter when random is the midpoint)', async () => {
    const { result, times } = await timeline(
      { retries: 5, initialRetryTime: 100, factor: 0.2, multiplier: 2, maxRetryTime: 10_000 },
      () => 0.5,
      [retriable(), retriable(), retriable()],
    )
    expect(result).toBe('done')
    expect(times).toEqual([0, 100, 300, 700])
  })

  it('caps waits at maxRetryTime', async () => {
    const { times } = await timeline(
      { retries: 5, initialRetryTime: 100, factor: 0, multiplier: 10, maxRetryTime: 1500 },
      () => 0.5,
      [retriable(), retriable(), retriable(), retriable()],
    )
    expect(times).toEqual([0, 100, 1100, 2600, 4100])
  })

  it('jitters each wait within ± factor', () => {
    expect(randomizedRetryTime(0.2, 1000, () => 0)).toBe(800)
    expect(randomizedRetryTime(0.2, 1000, () => 0.999999)).toBe(1200)
    const options = resolveRetryOptions({ factor: 0.2, multiplier: 2, maxRetryTime: 30_000 })
    expect(nextRetryTime(options, 1000, () => 0)).toBe(1600)
    expect(nextRetryTime(options, 1000, () => 0.999999)).toBe(2400)
  })

  it('gives up after `retries` retries with NumberOfRetriesExceededError carrying the last error', async () => {
    const last = retriable()
    const { result, times } = await timeline({ retries: 2, initialRetryTime: 10, factor: 0 }, () => 0.5, [
      retriable(),
      retriable(),
      last,
    ])
    expect(times).toHaveLength(3)
    expect(result).toBeInstanceOf(NumberOfRetriesExceededError)
    const err = result as NumberOfRetriesExceededError
    expect(err.cause).toBe(last)
    expect(err.retryCount).toBe(2)
    expect(err.retriable).toBe(false)
    expect(err.code).toBe(last.code)
    expect(err.message).toContain('orders-0')
  })

  it('fails at once on errors that are not retriable', async () => {
    const fatal = new OutOfOrderSequenceError('orders-1: sequence 7, expected 5')
    const { result, times } = await timeline({ retries: 5 }, () => 0.5, [fatal])
    expect(result).toBe(fatal)
    expect(times).toEqual([0])
    const { result: typeError } = await timeline({ retries: 5 }, () => 0.5, [new TypeError('x is not a function')])
    expect(typeError).toBeInstanceOf(TypeError)
  })

  it('stops when the attempt bails', async () => {
    const retry = createRetrier({ retries: 5 })
    const reason = new Error('enough')
    let attempts = 0
    const result = retry(async (bail) => {
      attempts++
      bail(reason)
    }).catch((e: unknown) => e)
    await vi.runAllTimersAsync()
    expect(await result).toBe(reason)
    expect(attempts).toBe(1)
  })

  it('rejects with the signal reason when aborted during a wait', async () => {
    const retry = createRetrier({ retries: 5, initialRetryTime: 1000 })
    const controller = new AbortController()
    let attempts = 0
    const result = retry(
      async () => {
        attempts++
        throw retriable()
      },
      { signal: controller.signal },
    ).catch((e: unknown) => e)
    await vi.advanceTimersByTimeAsync(10)
    const reason = new Error('stopped')
    controller.abort(reason)
    expect(await result).toBe(reason)
    expect(attempts).toBe(1)
  })

  it('refuses nonsense settings with InvalidArgumentError', () => {
    expect(() => createRetrier({ retries: -1 })).toThrow(InvalidArgumentError)
    expect(() => createRetrier({ factor: 1.5 })).toThrow(InvalidArgumentError)
    expect(() => createRetrier({ multiplier: 0.5 })).toThrow(InvalidArgumentError)
  })
})
